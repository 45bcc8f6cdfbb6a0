// encode() of every model and of Json over the generated writers, and format() by SchemaId.
#include "detail/encode_impl.hpp"

namespace sediment::rows {

#define SEDIMENT_ROWS_ENCODE(Model) template void encode<Model>(const Model&, std::string&, Style);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_ENCODE)
SEDIMENT_ROWS_UNIONS(SEDIMENT_ROWS_ENCODE)
#undef SEDIMENT_ROWS_ENCODE
template void encode<Json>(const Json&, std::string&, Style);

#define SEDIMENT_ROWS_APPEND_ENCODING(Model) \
    template void detail::append_encoding<Model>(const Model&, Style, std::string&, std::vector<Error>&);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_APPEND_ENCODING)
#undef SEDIMENT_ROWS_APPEND_ENCODING

Validated format(SchemaId schema, std::string_view text, Style style, std::string& out, const Limits& limits) {
    Validated v{schema, {}};
    visit_schema(schema, [&](auto tag) {
        typename decltype(tag)::type value;
        if (!decode(text, value, v.errors, schema, limits)) return;
        detail::append_encoding(value, style, out, v.errors);
    });
    return v;
}

}  // namespace sediment::rows
