// repair: ATIF trajectories brought to valid ones, each change listed (docs/atif.md).
#include <iostream>
#include <optional>
#include <string>

#include "cli.hpp"

namespace sediment_rows_cli {

int run_repair(const Options& o) {
    if (o.schema_name != "atif" && o.schema_name != "atif-v1.7")
        return usage_error("repair takes ATIF trajectories: --schema atif (Harbor's model, any version) or atif-v1.7 (NeMo Gym's subset)", "repair");
    rows::RepairOptions options;
    options.lossy = o.lossy, options.style = o.style, options.limits = o.limits;
    Destination destination;
    if (const std::string problem = destination.open(o); !problem.empty()) return usage_error(problem, "repair");
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o, reporter);
    std::size_t repaired = 0, unchanged = 0;
    // --in-place: the new content of the file being read, unless one of its documents is refused
    std::optional<Publication> replacement;
    bool refused_here = false, changed_here = false, unreadable = false;

    const auto end_of_file = [&](const Outcome& out) {
        tally.other(out, destination);
        if (!o.in_place) return;
        const std::string name = display_name(*out.finding.path);
        const char* verdict = "unchanged";
        if (out.compressed) {
            tally.io_failure(name + " is compressed: --in-place rewrites plain files only");
            verdict = "left as it was";
        } else if (unreadable || refused_here) {
            verdict = unreadable ? "left as it was (it could not be read, or its new content written)" : "left as it was (a document in it is refused)";
        } else if (changed_here) {
            if (replacement && replacement->commit()) {
                verdict = "repaired";
            } else {
                tally.io_failure(replacement ? replacement->error() : name + ": cannot be rewritten");
                verdict = "left as it was";
            }
        }
        if (o.verbose) std::cerr << name << ": " << verdict << "\n";
        replacement.reset();
        refused_here = changed_here = unreadable = false;
    };
    const auto keep = [&](const Outcome& out) {
        if (!replacement) replacement.emplace().open(*out.finding.path, true);
        if (!replacement->write(out.out)) unreadable = true, tally.io_failure(replacement->error());
    };

    RunOptions run = o.run();
    run.blank_lines = o.in_place;
    const RunTotals t = run_documents(o.files, run, [&](const Document& d, Outcome& out) {
        rows::Repaired r = rows::repair(d.text, o.schema->id, options);
        out.finding.errors = std::move(r.errors);
        out.finding.repairs = std::move(r.repairs);
        out.changed = !out.finding.repairs.empty();
        if (!out.finding.ok()) return;
        if (!out.changed) {  // as it was, byte for byte
            out.out.assign(d.text);
            if (!d.whole_file || out.out.empty() || out.out.back() != '\n') out.out += '\n';
        } else {
            out.out = std::move(r.text) + "\n";
        }
    }, [&](Outcome& out) {
        if (out.kind == Document::end_of_file) return end_of_file(out), !reporter.stopped();
        if (out.kind == Document::blank_line) {
            if (!refused_here && !unreadable) out.out = "\n", keep(out);
            return true;
        }
        if (out.kind == Document::io_error) {
            tally.other(out);
            unreadable = true;
            return true;
        }
        tally.count(out.finding);
        if (out.finding.ok()) ++(out.changed ? repaired : unchanged);
        std::string fields;
        if (o.format == Format::jsonl) fields = "\"repaired\": " + std::string(out.changed ? "true" : "false") + ", \"repairs\": " + json_repairs(out.finding.repairs) + ", ";
        reporter.report(out.finding, fields);
        if (!out.finding.ok()) {
            refused_here = true;
        } else if (o.in_place) {
            changed_here = changed_here || out.changed;
            if (!refused_here && !unreadable) keep(out);
        } else if (!tally.wrote(destination.write(out.finding.path, out.out), destination)) {
            return false;
        }
        return std::cout.good() && !reporter.stopped();
    });
    summary(o, tally.file_lines("valid after repair", "refused"),
            std::to_string(repaired) + " repaired, " + std::to_string(tally.failed) + " refused, " + std::to_string(unchanged) + " unchanged", t, reporter);
    return tally.status();
}

}  // namespace sediment_rows_cli
