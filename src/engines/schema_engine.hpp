// The schema engine: valijson over a bundled schema's bytes, with the corrections schema.hpp lists.
#pragma once

#include <vector>

#include "sediment/rows/error.hpp"
#include "sediment/rows/schema.hpp"

namespace sediment::rows::detail {

/// valijson's verdict on `document` under the bundled `schema`: no errors when it is valid; each
/// error `rows.schema.invalid` at the place valijson names. (src/engines/schema_engine.cpp)
std::vector<Error> schema_engine(SchemaId schema, const Json& document);

}  // namespace sediment::rows::detail
