// The tasks of sediment_rows.dask (tasks.hpp).
#include "tasks.hpp"

#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <sediment/rows.hpp>

#include "common.hpp"
#include "run.hpp"

namespace py = pybind11;
namespace rows = sediment::rows;
namespace cli = sediment_rows_cli;

namespace sediment_rows_python {

namespace {

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

/// ValueError unless `job` can run from `source` to `target`, `lossy` or not, as the CLI's command of
/// that name would; for upgrade, the schema it goes to, and an empty `source` becomes the one the CLI
/// reads by default.
rows::SchemaId check_rewrite(std::string_view job, std::string& source, const std::string& target, bool lossy) {
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
    if (const std::string refusal = cli::upgrade_refusal(source, *to, lossy); !refusal.empty()) throw py::value_error(refusal);
    return to->id;
}

/// SessionFacts as bytes, and back: what a lint task hands the last step, a few digests per row and
/// never the row. Fixed-width fields in the machine's byte order (a cluster's machines share it).
void put_facts(std::string& out, const rows::SessionFacts& f) {
    const auto put = [&](const auto& value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); };
    put(static_cast<std::uint64_t>(f.line));
    put(f.segment_index);
    put(f.digests);
    put(static_cast<std::int8_t>(!f.row_split ? 0 : *f.row_split == rows::Split::eval ? 2 : 1));
    put(f.identity_key), put(f.prompt_key), put(f.bucket_key);
    for (const std::string* s : {&f.org_id, &f.session_id, &f.instance_id, &f.family, &f.split_pointer, &f.identity, &f.prompt_sha256,
                                 &f.order_key}) {
        put(static_cast<std::uint64_t>(s->size()));
        out += *s;
    }
}

/// The next facts put_facts() wrote at the front of `in`, which moves past them; false at the end.
bool take_facts(std::string_view& in, rows::SessionFacts& f) {
    const auto take = [&](auto& value) {
        if (in.size() < sizeof value) throw std::invalid_argument("lint facts cut short");
        std::memcpy(&value, in.data(), sizeof value);
        in.remove_prefix(sizeof value);
    };
    if (in.empty()) return false;
    std::uint64_t line = 0;
    take(line);
    f.line = static_cast<std::size_t>(line);
    take(f.segment_index);
    take(f.digests);
    std::int8_t split = 0;
    take(split);
    f.row_split.reset();
    if (split) f.row_split = split == 2 ? rows::Split::eval : rows::Split::train;
    take(f.identity_key), take(f.prompt_key), take(f.bucket_key);
    for (std::string* s : {&f.org_id, &f.session_id, &f.instance_id, &f.family, &f.split_pointer, &f.identity, &f.prompt_sha256,
                           &f.order_key}) {
        std::uint64_t size = 0;
        take(size);
        if (in.size() < size) throw std::invalid_argument("lint facts cut short");
        s->assign(in.data(), static_cast<std::size_t>(size));
        in.remove_prefix(static_cast<std::size_t>(size));
    }
    return true;
}

}  // namespace

void bind_tasks(py::module_& m) {
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
                               bool lossy, const py::buffer& data, std::size_t first_line, bool whole, const py::object& into) {
        const rows::Style s = style_of(style);
        const rows::SchemaId upgrade_to = check_rewrite(job, source, target, lossy);
        if (!into.is_none() && !PyByteArray_Check(into.ptr())) throw py::type_error("into is a bytearray, or None");
        const std::string_view text = contiguous(data);
        std::size_t newlines = 0, ok = 0, failed = 0;
        // A worker thread's blocks write into the same memory: a new buffer for each block costs fresh pages
        // and copies as it grows, three times the work itself under distributed's MALLOC_TRIM_THRESHOLD_.
        static thread_local std::string out;
        out.clear();
        std::vector<std::pair<std::size_t, rows::Error>> errors;
        std::map<std::string, std::size_t> losses;
        {
            py::gil_scoped_release unlocked;
            const rows::ConvertOptions options{lossy};
            std::vector<rows::Error> found;
            rows::Upgraded upgraded;
            rows::ConvertedText converted;
            newlines = each_document(text, first_line, whole, [&](std::string_view document, std::size_t line) {
                found.clear();
                const std::vector<rows::Error>* dropped = nullptr;
                if (job == "format") {
                    found = rows::format(source, document, s, out).errors;  // appends only a valid document
                } else if (job == "upgrade") {
                    if (rows::upgrade(document, source, upgrade_to, upgraded, found, s, options)) out += upgraded.text;
                    dropped = &upgraded.losses;
                } else {
                    if (rows::convert(document, source, target, converted, found, s, options)) out += converted.text;
                    dropped = &converted.losses;
                }
                if (found.empty()) {
                    if (dropped)
                        for (const rows::Error& loss : *dropped) ++losses[rows::loss_kind(loss)];
                    return void((++ok, out.push_back('\n')));
                }
                ++failed;
                keep_errors(std::move(found), document, line, whole, errors);
            });
        }
        py::object written = into;
        if (into.is_none()) {
            written = py::bytes(out);
        } else {  // the caller's reused bytearray (resizing one that a memoryview holds raises BufferError)
            if (PyByteArray_Resize(into.ptr(), static_cast<Py_ssize_t>(out.size())) != 0) throw py::error_already_set();
            std::memcpy(PyByteArray_AS_STRING(into.ptr()), out.data(), out.size());
        }
        return py::make_tuple(newlines, ok, failed, written, plain_errors(errors), losses);
    }, py::arg("job"), py::arg("source"), py::arg("target"), py::arg("style"), py::arg("lossy"), py::arg("data"), py::arg("first_line"),
       py::arg("whole"), py::arg("into") = py::none(),
       "One block of whole lines (or a whole document) rewritten as the CLI's `format`, `upgrade` or `convert` (`job`) writes it:\n"
       "(newlines, written, failed, a line for each document written, [(line, (id, pointer, message))], {loss kind: count}),\n"
       "plain values only. The lines are new bytes, or `into` (a bytearray, reused across blocks) resized to hold them.\n"
       "`format` reads under `source`; `upgrade` goes from `source` to `target`; `convert` likewise.\n"
       "The Dask jobs' task; an empty block checks the arguments (ValueError).");

    m.def("_lint_block", [](const std::string& schema, double eval_fraction, const py::buffer& data, std::size_t first_line, bool whole,
                            double min_confidence) {
        check_name(schema);
        if (!rows::lints(schema)) throw std::invalid_argument(lint_refusal(schema));
        rows::LintOptions options{eval_fraction};
        options.min_confidence = min_confidence;
        rows::check_lint_options(options);
        const std::string_view text = contiguous(data);
        std::size_t newlines = 0, valid = 0, invalid = 0;
        std::vector<std::pair<std::size_t, rows::Error>> findings;
        std::string facts_bytes;
        {
            py::gil_scoped_release unlocked;
            std::vector<rows::Error> found;
            newlines = each_document(text, first_line, whole, [&](std::string_view document, std::size_t line) {
                found.clear();
                rows::SessionFacts facts;
                if (rows::lint(schema, document, found, facts, options)) {
                    ++valid;
                    facts.line = line;
                    put_facts(facts_bytes, facts);
                } else {
                    ++invalid;
                }
                if (!found.empty()) keep_errors(std::move(found), document, line, whole, findings);
            });
        }
        return py::make_tuple(newlines, valid, invalid, plain_errors(findings), py::bytes(facts_bytes));
    }, py::arg("schema"), py::arg("eval_fraction"), py::arg("data"), py::arg("first_line"), py::arg("whole"), py::arg("min_confidence") = 0.6,
       "One block for the Dask lint: (newlines, schema-valid rows, invalid rows, [(line, (id, pointer, message))]: each row's\n"
       "findings within the row, or its schema errors, bytes: the SessionFacts of each schema-valid row, for _lint_across).");

    m.def("_lint_across", [](double eval_fraction, bool sessions_complete,
                             const std::vector<std::pair<std::string, std::vector<std::pair<std::size_t, py::bytes>>>>& files,
                             std::size_t max_pairs_per_bucket) {
        rows::LintOptions options{eval_fraction, sessions_complete};
        options.max_pairs_per_bucket = max_pairs_per_bucket;
        rows::Linter linter(options);
        std::vector<std::string_view> names;
        std::vector<std::vector<std::pair<std::size_t, std::string_view>>> blocks;  // views of the bytes, held by `files`
        for (const auto& [name, file_blocks] : files) {
            names.push_back(name);
            auto& views = blocks.emplace_back();
            for (const auto& [first, facts] : file_blocks) views.emplace_back(first, std::string_view(facts));
        }
        std::vector<std::tuple<std::size_t, std::size_t, rows::Error>> across;
        std::vector<rows::LintFinding> sessions;
        {
            py::gil_scoped_release unlocked;
            std::vector<rows::Error> found;
            rows::SessionFacts facts;
            for (std::size_t file = 0; file < names.size(); ++file) {
                bool begun = false;  // as the CLI: a file is named to the linter at its first schema-valid row
                for (auto [first, in] : blocks[file]) {
                    while (take_facts(in, facts)) {
                        if (!begun) linter.begin_file(std::string(names[file])), begun = true;
                        facts.line += first - 1;
                        const std::size_t line = facts.line;
                        found.clear();
                        linter.add(std::move(facts), found);
                        for (rows::Error& e : found) across.emplace_back(file, line, std::move(e));
                    }
                }
            }
            sessions = linter.finish();
        }
        py::list rows_out, sessions_out;
        for (const auto& [file, line, e] : across) rows_out.append(py::make_tuple(file, line, plain(e)));
        for (const rows::LintFinding& f : sessions) sessions_out.append(py::make_tuple(py_text(f.file), f.line, plain(f.error)));
        return py::make_tuple(rows_out, sessions_out);
    }, py::arg("eval_fraction"), py::arg("sessions_complete"), py::arg("files"), py::arg("max_pairs_per_bucket") = 3,
       "The Dask lint's last step: the rules across rows over every file's facts in input order ([(name, [(block's first line,\n"
       "_lint_block's bytes)])]): ([(file index, line, (id, pointer, message))] of the rows, [(file, line, (id, pointer, message))]\n"
       "of Linter.finish(), about whole sessions).");
}

}  // namespace sediment_rows_python
