// The image and audio files a trajectory names (atif.hpp).
#include <filesystem>

#include "sediment/rows/atif.hpp"
#include "detail/atif_parts.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "detail/text.hpp"

namespace sediment::rows {
namespace {

// The path of a media part's source, and which kind of file it is.
std::pair<const std::string*, const char*> file_of(const AtifImageSource& source) { return {&source.path, "image"}; }
std::pair<const std::string*, const char*> file_of(const AtifSource& source) {
    if (const auto* audio = std::get_if<AtifAudioSource>(&source)) return {&audio->path, "audio"};
    return file_of(std::get<AtifImageSource>(source));
}

template <class Trajectory>
std::vector<Error> missing(const Trajectory& t, const std::string& folder) {
    std::vector<Error> errors;
    const std::filesystem::path dir = folder.empty() ? "." : folder;
    detail::for_each_part(t, [&](const auto& part, const std::string& at) {
        if (!part.source || part.source->is_null()) return;
        const auto [path, kind] = file_of(**part.source);
        if (path->find("://") != std::string::npos) return;
        std::error_code ignored;
        if (std::filesystem::exists(dir / *path, ignored)) return;
        errors.push_back(Error{std::string("rows.atif.") + kind + "_file", at + "/source/path",
                               std::string(kind) + " file " + detail::quoted(*path, 200) + " does not exist (relative to the trajectory's folder)"});
    });
    return errors;
}

}  // namespace

std::vector<Error> missing_media_files(const HarborAtifTrajectory& trajectory, const std::string& folder) {
    return missing(trajectory, folder);
}

std::vector<Error> missing_media_files(const NemoGymAtifTrajectory& trajectory, const std::string& folder) {
    return missing(trajectory, folder);
}

}  // namespace sediment::rows
