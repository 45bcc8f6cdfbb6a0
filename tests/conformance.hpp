// What the conformance suite's files share (conformance.cpp, conformance_atif.cpp): ../shared's
// place, rowgen.py's rows, and the checks every generated document gets.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "differential.hpp"
#include "process.hpp"
#include "sediment/rows.hpp"
#include "support.hpp"

namespace conformance {

using namespace sediment::rows;

inline const std::string kShared = SEDIMENT_ROWS_SHARED_DIR;
inline const std::string kSource = SEDIMENT_ROWS_SOURCE_DIR;

inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

/// How many of `n` generated documents a test checks: all of them, unless SEDIMENT_ROWS_CONFORMANCE_SHARE
/// (a number in (0, 1]) says a share. CI's suite under the sanitizers checks a tenth of the largest
/// samples, every check kept (the plain suite checks all of them); at least 1.
inline std::size_t sample(std::size_t n) {
    static const double share = [] {
        const char* text = std::getenv("SEDIMENT_ROWS_CONFORMANCE_SHARE");
        const double s = text ? std::atof(text) : 1.0;
        return s > 0 && s <= 1 ? s : 1.0;
    }();
    return std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(n) * share + 0.5));
}

/// rowgen.py's output, generated now (never committed).
inline std::vector<std::string> rowgen(const std::string& args) {
    const auto r = test::run(test::kPython + " " + test::quote(kShared + "/tools/rowgen.py") + " " + args);
    REQUIRE(r.status == 0);
    return lines_of(r.out);
}

/// Decodes every line strictly, checks it with valijson, and re-encodes it in the sediment style.
inline void conforms(SchemaId schema, const std::vector<std::string>& sediment_lines, const std::vector<std::string>& utf8_lines) {
    REQUIRE(sediment_lines.size() == utf8_lines.size());
    std::size_t identical = 0;
    for (std::size_t i = 0; i < sediment_lines.size(); ++i) {
        std::string out;
        INFO("line " << i + 1);
        REQUIRE(format(schema, sediment_lines[i], Style::sediment, out).valid());
        CHECK(validate(schema, sediment_lines[i], Engine::schema).errors.empty());
        identical += out == sediment_lines[i];
        // the same documents written as UTF-8 encode to the same sediment bytes
        out.clear();
        REQUIRE(format(schema, utf8_lines[i], Style::sediment, out).valid());
        CHECK(out == sediment_lines[i]);
        // and the compact style holds the same document: it comes back to the same sediment bytes
        std::string compact, again;
        REQUIRE(format(schema, sediment_lines[i], Style::compact, compact).valid());
        CHECK(compact.size() < sediment_lines[i].size());
        REQUIRE(format(schema, compact, Style::sediment, again).valid());
        CHECK(again == sediment_lines[i]);
    }
    CHECK(identical == sediment_lines.size());
}

// Every place in a document, as JSON Pointers to values and to objects.
inline void places(const Json& j, const std::string& at, std::vector<std::string>& values, std::vector<std::string>& objects) {
    if (j.is_object()) {
        objects.push_back(at);
        for (const auto& [k, v] : j.get_ref<const Json::object_t&>()) {
            std::string p = at;
            detail::append_pointer_token(p, k);
            values.push_back(p);
            places(v, p, values, objects);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            values.push_back(at + "/" + std::to_string(i));
            places(j[i], at + "/" + std::to_string(i), values, objects);
        }
    }
}

/// One random change to `doc`: a value replaced by one of `replacements`, a member or element removed,
/// or an unknown key added to an object.
inline Json mutated(const Json& doc, std::mt19937& random, const std::vector<std::string>& replacements) {
    std::vector<std::string> values, objects;
    places(doc, "", values, objects);
    Json changed = doc;
    const int kind = static_cast<int>(random() % 3);
    if (kind == 0) {
        const std::string& p = values[random() % values.size()];
        changed[Json::json_pointer(p)] = parse(replacements[random() % replacements.size()]);
    } else if (kind == 1) {
        const Json::json_pointer p(values[random() % values.size()]);
        Json& parent = changed[p.parent_pointer()];
        if (parent.is_object()) parent.erase(p.back());
        else parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
    } else {
        changed[Json::json_pointer(objects[random() % objects.size()])]["zz_unknown"] = 1;
    }
    return changed;
}

}  // namespace conformance
