// fast_read.hpp and views.hpp: the fast readers over simdjson, into models or their views, and the
// check-only readers (those over stage 1's tokens alone: emit_tokens.cpp).
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <sstream>

#include "emit_common.hpp"
#include "emit_fast.hpp"

namespace gen::cpp {

// ----- fast_read.hpp -----------------------------------------------------------------------------
// The fast path: the same models read from a simdjson DOM. A reader answers only "valid, and here is
// the value" or "ask the exact reader": it returns false at the first thing it does not accept, and
// the exact reader (read.hpp) then gives the verdict and the errors. Rules run through the same
// Decoder checks; any error they record also sends the document to the exact reader.

// ----- views.hpp: the view models --------------------------------------------------------------------
// The models that hand-written rules read (check_rules), and what they hold, as the check-only fast
// path reads them: strings as views into the parser's buffer, free-form values left where they are
// (view::JsonView), everything else as in the model. The same generated fast readers fill them.

// The C++ type of a value in a view model (`in_view`) or in a model.
std::string value_type(const TypeRef& t, bool in_view) {
    if (!in_view) return cpp_type(t);
    switch (t.kind) {
        case TypeRef::Kind::string: return "std::string_view";
        case TypeRef::Kind::any:
        case TypeRef::Kind::object_any: return "JsonView";
        case TypeRef::Kind::array: return "std::vector<" + value_type(*t.item, true) + ">";
        case TypeRef::Kind::model:
        case TypeRef::Kind::variant: return "view::" + t.name;
        default: return cpp_type(t);
    }
}

// The models and unions that `todo` names, and all they hold.
std::set<std::string> reachable(const Module& module, std::vector<std::string> todo) {
    std::set<std::string> out;
    const auto add_type = [&](const TypeRef& t, const auto& self) -> void {
        if (t.item) self(*t.item, self);
        if ((t.kind == TypeRef::Kind::model || t.kind == TypeRef::Kind::variant) && !out.count(t.name)) todo.push_back(t.name);
    };
    while (!todo.empty()) {
        const std::string name = todo.back();
        todo.pop_back();
        if (!out.insert(name).second) continue;
        if (const Model* m = module.find_model(name)) {
            for (const Field& f : m->fields) add_type(f.type, add_type);
            continue;
        }
        for (const Variant& v : module.variants) {
            if (v.name != name) continue;
            for (const std::string& model : v.models) todo.push_back(model);
            for (const TypeRef& t : v.types) add_type(t, add_type);
        }
    }
    return out;
}

// The models and unions that have view models: those with hand-written rules (but for rules that read
// the model itself: rules_read_values), the rows lint reads (src/lint.cpp: the roots of the schemas
// whose documents name their version), and all they hold.
std::set<std::string> view_types(const Module& module) {
    std::vector<std::string> todo;
    for (const Model& m : module.models)
        if (!m.checked_by_code.empty() && !m.rules_read_values) todo.push_back(m.name);
    for (const SchemaDoc& s : module.schemas)
        if (!s.family.empty() && module.find_model(s.root)) todo.push_back(s.root);
    return reachable(module, todo);
}

std::string emit_views(const Module& module) {
    const std::set<std::string> views = view_types(module);
    std::string body, declarations;
    in_emission_order(
        module,
        [&](const Model& m) {
            if (!views.count(m.name)) return;
            std::string members;
            std::vector<std::string> compares;
            for (const Field& f : m.fields) {
                if (f.constant) continue;  // read.hpp's model names it
                std::string type = value_type(f.type, true);
                if (f.nullable) type = "Nullable<" + type + ">";
                if (!f.required) type = "std::optional<" + type + ">";
                members += fill("    $Type$ $Name${};\n", {{"Type", type}, {"Name", identifier(f.json_name)}});
                compares.push_back(fill("a.$Name$ == b.$Name$", {{"Name", identifier(f.json_name)}}));
            }
            body += fill(R"(/// $Name$, viewed.
struct $Name$ {
    using viewed_model = rows::$Name$;  ///< the model it views
$Members$};

/// The same values as the model's operator== compares.
inline bool operator==(const $Name$& a, const $Name$& b) {
    return $Compares$;
}
inline bool operator!=(const $Name$& a, const $Name$& b) { return !(a == b); }

)",
                         {{"Name", m.name}, {"Members", members}, {"Compares", compares.empty() ? "true" : join(compares, " &&\n           ")}});
            if (!m.checked_by_code.empty())
                declarations += fill("bool check_rules(Decoder& d, const view::$Name$& value);\n", {{"Name", m.name}});
        },
        [&](const Variant& v) {
            if (!views.count(v.name)) return;
            std::vector<std::string> types;
            for (const std::string& model : v.models) types.push_back("view::" + model);
            for (const TypeRef& t : v.types) types.push_back(value_type(t, true));
            body += fill("using $Name$ = std::variant<$Types$>;\n\n", {{"Name", v.name}, {"Types", join(types, ", ")}});
        });
    return fill(R"($Banner$// The check-only fast path's view models (see detail/fast.hpp): the models that hand-written rules
// read (check_rules), and what they hold, with strings as views into the parser's buffer and free-form
// values left where they are. Internal: src/fast.cpp, src/atif.cpp and src/convert.cpp (which maps a
// trajectory's view to a row) include it.
#pragma once

#include <simdjson.h>

#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "detail/decoder.hpp"
#include "sediment/rows/generated/models.hpp"

namespace sediment::rows::detail::view {

/// A free-form value, checked where it is, in the parser's DOM.
struct JsonView {
    simdjson::dom::element value{};
    bool is_object() const noexcept { return value.is_object(); }
};
inline const char* json_type_name(const JsonView& j) noexcept { return j.is_object() ? "an object" : "not an object"; }

/// Equal as the model's Json values compare (src/fast.cpp): members in the same order, numbers by value.
bool operator==(const JsonView& a, const JsonView& b);
/// Not operator==.
inline bool operator!=(const JsonView& a, const JsonView& b) { return !(a == b); }

$Body$}  // namespace sediment::rows::detail::view

namespace sediment::rows::detail {

$Declarations$
}  // namespace sediment::rows::detail
)",
                {{"Banner", banner(module)}, {"Body", body}, {"Declarations", declarations}});
}

// The statements that read one member, the DOM's element `value` or the cursor `t` (`tokens`), into
// `out` and run its rules on what it read.
std::string fast_member(const Model& m, const Field& f, bool tokens) {
    const std::string name = identifier(f.json_name);
    if (f.constant && tokens) return check_member(m, f, true);  // reads into no model
    if (f.constant) {
        return fill(f.constant->is_string
                        ? "std::string_view text;\nif (value.get(text) || text != $Model$::$Name$) return false;\n"
                        : "std::int64_t number = 0;\nif (!read(r, value, number) || number != $Model$::$Name$) return false;\n",
                    {{"Model", m.name}, {"Name", name}});
    }
    const std::string out = "out." + name;
    std::string text = "if (!read(r, " + std::string(tokens ? "t" : "value") + ", " + out + ")) return false;\n";
    if (f.rules.empty()) return text;
    std::string presence;
    const std::string checks = member_checks(f, out, presence);
    if (presence.empty()) return text + checks;
    return text + "if (" + presence + ") {\n" + indent(checks, 4) + "}\n";
}

// The check-only readers, `check(r, e, type_tag<T>{})`, accept exactly what `read(r, e, T&)` accepts
// and build nothing: strings are looked at in the parser's buffer (std::string_view), free-form values
// are walked, arrays iterated, and the rules run on those views through the same Decoder checks.
// check() and `sediment-rows validate` use them. A model with hand-written rules (check_rules) needs
// a value: it is read into a scratch model.

// What a check-only reader reads a scalar as, when a rule needs its value.
std::string view_type(const TypeRef& t) {
    switch (t.kind) {
        case TypeRef::Kind::string: return "std::string_view";
        case TypeRef::Kind::exact_integer: return "std::int64_t";  // the fast path reads 64-bit integers only
        default: return cpp_type(t);
    }
}

// True for a pattern `^[^...]*$` that refuses only control characters (\u0000 to \u001F) and
// surrogates: a string that stage 1 accepts and that has no escapes holds neither (stage 1 refuses raw
// control characters, and UTF-8 has no surrogates), so over tokens only an escaped one is matched.
bool holds_unescaped(const std::string& pattern) {
    if (pattern.size() < 7 || pattern.compare(0, 3, "^[^") != 0 || pattern.compare(pattern.size() - 3, 3, "]*$") != 0) return false;
    const std::string items = pattern.substr(3, pattern.size() - 6);
    for (std::size_t i = 0; i < items.size();) {
        const auto code = [&](std::size_t at) { return items.compare(at, 2, "\\u") == 0 && at + 6 <= items.size() ? std::stoul(items.substr(at + 2, 4), nullptr, 16) : 0x110000ul; };
        const unsigned long first = code(i);
        unsigned long last = first;
        i += 6;
        if (i < items.size() && items[i] == '-') last = code(i + 1), i += 7;
        const bool control = last <= 0x1F, surrogate = first >= 0xD800 && last <= 0xDFFF;
        if (first > last || (!control && !surrogate)) return false;
    }
    return !items.empty();
}

// The statements that check the element `e` as a `t` and run `rules` on it (`on_items` rules on each
// of its items); `depth` keeps the names of nested arrays' locals apart. Over `tokens` (the Tokens
// cursor `t`, detail/fast_tokens.hpp) an array counts its items as it goes, and a rule that the
// value is an object looks at it before it is checked.
std::string check_value(const TypeRef& t, const std::string& e, const std::vector<Rule>& rules, int depth, bool tokens) {
    std::vector<Rule> own, items;
    for (Rule r : rules) {
        const bool on_items = r.on_items;
        r.on_items = false;
        (on_items ? items : own).push_back(r);
    }
    const std::string n = depth ? std::to_string(depth) : "";
    const auto run = [&](const std::string& v, bool objects) {  // objects: only the rules that the value is an object
        std::string out;
        for (const Rule& r : own) {
            if (tokens && (r.kind == Rule::Kind::object) != objects) continue;
            const std::string check = r.kind == Rule::Kind::object ? "if (!" + v + ".is_object()) return false;" : rule_check(r, v);
            std::string condition = r.schemas.empty() ? "" : schema_condition(r);
            if (tokens && r.kind == Rule::Kind::pattern && holds_unescaped(r.text))  // the cheap test first
                condition = condition.empty() ? "r.escaped" : "r.escaped && (" + condition + ")";
            out += condition.empty() ? check + "\n" : "if (" + condition + ") " + check + "\n";
        }
        return out;
    };
    if (t.kind == TypeRef::Kind::array && !rules.empty()) {
        const std::string array = "items" + n, item = "item" + n, count = "count" + n;
        if (tokens)
            return fill(R"(std::size_t $Count$ = 0;
if (!t.open('[')) return false;
if (!t.close(']')) {
    do {
        ++$Count$;
$Each$    } while (t.comma());
    if (!t.close(']')) return false;
}
$Own$)",
                        {{"Count", count}, {"Own", run(count, false)}, {"Each", indent(check_value(*t.item, "t", items, depth + 1, true), 8)}});
        return fill("simdjson::dom::array $Array$;\nif ($E$.get($Array$)) return false;\n$Own$for (const element $Item$ : $Array$) {\n$Each$}\n",
                    {{"Array", array}, {"E", e}, {"Item", item}, {"Own", run(array + ".size()", false)},
                     {"Each", indent(check_value(*t.item, item, items, depth + 1, false), 4)}});
    }
    const bool scalar = t.kind != TypeRef::Kind::array && t.kind != TypeRef::Kind::model && t.kind != TypeRef::Kind::variant &&
                        t.kind != TypeRef::Kind::any && t.kind != TypeRef::Kind::object_any;
    if (!scalar || own.empty()) {
        const std::string check = "if (!check(r, " + e + ", type_tag<" + cpp_type(t) + ">{})) return false;\n";
        return tokens ? run(e, true) + check + run(e, false) : check + run(e, false);
    }
    const std::string v = "view" + n;
    return view_type(t) + " " + v + "{};\nif (!read(r, " + e + ", " + v + ")) return false;\n" + run(v, false);
}

std::string check_member(const Model& m, const Field& f, bool tokens) {
    if (f.constant && tokens) {  // (a string compared as a key is: words, no call)
        return fill(f.constant->is_string ? "std::string_view text;\nif (!read(r, t, text) || !is_key(text, $Literal$)) return false;\n"
                                          : "std::int64_t number = 0;\nif (!read(r, t, number) || number != $Model$::$Name$) return false;\n",
                    {{"Model", m.name}, {"Name", identifier(f.json_name)}, {"Literal", string_literal(f.constant->text)}});
    }
    if (f.constant) return fast_member(m, f);  // reads into no model
    const std::string text = check_value(f.type, tokens ? "t" : "value", f.rules, 0, tokens);
    if (!f.nullable) return text;
    return (tokens ? "if (!t.null()) {\n" : "if (!value.is_null()) {\n") + indent(text, 4) + "}\n";
}

bool over_tokens(FastMode mode) { return mode == FastMode::check_tokens || mode == FastMode::read_tokens; }

std::string fast_signature(const std::string& name, FastMode mode) {
    switch (mode) {
        case FastMode::read: return "read(Reader& r, element e, " + name + "& out)";
        case FastMode::read_view: return "read(Reader& r, element e, view::" + name + "& out)";
        case FastMode::check_tokens: return "check(Reader& r, Tokens& t, type_tag<" + name + ">)";
        case FastMode::read_tokens: return "read(Reader& r, Tokens& t, " + name + "& out)";
        default: return "check(Reader& r, element e, type_tag<" + name + ">)";
    }
}

// A model with a view model has one reader body for both, a template over what it reads into.
const char* const kBothReaders = R"(inline bool read(Reader& r, element e, $Name$& out) { return read(r, e, out, type_tag<$Name$>{}); }
inline bool read(Reader& r, element e, view::$Name$& out) { return read(r, e, out, type_tag<$Name$>{}); }

)";

std::string emit_fast_model_reader(const Model& m, FastMode mode, bool viewed) {
    if (over_tokens(mode)) return emit_token_model(m, mode);
    if (mode == FastMode::check && !m.checked_by_code.empty())
        return fill(R"(inline bool check(Reader& r, element e, type_tag<$Name$>) {
    thread_local $Type$ scratch;  // check_rules() reads a value
    return read(r, e, scratch);
}

)",
                    {{"Name", m.name}, {"Type", m.rules_read_values ? m.name : "view::" + m.name}});  // (no view: see view_types())
    const bool read = mode != FastMode::check;
    const KeyChain chain = key_chain(m, "if (is_key(key, $Key$)) {\n    bit = $Bit$;\n",
                                     [&](const Field& f) { return read ? fast_member(m, f) : check_member(m, f, false); });
    return fill(R"($Signature$ {
    simdjson::dom::object object;
    if (e.get(object)) return false;
    [[maybe_unused]] Decoder& d = r.d;
    std::uint64_t seen = 0;
    for (const auto field : object) {
        const std::string_view key = field.key;
        [[maybe_unused]] const element value = field.value;
        std::uint64_t bit = 0;
$Members$            return false;
        }
        if (seen & bit) return false;  // a duplicate key
        if (bit < seen) r.reordered = true;  // a key before one the schema puts before it
        seen |= bit;
    }
$Resets$    return (seen & $Required$) == $Required$ && d.error_count() == 0$Rules$;
}

$Both$)",
                {{"Signature", viewed && read ? fill("/// Reads into $Name$ or view::$Name$.\ntemplate <class Out>\ninline bool read(Reader& r, element e, Out& out, type_tag<$Name$>)", {{"Name", m.name}})
                                              : "inline bool " + fast_signature(m.name, mode)},
                 {"Both", viewed && read ? fill(kBothReaders, {{"Name", m.name}}) : ""},
                 {"Resets", read ? indent(absent_resets(m), 4) : ""},
                 {"Rules", m.checked_by_code.empty() ? "" : " && check_rules(d, out)"},
                 {"Members", indent(chain.members, 8)},
                 {"Required", chain.required}});
}

std::string emit_fast_variant_reader(const Module& module, const Variant& v, FastMode mode, bool viewed) {
    if (over_tokens(mode)) return emit_token_variant(module, v, mode);
    const bool both = viewed && mode == FastMode::read;  // the branch's alternative by its index
    const std::string signature = both ? fill("/// Reads into $Name$ or view::$Name$.\ntemplate <class Out>\ninline bool read(Reader& r, element e, Out& out, type_tag<$Name$>)", {{"Name", v.name}})
                                       : "inline bool " + fast_signature(v.name, mode);
    const char* branch = mode == FastMode::check ? "return check(r, e, type_tag<$Type$>{});"
                         : both                  ? "return read(r, e, alternative_at<$Index$>(out));"
                                                 : "return read(r, e, alternative<$Type$>(out));";
    const std::string after = both ? fill(kBothReaders, {{"Name", v.name}}) : "";
    std::string branches;
    if (v.by_keys) {  // the branch choose_branch() accepts (read.hpp's tables)
        for (std::size_t i = 0; i < v.models.size(); ++i)
            branches += fill("        case $Index$: " + std::string(branch) + "\n",
                             {{"Type", v.models[i]}, {"Index", std::to_string(i)}});
        return fill(R"($Signature$ {
    simdjson::dom::object object;
    if (e.get(object) || object.size() > 16) return false;  // a branch's keys are fewer
    std::string_view keys[16];
    std::size_t count = 0;
    std::string_view value;
    const std::string_view* selected = nullptr;
    for (const auto field : object) {
        keys[count++] = field.key;
        if ($Selects$) selected = &value;
    }
    const BranchChoice choice = choose_branch(k$Name$Branches, std::size(k$Name$Branches), keys, count, selected);
    if (!choice.accepted) return false;
    switch (choice.index) {
$Branches$    }
    return false;
}

$After$)",
                    {{"Signature", signature}, {"Name", v.name}, {"Branches", branches}, {"After", after},
                     {"Selects", v.selector.empty() ? "false" : "field.key == " + string_literal(v.selector) + " && !field.value.get(value)"}});
    }
    if (v.tag.empty()) {
        for (std::size_t i = 0; i < v.types.size(); ++i)
            branches += fill("    if ($Test$) " + std::string(branch) + "\n",
                             {{"Test", json_type(v.types[i]).fast_test}, {"Type", cpp_type(v.types[i])}, {"Index", std::to_string(i)}});
        return fill("$Signature$ {\n$Branches$    return false;\n}\n\n$After$", {{"Signature", signature}, {"Branches", branches}, {"After", after}});
    }
    for (std::size_t i = 0; i < v.models.size(); ++i)
        branches += fill("    if (tag == $Model$::$Tag$) " + std::string(branch) + "\n",
                         {{"Model", v.models[i]}, {"Type", v.models[i]}, {"Tag", identifier(v.tag)}, {"Index", std::to_string(i)}});
    return fill(R"($Signature$ {
    simdjson::dom::object object;
    std::string_view tag;
    if (e.get(object) || object[$TagLiteral$].get(tag)) return false;
$Branches$    return false;
}

$After$)",
                {{"Signature", signature}, {"TagLiteral", string_literal(v.tag)}, {"Branches", branches}, {"After", after}});
}

// True when a model of `root`'s, or `root` itself, has rules that read a view model (check_rules):
// its documents are checked over the DOM, not over tokens.
bool needs_view(const Module& module, const std::string& root) {
    for (const std::string& name : reachable(module, {root}))
        if (const Model* m = module.find_model(name); m && !m->checked_by_code.empty()) return true;
    return false;
}

// The unions a type names, through arrays.
void variants_named(const TypeRef& t, std::set<std::string>& out) {
    if (t.kind == TypeRef::Kind::variant) out.insert(t.name);
    if (t.item) variants_named(*t.item, out);
}

// The unions the fast models hold.
std::set<std::string> fast_variants(const Module& module) {
    std::set<std::string> variants;
    for (const Model& m : module.models) for (const Field& f : m.fields) variants_named(f.type, variants);
    return variants;
}

// The readers of `modes` for every model and union (unions the fast models hold): their declarations,
// then their bodies (read: into models and view models), appended to `declarations` and `body`.
void emit_modes(const Module& module, std::initializer_list<FastMode> modes, std::string& declarations, std::string& body) {
    const std::set<std::string> variants = fast_variants(module);
    const std::set<std::string> views = view_types(module);
    const auto emitted = [&](const std::string& name, FastMode mode) { return mode != FastMode::read_view || views.count(name); };
    for (const FastMode mode : modes) {
        for (const Model& m : module.models)
            if (emitted(m.name, mode)) declarations += "inline bool " + fast_signature(m.name, mode) + ";\n";
        for (const Variant& v : module.variants)
            if (variants.count(v.name) && emitted(v.name, mode)) declarations += "inline bool " + fast_signature(v.name, mode) + ";\n";
    }
    for (const FastMode mode : modes) {
        if (mode == FastMode::read_view) continue;  // (the reader into models reads into view models too)
        in_emission_order(
            module, [&](const Model& m) { body += emit_fast_model_reader(m, mode, views.count(m.name)); },
            [&](const Variant& v) { if (variants.count(v.name)) body += emit_fast_variant_reader(module, v, mode, views.count(v.name)); });
    }
}

std::string fast_header(const Module& module, const std::string& about, const std::string& includes, const std::string& readers,
                        const std::string& entries) {
    return fill(R"($Banner$$About$#pragma once

#include <cstdint>
#include <string_view>

$Includes$
namespace sediment::rows::detail::fast {

$Readers$}  // namespace sediment::rows::detail::fast

namespace sediment::rows::detail {

$Entries$
}  // namespace sediment::rows::detail
)",
                {{"Banner", banner(module)}, {"About", about}, {"Includes", includes}, {"Readers", readers}, {"Entries", entries}});
}

std::string emit_fast_readers(const Module& module) {
    std::string declarations, body, entries;
    emit_modes(module, {FastMode::read, FastMode::read_view, FastMode::check}, declarations, body);
    for (const std::string& root : fast_roots(module))
        entries += fill(R"(bool tokens_decode(std::string_view text, $Root$& out, const Limits& limits, SchemaId schema, bool padded);
bool tokens_check(std::string_view text, type_tag<$Root$> root, const Limits& limits, SchemaId schema, bool padded);
bool fast_decode(std::string_view text, $Root$& out, const Limits& limits, SchemaId schema, bool padded) {
    return fast::decode_document(text, out, limits, schema, padded);
}
bool fast_check(std::string_view text, type_tag<$Root$> root, const Limits& limits, SchemaId schema, bool padded) {
    return fast::check_document(text, root, limits, schema, padded);
}
)",
                        {{"Root", root}});
    return fast_header(module, R"(// The fast path's readers over simdjson's DOM (see read.hpp for the exact ones), and its check-only
// readers, which accept the same documents and build nothing; the readers over stage 1's tokens alone
// are in token_read.hpp. Only src/engines/fast.cpp includes this header: simdjson stays out of the
// library's interface.
)",
                       "#include \"detail/fast.hpp\"\n#include \"read.hpp\"\n#include \"views.hpp\"\n", declarations + "\n" + body,
                       "// (tokens_decode() and tokens_check() are in src/engines/fast_tokens.cpp, through token_read.hpp)\n" + entries);
}

}  // namespace gen::cpp
