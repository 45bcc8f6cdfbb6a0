// decode() and validate() of text, for every model, and validate() by SchemaId.
#include "detail/decode.hpp"

#include "engines/schema_engine.hpp"

namespace sediment::rows {

namespace detail {

#define SEDIMENT_ROWS_DECODE(Model)                                                                                      \
    template bool exact_decode<Model>(std::string_view, Model&, std::vector<Error>&, const Limits&, SchemaId);            \
    template bool decode_text<Model>(std::string_view, Model&, std::vector<Error>&, SchemaId, const Limits&, bool);       \
    template std::vector<Error> validate_text<Model>(std::string_view, bool, SchemaId, const Limits&);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_DECODE)
#undef SEDIMENT_ROWS_DECODE

}  // namespace detail

Validated detail::validate_schema_text(SchemaId schema, std::string_view text, bool padded, const Limits& limits) {
    return visit_schema(schema, [&](auto tag) {
        return Validated{schema, validate_text<typename decltype(tag)::type>(text, padded, schema, limits)};
    });
}

Validated validate(SchemaId schema, std::string_view text, const Limits& limits) {
    return detail::validate_schema_text(schema, text, false, limits);
}

Validated validate(SchemaId schema, const StringText& text, const Limits& limits) {
    return detail::validate_schema_text(schema, text.text(), text.padded(), limits);
}

Validated validate(SchemaId schema, std::string_view text, Engine engine, const Limits& limits) {
    if (engine == Engine::typed) return validate(schema, text, limits);
    Validated v{schema, {}};
    Json document;
    if (!parse(text, document, v.errors, limits, decimals_of(schema))) return v;
    v.errors = detail::schema_engine(schema, document);
    detail::put_first(v.errors, 0, detail::other_version(schema, document));
    return v;
}

Validated detail::validate_document(SchemaId schema, const Json& document, Engine engine) {
    if (engine == Engine::schema) return Validated{schema, detail::schema_engine(schema, document)};
    Validated v{schema, {}};
    visit_schema(schema, [&](auto tag) {
        typename decltype(tag)::type value;
        decode(document, value, v.errors, schema);
    });
    return v;
}

}  // namespace sediment::rows
