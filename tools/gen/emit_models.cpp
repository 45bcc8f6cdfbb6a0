// schemas.hpp and models.hpp: SchemaId and the bundled schemas; the structs, enums and unions, their
// traits, and the unversioned names.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "emit_common.hpp"

namespace gen::cpp {

namespace {

// ----- schemas.hpp -------------------------------------------------------------------------------

}  // namespace

std::string emit_schemas(const Module& module) {
    std::vector<std::string> ids, infos;
    for (const SchemaDoc& s : module.schemas) {
        ids.push_back(schema_enumerator(s.name));
        const std::string base = s.version ? s.name.substr(0, s.name.rfind(".v")) : s.name;
        infos.push_back(fill("{SchemaId::$Id$, $Name$, $Uri$, $Root$, $Strict$, $Exact$, $Base$, $Version$, $Pointer$},",
                             {{"Id", schema_enumerator(s.name)},
                              {"Name", string_literal(s.name)},
                              {"Uri", string_literal(s.uri)},
                              {"Root", string_literal(s.root)},
                              {"Strict", s.strict_numbers ? "true" : "false"},
                              {"Exact", s.exact_decimals ? "true" : "false"},
                              {"Base", string_literal(base)},
                              {"Version", std::to_string(s.version)},
                              {"Pointer", string_literal(s.family.empty() ? "" : s.version_pointer)}}));
    }
    return fill(R"($Banner$#pragma once

#include <string_view>

namespace sediment::rows {

/// The bundled schemas.
enum class SchemaId : int { $Ids$ };

/// What the library knows of a bundled schema.
struct SchemaInfo {
    SchemaId id;                 ///< the schema's identifier in this library
    std::string_view name;       ///< "nemo-gym-rollout.v2": the CLI's --schema NAME
    std::string_view uri;        ///< the schema's $$id
    std::string_view root_type;  ///< the C++ model of a document's root ("NemoGymRolloutRowV4")
    bool strict_numbers;         ///< integers are JSON integers only, of any size (x-sediment-strict-numbers)
    bool exact_decimals;         ///< a decimal must be exactly the double it reads as (x-sediment-exact-decimals)
    std::string_view base;       ///< the name without its version: "nemo-gym-rollout"
    int version;                 ///< N of a ".vN" name; 0 for a name without one
    /// Where a document names its version ("/metadata/schema_id": the member whose const is the
    /// schema's $$id), for the schemas whose documents do; else empty.
    std::string_view version_pointer;
};

/// Every bundled schema, in bundle order.
inline constexpr SchemaInfo kSchemas[] = {
$Infos$
};

}  // namespace sediment::rows
)",
                {{"Banner", banner(module)}, {"Ids", join(ids, ", ")}, {"Infos", indent(join(infos, "\n"), 4)}});
}

namespace {

// ----- models.hpp --------------------------------------------------------------------------------

std::string emit_enum(const Enum& e, std::vector<Problem>& problems) {
    std::vector<std::string> enumerators, names;
    std::set<std::string> seen;
    for (const std::string& v : e.values) {
        const std::string id = identifier(v);
        if (!seen.insert(id).second) problems.push_back({e.name, "values '" + v + "' and another share the C++ name " + id});
        enumerators.push_back(id);
        names.push_back(string_literal(v));
    }
    // Values that some schemas using the enum do not allow.
    std::string restrictions;
    for (std::size_t i = 0; i < e.values.size(); ++i) {
        if (e.value_schemas[i].empty()) continue;
        std::vector<std::string> others;
        for (const std::string& schema : e.schemas)
            if (!std::count(e.value_schemas[i].begin(), e.value_schemas[i].end(), schema))
                others.push_back("s != SchemaId::" + schema_enumerator(schema));
        restrictions += fill("        if (v == $Name$::$Value$) return $Test$;\n",
                             {{"Name", e.name}, {"Value", enumerators[i]}, {"Test", join(others, " && ")}});
    }
    if (!restrictions.empty())
        restrictions = fill(R"(    /// Whether schema `s` allows `v` (the enum has the values of every schema).
    static constexpr bool in_schema($Name$ v, [[maybe_unused]] SchemaId s) {
$Tests$        return true;
    }
)",
                            {{"Name", e.name}, {"Tests", restrictions}});
    return fill(R"($Doc$enum class $Name$ { $Enumerators$ };
/// The JSON spelling of each $Name$, in declaration order.
template <>
struct enum_traits<$Name$> {
    static constexpr std::string_view names[] = {$Names$};  ///< indexed by the enumerator's value
$Restrictions$};

)",
                {{"Doc", doc_comment(e.description.empty() ? "The values of `" + e.name + "`." : e.description, 0)},
                 {"Name", e.name},
                 {"Enumerators", join(enumerators, ", ")},
                 {"Names", join(names, ", ")},
                 {"Restrictions", restrictions}});
}

// What a field's comment says when the schema gives no description: its JSON member and presence.
std::string field_fallback(const Field& f) {
    return "`" + f.json_name + "`: " + (f.required ? "required" : "optional") + (f.nullable ? ", may be null." : ".");
}

// The schema whose document root `m` is, or nullptr for a model of `$defs`.
const SchemaDoc* root_schema(const Module& module, const Model& m) {
    for (const SchemaDoc& s : module.schemas)
        if (s.root == m.name) return &s;
    return nullptr;
}

// What a model's comment says when the schema gives no description: the document it is the root of, or
// the definition it comes from.
std::string model_fallback(const Module& module, const Model& m) {
    if (const SchemaDoc* root = root_schema(module, m)) return "A whole " + root->name + " document.";
    return "The object `$defs/" + m.json_name + "` of " + join(m.schemas, ", ") + ".";
}

std::string emit_struct(const Module& module, const Model& m, std::vector<Problem>& problems) {
    std::string members;
    std::vector<std::string> compares;
    std::set<std::string> seen;
    for (const Field& f : m.fields) {
        const std::string name = identifier(f.json_name);
        if (!seen.insert(name).second)
            problems.push_back({m.origin, "properties of " + m.name + " share the C++ member name " + name});
        members += doc_comment(f.description.empty() ? field_fallback(f) : f.description, 4);
        if (f.constant) {
            members += f.constant->is_string
                           ? fill("    static constexpr std::string_view $Name$ = $Value$;\n",
                                  {{"Name", name}, {"Value", string_literal(f.constant->text)}})
                           : fill("    static constexpr std::int64_t $Name$ = $Value$;\n",
                                  {{"Name", name}, {"Value", integer_literal(f.constant->integer)}});
            continue;
        }
        std::string init;
        if (f.required && !f.nullable) {
            switch (f.type.kind) {
                case TypeRef::Kind::integer: {
                    // an integer enum starts at its first value
                    const auto one_of = std::find_if(f.rules.begin(), f.rules.end(), [](const Rule& r) { return r.kind == Rule::Kind::one_of; });
                    init = " = " + (one_of == f.rules.end() ? std::string("0") : integer_literal(one_of->numbers.front()));
                    break;
                }
                case TypeRef::Kind::boolean: init = " = false"; break;
                case TypeRef::Kind::enumeration: init = "{}"; break;
                case TypeRef::Kind::object_any: init = " = Json::object()"; break;
                default: break;
            }
        }
        members += fill("    $Type$ $Name$$Init$;\n", {{"Type", field_type(f)}, {"Name", name}, {"Init", init}});
        compares.push_back(fill("a.$Name$ == b.$Name$", {{"Name", name}}));
    }
    return fill(R"($Doc$struct $Name$ {
    using sediment_model = void;  ///< Marks a generated model (see is_model).
$Members$};

inline bool operator==(const $Name$& a, const $Name$& b) {
    return $Compares$;
}
inline bool operator!=(const $Name$& a, const $Name$& b) { return !(a == b); }

)",
                {{"Doc", doc_comment(m.description.empty() ? model_fallback(module, m) : m.description, 0)},
                 {"Name", m.name},
                 {"Members", members},
                 {"Compares", compares.empty() ? "true" : join(compares, " &&\n           ")}});
}

std::string emit_union(const Variant& v) {
    std::string doc;
    if (v.by_keys)
        doc = "/// One of " + join(v.models, ", ") + ", selected by the object's keys" +
              (v.selector.empty() ? "" : " and `" + v.selector + "`") + " (the first whose keys, in order, it has).\n";
    else if (!v.tag.empty())
        doc = "/// One of " + join(v.models, ", ") + ", told apart by `" + v.tag + "`.\n";
    else
        doc = doc_comment(v.description.empty() ? "One of " + join(union_types(v), ", ") + ", told apart by their JSON type."
                                                : v.description,
                          0);
    return fill("$Doc$using $Name$ = std::variant<$Types$>;\n\n",
                {{"Doc", doc}, {"Name", v.name}, {"Types", join(union_types(v), ", ")}});
}

}  // namespace

std::string emit_models(const Module& module, std::vector<Problem>& problems) {
    std::string body;
    for (const Enum& e : module.enums) body += emit_enum(e, problems);
    // A union follows the last model it names.
    in_emission_order(
        module, [&](const Model& m) { body += emit_struct(module, m, problems); }, [&](const Variant& v) { body += emit_union(v); });

    // The schema whose rules apply when a model is decoded on its own: the newest version of its
    // owner that has it (Model::default_schema).
    std::string traits;
    for (const Model& m : module.models)
        traits += fill(R"(/// $Name$ is decoded on its own under the rules of $SchemaName$.
template <>
struct document_traits<$Name$> {
    static constexpr SchemaId schema = SchemaId::$Schema$;  ///< the schema whose rules apply
    static constexpr std::string_view name = "$Name$";      ///< the model's name, for messages
};
)",
                       {{"Name", m.name}, {"Schema", schema_enumerator(m.default_schema)}, {"SchemaName", m.default_schema}});
    // The unversioned names: the version Sediment writes today (docs/naming.md).
    std::string aliases;
    for (const Alias& a : module.aliases) {
        const Model* m = module.find_model(a.type);
        aliases += fill("/// $Name$ as $Owner$ has it today: $Type$.\nusing $Name$ = $Type$;\n",
                        {{"Name", a.name}, {"Type", a.type}, {"Owner", m ? m->owner : a.type}});
    }
    std::string visits;
    for (const SchemaDoc& s : module.schemas)
        visits += fill("        case SchemaId::$Id$: return f(type_tag<$Root$>{});\n",
                       {{"Id", schema_enumerator(s.name)}, {"Root", s.root}});
    std::string unions;
    for (const Variant& v : module.variants) unions += fill(" \\\n    X($Name$)", {{"Name", v.name}});
    std::string printers, list;
    for (const Model& m : module.models) {
        printers += fill("/// Writes `value` as compact JSON (see preview() for a bounded form).\n"
                         "std::ostream& operator<<(std::ostream& os, const $Name$& value);\n",
                         {{"Name", m.name}});
        list += fill(" \\\n    X($Name$)", {{"Name", m.name}});
    }

    return fill(R"($Banner$#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sediment/rows/value.hpp"
#include "schemas.hpp"

namespace sediment::rows {

$Body$// ----- schemas and documents ----------------------------------------------------------------------

$Traits$
// ----- the unversioned names: the version Sediment writes today (docs/naming.md) ----------------

$Aliases$
// Printers: a model's compact JSON, all of it (defined in the library; see print.hpp for preview()).
$Printers$
/// Every model type: SEDIMENT_ROWS_MODELS(X) expands to X(Model) for each.
#define SEDIMENT_ROWS_MODELS(X)$List$

/// Every union type: SEDIMENT_ROWS_UNIONS(X) expands to X(Union) for each.
#define SEDIMENT_ROWS_UNIONS(X)$Unions$

/// Calls `f(type_tag<Root>{})` with the C++ model of the schema's document root.
template <class F>
decltype(auto) visit_schema(SchemaId id, F&& f) {
    switch (id) {
$Visits$    }
    throw std::invalid_argument("unknown SchemaId");
}

}  // namespace sediment::rows
)",
                {{"Banner", banner(module)},
                 {"Body", body},
                 {"Traits", traits},
                 {"Aliases", aliases},
                 {"Printers", printers},
                 {"List", list},
                 {"Unions", unions},
                 {"Visits", visits}});
}

}  // namespace gen::cpp
