// The models' printers (declared with the models, generated/models.hpp): their compact JSON.
#include "sediment/rows/print.hpp"

#include <ostream>

namespace sediment::rows {

#define SEDIMENT_ROWS_PRINTER(Model) \
    std::ostream& operator<<(std::ostream& os, const Model& value) { return os << preview(value, std::string::npos); }
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_PRINTER)
#undef SEDIMENT_ROWS_PRINTER

}  // namespace sediment::rows
