// token_read.hpp: the fast readers over simdjson's stage 1 alone, into models and check-only
// (src/detail/fast_tokens.hpp, src/detail/fast_token_read.hpp).
#include <algorithm>
#include <set>

#include "emit_common.hpp"
#include "emit_fast.hpp"
#include "template.hpp"

namespace gen::cpp {

// The reader of a model over tokens, into it or checking only: the same member chain as over the DOM.
std::string emit_token_model(const Model& m, FastMode mode) {
    const bool read = mode == FastMode::read_tokens;
    const std::string signature = "inline bool " + fast_signature(m.name, mode);
    if (!m.checked_by_code.empty())  // its rules read a view model: its roots are read on the DOM
        return fill(read ? "inline bool read(Reader&, Tokens&, $Name$&) { return false; }\n\n"
                         : "inline bool check(Reader&, Tokens&, type_tag<$Name$>) { return false; }\n\n",
                    {{"Name", m.name}});
    const KeyChain chain = key_chain(m, "if (is_key(key, $Key$)) {\n    bit = $Bit$;\n",
                                     [&](const Field& f) { return read ? fast_member(m, f, true) : check_member(m, f, true); });
    return fill(R"($Signature$ {
    if (!t.open('{')) return false;
    [[maybe_unused]] Decoder& d = r.d;
    std::uint64_t seen = 0;
    if (!t.close('}')) {
        do {
            std::string_view key;
            if (!t.key(key)) return false;
            std::uint64_t bit = 0;
$Members$                return false;
            }
            if (seen & bit) return false;  // a duplicate key
            if (bit < seen) r.reordered = true;  // a key before one the schema puts before it
            seen |= bit;
        } while (t.comma());
        if (!t.close('}')) return false;
    }
$Resets$    return (seen & $Required$) == $Required$ && d.error_count() == 0;
}

)",
                {{"Signature", signature}, {"Members", indent(chain.members, 12)}, {"Required", chain.required},
                 {"Resets", read ? indent(absent_resets(m), 4) : ""}});
}

// The reader of a union over tokens, into it or checking only: its branch chosen as over the DOM, by a
// look at the object's keys that leaves the cursor where it is.
std::string emit_token_variant(const Module& module, const Variant& v, FastMode mode) {
    const std::string signature = "inline bool " + fast_signature(v.name, mode);
    const std::string branch = mode == FastMode::read_tokens ? "return read(r, t, alternative_at<$Index$>(out));"
                                                             : "return check(r, t, type_tag<$Type$>{});";
    std::string branches;
    if (v.by_keys) {
        for (std::size_t i = 0; i < v.models.size(); ++i)
            branches += fill("        case $Index$: " + branch + "\n", {{"Type", v.models[i]}, {"Index", std::to_string(i)}});
        return fill(R"($Signature$ {
    std::string_view keys[16];  // a branch's keys are fewer
    std::size_t count = 0;
    std::string_view value;
    const std::string_view* selected = nullptr;
    if (!peek_keys(r, t, keys, 16, count, $Selector$, value, selected)) return false;
    const BranchChoice choice = choose_branch(k$Name$Branches, std::size(k$Name$Branches), keys, count, selected);
    if (!choice.accepted) return false;
    switch (choice.index) {
$Branches$    }
    return false;
}

)",
                    {{"Signature", signature}, {"Name", v.name}, {"Branches", branches},
                     {"Selector", v.selector.empty() ? "std::string_view()" : string_literal(v.selector)}});
    }
    if (v.tag.empty()) {
        for (std::size_t i = 0; i < v.types.size(); ++i) {
            std::string test = json_type(v.types[i]).fast_test;  // over the DOM's element `e`: here the cursor `t`
            for (std::size_t at = test.find("e."); at != std::string::npos; at = test.find("e.", at + 2)) test[at] = 't';
            branches += fill("    if ($Test$) " + branch + "\n", {{"Test", test}, {"Type", cpp_type(v.types[i])}, {"Index", std::to_string(i)}});
        }
        return fill("$Signature$ {\n$Branches$    return false;\n}\n\n", {{"Signature", signature}, {"Branches", branches}});
    }
    for (std::size_t i = 0; i < v.models.size(); ++i) {  // each branch's tag, compared as a key is
        const Model* m = module.find_model(v.models[i]);
        const auto tag = std::find_if(m->fields.begin(), m->fields.end(), [&](const Field& f) { return f.json_name == v.tag; });
        branches += fill("    if (is_key(tag, $Tag$)) " + branch + "\n",
                         {{"Type", v.models[i]}, {"Index", std::to_string(i)}, {"Tag", string_literal(tag->constant->text)}});
    }
    return fill(R"($Signature$ {
    std::string_view tag;
    if (!peek_tag(r, t, $TagLiteral$, tag)) return false;
$Branches$    return false;
}

)",
                {{"Signature", signature}, {"TagLiteral", string_literal(v.tag)}, {"Branches", branches}});
}

std::string emit_token_readers(const Module& module) {
    std::string declarations, body, entries, over_tokens;
    emit_modes(module, {FastMode::check_tokens, FastMode::read_tokens}, declarations, body);
    for (const std::string& root : fast_roots(module)) {
        if (!needs_view(module, root))  // the roots whose every model the token readers read
            over_tokens += fill("template <>\nstruct checked_over_tokens<$Root$> : std::true_type {};\n", {{"Root", root}});
        entries += fill(R"(bool tokens_decode(std::string_view text, $Root$& out, const Limits& limits, SchemaId schema, bool padded) {
    return fast::read_tokens(text, out, limits, schema, padded);
}
bool tokens_check(std::string_view text, type_tag<$Root$> root, const Limits& limits, SchemaId schema, bool padded) {
    return fast::check_tokens(text, root, limits, schema, padded);
}
)",
                        {{"Root", root}});
    }
    return fast_header(module, R"(// The fast path's readers over simdjson's stage 1 alone (detail/fast_tokens.hpp): into the models,
// and check-only, which accept the same documents and build nothing. Only src/engines/fast_tokens.cpp
// includes this header (a unit of its own, beside the DOM readers' src/engines/fast.cpp).
)",
                       "#include \"detail/fast_token_read.hpp\"\n#include \"read.hpp\"\n", declarations + "\n" + over_tokens + "\n" + body, entries);
}

}  // namespace gen::cpp
