// The tasks of sediment_rows.dask, in C++: each reads one block of whole lines (or one whole document)
// with the GIL released and returns plain Python values, which pickle anywhere.
#pragma once

#include <pybind11/pybind11.h>

namespace sediment_rows_python {

/// Defines _validate_block, _rewrite_block, _lint_block and _lint_across on the module.
void bind_tasks(pybind11::module_& m);

}  // namespace sediment_rows_python
