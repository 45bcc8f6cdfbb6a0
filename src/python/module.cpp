// The Python module's native part, sediment_rows._native: a thin binding over the C++ library. Every
// call that reads a document releases the GIL; the library keeps no shared mutable state, so the
// module is safe to use from several threads. The package (sediment_rows/__init__.py) re-exports it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

namespace py = pybind11;
namespace rows = sediment::rows;

namespace {

/// The UTF-8 bytes of a `bytes` or `str` argument, valid while `data` lives (both are immutable).
std::string_view text_of(const py::object& data) {
    if (PyBytes_Check(data.ptr())) {
        char* bytes = nullptr;
        Py_ssize_t size = 0;
        PyBytes_AsStringAndSize(data.ptr(), &bytes, &size);
        return {bytes, static_cast<std::size_t>(size)};
    }
    if (PyUnicode_Check(data.ptr())) {
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(data.ptr(), &size);
        if (!utf8) throw py::error_already_set();
        return {utf8, static_cast<std::size_t>(size)};
    }
    throw py::type_error("data must be bytes or str, not " + std::string(py::str(py::type::of(data).attr("__name__"))));
}

/// The names validate() accepts: every bundled schema, and each schema's name without a version.
void check_name(std::string_view schema) {
    if (rows::schemas_named(schema).empty()) throw py::value_error("unknown schema '" + std::string(schema) + "' (see schemas())");
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Strict models of NeMo Gym rollout rows and ATIF trajectories (the C++ library sediment-rows).";
    m.attr("__version__") = SEDIMENT_ROWS_VERSION;

    py::class_<rows::Error>(m, "Error", "One error: where (a JSON Pointer), why, and its stable id.")
        .def_readonly("id", &rows::Error::id, "The error's stable id, e.g. 'rows.decode.unknown_key'.")
        .def_readonly("pointer", &rows::Error::pointer, "RFC 6901 JSON Pointer of the value at fault; '' for the whole document.")
        .def_readonly("message", &rows::Error::message, "What is wrong, e.g. \"unknown key 'debug'\".")
        .def("__eq__", [](const rows::Error& a, const rows::Error& b) { return a == b; })
        .def("__repr__", [](const rows::Error& e) {
            return "Error(id=" + std::string(py::repr(py::str(e.id))) + ", pointer=" + std::string(py::repr(py::str(e.pointer))) +
                   ", message=" + std::string(py::repr(py::str(e.message))) + ")";
        })
        .def("__str__", [](const rows::Error& e) { return rows::to_string(e); });

    m.def("schemas", [] {
        std::vector<std::string> names;
        for (const rows::SchemaInfo& info : rows::kSchemas) names.emplace_back(info.name);
        return names;
    }, "The bundled schemas' names, e.g. 'nemo-gym-rollout.v2', in bundle order.");

    m.def("schema_text", [](std::string_view name) {
        const rows::SchemaInfo* info = rows::find_schema(name);
        if (!info) throw py::value_error("unknown schema '" + std::string(name) + "' (see schemas())");
        return py::bytes(std::string(rows::schema_text(info->id)));
    }, py::arg("name"), "The exact bytes of a bundled schema (JSON Schema draft 2020-12).");

    m.def("validate", [](std::string_view schema, const py::object& data, std::string_view engine) {
        check_name(schema);
        if (engine != "typed" && engine != "schema") throw py::value_error("engine is 'typed' or 'schema'");
        const std::string_view text = text_of(data);
        rows::Checked checked;
        {
            py::gil_scoped_release unlocked;
            checked = engine == "typed" ? rows::check(schema, text) : rows::validate(schema, text);
        }
        return checked.errors;
    }, py::arg("schema"), py::arg("data"), py::arg("engine") = "typed",
       "The verdict on one JSON document (bytes or str) under `schema`: a list of Error, empty when it is valid.\n"
       "`schema` is a bundled schema's name, or a name without a version ('nemo-gym-rollout': the version each\n"
       "row names). engine='typed' decodes into the C++ models with every rule; engine='schema' runs the JSON\n"
       "Schema engine (valijson) over the bundled schema. No Python object is built for the document.");
}
