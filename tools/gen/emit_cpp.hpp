// The C++ emitter: model headers (types, decoders, encoders) and the embedded-schema source.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir.hpp"

namespace gen {

/// Generated headers by file name (schemas.hpp, models.hpp, read.hpp, write.hpp).
std::map<std::string, std::string> emit_headers(const Module& module, std::vector<Problem>& problems);

/// A C++ source defining `sediment::rows::schema_text(SchemaId)` over the exact bytes of each schema.
std::string emit_embedded_schemas(const Module& module, const std::vector<std::string>& schema_bytes);

}  // namespace gen
