// The fast path's DOM, lent to a caller that builds its own values from a valid document (the Python
// module's loads()): the document is checked once, and its values are read where simdjson put them.
#pragma once

#include <simdjson.h>

#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sediment/rows/json.hpp"
#include "sediment/rows/schema.hpp"

namespace sediment::rows::detail {

/// The literals of a document's integers beyond 64 bits, in text order. In the DOM each stands as a
/// marker: a string of U+0000 and the literal's index in decimal digits (src/engines/fast.cpp).
using BigIntegers = std::vector<std::pair<std::string_view, bool>>;

/// The length of a marker's index: a marker is a string of U+0000 and at least these digits (it
/// takes the place of an integer literal of at least 20 characters).
constexpr std::size_t kMarkerDigits = 12;

/// True for a string of a marker's form: U+0000 and more than kMarkerDigits digits. Where a valid
/// document's DOM holds markers, each such string is one (fast.hpp, take_marked()).
inline bool marker_form(std::string_view s) {
    return s.size() > kMarkerDigits && s[0] == '\0' && s.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

/// The index of the literal a string of a marker's form stands for (its digits after U+0000);
/// SIZE_MAX when the digits are past any index.
inline std::size_t marker_index(std::string_view marker) {
    std::size_t i = 0;
    const auto [end, error] = std::from_chars(marker.data() + 1, marker.data() + marker.size(), i);
    return error == std::errc() && end == marker.data() + marker.size() ? i : SIZE_MAX;
}

/// Where a parsed document's tokens start, in text order: the parser's structural indexes (offsets
/// into its text). Every value's first byte is one, and no byte inside a string is.
struct TokenStarts {
    const std::uint32_t* offsets = nullptr;
    std::size_t size = 0;
};

/// What looks at the DOM of a valid document: its root, its big integers (empty: the DOM holds no
/// marker, and a string of U+0000 and digits is a string) and where its tokens start. The root and the
/// token starts live until the thread's next parse, the big integers' list only during the call (the
/// literals it views are the text's).
using DomLook = std::function<void(simdjson::dom::element root, const BigIntegers& big_integers, TokenStarts tokens)>;

/// The fast path's verdict on `text` as a document of `name` (validate(name, ...)'s names: a schema, a
/// family, or "any"): the version of a document it accepts; nothing when it does not accept it, and
/// the exact reader must judge. `look` sees the DOM of an accepted document whose objects hold their
/// keys in the order of their models' fields (the order the typed models write; a free-form object's
/// own order is its order), and only then; with `any_order`, of every accepted document. `padded`:
/// kTextPadding readable bytes follow `text`.
std::optional<SchemaId> fast_check_dom(std::string_view name, std::string_view text, const Limits& limits, bool padded,
                                       const DomLook& look, bool any_order = false);

/// Parses `text` as the fast path does (integers beyond 64 bits as markers), without checking it against
/// a schema, and lends its DOM to `look`: for a document already judged valid (the profile writer's second
/// pass). False for text the fast path does not parse.
bool fast_parse_dom(std::string_view text, const Limits& limits, bool padded, const DomLook& look);

}  // namespace sediment::rows::detail
