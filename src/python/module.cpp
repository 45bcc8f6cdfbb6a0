// The Python module's native part, sediment_rows._native: a thin binding over the C++ library. Every
// call that reads a document releases the GIL; the library keeps no shared mutable state, so the
// module is safe to use from several threads. The package (sediment_rows/__init__.py) re-exports it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <sediment/rows.hpp>

#include "run.hpp"
#include "values.hpp"

namespace py = pybind11;
namespace rows = sediment::rows;
namespace cli = sediment_rows_cli;
using namespace sediment_rows_python;

namespace {

/// TypeError when a call's arguments are swapped: `data` is a str naming a schema, and one of `names`
/// (the schema arguments) is not a schema's name.
void check_order(const py::handle& data, const py::args& names) {
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
void check_name(std::string_view schema, const py::handle& data = py::none()) {
    if (!rows::schemas_named(schema).empty()) return;
    check_order(data, py::make_tuple(py::str(std::string(schema))));
    throw py::value_error(rows::unknown_schema_message(schema) + " (see schemas())");
}

/// An error as plain Python values, (id, pointer, message): what a Dask task returns, which pickles anywhere.
py::tuple plain(const rows::Error& e) { return py::make_tuple(py_text(e.id), py_text(e.pointer), py_text(e.message)); }

/// The bytes of a bytes-like object (bytes, or a view of a reused buffer): TypeError unless contiguous.
std::string_view contiguous(const py::buffer& data) {
    const py::buffer_info bytes = data.request();
    if (bytes.ndim != 1 || bytes.strides[0] != 1) throw py::type_error("data must be contiguous bytes");
    return {static_cast<const char*>(bytes.ptr), static_cast<std::size_t>(bytes.size)};
}

/// Each document of a block of whole lines of a JSONL file, or the block as one document (`whole`), to
/// `take(document, line)`, the lines numbered from `first_line`; blank lines are skipped, as by the CLI.
/// The number of newlines in the block, which numbers the next block's first line.
template <class Take>
std::size_t each_document(std::string_view text, std::size_t first_line, bool whole, Take&& take) {
    if (whole) return take(text, first_line), 0;
    std::size_t newlines = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = text.substr(start, end - start);
        if (!cli::blank_line(line)) take(line, first_line + newlines);
        newlines += end < text.size();
        start = end + 1;
    }
    return newlines;
}

/// A failed document's errors, kept with its line; the first gets the CLI's hint on a line that holds
/// part of a pretty-printed document.
void keep_errors(std::vector<rows::Error> found, std::string_view document, std::size_t line, bool whole,
                 std::vector<std::pair<std::size_t, rows::Error>>& errors) {
    if (!whole) found.front().message += cli::layout_hint(document, line);
    for (rows::Error& e : found) errors.emplace_back(line, std::move(e));
}

py::list plain_errors(const std::vector<std::pair<std::size_t, rows::Error>>& errors) {
    py::list out;  // plain values: a task's result pickles anywhere
    for (const auto& [line, e] : errors) out.append(py::make_tuple(line, plain(e)));
    return out;
}

/// ValueError unless `job` can run from `source` to `target` as the CLI's command of that name would;
/// for upgrade, the schema it goes to, and an empty `source` becomes the one the CLI reads by default.
rows::SchemaId check_rewrite(std::string_view job, std::string& source, const std::string& target) {
    if (job == "format") return check_name(source), rows::SchemaId{};
    if (job == "convert") {
        try {
            rows::check_conversion(source, target);
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
        return rows::SchemaId{};
    }
    if (job != "upgrade") throw py::value_error("job is 'format', 'upgrade' or 'convert'");
    const rows::SchemaInfo* to = rows::find_schema(target);
    if (!to) throw py::value_error("upgrade goes to a versioned schema: unknown schema '" + target + "' (see schemas())");
    if (source.empty() && (source = cli::upgrade_source(*to)).empty())
        throw py::value_error("upgrade needs source: " + std::string(to->base) + " documents do not name their version");
    check_name(source);
    if (const std::string refusal = cli::upgrade_refusal(source, *to); !refusal.empty()) throw py::value_error(refusal);
    return to->id;
}

/// The documents of files read by the CLI's engine (plain or gzip, on `jobs` threads) on a thread of
/// its own, handed to Python in input order, batch by batch: read(). Each document is decoded and
/// re-encoded compact for PythonBuilder. The reading thread never touches Python objects.
class Reader {
public:
    Reader(std::vector<std::string> files, std::string schema, unsigned jobs, bool whole_files)
        : files_(std::move(files)), schema_(std::move(schema)) {
        cli::RunOptions options;
        options.jobs = jobs;
        options.progress = false;
        options.whole_files = whole_files;
        thread_ = std::thread([this, options] {
            cli::run_documents(files_, options, [this](const cli::Document& d, cli::Outcome& out) {
                out.finding.errors = rows::format(schema_, d.text, rows::Style::compact, out.out).errors;
                if (!out.finding.errors.empty()) out.out.clear();
            }, [this](cli::Outcome& out) {
                if (out.kind == cli::Document::end_of_file) return true;
                std::unique_lock<std::mutex> lock(mutex_);
                space_.wait(lock, [&] { return closed_ || queue_.empty() || (queue_.size() < kQueued && queued_bytes_ < kQueuedBytes); });
                if (closed_) return false;
                queued_bytes_ += out.out.size();
                queue_.push_back(std::move(out));
                ready_.notify_one();
                return true;
            });
            std::lock_guard<std::mutex> lock(mutex_);
            finished_ = true;
            ready_.notify_one();
        });
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    ~Reader() { close(); }

    /// The next documents, as (line, value or None, errors) tuples: an empty list at the end. Raises
    /// OSError for a file that cannot be read, after the documents read before it.
    py::list next_batch() {
        std::deque<cli::Outcome> batch;
        {
            py::gil_scoped_release unlocked;
            std::unique_lock<std::mutex> lock(mutex_);
            ready_.wait(lock, [&] { return finished_ || !queue_.empty(); });
            while (!queue_.empty() && batch.size() < kBatch) {  // values for a few documents at a time
                queued_bytes_ -= queue_.front().out.size();
                batch.push_back(std::move(queue_.front()));
                queue_.pop_front();
            }
            space_.notify_one();
        }
        py::list out;
        const NoCollection quiet;
        for (std::size_t i = 0; i < batch.size(); ++i) {
            cli::Outcome& o = batch[i];
            if (o.kind == cli::Document::io_error) {
                if (out.size() > 0) {  // the documents before it first; the error, and what follows, at the next call
                    std::lock_guard<std::mutex> lock(mutex_);
                    for (std::size_t j = i; j < batch.size(); ++j) queued_bytes_ += batch[j].out.size();
                    queue_.insert(queue_.begin(), std::make_move_iterator(batch.begin() + static_cast<std::ptrdiff_t>(i)),
                                  std::make_move_iterator(batch.end()));
                    break;
                }
                close();
                PyErr_SetObject(PyExc_OSError, py_text(o.message).ptr());
                throw py::error_already_set();
            }
            py::object value = py::none();
            if (o.finding.errors.empty()) value = PythonBuilder(o.out).value();
            out.append(py::make_tuple(o.finding.line, std::move(value), std::move(o.finding.errors)));
        }
        return out;
    }

    /// Stops reading (what is queued is dropped) and waits for the reading thread.
    void close() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closed_ = true;
        }
        space_.notify_all();
        if (thread_.joinable()) {
            py::gil_scoped_release unlocked;
            thread_.join();
        }
    }

private:
    // what is read ahead of Python, at most (beside the engine's batches in flight): a full queue
    // waits for the loop to take it
    static constexpr std::size_t kQueued = 8192, kQueuedBytes = 16u << 20;
    static constexpr std::size_t kBatch = 64;  // documents made Python values at once

    std::vector<std::string> files_;
    std::string schema_;
    std::mutex mutex_;
    std::condition_variable ready_, space_;
    std::deque<cli::Outcome> queue_;
    std::size_t queued_bytes_ = 0;  // of the values' text in queue_
    bool closed_ = false, finished_ = false;
    std::thread thread_;
};

/// validate_file()'s verdicts: counts, and every error with its file and line.
struct FileVerdicts {
    std::size_t valid = 0, invalid = 0;
    std::vector<std::tuple<std::string, std::size_t, rows::Error>> errors;
    std::string io_error;  ///< a file that could not be read, and why
};

/// Linter: the schema its rows are read as, and the linter.
struct PyLinter {
    PyLinter(std::string s, const rows::LintOptions& options) : schema(std::move(s)), linter(options) {}
    std::string schema;
    rows::Linter linter;
};

rows::Style style_of(std::string_view style) {
    if (style == "compact") return rows::Style::compact;
    if (style == "sediment") return rows::Style::sediment;
    throw py::value_error("style is 'compact' or 'sediment'");
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Strict models of NeMo Gym rollout rows and ATIF trajectories (the C++ library sediment-rows).";
    m.attr("__version__") = SEDIMENT_ROWS_VERSION;

    py::class_<rows::Error>(m, "Error", "One error: where (a JSON Pointer), why, and its stable id.")
        .def_property_readonly("id", [](const rows::Error& e) { return py_text(e.id); },
                               "The error's stable id, e.g. 'rows.decode.unknown_key'.")
        .def_property_readonly("pointer", [](const rows::Error& e) { return py_text(e.pointer); },
                               "RFC 6901 JSON Pointer of the value at fault; '' for the whole document.")
        .def_property_readonly("message", [](const rows::Error& e) { return py_text(e.message); },
                               "What is wrong, e.g. \"unknown key 'debug'\"; bytes of the input that are not UTF-8 show as \\xNN.")
        .def("__eq__", [](const rows::Error& a, const rows::Error& b) { return a == b; })
        .def("__repr__", [](const rows::Error& e) {
            return "Error(id=" + std::string(py::repr(py_text(e.id))) + ", pointer=" + std::string(py::repr(py_text(e.pointer))) +
                   ", message=" + std::string(py::repr(py_text(e.message))) + ")";
        })
        .def("__str__", [](const rows::Error& e) { return py_text(rows::to_string(e)); })
        .def(py::pickle([](const rows::Error& e) { return plain(e); },
                        [](const py::tuple& t) {
                            return rows::Error{t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<std::string>()};
                        }));

    m.def("schemas", [] {
        std::vector<std::string> names;
        for (const rows::SchemaInfo& info : rows::kSchemas) names.emplace_back(info.name);
        return names;
    }, "The bundled schemas' names, e.g. 'nemo-gym-rollout.v2', in bundle order.");

    m.def("_check_order", [](const py::object& data, const py::args& names) { check_order(data, names); }, py::arg("data"),
          "TypeError when a call's arguments are swapped: `data` names a schema, and one of `names` does not.");

    m.def("schema_text", [](std::string_view name) {
        const rows::SchemaInfo* info = rows::find_schema(name);
        if (!info) throw py::value_error("unknown schema '" + std::string(name) + "' (see schemas())");
        return py::bytes(std::string(rows::schema_text(info->id)));
    }, py::arg("name"), "The exact bytes of a bundled schema (JSON Schema draft 2020-12).");

    m.def("validate", [](const py::object& data, std::string_view schema, std::string_view engine) {
        check_name(schema, data);
        if (engine != "typed" && engine != "schema") throw py::value_error("engine is 'typed' or 'schema'");
        const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
        rows::Validated checked;
        {
            py::gil_scoped_release unlocked;
            checked = rows::validate(schema, text, engine == "typed" ? rows::Engine::typed : rows::Engine::schema);
        }
        return checked.errors;
    }, py::arg("data"), py::arg("schema") = "nemo-gym-rollout", py::arg("engine") = "typed",
       "The verdict on one JSON document (bytes or str) under `schema`: a list of Error, empty when it is valid.\n"
       "`schema` is a bundled schema's name, or a name without a version ('nemo-gym-rollout', the default: the\n"
       "version each row names). engine='typed' decodes into the C++ models with every rule; engine='schema' runs the JSON\n"
       "Schema engine (valijson) over the bundled schema. No Python object is built for the document.");

    m.def("lint", [](const py::object& data, std::string_view schema, double eval_fraction) {
        check_name(schema, data);
        const rows::LintOptions options{eval_fraction};
        rows::check_lint_options(options);
        const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
        rows::Validated checked;
        {
            py::gil_scoped_release unlocked;
            checked = rows::lint(schema, text, options);
        }
        return checked.errors;
    }, py::arg("data"), py::arg("schema") = "nemo-gym-rollout", py::arg("eval_fraction") = 0.1,
       "The findings of one rollout row (bytes or str) under the rules within a row (docs/lint.md): its\n"
       "schema errors when it is not schema-valid, else its lint findings (ids 'rows.lint.*'); empty when it\n"
       "is what Sediment's derivation rules produce. `schema` is 'nemo-gym-rollout' or one of its versions.");

    py::class_<PyLinter>(m, "Linter",
                         "The rules within a row and across rows (docs/lint.md), over rows in input order: a few facts\n"
                         "per session are kept, never a row.")
        .def(py::init([](std::string_view schema, double eval_fraction, bool sessions_complete) {
                 check_name(schema);
                 return std::make_unique<PyLinter>(std::string(schema), rows::LintOptions{eval_fraction, sessions_complete});
             }),
             py::arg("schema") = "nemo-gym-rollout", py::arg("eval_fraction") = 0.1, py::arg("sessions_complete") = false)
        .def("add", [](PyLinter& l, const py::object& data) {
                 const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
                 std::vector<rows::Error> findings;  // the GIL stays held: one Linter is never used by two threads at once
                 rows::SessionFacts facts;
                 if (rows::lint(l.schema, text, findings, facts, l.linter.options())) l.linter.add(std::move(facts), findings);
                 return findings;
             }, py::arg("data"),
             "The findings of the next row: its schema errors, or its findings within the row and against the rows\n"
             "added before it.")
        .def("finish", [](PyLinter& l) {
                 std::vector<std::pair<std::size_t, rows::Error>> out;
                 for (rows::LintFinding& f : l.linter.finish()) out.emplace_back(f.line, std::move(f.error));
                 return out;
             },
             "After the last row: (row number from 1, Error) for each session whose segments are not 0..k-1\n"
             "(sessions_complete), at the session's first row.");

    m.def("_loads", [](std::string_view schema, const py::object& data) -> py::object {
        check_name(schema, data);
        const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
        // The fast path checks the text once and the value is built from its DOM; a document it does not
        // accept, or whose keys are not in the schema's order, is formatted compact and built from that.
        PyObject* value = nullptr;
        bool looked = false;
        {
            py::gil_scoped_release unlocked;
            rows::detail::fast_check_dom(schema, text, rows::Limits{}, false,
                                         [&](simdjson::dom::element root, const rows::detail::BigIntegers& big) {
                                             py::gil_scoped_acquire locked;
                                             const NoCollection quiet;
                                             value = DomBuilder(big).value(root);
                                             looked = true;
                                         });
        }
        if (looked) {
            if (!value) throw py::error_already_set();
            return py::make_tuple(true, py::reinterpret_steal<py::object>(value));
        }
        std::string compact;
        rows::Validated checked;
        {
            py::gil_scoped_release unlocked;
            checked = rows::format(schema, text, rows::Style::compact, compact);
        }
        if (!checked.errors.empty()) return py::make_tuple(false, checked.errors);
        const NoCollection quiet;
        return py::make_tuple(true, PythonBuilder(compact).value());
    }, py::arg("schema"), py::arg("data"), "loads() without the exception: (True, value) or (False, errors).");

    m.def("_dumps", [](std::string_view schema, const py::handle& value, std::string_view style) -> py::object {
        check_name(schema);
        const rows::Style s = style_of(style);
        // The value is written in the style asked for, and the fast path checks the text. A valid
        // document whose keys come in the schema's order is what format() would write (the fast path
        // takes only literals that the writer gives back as they are: no 3.0 for an integer, no marker
        // for a decimal), so the text is the answer; anything else is formatted as before.
        std::string text;
        JsonWriter writer(text, s);
        writer.value(value);
        writer.finish();
        if (!writer.errors.empty()) return py::make_tuple(false, writer.errors);
        text.reserve(text.size() + rows::kTextPadding);
        bool as_written = false;
        std::string out;
        rows::Validated checked;
        {
            py::gil_scoped_release unlocked;
            rows::detail::fast_check_dom(schema, text, rows::Limits{}, true,
                                         [&](simdjson::dom::element, const rows::detail::BigIntegers&) { as_written = true; });
            if (!as_written) checked = rows::format(schema, text, s, out);
        }
        if (as_written) return py::make_tuple(true, py::bytes(text));
        if (!checked.errors.empty()) return py::make_tuple(false, checked.errors);
        return py::make_tuple(true, py::bytes(out));
    }, py::arg("schema"), py::arg("value"), py::arg("style"), "dumps() without the exception: (True, bytes) or (False, errors).");

    py::class_<Reader>(m, "_Reader", "The documents of one file, read on every core (read()).")
        .def(py::init([](std::vector<std::string> files, std::string schema, unsigned jobs, bool whole_files) {
                 check_name(schema);
                 return std::make_unique<Reader>(std::move(files), std::move(schema), std::max(jobs, 1u), whole_files);
             }), py::arg("files"), py::arg("schema"), py::arg("jobs"), py::arg("whole_files"))
        .def("next_batch", &Reader::next_batch, "The next (line, value or None, errors) tuples; [] at the end.")
        .def("close", &Reader::close, "Stops reading.");

    m.def("_validate_files", [](const std::vector<std::string>& files, const std::string& schema, unsigned jobs, std::size_t max_errors,
                                bool whole_files) {
        check_name(schema);
        FileVerdicts v;
        {
            py::gil_scoped_release unlocked;
            cli::RunOptions options;
            options.jobs = std::max(jobs, 1u);
            options.progress = false;
            options.whole_files = whole_files;
            cli::run_documents(files, options, [&](const cli::Document& d, cli::Outcome& out) {
                out.finding.errors = rows::validate(schema, d.string_text()).errors;
            }, [&](cli::Outcome& out) {
                if (out.kind == cli::Document::io_error) v.io_error = out.message;
                if (out.kind != cli::Document::document) return v.io_error.empty();
                if (out.finding.errors.empty()) return ++v.valid, true;
                ++v.invalid;
                for (rows::Error& e : out.finding.errors)
                    if (v.errors.size() < max_errors) v.errors.emplace_back(*out.finding.path, out.finding.line, std::move(e));
                return true;
            });
        }
        if (!v.io_error.empty()) {
            PyErr_SetObject(PyExc_OSError, py_text(v.io_error).ptr());
            throw py::error_already_set();
        }
        py::list errors;
        for (auto& [file, line, e] : v.errors) errors.append(py::make_tuple(py_text(file), line, std::move(e)));
        return py::make_tuple(v.valid, v.invalid, errors);
    }, py::arg("files"), py::arg("schema"), py::arg("jobs"), py::arg("max_errors"), py::arg("whole_files"),
       "validate_file()'s work: (valid, invalid, [(file, line, Error)]) over `files`, in their order.");

    m.def("_validate_block", [](const std::string& schema, const py::buffer& data, std::size_t first_line, bool whole) {
        check_name(schema);
        const std::string_view text = contiguous(data);
        std::size_t newlines = 0, valid = 0, invalid = 0;
        std::vector<std::pair<std::size_t, rows::Error>> errors;
        {
            py::gil_scoped_release unlocked;
            newlines = each_document(text, first_line, whole, [&](std::string_view document, std::size_t line) {
                std::vector<rows::Error> found = rows::validate(schema, document).errors;
                if (found.empty()) return void(++valid);
                ++invalid;
                keep_errors(std::move(found), document, line, whole, errors);
            });
        }
        return py::make_tuple(newlines, valid, invalid, plain_errors(errors));
    }, py::arg("schema"), py::arg("data"), py::arg("first_line"), py::arg("whole"),
       "One block of whole lines of a JSONL file (or a whole .json document), any bytes-like object: (newlines, valid, invalid,\n"
       "[(line, (id, pointer, message))]), the lines numbered from `first_line`: plain values only. The Dask validation's task.");

    m.def("_rewrite_block", [](std::string_view job, std::string source, const std::string& target, std::string_view style,
                               bool lossy, const py::buffer& data, std::size_t first_line, bool whole) {
        const rows::Style s = style_of(style);
        const rows::SchemaId upgrade_to = check_rewrite(job, source, target);
        const std::string_view text = contiguous(data);
        std::size_t newlines = 0, ok = 0, failed = 0;
        std::string out;
        std::vector<std::pair<std::size_t, rows::Error>> errors;
        std::map<std::string, std::size_t> losses;
        {
            py::gil_scoped_release unlocked;
            const rows::ConvertOptions options{lossy};
            std::vector<rows::Error> found, dropped;
            std::string document_out;
            newlines = each_document(text, first_line, whole, [&](std::string_view document, std::size_t line) {
                found.clear();
                dropped.clear();
                document_out.clear();
                if (job == "format") {
                    found = rows::format(source, document, s, document_out).errors;
                } else if (job == "upgrade") {
                    rows::Upgraded up;
                    if (rows::upgrade(document, source, upgrade_to, up, found, s, options)) document_out = std::move(up.text), dropped = std::move(up.losses);
                } else {
                    rows::ConvertedText converted;
                    if (rows::convert(document, source, target, converted, found, s, options)) document_out = std::move(converted.text), dropped = std::move(converted.losses);
                }
                for (const rows::Error& loss : dropped) ++losses[rows::loss_kind(loss)];
                if (found.empty()) return void((++ok, out.append(document_out).push_back('\n')));
                ++failed;
                keep_errors(std::move(found), document, line, whole, errors);
            });
        }
        return py::make_tuple(newlines, ok, failed, py::bytes(out), plain_errors(errors), losses);
    }, py::arg("job"), py::arg("source"), py::arg("target"), py::arg("style"), py::arg("lossy"), py::arg("data"), py::arg("first_line"),
       py::arg("whole"),
       "One block of whole lines (or a whole document) rewritten as the CLI's `format`, `upgrade` or `convert` (`job`) writes it:\n"
       "(newlines, written, failed, bytes: a line for each document written, [(line, (id, pointer, message))], {loss kind: count}),\n"
       "plain values only. `format` reads under `source`; `upgrade` goes from `source` to `target`; `convert` likewise.\n"
       "The Dask jobs' task; an empty block checks the arguments (ValueError).");

    m.def("_loss_kind", [](const rows::Error& loss) { return py_text(rows::loss_kind(loss)); }, py::arg("loss"),
          "The kind of value a loss is (rows::loss_kind): 'timestamp', 'metrics', ..., 'ci_resolution', 'reward'.");

    m.def("_convert", [](std::string_view from, std::string_view to, const py::object& data, std::string_view style, bool lossy,
                         const py::object& metadata) -> py::object {
        const rows::Style s = style_of(style);
        const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
        std::optional<std::string_view> given;
        Text metadata_text;
        if (!metadata.is_none()) given = (metadata_text = text_of(metadata)).view;
        rows::ConvertedText out;
        std::vector<rows::Error> errors;
        try {
            py::gil_scoped_release unlocked;
            rows::convert(text, from, to, out, errors, s, rows::ConvertOptions{lossy}, given);
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
        if (!errors.empty()) return py::make_tuple(false, errors, out.metadata_fault);
        return py::make_tuple(true, py::bytes(out.text), out.losses);
    }, py::arg("source"), py::arg("target"), py::arg("data"), py::arg("style"), py::arg("lossy"), py::arg("metadata"),
       "convert() without the exception: (True, bytes, losses) or (False, errors, in_metadata).");

    m.def("_upgrade", [](std::string_view from, std::string_view to, const py::object& data, std::string_view style, bool lossy) -> py::object {
        const rows::Style s = style_of(style);
        const rows::SchemaInfo* target = rows::find_schema(to);
        if (!target) throw py::value_error("upgrade goes to a versioned schema: unknown schema '" + std::string(to) + "' (see schemas())");
        check_name(from);
        const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
        rows::Upgraded out;
        std::vector<rows::Error> errors;
        try {
            py::gil_scoped_release unlocked;
            rows::upgrade(text, from, target->id, out, errors, s, rows::ConvertOptions{lossy});
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
        if (!errors.empty()) return py::make_tuple(false, errors);
        return py::make_tuple(true, py::bytes(out.text), out.losses);
    }, py::arg("source"), py::arg("target"), py::arg("data"), py::arg("style"), py::arg("lossy"),
       "upgrade() without the exception: (True, bytes, losses) or (False, errors).");
}
