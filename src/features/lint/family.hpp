// The rules within one row of Sediment's other families (family.cpp), for lint.cpp.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "sediment/rows/lint.hpp"

namespace sediment::rows {

/// A key of SessionFacts for the bytes `value`: two 64-bit digests of them (features/lint/digest.hpp),
/// what a JSON string of them gets in a prompt's key.
FactKey fact_key(std::string_view value);

/// Where a row of `family` (another family than the rollout rows) holds its identity
/// (SessionFacts::identity): where a finding about a second copy goes.
std::string_view identity_pointer(std::string_view family);

/// Lints `text` as a row of `name` (a family's name, with or without a version, or "any"): when it
/// is schema-valid, the version it was read as, the findings of the rules within the row appended and
/// the facts the rules across rows take from it filled in; otherwise nothing, its errors appended. A
/// rollout row (read under "any") is only checked: its version is returned, with no finding and no fact.
/// `padded`: simdjson's padding follows the text, which is then parsed where it is.
std::optional<SchemaId> lint_family_text(std::string_view name, std::string_view text, bool padded, std::vector<Error>& findings,
                                         SessionFacts& facts, const LintOptions& options, const Limits& limits);

}  // namespace sediment::rows
