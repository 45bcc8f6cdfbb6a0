// The version compiled into the library (see cmake/version.hpp.in).
#include "sediment/rows/version.hpp"

namespace sediment::rows {

std::string_view library_version() noexcept { return SEDIMENT_ROWS_VERSION; }

}  // namespace sediment::rows
