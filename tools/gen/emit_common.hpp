// The C++ emitter's parts (tools/gen/emit_*.cpp): what every generated file uses (the names and
// literals, the rules' checks, the key chains of the readers), and one function per generated file.
#pragma once

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ir.hpp"
#include "template.hpp"

namespace gen::cpp {

// ----- the JSON type a value must have --------------------------------------------------------

struct JsonType {
    const char* test;       // on a nlohmann DOM value `j`
    const char* fast_test;  // on a simdjson DOM element `e`
    const char* name;
};

// ----- emit_common.cpp ---------------------------------------------------------------------------

/// A JSON name as a C++ identifier: other characters become `_`, keywords get a trailing `_`.
std::string identifier(const std::string& json_name);
std::string schema_enumerator(const std::string& schema_name);
std::string string_literal(const std::string& s);
std::string integer_literal(std::int64_t v);
std::string cpp_type(const TypeRef& t);
std::string field_type(const Field& f);
/// `/// text` lines, wrapped near 110 columns.
std::string doc_comment(const std::string& text, int indent_by);
std::string join(const std::vector<std::string>& items, const std::string& sep);
std::string banner(const Module& module);
std::set<std::string> union_models(const Variant& v);
std::vector<std::string> union_types(const Variant& v);
std::string schema_condition(const Rule& r);
std::string rule_check(const Rule& r, const std::string& value);
std::string member_checks(const Field& f, const std::string& out, std::string& presence);
std::string read_member(const Model& m, const Field& f);
std::string absent_resets(const Model& m);
JsonType json_type(const TypeRef& t);
std::vector<std::string> fast_roots(const Module& module);

// ----- what the readers share ------------------------------------------------------------------

// Calls `each(union)` for every union once the models it names are emitted, in emission order,
// around `model(m)` for every model.
template <class OnModel, class OnUnion>
void in_emission_order(const Module& module, OnModel model, OnUnion each) {
    std::set<std::string> models, unions;
    const auto ready = [&] {
        for (const Variant& v : module.variants) {
            if (unions.count(v.name)) continue;
            bool all = true;
            for (const std::string& m : union_models(v)) all = all && models.count(m);
            if (!all) continue;
            each(v);
            unions.insert(v.name);
        }
    };
    ready();
    for (const Model& m : module.models) {
        model(m);
        models.insert(m.name);
        ready();
    }
}

// The chain of branches, one per field, that a model reader runs for each key: `branch` opens one
// ($Key$ and $Bit$ filled in), `read` gives its statements, and the chain ends with the `} else {` that
// takes unknown keys. Also the mask of the required fields' bits.
struct KeyChain {
    std::string members;
    std::string required;  // "0x..."
};

template <class Read>
KeyChain key_chain(const Model& m, const std::string& branch, Read read) {
    KeyChain chain;
    std::uint64_t required = 0;
    for (std::size_t i = 0; i < m.fields.size(); ++i) {
        const Field& f = m.fields[i];
        if (f.required) required |= std::uint64_t{1} << i;
        chain.members += (i ? "} else " : "") +
                         fill(branch, {{"Key", string_literal(f.json_name)}, {"Bit", "std::uint64_t{1} << " + std::to_string(i)}}) +
                         indent(read(f), 4);
    }
    chain.members += m.fields.empty() ? "{\n" : "} else {\n";
    std::ostringstream mask;
    mask << "0x" << std::hex << required;
    chain.required = mask.str();
    return chain;
}

// The JSON type that selects a branch of an untagged union: its test and its name in messages.

// ----- one function per generated file ---------------------------------------------------------

std::string emit_schemas(const Module& module);                                  ///< emit_models.cpp
std::string emit_models(const Module& module, std::vector<Problem>& problems);    ///< emit_models.cpp
std::string emit_readers(const Module& module);                                  ///< emit_read_write.cpp
std::string emit_reader_definitions(const Module& module);                       ///< emit_read_write.cpp
std::string emit_writers(const Module& module);                                  ///< emit_read_write.cpp
std::string emit_fast_readers(const Module& module);                             ///< emit_fast.cpp
std::string emit_token_readers(const Module& module);                            ///< emit_tokens.cpp
std::string emit_views(const Module& module);                                    ///< emit_fast.cpp

}  // namespace gen::cpp
