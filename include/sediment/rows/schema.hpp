// The bundled schemas: their names and their exact bytes. validate(..., Engine::schema) (decode.hpp)
// checks a document against one with valijson, independently of the typed models. valijson 1.0 runs
// with three corrections so that it answers exactly what draft 2020-12 says: `pattern` runs over code
// points (std::regex cannot compile the create-params pattern), `format: date-time` is checked as
// RFC 3339 with real calendar dates, and numbers are read in the typed models' domain (an integral
// number such as 3.0 is an integer; integers hold 64 bits).
#pragma once

#include <string_view>

#include "error.hpp"
#include "generated/schemas.hpp"
#include "json.hpp"

namespace sediment::rows {

/// The schema file's exact bytes, compiled into the library.
std::string_view schema_text(SchemaId id) noexcept;

/// The bundled schema called `name` ("nemo-gym-rollout.v2"), or nullptr.
constexpr const SchemaInfo* find_schema(std::string_view name) noexcept {
    for (const SchemaInfo& s : kSchemas)
        if (s.name == name) return &s;
    return nullptr;
}

constexpr const SchemaInfo& schema_info(SchemaId id) noexcept { return kSchemas[static_cast<int>(id)]; }

/// How a schema's documents read decimal literals: exactly in the ATIF v1.7 subset (NeMo Gym's
/// loader), as the nearest double elsewhere (Python's json, as Sediment and Harbor read them).
constexpr Decimals decimals_of(SchemaId id) noexcept {
    return schema_info(id).exact_decimals ? Decimals::exact : Decimals::nearest;
}

}  // namespace sediment::rows
