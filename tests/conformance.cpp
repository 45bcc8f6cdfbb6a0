// Conformance suite over ../shared (public fixtures and the reference row generator, rowgen.py).
// It runs whenever that folder exists and says plainly when it is skipped (exit 77, shown by ctest).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <sstream>

#include "process.hpp"
#include "sediment/rows.hpp"

using namespace sediment::rows;

namespace {

const std::string kShared = SEDIMENT_ROWS_SHARED_DIR;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

/// rowgen.py's output, generated now (never committed).
std::vector<std::string> rowgen(const std::string& args) {
    const auto r = test::run("python3 " + test::quote(kShared + "/tools/rowgen.py") + " " + args);
    REQUIRE(r.status == 0);
    return lines_of(r.out);
}

/// Decodes every line strictly, checks it with valijson, and re-encodes it in the sediment style.
void conforms(SchemaId schema, const std::vector<std::string>& sediment_lines, const std::vector<std::string>& utf8_lines) {
    REQUIRE(sediment_lines.size() == utf8_lines.size());
    std::size_t identical = 0;
    for (std::size_t i = 0; i < sediment_lines.size(); ++i) {
        std::string out;
        std::vector<Error> errors;
        INFO("line " << i + 1);
        REQUIRE(reencode(schema, sediment_lines[i], Style::sediment, out, errors));
        CHECK(validate(schema, sediment_lines[i]).empty());
        identical += out == sediment_lines[i];
        // the same documents written as UTF-8 encode to the same sediment bytes
        out.clear();
        REQUIRE(reencode(schema, utf8_lines[i], Style::sediment, out, errors));
        CHECK(out == sediment_lines[i]);
    }
    CHECK(identical == sediment_lines.size());
}

// Every place in a document, as JSON Pointers to values and to objects.
void places(const Json& j, const std::string& at, std::vector<std::string>& values, std::vector<std::string>& objects) {
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

}  // namespace

TEST_CASE("conformance: 1,000 generated rollout rows decode, validate and re-encode byte for byte") {
    conforms(SchemaId::nemo_gym_rollout_v2, rowgen("rows 1000 --seed 1 --sediment"), rowgen("rows 1000 --seed 1"));
}

TEST_CASE("conformance: generated parts decode, validate and re-encode byte for byte") {
    const std::pair<const char*, SchemaId> kinds[] = {
        {"response", SchemaId::nemo_gym_response_v2},
        {"create-params", SchemaId::nemo_gym_responses_create_params_v2},
        {"ci-outcome", SchemaId::ci_outcome_v1},
    };
    for (const auto& [kind, schema] : kinds) {
        INFO(kind);
        const std::string args = std::string("part ") + kind + " 1000 --seed 2";
        conforms(schema, rowgen(args + " --sediment"), rowgen(args));
    }
}

TEST_CASE("conformance: typed decoder and valijson agree on 2,000 mutated rows") {
    const auto rows = rowgen("rows 200 --seed 3 --scale 0.3");
    const std::string replacements[] = {"null", "1", "-1", "0", "3.5", "3.0", "\"x\"", "\"\"", "true", "[]", "{}",
                                        "9223372036854775808", "\"2026-02-30T00:00:00Z\"", "\"2026-03-01T00:00:00Z\"",
                                        "\"passed\"", "\"tool_call\"", "1e300"};
    std::mt19937 random(11);
    std::size_t invalid = 0, total = 0;
    for (const std::string& line : rows) {
        const Json doc = parse(line);
        std::vector<std::string> values, objects;
        places(doc, "", values, objects);
        for (int k = 0; k < 10; ++k) {
            Json changed = doc;
            const int kind = static_cast<int>(random() % 3);
            std::string text;
            if (kind == 0) {  // replace a value
                const std::string& p = values[random() % values.size()];
                changed[Json::json_pointer(p)] = parse(replacements[random() % std::size(replacements)]);
            } else if (kind == 1) {  // remove a member or element
                const Json::json_pointer p(values[random() % values.size()]);
                Json& parent = changed[p.parent_pointer()];
                if (parent.is_object()) parent.erase(p.back());
                else parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
            } else {  // add a key to an object
                changed[Json::json_pointer(objects[random() % objects.size()])]["zz_unknown"] = 1;
            }
            text = changed.dump();
            const auto typed = check(SchemaId::nemo_gym_rollout_v2, text);
            const auto schema = validate(SchemaId::nemo_gym_rollout_v2, text);
            INFO(text.substr(0, 400));
            INFO("typed: " << (typed.empty() ? "valid" : to_string(typed[0])));
            INFO("valijson: " << (schema.empty() ? "valid" : to_string(schema[0])));
            CHECK(typed.empty() == schema.empty());
            invalid += !typed.empty();
            ++total;
        }
    }
    CHECK(total == 2000);
    CHECK(invalid > 1000);  // the mutations mostly break rows, so the agreement is not on valid rows alone
}

int main(int argc, char** argv) {
    if (!std::filesystem::exists(kShared + "/tools/rowgen.py")) {
        std::cout << "conformance suite skipped: " << kShared << " (../shared) not found\n";
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
