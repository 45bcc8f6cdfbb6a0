// Exact encoding of the typed models: keys in schema property order, absent stays absent, null stays null.
#pragma once

#include <string>

#include "decode.hpp"
#include "detail/writer.hpp"
#include "generated/write.hpp"

namespace sediment::rows {

/// Appends the JSON text of `value` to `out`. Throws EncodeError for NaN, infinity or invalid UTF-8.
template <class T>
void encode(const T& value, std::string& out, Style style = Style::compact) {
    detail::Writer w(out, style);
    detail::write(w, value);
    w.finish();
}

/// The JSON text of `value`. Throws EncodeError for NaN, infinity or invalid UTF-8.
template <class T>
std::string encode(const T& value, Style style = Style::compact) {
    std::string out;
    encode(value, out, style);
    return out;
}

/// The JSON text of any Json in `style`. Use it rather than nlohmann's dump() for values read by
/// parse(), which may hold big integers (see kBigIntegerSubtype). Throws EncodeError.
inline std::string dump(const Json& value, Style style = Style::compact) { return encode(value, style); }

/// Decodes a document of a bundled schema and encodes it again in `style` (the CLI's `format`).
/// Returns false with the errors when it does not decode or cannot be encoded.
inline bool reencode(SchemaId schema, std::string_view text, Style style, std::string& out, std::vector<Error>& errors,
                     const Limits& limits = {}) {
    return visit_schema(schema, [&](auto tag) {
        typename decltype(tag)::type value;
        if (!decode(text, value, errors, schema, limits)) return false;
        try {
            encode(value, out, style);
        } catch (const EncodeError& e) {
            errors.push_back(e.error());
            return false;
        }
        return true;
    });
}

namespace detail {

/// Parses text the encoder wrote with simdjson into `out` (src/fast.cpp): false for what it leaves to
/// parse() (integers beyond 64 bits, very wide objects).
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
