// The exact readers over the DOM parse() builds (Json: nlohmann::ordered_json), instantiated once here
// for every model and union; every other translation unit calls these.
#include "generated/read_impl.hpp"

namespace sediment::rows::detail {

#define SEDIMENT_ROWS_READ(Type) template bool read<Json>(Decoder&, const Json&, Type&);
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_READ)
SEDIMENT_ROWS_UNIONS(SEDIMENT_ROWS_READ)
#undef SEDIMENT_ROWS_READ

}  // namespace sediment::rows::detail
