// What the fast path's two units share: the parser each thread reads every document with, the memory
// of the free-form values it replaced, and the versions a document may name. The readers over
// simdjson's DOM (src/engines/fast.cpp) define them; the readers over stage 1's tokens alone
// (src/engines/fast_tokens.cpp) use them too, in a unit of their own.
//
// Included only by those two sources; not installed.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "fast.hpp"
#include "sediment/rows/schema.hpp"

namespace sediment::rows::detail::fast {

/// A simdjson parser and a padded copy of the text, each kept at the largest size read.
struct Parser {
    simdjson::dom::parser parser;
    std::vector<char> buffer;
};

/// The parser of this thread's DOM and tokens, which every document the fast path reads goes through.
Parser& thread_parser();

/// The levels of nesting the parser admits for `limits`: what the exact reader allows, up to a bound
/// of the parser's (past it the exact reader judges).
std::size_t parser_depth(const Limits& limits);

/// Readies `p` for `text` under `limits` (false for a text the exact reader must judge): its depth and
/// a capacity of the text's size at least.
bool prepare(Parser& p, std::string_view text, const Limits& limits);

/// `text` copied into the padded buffer of `p`.
const char* padded_copy(Parser& p, std::string_view text);

/// The memory of the free-form values this thread's readers replaced (SpareJson), for the next ones.
SpareJson& thread_spare();

/// The version of kind `held` (the base name of the versions) whose URI is `uri`; nothing for another.
const SchemaInfo* version_with_uri(const SchemaInfo& held, std::string_view uri);

/// The first version of each family that names its version in its documents.
const std::vector<const SchemaInfo*>& families_naming_versions();

}  // namespace sediment::rows::detail::fast

namespace sediment::rows::detail {

/// The version of `text` under `base` (a schema's name, a family's, or "any") when the check-only
/// readers over tokens accept it; nothing for what the DOM path is to judge (src/engines/fast_tokens.cpp).
std::optional<SchemaId> tokens_check_named(std::string_view base, std::string_view text, const Limits& limits, bool padded);

}  // namespace sediment::rows::detail
