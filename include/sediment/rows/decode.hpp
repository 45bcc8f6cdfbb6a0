// Strict decoding of documents into the typed models.
#pragma once

#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "detail/decoder.hpp"
#include "error.hpp"
#include "generated/read.hpp"
#include "json.hpp"
#include "schema.hpp"

namespace sediment::rows {

/// Decodes a parsed document (nlohmann::json or nlohmann::ordered_json) into `out` under the rules of
/// `schema` (by default the schema whose root T is). Appends every error found and returns false when
/// there is one; `out` is then unspecified.
template <class T, class J, std::enable_if_t<is_json_v<J>, int> = 0>
bool decode(const J& document, T& out, std::vector<Error>& errors, SchemaId schema = document_traits<T>::schema,
            const Limits& limits = {}) {
    detail::Decoder d(schema, errors, limits, detail::Decoder::Source::caller_dom);
    return detail::read(d, document, out);
}

namespace detail {

template <class T>
std::vector<Error> check(std::string_view text, bool padded, SchemaId schema, const Limits& limits);

/// No fast path for this type: decode() reads it exactly. (The generated overloads in read.hpp cover
/// the document roots of the bundled schemas.)
template <class T>
bool fast_decode(std::string_view, T&, const Limits&, SchemaId) {
    return false;
}

/// No check-only fast path for this type: check() reads it exactly.
template <class T>
bool fast_check(std::string_view, type_tag<T>, const Limits&, SchemaId, bool = false) {
    return false;
}

/// When `document`, to be read under the rules of `schema`, names another bundled version of it (a
/// rollout row's metadata.schema_id, an ATIF trajectory's schema_version): `rows.decode.other_version`
/// at that place, saying which version the document is and the name to read it with. `document` is a
/// row, or an object holding a row's "metadata" (`converting`: the metadata of a row a conversion
/// asks for), at `at` in the text errors point into. Asked before decoding, which may move the
/// document's strings out. (src/versions.cpp)
std::optional<Error> other_version(SchemaId schema, const Json& document, std::string_view at = {}, bool converting = false);

/// Puts `e` (other_version()'s) first among errors[first..], in place of the errors at its place; a
/// document with no error there is left as it is.
void put_first(std::vector<Error>& errors, std::size_t first, std::optional<Error> e);

/// The exact reader: the strict parser, then the typed readers over its DOM. Every verdict and error
/// comes from here.
template <class T>
bool exact_decode(std::string_view text, T& out, std::vector<Error>& errors, const Limits& limits, SchemaId schema) {
    Json document;
    if (!parse(text, document, errors, limits, decimals_of(schema))) return false;
    const std::size_t first = errors.size();
    std::optional<Error> other = other_version(schema, document);
    Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
    if (read(d, document, out)) return true;
    put_first(errors, first, std::move(other));
    return false;
}

/// check() of a text that `padded` says kTextPadding readable bytes follow.
template <class T>
std::vector<Error> check(std::string_view text, bool padded, SchemaId schema, const Limits& limits) {
    std::vector<Error> errors;
    if (fast_check(text, type_tag<T>{}, limits, schema, padded)) return errors;
    T value;
    exact_decode(text, value, errors, limits, schema);
    return errors;
}

}  // namespace detail

/// Parses JSON text strictly (see parse()) and decodes it into `out` under the rules of `schema`. A
/// type may be the root of several versions of a schema (NemoGymResponseV1 of nemo-gym-response v1,
/// v2 and v3, whose rules differ): `schema` says which. A valid document takes the fast path (simdjson);
/// anything else is read by the exact reader, which reports every error. Decoding document after
/// document into the same `out` reuses its memory; nothing of the earlier value is left.
template <class T>
bool decode(std::string_view text, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits = {}) {
    if (detail::fast_decode(text, out, limits, schema)) return true;
    out = T();
    return detail::exact_decode(text, out, errors, limits, schema);
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
std::vector<Error> check(std::string_view text, SchemaId schema, const Limits& limits = {}) {
    return detail::check<T>(text, false, schema, limits);
}

/// The typed verdict on JSON text read as a T: no errors when it decodes.
template <class T>
std::vector<Error> check(std::string_view text, const Limits& limits = {}) {
    return check<T>(text, document_traits<T>::schema, limits);
}

/// The typed verdict on a document of a bundled schema: no errors when it decodes.
inline std::vector<Error> check(SchemaId schema, std::string_view text, const Limits& limits = {}) {
    return visit_schema(schema, [&](auto tag) { return check<typename decltype(tag)::type>(text, schema, limits); });
}

/// The same, of a std::string's text, read in place when its capacity allows (see StringText).
inline std::vector<Error> check(SchemaId schema, const StringText& text, const Limits& limits = {}) {
    return visit_schema(schema, [&](auto tag) {
        return detail::check<typename decltype(tag)::type>(text.text(), text.padded(), schema, limits);
    });
}

/// nlohmann's ADL hook: `json.get<NemoGymRolloutRow>()` decodes strictly and throws DecodeError.
template <class J, class T, std::enable_if_t<is_json_v<J> && is_model<T>::value, int>>
void from_json(const J& document, T& out) {
    std::vector<Error> errors;
    if (!decode(document, out, errors)) throw DecodeError(std::move(errors));
}

}  // namespace sediment::rows
