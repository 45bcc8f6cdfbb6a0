// The fast path over simdjson's stage 1 alone, in a unit of its own beside the DOM readers'
// (src/engines/fast.cpp): decode() and validate() try these readers first (detail/fast_token_read.hpp,
// generated/token_read.hpp), and what they leave goes to the DOM path, then the exact reader. Two units
// build in parallel, and each keeps the inlining a unit of its size gets.
#include "generated/token_read.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "sediment/rows/versions.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sediment::rows::detail {

bool fast_check_tokens(SchemaId schema, std::string_view text, const Limits& limits, bool padded) {
    return visit_schema(schema, [&](auto root) { return fast::check_tokens(text, root, limits, schema, padded); });
}

bool fast_decode_tokens(SchemaId schema, std::string_view text, std::string& encoded, const Limits& limits) {
    return visit_schema(schema, [&](auto root) {
        typename decltype(root)::type value;
        std::vector<Error> errors;
        if (!fast::read_tokens(text, value, limits, schema, false)) return false;
        encoded.clear();
        append_encoding(value, Style::compact, encoded, errors);
        return errors.empty();
    });
}

namespace {

// The version of the document of `t` under `name` (a family's name, or "any"), found over its tokens:
// the first version of each family that names its version, looked up where it names it.
const SchemaInfo* version_over_tokens(const fast::Tokens& t, std::string_view name) {
    for (const SchemaInfo* family : fast::families_naming_versions()) {
        if (name != "any" && family->base != name) continue;
        std::string_view uri;
        if (!fast::peek_pointer(t, family->version_pointer, uri)) continue;
        if (const SchemaInfo* version = fast::version_with_uri(*family, uri)) return version;
    }
    return nullptr;
}

}  // namespace

std::optional<SchemaId> tokens_check_named(std::string_view base, std::string_view text, const Limits& limits, bool padded) {
    const auto over_tokens = [](const SchemaInfo& version) {
        return visit_schema(version.id, [&](auto root) { return fast::over_tokens(root, version.id); });
    };
    const SchemaInfo* version = find_schema(base);  // a schema's name, or the version a family's document names
    if (version && !over_tokens(*version)) return std::nullopt;  // (no stage 1 the DOM path would run again)
    const std::optional<fast::Tokens> t = fast::tokens_of(text, limits, padded);
    if (!t) return std::nullopt;
    if (!version) version = version_over_tokens(*t, base);
    if (version && over_tokens(*version) &&
        visit_schema(version->id, [&](auto root) { return fast::check_tokens(*t, root, limits, version->id); }))
        return version->id;
    return std::nullopt;
}

}  // namespace sediment::rows::detail
