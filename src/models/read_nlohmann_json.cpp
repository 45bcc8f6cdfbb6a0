// The exact readers over a caller's nlohmann::json, instantiated once here for every model and union
// (decode() of a parsed document); read_json.cpp holds those over Json.
#include "generated/read_impl.hpp"

namespace sediment::rows::detail {

#define SEDIMENT_ROWS_READ(Type) template bool read<nlohmann::json>(Decoder&, const nlohmann::json&, Type&);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_READ)
SEDIMENT_ROWS_UNIONS(SEDIMENT_ROWS_READ)
#undef SEDIMENT_ROWS_READ

}  // namespace sediment::rows::detail
