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
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <sediment/rows.hpp>

#include "common.hpp"
#include "output.hpp"
#include "run.hpp"
#include "tasks.hpp"
#include "values.hpp"

namespace py = pybind11;
namespace rows = sediment::rows;
namespace cli = sediment_rows_cli;
using namespace sediment_rows_python;

namespace {

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

    /// The next documents, as (line, value or None, errors, file) tuples (the file as bytes): an empty
    /// list at the end. Raises
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
            if (o.finding.path != file_path_) file_ = py::bytes(*(file_path_ = o.finding.path));  // one object per file
            out.append(py::make_tuple(o.finding.line, std::move(value), std::move(o.finding.errors), file_));
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
    const std::string* file_path_ = nullptr;  // the file of the last document handed over, and its name
    py::object file_;
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
        for (const std::string_view name : rows::schema_names()) names.emplace_back(name);
        return names;
    }, "Every name a schema can be given, as `sediment-rows schema list` shows them: 'any', then every bundled\n"
       "schema by name and version ('nemo-gym-rollout.v4'), a family's name without a version ('nemo-gym-rollout':\n"
       "any version, each document read as the version it names) just before its versions.");

    m.def("_output_names", [](const std::vector<std::string>& paths, const std::vector<bool>& whole) {
        return cli::output_names(paths, whole);
    }, py::arg("paths"), py::arg("whole"),
       "Each input's output name below the output folder, as the CLI's --out names it (sediment_rows.dask).");

    m.def("_check_order", [](const py::object& data, const py::args& names) { check_order(data, names); }, py::arg("data"),
          "TypeError when a call's arguments are swapped: `data` names a schema, and one of `names` does not.");

    m.def("schema_text", [](std::string_view name) {
        try {
            return py::bytes(rows::schema_document(name));
        } catch (const std::invalid_argument& e) {
            throw py::value_error(std::string(e.what()) + " (see schemas())");
        }
    }, py::arg("name"),
       "The JSON Schema (draft 2020-12) of a name of schemas(): a bundled schema's exact bytes; for a family's name\n"
       "without a version, or 'any', a schema whose anyOf takes each schema it stands for, embedded as bundled.\n"
       "ValueError, with the nearest names, for an unknown one.");

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

    m.def("lint", [](const py::object& data, std::string_view schema, double eval_fraction, double min_confidence) {
        check_name(schema, data);
        if (!rows::lints(schema)) throw std::invalid_argument(lint_refusal(schema));
        rows::LintOptions options{eval_fraction};
        options.min_confidence = min_confidence;
        rows::check_lint_options(options);
        const Text data_text = text_of(data);
        const std::string_view text = data_text.view;
        rows::Validated checked;
        {
            py::gil_scoped_release unlocked;
            checked = rows::lint(schema, text, options);
        }
        return checked.errors;
    }, py::arg("data"), py::arg("schema") = "nemo-gym-rollout", py::arg("eval_fraction") = 0.1, py::arg("min_confidence") = 0.6,
       "The findings of one row (bytes or str) under the rules within a row (docs/lint.md): its schema errors\n"
       "when it is not schema-valid, else its lint findings (ids 'rows.lint.*'); empty when it is what Sediment's\n"
       "derivation rules produce. `schema` is a family of Sediment's rows (nemo-gym-rollout, sft-sample, dpo-pair,\n"
       "...), with or without its version, or 'any'.");

    py::class_<PyLinter>(m, "Linter",
                         "The rules within a row and across rows (docs/lint.md), over rows in input order: a few facts\n"
                         "per session are kept, never a row.")
        .def(py::init([](std::string_view schema, double eval_fraction, bool sessions_complete, double min_confidence,
                         std::size_t max_pairs_per_bucket) {
                 check_name(schema);
                 if (!rows::lints(schema)) throw std::invalid_argument(lint_refusal(schema));
                 rows::LintOptions options{eval_fraction, sessions_complete};
                 options.min_confidence = min_confidence, options.max_pairs_per_bucket = max_pairs_per_bucket;
                 return std::make_unique<PyLinter>(std::string(schema), options);
             }),
             py::arg("schema") = "nemo-gym-rollout", py::arg("eval_fraction") = 0.1, py::arg("sessions_complete") = false,
             py::arg("min_confidence") = 0.6, py::arg("max_pairs_per_bucket") = 3)
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
             "After the last row: (row number from 1, Error) for each row that differs from the value most of its\n"
             "session's rows hold, and for each session whose segments are not 0..k-1 (sessions_complete), at the\n"
             "session's first row; in row order.");

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
                                         [&](simdjson::dom::element root, const rows::detail::BigIntegers& big, rows::detail::TokenStarts) {
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
                                         [&](simdjson::dom::element, const rows::detail::BigIntegers&, rows::detail::TokenStarts) { as_written = true; });
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
        .def("next_batch", &Reader::next_batch, "The next (line, value or None, errors, file as bytes) tuples; [] at the end.")
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
        for (auto& [file, line, e] : v.errors) errors.append(py::make_tuple(py::bytes(file), line, std::move(e)));
        return py::make_tuple(v.valid, v.invalid, errors);
    }, py::arg("files"), py::arg("schema"), py::arg("jobs"), py::arg("max_errors"), py::arg("whole_files"),
       "validate_file()'s work: (valid, invalid, [(file as bytes, line, Error)]) over `files`, in their order.");

    m.def("_expand_folders", [](const std::vector<std::string>& paths) {
        std::vector<std::string> files;
        std::string problem;
        if (!cli::expand_folders(paths, files, problem)) {
            PyErr_SetObject(PyExc_FileNotFoundError, py_text(problem).ptr());
            throw py::error_already_set();
        }
        py::list out;
        for (const std::string& f : files) out.append(py::bytes(f));
        return out;
    }, py::arg("paths"), "The files `paths` name, a folder's in its place (the CLI's FILE arguments): a list of bytes.");

    bind_tasks(m);

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
        if (!errors.empty()) return py::make_tuple(false, errors, out.metadata_fault, out.losses);
        return py::make_tuple(true, py::bytes(out.text), out.losses);
    }, py::arg("source"), py::arg("target"), py::arg("data"), py::arg("style"), py::arg("lossy"), py::arg("metadata"),
       "convert() without the exception: (True, bytes, losses) or (False, errors, in_metadata, would_drop).");

    // A consumer config's text, or None: (the settings, or none) or a refusal's message (`refused`).
    const auto consumer_of = [](const py::object& text, std::string& refused) -> std::optional<rows::ConsumerSettings> {
        if (text.is_none()) return std::nullopt;
        try {
            return rows::ConsumerSettings::parse(py::cast<std::string>(text));
        } catch (const rows::ProfileError& e) {
            refused = e.what();
            return std::nullopt;
        }
    };

    m.def("_verify", [consumer_of](const std::string& folder, const std::vector<std::string>& canonical, std::size_t max_findings,
                                   const py::object& consumer) -> py::object {
        rows::VerifyOptions options;
        options.canonical.assign(canonical.begin(), canonical.end());
        options.max_findings = max_findings;
        std::string refused;
        options.consumer = consumer_of(consumer, refused);
        if (!refused.empty()) return py::str(py_text(refused));
        rows::ProfileVerdict verdict;
        {
            py::gil_scoped_release unlocked;
            verdict = rows::verify_profile(folder, options);
        }
        py::list findings;
        for (const rows::ProfileFinding& f : verdict.findings) findings.append(py::make_tuple(py_text(f.file), f.line, f.error));
        py::dict by_split;
        for (const auto& [split, n] : verdict.rows_by_split) by_split[py_text(split)] = n;
        return py::make_tuple(verdict.profile ? py::object(py_text(verdict.profile->id)) : py::none(), verdict.rows, by_split, findings);
    }, py::arg("folder"), py::arg("canonical"), py::arg("max_findings"), py::arg("consumer"),
       "verify(): (profile id or None, rows, rows by split, [(file, line, Error)]), or the consumer config's refusal.");

    m.def("_write_profile", [consumer_of](const std::vector<std::string>& paths, const std::string& profile, const std::string& out, bool split,
                                          const py::object& canonical_skipped, unsigned jobs, const py::object& consumer,
                                          const py::object& fragmented) -> py::object {
        const rows::Profile* p = nullptr;
        try {
            p = &rows::profile(profile);
        } catch (const rows::ProfileError& e) {
            throw py::value_error(e.what());
        }
        rows::ProfileOptions options;
        options.split = split;
        options.jobs = jobs;
        if (canonical_skipped.is_none()) options.canonical_skipped.reset();
        else options.canonical_skipped = rows::parse(py::cast<std::string>(canonical_skipped));
        if (!fragmented.is_none()) options.fragmented = rows::parse(py::cast<std::string>(fragmented));
        std::string manifest;
        std::string refused;
        if (auto settings = consumer_of(consumer, refused)) options.consumer = std::move(*settings);
        if (!refused.empty()) return py::make_tuple(false, py_text(refused), false);
        bool io = false;
        {
            py::gil_scoped_release unlocked;
            try {
                manifest = rows::digest_form(rows::write_profile_files(*p, {paths.begin(), paths.end()}, out, options));
            } catch (const rows::ProfileError& e) {
                refused = e.what();
            } catch (const std::filesystem::filesystem_error& e) {
                refused = e.what(), io = true;
            }
        }
        if (!refused.empty()) return py::make_tuple(false, py_text(refused), io);
        return py::make_tuple(true, py::bytes(manifest), false);
    }, py::arg("paths"), py::arg("profile"), py::arg("out"), py::arg("split"), py::arg("canonical_skipped"), py::arg("jobs"),
       py::arg("consumer"), py::arg("fragmented"),
       "write_profile(): (True, the manifest in digest form, False) or (False, Sediment's message or an I/O error's, is_io).");

    m.def("_repair", [](const py::object& data, std::string_view schema, bool lossy, std::string_view style) -> py::object {
        const rows::SchemaInfo* s = rows::find_schema(schema);
        if (!s || (s->id != rows::SchemaId::atif && s->id != rows::SchemaId::atif_v1_7))
            throw py::value_error("repair takes ATIF trajectories: schema \"atif\" or \"atif-v1.7\", not '" + std::string(schema) + "'");
        rows::RepairOptions options;
        options.lossy = lossy, options.style = style_of(style);
        const Text data_text = text_of(data);
        rows::Repaired r;
        {
            py::gil_scoped_release unlocked;
            r = rows::repair(data_text.view, s->id, options);
        }
        py::list repairs;
        for (const rows::Repair& x : r.repairs) repairs.append(py::make_tuple(py_text(x.id), py_text(x.pointer), py_text(x.message), x.lossy));
        const py::object text = r.ok() ? py::object(py::bytes(r.text)) : py::object(py::none());
        return py::make_tuple(text, repairs, r.errors);
    }, py::arg("data"), py::arg("schema"), py::arg("lossy"), py::arg("style"),
       "repair(): (bytes or None, [(id, pointer, message, lossy)], errors).");

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
        if (!errors.empty()) return py::make_tuple(false, errors, false, out.losses);
        return py::make_tuple(true, py::bytes(out.text), out.losses);
    }, py::arg("source"), py::arg("target"), py::arg("data"), py::arg("style"), py::arg("lossy"),
       "upgrade() without the exception: (True, bytes, losses) or (False, errors, False, would_drop).");
}
