// ATIF beyond the document itself: the image files a trajectory names.
//
//   auto t = sediment::rows::decode<sediment::rows::HarborAtifTrajectory>(text);
//   for (const auto& e : sediment::rows::missing_image_files(t, "runs/42")) std::cerr << e << "\n";
#pragma once

#include <string>
#include <vector>

#include "error.hpp"
#include "generated/models.hpp"

namespace sediment::rows {

/// What Harbor's validator checks of a trajectory file beside its model: every image content part's
/// `source.path` in `steps[*].message` and `steps[*].observation.results[*].content` names a file that
/// exists, relative to `folder` (the trajectory file's folder; an absolute path stands as it is). A
/// path containing "://" is a URL and is not checked; nor are embedded subagent trajectories (Harbor's
/// validator does not look into them). One error, `rows.atif.image_file`, per missing file, at the
/// path's JSON Pointer.
std::vector<Error> missing_image_files(const HarborAtifTrajectory& trajectory, const std::string& folder);

/// The same for a trajectory of NeMo Gym's v1.7 subset.
std::vector<Error> missing_image_files(const NemoGymAtifTrajectory& trajectory, const std::string& folder);

}  // namespace sediment::rows
