// The loader's unions of models: told apart by a tag, or selected by keys (Variant::by_keys).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir.hpp"

namespace gen {

/// The models an anyOf's branches name (`#/$defs/NAME`), nested anyOfs flattened, appended to `models`;
/// false when a branch is anything but a plain $ref into $defs.
bool union_refs(const nlohmann::ordered_json& any_of, std::vector<std::string>& models);

/// True when every branch of an anyOf (`branches`, null removed) is a plain $ref to a model of `defs`.
bool all_model_refs(const nlohmann::ordered_json& branches, const nlohmann::ordered_json& defs);

/// Chooses how `v` (its models named) tells its branches apart: by its tag, the last string-const
/// property of the first branch that every branch has, with distinct values; else select_by_keys().
void select_branches(Variant& v, const nlohmann::ordered_json& defs, const std::string& at, std::vector<Problem>& problems);

/// Makes `v` (its models named, no tag found) a union selected by the object's keys: named for what
/// its branches' names share (TrainerTextMessage, ..., TrainerToolMessage -> TrainerMessage), with the
/// property every branch requires as a const or enum string as its selector. `defs` is the schema's
/// $defs; a problem at `at` when two branches give a shared property different schemas.
void select_by_keys(Variant& v, const nlohmann::ordered_json& defs, const std::string& at, std::vector<Problem>& problems);

}  // namespace gen
