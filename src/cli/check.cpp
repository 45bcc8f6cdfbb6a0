// The commands that read documents and say what they are: validate, lint and format.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "detail/text.hpp"
#include "cli.hpp"

namespace sediment_rows_cli {

/// The process's peak resident memory in MiB (VmHWM, Linux), or a negative number where it cannot be read.
double peak_resident_mib() {
    std::FILE* status = std::fopen("/proc/self/status", "r");
    if (!status) return -1;
    char line[256];
    long kib = -1;
    while (std::fgets(line, sizeof line, status))
        if (std::sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
    std::fclose(status);
    return kib < 0 ? -1 : static_cast<double>(kib) / 1024;
}

/// The summary on standard error (not with --quiet): `counts`, the time, speed and peak memory with
/// --verbose, why the run stopped early.
void summary(const Options& o, const std::string& file_lines, const std::string& counts, const RunTotals& t, Reporter& reporter) {
    reporter.finish();
    if (o.quiet) return;
    std::cerr << file_lines << counts;
    if (o.verbose) {
        char timing[128];
        std::snprintf(timing, sizeof timing, " in %.2f s (%.1f MB/s", t.seconds,
                      t.seconds > 0 ? static_cast<double>(t.bytes) / t.seconds / 1e6 : 0.0);
        std::cerr << timing;
        if (const double peak = peak_resident_mib(); peak >= 0) {
            std::snprintf(timing, sizeof timing, ", peak %.1f MiB resident", peak);
            std::cerr << timing;
        }
        std::cerr << ")";
    }
    std::cerr << "\n";
    if (reporter.stopped()) std::cerr << "sediment-rows: " << reporter.stop_reason() << "\n";
}

// ----- validate ----------------------------------------------------------------------------------

/// --check-media-files: `errors` (the schema engine's verdict, or none), else the typed verdict on a
/// trajectory of type T, else its image and audio files that are missing; one decode.
template <class T>
std::vector<rows::Error> trajectory_and_media(const Document& d, const Options& o, std::vector<rows::Error> errors) {
    T trajectory;
    if (errors.empty() && rows::decode(d.text, trajectory, errors, o.schema->id, o.limits))
        errors = rows::missing_media_files(trajectory, *d.path == "-" ? "." : std::filesystem::path(*d.path).parent_path().string());
    return errors;
}

int run_validate(const Options& o) {
    Reporter reporter(std::cout, o.reporting());
    Tally tally(o, reporter);
    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::Validated c;
        if (o.schema_engine) c = rows::validate(o.schema_name, d.text, rows::Engine::schema, o.limits);
        else if (!o.check_media_files) c = rows::validate(o.schema_name, d.string_text(), o.limits);
        out.finding.errors = std::move(c.errors);
        if (o.check_media_files)  // the typed engine's verdict comes from the one decode it needs
            out.finding.errors = o.schema->id == rows::SchemaId::atif
                                     ? trajectory_and_media<rows::HarborAtifTrajectory>(d, o, std::move(out.finding.errors))
                                     : trajectory_and_media<rows::NemoGymAtifTrajectory>(d, o, std::move(out.finding.errors));
        if (c.schema && tally.by_version) out.finding.read_as = rows::schema_info(*c.schema).name;
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out), true;
        tally.count(out.finding);
        reporter.report(out.finding, tally.schema_field(out.finding));
        return std::cout.good() && !reporter.stopped();
    });
    summary(o, tally.file_lines("valid", "invalid"), std::to_string(tally.ok) + " valid, " + std::to_string(tally.failed) + " invalid" + tally.read_as_summary(), t, reporter);
    return tally.status();
}

// ----- lint --------------------------------------------------------------------------------------

int run_lint(const Options& o) {
    Reporter reporter(std::cout, o.reporting());
    Tally tally(o, reporter);
    rows::Linter linter(o.lint);
    const std::string* current = nullptr;
    std::size_t invalid = 0, findings = 0;
    bool session_findings = false;  // about whole sessions, after the last row
    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::SessionFacts facts;
        const auto version = rows::lint(o.schema_name, d.string_text(), out.finding.errors, facts, o.lint, o.limits);
        if (!version) {
            if (tally.by_version)  // the version it was read as, for the report
                if (const auto read_as = rows::validate(o.schema_name, d.text, o.limits).schema) out.finding.read_as = rows::schema_info(*read_as).name;
            return;
        }
        facts.line = d.line;
        out.facts = std::move(facts);
        if (tally.by_version) out.finding.read_as = rows::schema_info(*version).name;
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out), true;
        if (out.facts) {
            if (out.finding.path != current) linter.begin_file(display_name(*(current = out.finding.path)));
            linter.add(std::move(*out.facts), out.finding.errors);
        } else {
            ++invalid;
        }
        findings += out.facts ? out.finding.errors.size() : 0;
        tally.count(out.finding);
        reporter.report(out.finding, tally.schema_field(out.finding));
        return std::cout.good() && !reporter.stopped();
    });
    if (!reporter.stopped()) {
        for (rows::LintFinding& f : linter.finish()) {
            Finding finding;
            finding.path = &f.file;
            finding.line = f.line;
            finding.errors = {std::move(f.error)};
            ++findings;
            session_findings = true;
            reporter.report(finding);
            if (reporter.stopped()) break;
        }
    }
    summary(o, tally.file_lines("without findings", "with findings or not schema-valid"), std::to_string(tally.ok + tally.failed) + " rows: " + std::to_string(findings) + " findings, " +
                   std::to_string(invalid) + " not schema-valid" + tally.read_as_summary(),
            t, reporter);
    return tally.status(session_findings);
}

// ----- format ------------------------------------------------------------------------------------

int run_format(const Options& o) {
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o, reporter);
    std::size_t files = 0, changed_files = 0, invalid_files = 0;
    // the file being read: its first line that changes and why, whether it holds an invalid document
    std::size_t first_change = 0;
    std::string first_reason;
    bool invalid = false, unreadable = false;
    std::optional<Publication> replacement;  // --in-place: the new content of the file being read
    const auto replacement_of = [&](const std::string& path) -> Publication& {
        if (!replacement) replacement.emplace().open(path, true);  // a failure shows in write(), commit() and error()
        return *replacement;
    };
    Destination destination;  // the output of plain `format`: standard output, or --out
    if (const std::string problem = destination.open(o); !problem.empty()) return usage_error(problem, "format");
    const bool rewriting = o.check || o.in_place;
    const auto changes_at = [&](std::size_t line, const std::string& reason) {
        if (first_change && first_change < line) return;
        first_change = line;
        first_reason = reason;
    };
    const char* const kBlank = "a blank line, which format drops";

    const auto end_of_file = [&](const Outcome& out) {
        tally.other(out, destination);  // (--check and -i write no output: the destination has nothing to finish)
        ++files;
        const std::string name = display_name(*out.finding.path);
        const char* verdict = "already formatted";
        if (o.in_place && out.compressed) {
            tally.io_failure(name + " is compressed: --in-place rewrites plain files only");
            verdict = "left as it was";
        } else if (unreadable) {
            verdict = "left as it was (it could not be read, or its new content written)";
        } else if (invalid) {
            ++invalid_files;
            verdict = o.check ? "not formatted (it holds an invalid document)" : "left as it was (it holds an invalid document)";
        } else if (first_change && o.check) {
            ++changed_files;
            verdict = "would be reformatted";
            if (o.format != Format::jsonl)  // (jsonl: each line's record says it)
                reporter.report(Finding{out.finding.path, first_change, {}, {}, "would be reformatted from this line on: " + first_reason, {}, {}});
        } else if (first_change && o.in_place) {  // (plain `format` writes to standard output and leaves files alone)
            if (replacement_of(*out.finding.path).commit()) {  // (a file of blank lines gets no document)
                ++changed_files;
                verdict = "reformatted";
            } else {
                tally.io_failure(replacement->error());
                verdict = "left as it was";
            }
        }
        if (o.verbose && rewriting) std::cerr << name << ": " << verdict << "\n";
        replacement.reset();
        first_change = 0;
        invalid = unreadable = false;
    };

    RunOptions run = o.run();
    run.blank_lines = rewriting;
    const RunTotals t = run_documents(o.files, run, [&](const Document& d, Outcome& out) {
        rows::Validated c = rows::format(o.schema_name, d.text, o.style, out.out, o.limits);
        out.finding.errors = std::move(c.errors);
        if (c.schema && !o.schema) out.finding.read_as = rows::schema_info(*c.schema).name;
        if (!out.finding.errors.empty()) return out.out.clear();
        out.out += '\n';
        if (!rewriting) return;
        // a line's text has no '\n'; a .json file's whole text should end with one
        const std::string_view line(out.out.data(), out.out.size() - 1);
        out.changed = d.unterminated || (d.whole_file ? d.text != out.out : d.text != line);
        if (!o.check || !out.changed) return;
        out.message = d.whole_file || d.text != line ? reformat_reason(d.text, d.whole_file ? std::string_view(out.out) : line)
                                                     : "the file's last line, which no newline ends";
    }, [&](Outcome& out) {
        if (out.kind == Document::end_of_file) return end_of_file(out), !reporter.stopped();
        if (out.kind == Document::blank_line) {
            changes_at(out.finding.line, kBlank);
            if (o.check && o.format == Format::jsonl)  // the line's record: it holds no document
                reporter.report(out.finding, "\"formatted\": false, \"reason\": " + json_string(kBlank) + ", ");
            return !reporter.stopped();
        }
        if (out.kind == Document::io_error) {
            tally.other(out);
            unreadable = true;
            return true;
        }
        tally.count(out.finding);
        std::string fields;
        if (o.check)
            fields = out.changed ? "\"formatted\": false, \"reason\": " + json_string(out.message) + ", "
                                 : std::string("\"formatted\": ") + (out.finding.ok() ? "true, " : "false, ");
        reporter.report(out.finding, fields);
        if (!out.finding.ok()) {
            invalid = true;
        } else {
            if (out.changed) changes_at(out.finding.line, out.message);
            if (o.in_place && !invalid && !unreadable) {
                if (!replacement_of(*out.finding.path).write(out.out)) {
                    unreadable = true;
                    tally.io_failure(replacement->error());
                }
            } else if (!rewriting && !tally.wrote(destination.write(out.finding.path, out.out), destination)) {
                return false;
            }
        }
        return std::cout.good() && !reporter.stopped();
    });
    std::string counts = std::to_string(tally.ok) + " formatted, " + std::to_string(tally.failed) + " invalid";
    if (o.check && invalid_files)  // a file with an invalid document is not formatted either
        counts += "; " + std::to_string(changed_files + invalid_files) + " of " + std::to_string(files) + " files not formatted: " +
                  (changed_files ? std::to_string(changed_files) + " would be reformatted, " : "") + std::to_string(invalid_files) +
                  (invalid_files == 1 ? " holds" : " hold") + " invalid documents";
    else if (rewriting)
        counts += "; " + std::to_string(changed_files) + " of " + std::to_string(files) + " files " +
                  (o.check ? "would be reformatted" : "reformatted");
    summary(o, tally.file_lines("formatted", "invalid"), counts, t, reporter);
    return tally.status(o.check && changed_files > 0);
}

}  // namespace sediment_rows_cli
