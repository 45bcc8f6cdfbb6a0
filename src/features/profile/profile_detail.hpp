// What the profile writer and verify_profile() share (src/features/profile/).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows/profile.hpp"

namespace sediment::rows::detail {

/// 64 lowercase hex digits.
std::string hex(const std::array<unsigned char, 32>& digest);

/// "train" or "eval".
std::string_view split_name(Split s);

/// Throws ProfileError with Sediment's message unless `row` is a canonical row of `p` that Sediment's
/// strict model reads back unchanged, on side `split` (compatibility.py _validate_canonical()).
void check_canonical(const Profile& p, const Json& row, Split split);

/// Sorts rows as aligned_rows() does: by split name ("eval" first), the data row's digest, then the
/// digest form of the evidence without its row_sha256 (evidence_key()).
void sort_rows(std::vector<ProfileRow>& rows);
std::string evidence_key(const Json& evidence);

/// The manifest's diagnostics of rows (their evidence, splits and data rows), and the count of exact
/// prompts in both train and eval.
Json diagnostics(const std::vector<const Json*>& evidence, const std::vector<Split>& splits, const std::vector<const Json*>& data,
                 std::size_t& overlap);

/// Python's str() of a number: a reward's key in reward_counts ("1.0").
std::string python_str(const Json& v);

}  // namespace sediment::rows::detail
