// The loader's unions selected by keys (Variant::by_keys).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir.hpp"

namespace gen {

/// Makes `v` (its models named, no tag found) a union selected by the object's keys: named for what
/// its branches' names share (TrainerTextMessage, ..., TrainerToolMessage -> TrainerMessage), with the
/// property every branch requires as a const or enum string as its selector. `defs` is the schema's
/// $defs; a problem at `at` when two branches give a shared property different schemas.
void select_by_keys(Variant& v, const nlohmann::ordered_json& defs, const std::string& at, std::vector<Problem>& problems);

}  // namespace gen
