// decode() of a parsed document (nlohmann::json or nlohmann::ordered_json), for every model.
#include "detail/decode.hpp"

namespace sediment::rows::detail {

#define SEDIMENT_ROWS_DECODE_DOCUMENT(Model)                                                                             \
    template bool decode_document<Model, Json>(const Json&, Model&, std::vector<Error>&, SchemaId, const Limits&);        \
    template bool decode_document<Model, nlohmann::json>(const nlohmann::json&, Model&, std::vector<Error>&, SchemaId,   \
                                                          const Limits&);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_DECODE_DOCUMENT)
#undef SEDIMENT_ROWS_DECODE_DOCUMENT

}  // namespace sediment::rows::detail
