// Strict decoding of documents into the typed models, and the typed verdict on a document.
//
//   auto row = sediment::rows::decode<sediment::rows::NemoGymRolloutRow>(line);     // throws DecodeError
//   sediment::rows::Validated v = sediment::rows::validate(SchemaId::nemo_gym_rollout_v4, line);
#pragma once

#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "error.hpp"
#include "generated/models.hpp"
#include "json.hpp"
#include "schema.hpp"

namespace sediment::rows {

/// Which engine gives validate()'s verdict.
enum class Engine {
    typed,   ///< the typed decoders: every rule of the schema and the rules it cannot say (the default)
    schema,  ///< valijson over the bundled JSON Schema, independently of the typed models (see schema.hpp)
};

/// A verdict on one document.
struct Validated {
    std::optional<SchemaId> schema;  ///< the version it was read as; none when it names no bundled one, or is not JSON
    std::vector<Error> errors;       ///< empty when it is valid

    /// True when it was read as a bundled schema and has no error.
    bool valid() const noexcept { return schema.has_value() && errors.empty(); }
};

namespace detail {

// The library's readers (src/models/decode.cpp), instantiated for every generated model, and for
// nlohmann::json and nlohmann::ordered_json (Json) documents.
template <class T>
bool decode_text(std::string_view text, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits, bool padded);
template <class T, class J>
bool decode_document(const J& document, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits);
template <class T>
std::vector<Error> validate_text(std::string_view text, bool padded, SchemaId schema, const Limits& limits);

}  // namespace detail

/// Decodes a parsed document (nlohmann::json or nlohmann::ordered_json) into `out` under the rules of
/// `schema` (by default T's own: see below). Appends every error found and returns false when there
/// is one; `out` is then unspecified.
template <class T, class J, std::enable_if_t<is_json_v<J>, int> = 0>
bool decode(const J& document, T& out, std::vector<Error>& errors, SchemaId schema = document_traits<T>::schema,
            const Limits& limits = {}) {
    return detail::decode_document(document, out, errors, schema, limits);
}

/// Parses JSON text strictly (see parse()) and decodes it into `out` under the rules of `schema`. A
/// type may be the root of several versions of a schema (NemoGymResponseV1 of nemo-gym-response v1,
/// v2 and v3, whose rules differ): `schema` says which. A valid document takes the fast path (simdjson);
/// anything else is read by the exact reader, which reports every error. Decoding document after
/// document into the same `out` reuses its memory; nothing of the earlier value is left. What the new
/// document does not hold where the old one did (a part of another kind, fewer turns, a tool result
/// of another shape) is kept for the next documents the thread decodes: up to 16 models of each type
/// with their memory, and 1 MiB of free-form values.
template <class T>
bool decode(std::string_view text, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits = {}) {
    return detail::decode_text(text, out, errors, schema, limits, false);
}

/// The same for a std::string's text, read in place when its capacity allows (see StringText): a
/// trainer's loop that reads each line into one string with `line.reserve(line.size() + kTextPadding)`
/// (or a buffer with that much room) decodes it without copying it first.
template <class T>
bool decode(const StringText& text, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits = {}) {
    return detail::decode_text(text.text(), out, errors, schema, limits, text.padded());
}

/// The same under the rules of T's own schema.
template <class T>
bool decode(const StringText& text, T& out, std::vector<Error>& errors, const Limits& limits = {}) {
    return decode(text, out, errors, document_traits<T>::schema, limits);
}

/// The same under the rules of T's own schema (`document_traits<T>::schema`): the newest version of
/// its schema that has T's shape (nemo-gym-response.v3 for NemoGymResponseV1, the shape of v1 to v3;
/// docs/naming.md). For an unversioned name, that is the version Sediment writes today.
template <class T>
bool decode(std::string_view text, T& out, std::vector<Error>& errors, const Limits& limits = {}) {
    return decode(text, out, errors, document_traits<T>::schema, limits);
}

/// Decodes JSON text into a T; throws DecodeError.
template <class T>
T decode(std::string_view text, const Limits& limits = {}) {
    T out;
    std::vector<Error> errors;
    if (!decode(text, out, errors, limits)) throw DecodeError(std::move(errors));
    return out;
}

/// Decodes JSON text into a T under the rules of `schema`; throws DecodeError.
template <class T>
T decode(std::string_view text, SchemaId schema, const Limits& limits = {}) {
    T out;
    std::vector<Error> errors;
    if (!decode(text, out, errors, schema, limits)) throw DecodeError(std::move(errors));
    return out;
}

/// Decodes a parsed document into a T; throws DecodeError.
template <class T, class J, std::enable_if_t<is_json_v<J>, int> = 0>
T decode(const J& document) {
    T out;
    std::vector<Error> errors;
    if (!decode(document, out, errors)) throw DecodeError(std::move(errors));
    return out;
}

/// The typed verdict on JSON text read as a T under the rules of `schema`: no errors when it decodes.
/// A valid document builds no value: the fast path only looks (string views into the parser's
/// buffer, free-form values walked); anything it refuses is decoded by the exact reader.
template <class T>
Validated validate(std::string_view text, SchemaId schema, const Limits& limits = {}) {
    return Validated{schema, detail::validate_text<T>(text, false, schema, limits)};
}

/// The typed verdict on JSON text read as a T, under T's own schema.
template <class T>
Validated validate(std::string_view text, const Limits& limits = {}) {
    return validate<T>(text, document_traits<T>::schema, limits);
}

/// The verdict on a document of a bundled schema, by the typed decoders.
Validated validate(SchemaId schema, std::string_view text, const Limits& limits = {});

/// The same by `engine`: Engine::schema runs valijson over the bundled schema (see schema.hpp).
Validated validate(SchemaId schema, std::string_view text, Engine engine, const Limits& limits = {});

/// The typed verdict on a std::string's text, read in place when its capacity allows (see StringText).
Validated validate(SchemaId schema, const StringText& text, const Limits& limits = {});

namespace detail {
Validated validate_document(SchemaId schema, const Json& document, Engine engine);  // src/models/decode.cpp
}  // namespace detail

/// The verdict on a parsed document (a Json that parse() read: big integers stay exact) by `engine`.
template <class J, std::enable_if_t<std::is_same_v<J, Json>, int> = 0>
Validated validate(SchemaId schema, const J& document, Engine engine = Engine::typed) {
    return detail::validate_document(schema, document, engine);
}

/// nlohmann's ADL hook: `json.get<NemoGymRolloutRow>()` decodes strictly and throws DecodeError.
template <class J, class T, std::enable_if_t<is_json_v<J> && is_model<T>::value, int>>
void from_json(const J& document, T& out) {
    std::vector<Error> errors;
    if (!decode(document, out, errors)) throw DecodeError(std::move(errors));
}

}  // namespace sediment::rows
