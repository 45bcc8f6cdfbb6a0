// ATIF beyond the document itself: the image and audio files a trajectory names.
//
//   auto t = sediment::rows::decode<sediment::rows::HarborAtifTrajectory>(text);
//   for (const auto& e : sediment::rows::missing_media_files(t, "runs/42")) std::cerr << e << "\n";
#pragma once

#include <string>
#include <vector>

#include "error.hpp"
#include "generated/models.hpp"

namespace sediment::rows {

/// What Harbor's validator checks of a trajectory file beside its model: every media content part's
/// `source.path` in `steps[*].message` and `steps[*].observation.results[*].content` names a file that
/// exists, relative to `folder` (the trajectory file's folder; an absolute path stands as it is): an
/// image's, and from ATIF-v1.8 an audio part's. A path containing "://" is a URL and is not checked;
/// nor are embedded subagent trajectories (Harbor's validator does not look into them). One error per
/// missing file, `rows.atif.image_file` or `rows.atif.audio_file`, at the path's JSON Pointer.
std::vector<Error> missing_media_files(const HarborAtifTrajectory& trajectory, const std::string& folder);

/// The same for a trajectory of NeMo Gym's v1.7 subset (images only: it has no audio).
std::vector<Error> missing_media_files(const NemoGymAtifTrajectory& trajectory, const std::string& folder);

/// The former name of missing_media_files(), kept for existing callers.
template <class Trajectory>
std::vector<Error> missing_image_files(const Trajectory& trajectory, const std::string& folder) {
    return missing_media_files(trajectory, folder);
}

}  // namespace sediment::rows
