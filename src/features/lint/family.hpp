// The rules within one row of Sediment's other families (family.cpp), for lint.cpp.
#pragma once

#include <string_view>
#include <vector>

#include "sediment/rows/lint.hpp"

namespace sediment::rows {

/// Appends the findings of the rules within the row `text`, a schema-valid document of `schema` (a
/// family other than the rollout rows) under `limits`, and fills in the facts the rules across rows take
/// from it. `padded`: simdjson's padding follows the text, which is then parsed where it is.
void lint_family_row(std::string_view text, bool padded, SchemaId schema, std::vector<Error>& findings, SessionFacts& facts,
                     const LintOptions& options, const Limits& limits);

}  // namespace sediment::rows
