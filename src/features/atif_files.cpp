// The image files a trajectory names (atif.hpp).
#include <filesystem>

#include "sediment/rows/atif.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "detail/text.hpp"

namespace sediment::rows {
namespace {

void check_content(const AtifContent& content, const std::string& at, const std::filesystem::path& folder,
                   std::vector<Error>& errors) {
    const auto* parts = std::get_if<std::vector<AtifContentPart>>(&content);
    if (!parts) return;
    for (std::size_t i = 0; i < parts->size(); ++i) {
        const AtifContentPart& part = (*parts)[i];
        if (part.type != AtifContentPartType::image || !part.source || part.source->is_null()) continue;
        const std::string& path = (**part.source).path;
        if (path.find("://") != std::string::npos) continue;
        std::error_code ignored;
        if (std::filesystem::exists(folder / path, ignored)) continue;
        errors.push_back(Error{"rows.atif.image_file", at + "/" + std::to_string(i) + "/source/path",
                               "image file " + detail::quoted(path, 200) + " does not exist (relative to the trajectory's folder)"});
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

std::vector<Error> missing_image_files(const HarborAtifTrajectory& trajectory, const std::string& folder) {
    return missing(trajectory, folder);
}

std::vector<Error> missing_image_files(const NemoGymAtifTrajectory& trajectory, const std::string& folder) {
    return missing(trajectory, folder);
}

}  // namespace sediment::rows
