// The fields of each kind of ATIF object, read from a bundled schema (atif or atif-v1.7): which keys
// exist, what scalar each holds, whether it may be null, its minimum. `repair` takes its field rules
// from here, so that the schema stays the one place they are written. Internal; not installed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sediment/rows/versions.hpp"

namespace sediment::rows::repair_detail {

/// The kinds of object an ATIF trajectory holds.
enum class Role { trajectory, agent, step, tool_call, observation, result, metrics, final_metrics, part, image_source,
                  audio_source, subagent_ref, count };

/// What a field holds, as far as repair needs to know.
enum class Scalar { string, integer, number, boolean, none };

struct Field {
    Scalar scalar = Scalar::none;       ///< a scalar field's type (an enum of strings: string)
    Scalar items = Scalar::none;        ///< an array of scalars: their type
    bool array = false;                 ///< an array (of `items`, or of objects)
    bool objects = false;               ///< an array of objects (a single object may stand for it)
    bool free_objects = false;          ///< an array of free-form objects (agent.tool_definitions)
    bool nullable = false;              ///< optional: absent and null mean the same
    std::optional<double> minimum;      ///< of the value, or of each item
};

struct Definition {
    bool known = false;  ///< the schema models this role (the subset's subagent references are free-form)
    std::vector<std::pair<std::string, Field>> fields;
    bool has_extra = false;
    /// The field called `key`, or nullptr for a key the object does not have.
    const Field* field(std::string_view key) const {
        for (const auto& [name, f] : fields)
            if (name == key) return &f;
        return nullptr;
    }
};

/// Each role's definition in the bundled schema `schema` (read once, then shared).
const Definition& definition(SchemaId schema, Role role);

}  // namespace sediment::rows::repair_detail
