// The library's side of decode() and validate(): the fast path, the exact reader, and the verdict of
// one model, over the generated readers. src/models/decode.cpp instantiates them for every model.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "detail/decoder.hpp"
#include "generated/read.hpp"
#include "sediment/rows/decode.hpp"

namespace sediment::rows::detail {

/// No fast path for this type: decode() reads it exactly. (The generated overloads in read.hpp cover
/// the document roots of the bundled schemas.)
template <class T>
bool fast_decode(std::string_view, T&, const Limits&, SchemaId, bool = false) {
    return false;
}

/// No check-only fast path for this type: validate() reads it exactly.
template <class T>
bool fast_check(std::string_view, type_tag<T>, const Limits&, SchemaId, bool = false) {
    return false;
}

/// The check-only fast path over stage 1's tokens alone (detail/fast_tokens.hpp), which fast_check()
/// tries first: true only for a valid document of `schema`; false for what the DOM path is to judge,
/// and for the schemas whose rules read view models (src/engines/fast.cpp). Tests ask it directly.
bool fast_check_tokens(SchemaId schema, std::string_view text, const Limits& limits, bool padded = false);

/// The readers into models over the same tokens, which decode() tries first: the document of `schema`
/// read into a fresh model and encoded (Style::compact) into `encoded`; false for what the DOM path is
/// to read. Tests ask it directly.
bool fast_decode_tokens(SchemaId schema, std::string_view text, std::string& encoded, const Limits& limits = {});

/// When `document`, to be read under the rules of `schema`, names another bundled version of it (a
/// rollout row's metadata.schema_id, an ATIF trajectory's schema_version): `rows.decode.other_version`
/// at that place, saying which version the document is and the name to read it with. `document` is a
/// row, or an object holding a row's "metadata" (`converting`: the metadata of a row a conversion
/// asks for), at `at` in the text errors point into. Asked before decoding, which may move the
/// document's strings out. (src/features/versions.cpp)
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

template <class T>
bool decode_text(std::string_view text, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits, bool padded) {
    if (fast_decode(text, out, limits, schema, padded)) return true;
    out = T();
    return exact_decode(text, out, errors, limits, schema);
}

template <class T, class J>
bool decode_document(const J& document, T& out, std::vector<Error>& errors, SchemaId schema, const Limits& limits) {
    Decoder d(schema, errors, limits, Decoder::Source::caller_dom);
    return read(d, document, out);
}

template <class T>
std::vector<Error> validate_text(std::string_view text, bool padded, SchemaId schema, const Limits& limits) {
    std::vector<Error> errors;
    if (fast_check(text, type_tag<T>{}, limits, schema, padded)) return errors;
    T value;
    exact_decode(text, value, errors, limits, schema);
    return errors;
}

// Instantiated once, in src/models/decode.cpp and decode_document.cpp, for every model: no other
// translation unit compiles the readers again.
#define SEDIMENT_ROWS_DECODE_EXTERN(Model)                                                                               \
    extern template bool exact_decode<Model>(std::string_view, Model&, std::vector<Error>&, const Limits&, SchemaId);    \
    extern template bool decode_text<Model>(std::string_view, Model&, std::vector<Error>&, SchemaId, const Limits&, bool); \
    extern template std::vector<Error> validate_text<Model>(std::string_view, bool, SchemaId, const Limits&);            \
    extern template bool decode_document<Model, Json>(const Json&, Model&, std::vector<Error>&, SchemaId, const Limits&); \
    extern template bool decode_document<Model, nlohmann::json>(const nlohmann::json&, Model&, std::vector<Error>&,      \
                                                                 SchemaId, const Limits&);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_DECODE_EXTERN)
#undef SEDIMENT_ROWS_DECODE_EXTERN

/// The typed verdict on a document of the bundled `schema`, whatever its root type: validate(SchemaId,
/// ...) and validate(name, ...) of a versioned name. `padded`: kTextPadding readable bytes follow
/// `text`. (src/models/decode.cpp)
Validated validate_schema_text(SchemaId schema, std::string_view text, bool padded, const Limits& limits);

}  // namespace sediment::rows::detail
