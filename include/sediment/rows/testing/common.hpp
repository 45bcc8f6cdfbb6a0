// What the Catch2 and GoogleTest helpers (catch2.hpp, gtest.hpp) share; includes no test framework.
#pragma once

#include <string>
#include <vector>

#include "../decode.hpp"
#include "../print.hpp"
#include "../versions.hpp"

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

/// What the matchers check text against: model T under `schema` (by default T's own; NemoGymResponse of
/// nemo-gym-response.v3, say).
template <class T>
struct Target {
    SchemaId schema = document_traits<T>::schema;  ///< the schema whose rules apply

    /// The typed verdict on `text`.
    std::vector<Error> validate(const std::string& text, const Limits& limits) const { return rows::validate<T>(text, schema, limits).errors; }
    /// "NemoGymRolloutRow (nemo-gym-rollout.v2)"
    std::string description() const { return name() + " (" + std::string(schema_info(schema).name) + ")"; }
    /// "NemoGymRolloutRow"
    std::string name() const { return std::string(document_traits<T>::name); }
};

/// A rollout row of any version, read as the version it names.
template <>
struct Target<AnyRolloutRow> {
    /// The typed verdict on `text`.
    std::vector<Error> validate(const std::string& text, const Limits& limits) const {
        return rows::validate("nemo-gym-rollout", text, limits).errors;
    }
    /// "AnyRolloutRow (nemo-gym-rollout, of the version it names)"
    std::string description() const { return name() + " (nemo-gym-rollout, of the version it names)"; }
    /// "AnyRolloutRow"
    std::string name() const { return "AnyRolloutRow"; }
};

/// `has an error at "/p" containing "part"`, or `has no error ...`.
inline std::string error_description(const std::string& pointer, const std::string& part, bool negated = false) {
    return std::string(negated ? "has no error" : "has an error") + " at \"" + pointer + "\" containing \"" + part + "\"";
}

}  // namespace sediment::rows::detail
