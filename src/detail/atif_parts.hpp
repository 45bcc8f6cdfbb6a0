// The content parts of an ATIF trajectory's steps, walked with their JSON Pointers: what the media
// file check (src/features/atif_files.cpp) and the upgrade to the subset (src/features/upgrade.cpp,
// audio parts) both read. Internal; not installed.
#pragma once

#include <string>
#include <variant>

namespace sediment::rows::detail {

/// Calls `f(part, pointer)` for each content part of the steps of `t` (a trajectory of either model):
/// in each step's message (`/steps/i/message/k`) and each observation result's content
/// (`/steps/i/observation/results/j/content/k`), not in embedded subagent trajectories.
template <class Trajectory, class F>
void for_each_part(const Trajectory& t, F&& f) {
    const auto parts = [&](const auto& content, const std::string& at) {
        if (content.index() != 1) return;  // a string
        const auto& list = std::get<1>(content);
        for (std::size_t k = 0; k < list.size(); ++k) f(list[k], at + "/" + std::to_string(k));
    };
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const auto& step = t.steps[i];
        const std::string at = "/steps/" + std::to_string(i);
        parts(step.message, at + "/message");
        if (!step.observation || step.observation->is_null()) continue;
        const auto& results = (*step.observation)->results;
        for (std::size_t j = 0; j < results.size(); ++j)
            if (results[j].content && !results[j].content->is_null())
                parts(**results[j].content, at + "/observation/results/" + std::to_string(j) + "/content");
    }
}

}  // namespace sediment::rows::detail
