// Reads JSON Schema (draft 2020-12) files into the intermediate model. Every problem is collected
// with its location; the caller reports them all and fails once.
#pragma once

#include <string>
#include <vector>

#include "ir.hpp"

namespace gen {

/// Loads the schemas in bundle order. Models with the same name in several schemas become one model
/// when their shapes agree; a constraint that only some of them carry is kept with the list of
/// schemas where it holds.
Module load_schemas(const std::vector<std::string>& files, std::vector<Problem>& problems);

}  // namespace gen
