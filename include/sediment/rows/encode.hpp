// Exact encoding of the typed models: keys in schema property order, absent stays absent, null stays null.
//
//   std::string line = sediment::rows::encode(row, sediment::rows::Style::sediment);  // Sediment's bytes
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "decode.hpp"

namespace sediment::rows {

/// Appends the JSON text of `value` (a generated model, or a Json) to `out` in `style`. Throws
/// EncodeError for NaN, infinity or invalid UTF-8. (Defined in the library for every model.)
template <class T>
void encode(const T& value, std::string& out, Style style = Style::compact);

/// The JSON text of `value`. Throws EncodeError for NaN, infinity or invalid UTF-8. For a Json,
/// use it rather than nlohmann's dump() for values read by parse(), which may hold big integers
/// (see kBigIntegerSubtype).
template <class T>
std::string encode(const T& value, Style style = Style::compact) {
    std::string out;
    encode(value, out, style);
    return out;
}

/// Decodes a document of a bundled schema and appends its encoding in `style` to `out` (the CLI's
/// `format`); `out` is unchanged when the verdict has errors (a document that does not decode, or a
/// value that cannot be encoded).
Validated format(SchemaId schema, std::string_view text, Style style, std::string& out, const Limits& limits = {});

namespace detail {

/// Parses text the encoder wrote with simdjson into `out` (src/engines/fast.cpp): false for what it
/// leaves to parse() (integers beyond 64 bits, very wide objects).
bool fast_parse(std::string_view text, Json& out);

}  // namespace detail

/// nlohmann's ADL hook: `Json j = row;` holds exactly what encode() writes (a Json keeps big integers
/// exactly; other DOM types read them as doubles).
template <class J, class T, std::enable_if_t<is_json_v<J> && is_model<T>::value, int>>
void to_json(J& document, const T& value) {
    const std::string text = encode(value);
    if constexpr (std::is_same_v<J, Json>) {
        if (!detail::fast_parse(text, document)) document = parse(text);
    } else {
        document = J::parse(text);
    }
}

}  // namespace sediment::rows
