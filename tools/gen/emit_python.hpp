// The Python emitter: TypedDicts of every model, for type checkers (sediment_rows/types.py).
#pragma once

#include <string>

#include "ir.hpp"

namespace gen {

/// sediment_rows/types.py: a TypedDict per model, the string enums as Literal types, the unions, the
/// unversioned names, and the overloads that type loads() by schema name.
std::string emit_python_types(const Module& module);

}  // namespace gen
