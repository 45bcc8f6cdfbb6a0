// The rules within one row of Sediment's other families (family.cpp), for lint.cpp.
#pragma once

#include <vector>

#include "sediment/rows/lint.hpp"

namespace sediment::rows {

/// Appends the findings of the rules within `row`, a schema-valid document of `schema` (a family other
/// than the rollout rows), and fills in the facts the rules across rows take from it.
void lint_family_row(const Json& row, SchemaId schema, std::vector<Error>& findings, SessionFacts& facts, const LintOptions& options);

}  // namespace sediment::rows
