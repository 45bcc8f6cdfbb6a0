// What the Catch2 and GoogleTest helpers (catch2.hpp, gtest.hpp) share; includes no test framework.
#pragma once

#include <string>
#include <vector>

#include "../decode.hpp"
#include "../print.hpp"

namespace sediment::rows::detail {

/// "[id] (pointer) message" of the first `max` errors, "; " between them, then how many more.
inline std::string first_errors(const std::vector<Error>& errors, std::size_t max = 3) {
    std::string text;
    for (std::size_t i = 0; i < errors.size() && i < max; ++i) text += (i ? "; " : "") + to_string(errors[i]);
    if (errors.size() > max) text += "; and " + std::to_string(errors.size() - max) + " more";
    return text;
}

/// Whether `errors` holds one at exactly `pointer` whose id or message contains `part`.
inline bool has_error(const std::vector<Error>& errors, const std::string& pointer, const std::string& part) {
    for (const Error& e : errors)
        if (e.pointer == pointer && (e.id.find(part) != std::string::npos || e.message.find(part) != std::string::npos))
            return true;
    return false;
}

/// "NemoGymRolloutRow (nemo-gym-rollout.v2)"
template <class T>
std::string model_description() {
    return std::string(document_traits<T>::name) + " (" + std::string(schema_info(document_traits<T>::schema).name) + ")";
}

/// `has an error at "/p" containing "part"`, or `has no error ...`.
inline std::string error_description(const std::string& pointer, const std::string& part, bool negated = false) {
    return std::string(negated ? "has no error" : "has an error") + " at \"" + pointer + "\" containing \"" + part + "\"";
}

}  // namespace sediment::rows::detail
