// The image and audio files a trajectory names (atif.hpp).
#include <filesystem>

#include "sediment/rows/atif.hpp"
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

template <class Content>
void check_content(const Content& content, const std::string& at, const std::filesystem::path& folder, std::vector<Error>& errors) {
    using Part = typename std::variant_alternative_t<1, Content>::value_type;
    const auto* parts = std::get_if<std::vector<Part>>(&content);
    if (!parts) return;
    for (std::size_t i = 0; i < parts->size(); ++i) {
        const Part& part = (*parts)[i];
        if (!part.source || part.source->is_null()) continue;
        const auto [path, kind] = file_of(**part.source);
        if (path->find("://") != std::string::npos) continue;
        std::error_code ignored;
        if (std::filesystem::exists(folder / *path, ignored)) continue;
        errors.push_back(Error{std::string("rows.atif.") + kind + "_file", at + "/" + std::to_string(i) + "/source/path",
                               std::string(kind) + " file " + detail::quoted(*path, 200) + " does not exist (relative to the trajectory's folder)"});
    }
}

template <class Trajectory>
std::vector<Error> missing(const Trajectory& t, const std::string& folder) {
    std::vector<Error> errors;
    const std::filesystem::path dir = folder.empty() ? "." : folder;
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const auto& step = t.steps[i];
        const std::string at = "/steps/" + std::to_string(i);
        check_content(step.message, at + "/message", dir, errors);
        if (!step.observation || step.observation->is_null()) continue;
        const auto& results = (*step.observation)->results;
        for (std::size_t k = 0; k < results.size(); ++k)
            if (results[k].content && !results[k].content->is_null())
                check_content(**results[k].content, at + "/observation/results/" + std::to_string(k) + "/content", dir, errors);
    }
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
