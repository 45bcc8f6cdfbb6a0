// read.hpp and write.hpp: the exact readers (over a DOM, every error at its pointer) and the writers.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "emit_common.hpp"

namespace gen::cpp {

namespace {

std::string emit_model_reader(const Model& m) {
    std::vector<std::string> names;
    for (const Field& f : m.fields) names.push_back(string_literal(f.json_name));
    const KeyChain chain = key_chain(m, "if (key == $Key$) {\n    seen |= $Bit$;\n    auto at = d.at(key);\n",
                                     [&](const Field& f) { return read_member(m, f); });
    return fill(R"(template <class J>
bool read(Decoder& d, const J& j, $Name$& out) {
    if (!d.expect_object(j)) return false;
    const std::size_t errors = d.error_count();
    std::uint64_t seen = 0;
    for (const auto& [key, value] : j.template get_ref<const typename J::object_t&>()) {
$Members$            d.unknown_key(key);
        }
    }
    static constexpr const char* kKeys[] = {$Names$};
    d.require(seen, $Required$, kKeys);
$Resets$    return d.error_count() == errors$Rules$;
}

)",
                {{"Name", m.name},
                 {"Resets", indent(absent_resets(m), 4)},
                 {"Rules", m.checked_by_code.empty() ? "" : " && check_rules(d, out)"},
                 {"Members", indent(chain.members, 8)},
                 {"Names", join(names, ", ")},
                 {"Required", chain.required}});
}

std::string emit_untagged_reader(const Variant& v) {
    std::string branches;
    std::vector<std::string> names;
    for (const TypeRef& t : v.types) {
        branches += fill("    if ($Test$) return read(d, j, out.template emplace<$Type$>());\n",
                         {{"Test", json_type(t).test}, {"Type", cpp_type(t)}});
        names.push_back(json_type(t).name);
    }
    return fill(R"(/// Reads the branch that the value's JSON type selects.
template <class J>
bool read(Decoder& d, const J& j, $Name$& out) {
$Branches$    return d.expect(j, false, $Expected$);
}

)",
                {{"Name", v.name}, {"Branches", branches}, {"Expected", string_literal(join(names, " or "))}});
}

// A union selected by keys: its branches' tables (detail::KeyedBranch, shared with the fast path:
// read.hpp), and a reader of the branch select_branch() chooses (read_impl.hpp).
struct KeyedReader {
    std::string tables, reader;
};

KeyedReader emit_keyed_reader(const Module& module, const Variant& v) {
    std::string tables, branches, cases;
    for (std::size_t i = 0; i < v.models.size(); ++i) {
        const Model& m = *module.find_model(v.models[i]);
        std::vector<std::string> keys, values;
        std::uint64_t required = 0;
        for (std::size_t k = 0; k < m.fields.size(); ++k) {
            const Field& f = m.fields[k];
            keys.push_back(string_literal(f.json_name));
            if (f.required) required |= std::uint64_t{1} << k;
            if (f.json_name != v.selector) continue;
            if (f.constant) values.push_back(string_literal(f.constant->text));
            for (const Enum& e : module.enums)
                if (f.type.kind == TypeRef::Kind::enumeration && e.name == f.type.name)
                    for (const std::string& value : e.values) values.push_back(string_literal(value));
        }
        std::ostringstream mask;
        mask << "0x" << std::hex << required;
        const Vars vars = {{"Name", v.name}, {"I", std::to_string(i)}, {"Keys", join(keys, ", ")}, {"Values", join(values, ", ")},
                           {"KeyCount", std::to_string(keys.size())}, {"Required", mask.str()},
                           {"ValueCount", std::to_string(values.size())}, {"Model", m.name}};
        tables += fill("inline constexpr std::string_view k$Name$Keys$I$[] = {$Keys$};\n", vars);
        if (!values.empty()) tables += fill("inline constexpr std::string_view k$Name$Selector$I$[] = {$Values$};\n", vars);
        branches += fill(values.empty() ? "    {k$Name$Keys$I$, $KeyCount$, $Required$, nullptr, 0},\n"
                                        : "    {k$Name$Keys$I$, $KeyCount$, $Required$, k$Name$Selector$I$, $ValueCount$},\n",
                         vars);
        cases += fill("        case $I$: return read(d, j, out.template emplace<$Model$>());\n", vars);
    }
    const Vars vars = {{"Name", v.name}, {"Tables", tables}, {"Branches", branches}, {"Cases", cases},
                       {"Selector", v.selector.empty() ? "nullptr" : string_literal(v.selector)}};
    return {fill(R"(/// The branches of $Name$, for select_branch() and the fast path.
$Tables$inline constexpr KeyedBranch k$Name$Branches[] = {
$Branches$};

)",
                 vars),
            fill(R"(/// Reads the branch that the object's keys select (choose_branch), so that a bad $Name$ reports the
/// errors of the branch closest to it.
template <class J>
bool read(Decoder& d, const J& j, $Name$& out) {
    switch (d.select_branch(j, $Selector$, k$Name$Branches)) {
$Cases$        default: return false;
    }
}

)",
                 vars)};
}

std::string emit_variant_reader(const Module& module, const Variant& v) {
    if (v.by_keys) return emit_keyed_reader(module, v).reader;
    if (v.tag.empty()) return emit_untagged_reader(v);
    std::vector<std::string> tags;
    std::string cases;
    for (std::size_t i = 0; i < v.models.size(); ++i) {
        tags.push_back(v.models[i] + "::" + identifier(v.tag));
        cases += fill("        case $I$: return read(d, j, out.emplace<$Model$>());\n",
                      {{"I", std::to_string(i)}, {"Model", v.models[i]}});
    }
    return fill(R"(/// Reads the branch that `$Tag$` names, so that a bad $Name$ reports that branch's errors.
template <class J>
bool read(Decoder& d, const J& j, $Name$& out) {
    static constexpr std::string_view kTags[] = {$Tags$};
    switch (d.read_tag(j, $TagLiteral$, kTags)) {
$Cases$        default: return false;
    }
}

)",
                {{"Name", v.name},
                 {"Tag", v.tag},
                 {"TagLiteral", string_literal(v.tag)},
                 {"Tags", join(tags, ", ")},
                 {"Cases", cases}});
}

}  // namespace

std::string emit_readers(const Module& module) {
    // Untagged unions read their branches by overload, so every reader is declared first; so are
    // the hand-written rules (defined in the library's sources).
    std::string declarations;
    for (const Model& m : module.models)
        if (!m.checked_by_code.empty())
            declarations += fill("/// $Name$: $Rules$.\nbool check_rules(Decoder& d, const $Name$& value);\n",
                                 {{"Name", m.name}, {"Rules", m.checked_by_code}});
    for (const Model& m : module.models)
        declarations += fill("template <class J>\nbool read(Decoder& d, const J& j, $Name$& out);\n", {{"Name", m.name}});
    for (const Variant& v : module.variants)
        declarations += fill("template <class J>\nbool read(Decoder& d, const J& j, $Name$& out);\n", {{"Name", v.name}});
    std::string body = declarations + "\n";
    for (const std::string& root : fast_roots(module))
        body += fill(R"(/// The fast path of decode() for $Root$ documents (src/fast.cpp, over simdjson): true when `text` is a
/// valid document, read into `out`; false sends it to the exact reader, which gives the verdict. `padded`:
/// kTextPadding readable bytes follow `text`, which is parsed where it is.
bool fast_decode(std::string_view text, $Root$& out, const Limits& limits, SchemaId schema, bool padded = false);
/// The same verdict as fast_decode() for $Root$ documents, building no value (check()); `padded`: kTextPadding
/// readable bytes follow `text`, which is parsed where it is.
bool fast_check(std::string_view text, type_tag<$Root$>, const Limits& limits, SchemaId schema, bool padded = false);
)",
                     {{"Root", root}});
    body += "\n";
    for (const Variant& v : module.variants)
        if (v.by_keys) body += emit_keyed_reader(module, v).tables;
    return fill(R"($Banner$// The exact readers, declared: read_impl.hpp defines them, and the library instantiates them once
// for each DOM it reads (src/models/read_*.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "detail/decoder.hpp"
#include "sediment/rows/generated/models.hpp"

namespace sediment::rows::detail {

$Body$}  // namespace sediment::rows::detail
)",
                {{"Banner", banner(module)}, {"Body", body}});
}

std::string emit_reader_definitions(const Module& module) {
    std::string body;
    in_emission_order(
        module, [&](const Model& m) { body += emit_model_reader(m); },
        [&](const Variant& v) { body += emit_variant_reader(module, v); });
    return fill(R"($Banner$// The exact readers (read.hpp declares them). Only the sources that instantiate them include this
// header (src/models/read_*.cpp): every other translation unit calls those instances.
#pragma once

#include "read.hpp"

namespace sediment::rows::detail {

$Body$}  // namespace sediment::rows::detail
)",
                {{"Banner", banner(module)}, {"Body", body}});
}

namespace {

// ----- write.hpp ---------------------------------------------------------------------------------

std::string emit_model_writer(const Model& m) {
    std::string members;
    for (const Field& f : m.fields) {
        const std::string name = identifier(f.json_name);
        // A key no style escapes is written as a constant (Writer::plain_key).
        const bool plain = std::all_of(f.json_name.begin(), f.json_name.end(),
                                       [](char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; });
        const Vars vars = {{"Key", fill(plain ? "w.plain_key($K$);" : "w.key($K$);", {{"K", string_literal(f.json_name)}})},
                           {"Name", name},
                           {"Model", m.name}};
        if (f.constant)
            members += fill(f.constant->is_string ? "$Key$\nw.string($Model$::$Name$);\n"
                                                  : "$Key$\nw.integer($Model$::$Name$);\n",
                            vars);
        else if (!f.required)
            members += fill("if (v.$Name$) {\n    $Key$\n    write(w, *v.$Name$);\n}\n", vars);
        else
            members += fill("$Key$\nwrite(w, v.$Name$);\n", vars);
    }
    return fill(R"(inline void write(Writer& w, const $Name$& v) {
    w.begin_object();
$Members$    w.end_object();
}

)",
                {{"Name", m.name}, {"Members", indent(members, 4)}});
}

}  // namespace

std::string emit_writers(const Module& module) {
    std::string body;
    for (const Model& m : module.models) body += fill("inline void write(Writer& w, const $Name$& v);\n", {{"Name", m.name}});
    body += "\n";
    in_emission_order(
        module, [&](const Model& m) { body += emit_model_writer(m); },
        [&](const Variant& v) {
            body += fill(R"(inline void write(Writer& w, const $Name$& v) {
    std::visit([&w](const auto& branch) { write(w, branch); }, v);
}

)",
                         {{"Name", v.name}});
        });
    return fill(R"($Banner$#pragma once

#include <variant>

#include "detail/writer.hpp"
#include "sediment/rows/generated/models.hpp"

namespace sediment::rows::detail {

$Body$}  // namespace sediment::rows::detail
)",
                {{"Banner", banner(module)}, {"Body", body}});
}

}  // namespace gen::cpp
