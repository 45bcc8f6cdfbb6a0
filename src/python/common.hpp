// What the Python module's calls share: checks of their arguments, and errors as plain values.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

#include <sediment/rows.hpp>

#include "values.hpp"

namespace sediment_rows_python {

/// TypeError when a call's arguments are swapped: `data` is a str naming a schema, and one of `names`
/// (the schema arguments) is not a schema's name.
inline void check_order(const py::handle& data, const py::args& names) {
    const auto is_name = [](const py::handle& h) {
        return py::isinstance<py::str>(h) && !rows::schemas_named(h.cast<std::string>()).empty();
    };
    if (!is_name(data)) return;
    for (const py::handle& name : names)
        if (!is_name(name))
            throw py::type_error("the arguments are (data, schema): '" + data.cast<std::string>() + "' is a schema's name");
}

/// The names validate() accepts: every bundled schema, and each schema's name without a version; a
/// call with its arguments swapped gets check_order()'s TypeError.
inline void check_name(std::string_view schema, const py::handle& data = py::none()) {
    if (!rows::schemas_named(schema).empty()) return;
    check_order(data, py::make_tuple(py::str(std::string(schema))));
    throw py::value_error(rows::unknown_schema_message(schema) + " (see schemas())");
}

/// Why lint refuses `schema`, a known name: it is no family of Sediment's rows (rows::lints()).
inline std::string lint_refusal(std::string_view schema) {
    return "lint reads Sediment's rows: '" + std::string(schema) + "' is none of nemo-gym-rollout, sft-sample, dpo-pair, diff-sft-sample, "
           "recovery-row, sediment-rlvr-rollout, sediment-rlvr-task, swe-bench-task (each with or without its version) or 'any'";
}

/// An error as plain Python values, (id, pointer, message): what a Dask task returns, which pickles anywhere.
inline py::tuple plain(const rows::Error& e) { return py::make_tuple(py_text(e.id), py_text(e.pointer), py_text(e.message)); }

/// The bytes of a bytes-like object (bytes, or a view of a reused buffer): TypeError unless contiguous.
inline std::string_view contiguous(const py::buffer& data) {
    const py::buffer_info bytes = data.request();
    if (bytes.ndim != 1 || bytes.strides[0] != 1) throw py::type_error("data must be contiguous bytes");
    return {static_cast<const char*>(bytes.ptr), static_cast<std::size_t>(bytes.size)};
}

/// The Style a call names: "compact" or "sediment" (ValueError otherwise).
inline rows::Style style_of(std::string_view style) {
    if (style == "compact") return rows::Style::compact;
    if (style == "sediment") return rows::Style::sediment;
    throw py::value_error("style is 'compact' or 'sediment'");
}

}  // namespace sediment_rows_python
