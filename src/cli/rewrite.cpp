// The commands that rewrite documents: convert and upgrade; and schema, which lists and shows them.
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

// ----- where the output goes ------------------------------------------------------------------------

std::string Destination::open(const Options& o) {
    verbose_ = o.verbose;
    if (o.out.empty()) return {};
    std::vector<bool> whole;
    for (const std::string& f : o.files) whole.push_back(whole_document(f, o.whole_files));
    const std::vector<std::string> names = output_names(o.files, whole);
    const auto normal = [](const std::string& p) { return std::filesystem::absolute(p).lexically_normal().string(); };
    std::map<std::string, const std::string*> inputs;  // each input by its normal path, made once
    for (const std::string& input : o.files) inputs.emplace(normal(input), &input);
    std::map<std::string, const std::string*> by_target;
    for (std::size_t i = 0; i < o.files.size(); ++i) {
        const std::string target = (std::filesystem::path(o.out) / names[i]).string();
        if (const auto input = inputs.find(normal(target)); input != inputs.end())
            return "--out " + o.out + " would overwrite the input " + *input->second + ": write to another folder";
        if (const auto [at, added] = by_target.emplace(target, &o.files[i]); !added)
            return "--out " + o.out + ": " + *at->second + " and " + o.files[i] + " would both write " + target;
        targets_[&o.files[i]] = target;
    }
    return {};
}

bool Destination::start(const std::string* input) {
    if (current_ == input) return true;
    current_ = input;
    return file_.open(targets_.at(input), false) || (error_ = file_.error(), false);
}

bool Destination::write(const std::string* input, const std::string& text) {
    if (targets_.empty()) return static_cast<bool>(std::cout << text);
    return start(input) && (file_.write(text) || (error_ = file_.error(), false));
}

bool Destination::finish(const std::string* input, bool failed) {
    if (targets_.empty()) return true;
    if (failed) {  // an input that could not be read whole: its output does not appear
        if (current_ == input) file_.discard();
        current_ = nullptr;
        return true;
    }
    const bool done = start(input) && (file_.commit() || (error_ = file_.error(), false));
    current_ = nullptr;
    if (done && verbose_) std::cerr << display_name(*input) << " -> " << display_name(targets_.at(input)) << "\n";
    return done;
}

namespace {

/// Documents by the version each was read as, "a: 2, b: 7"; with `json`, as JSON members.
std::string listed(const std::map<std::string, std::size_t>& read_as, bool json) {
    std::string text;
    for (const auto& [name, n] : read_as) text += (text.empty() ? "" : ", ") + (json ? json_string(name) : name) + ": " + std::to_string(n);
    return text;
}

}  // namespace

void Tally::end_file(const std::string* path) {
    const File& file = file_of(path);
    std::string fields = "\"documents\": " + std::to_string(file.ok + file.failed) + ", \"valid\": " + std::to_string(file.ok) +
                         ", \"invalid\": " + std::to_string(file.failed);
    if (!file.read_as.empty()) fields += ", \"read_as\": {" + listed(file.read_as, true) + "}";
    reporter.file_summary(*path, fields);
}

std::string Tally::file_lines(const char* passed, const char* failed_word) const {
    if (files.size() < 2) return "";
    std::string lines;
    for (const File& file : files)
        lines += "  " + display_name(*file.path) + ": " + std::to_string(file.ok) + " " + passed + ", " + std::to_string(file.failed) + " " +
                 failed_word + (file.read_as.empty() ? "" : " (read as " + listed(file.read_as, false) + ")") + "\n";
    return lines;
}

std::string Tally::read_as_summary() const {
    std::map<std::string, std::size_t> all;
    for (const File& file : files)
        for (const auto& [name, n] : file.read_as) all[name] += n;
    return all.empty() ? "" : " (read as " + listed(all, false) + ")";
}

void Tally::other(const Outcome& o, Destination& destination) {
    other(o);
    if (o.kind == Document::end_of_file && !destination.finish(o.finding.path, o.finding.path == unreadable))
        io_failure(destination.error());
}

bool Tally::wrote(bool ok, const Destination& destination) {
    if (!ok && !destination.error().empty()) io_failure(destination.error());  // (standard output: main() says so)
    return ok;
}

// ----- convert -----------------------------------------------------------------------------------

/// The "dropped" field of a document's --format jsonl report under --lossy, or without it the
/// "would_drop" field of a document that failed only on what --lossy drops; the other formats list the
/// losses themselves, so it is written only where it is read.
std::string dropped_field(const Options& o, const Outcome& out) {
    if (o.format != Format::jsonl) return "";
    if (o.lossy) return "\"dropped\": " + json_errors(out.finding.dropped, SIZE_MAX) + ", ";
    return out.finding.dropped.empty() ? "" : "\"would_drop\": " + json_errors(out.finding.dropped, SIZE_MAX) + ", ";
}

int run_convert(const Options& o) {
    try {
        rows::check_conversion(o.schema_name, o.to_name);
    } catch (const std::invalid_argument& e) {
        return usage_error(e.what(), "convert");
    }
    if (!o.metadata.empty() && rows::schema_info(rows::schemas_named(o.to_name).front()).base != "nemo-gym-rollout")
        return usage_error("--metadata goes with --to nemo-gym-rollout[.vN]", "convert");
    Input metadata;  // read line by line beside the documents
    if (!o.metadata.empty() && !metadata.open(o.metadata)) {
        say(metadata.error());
        return kExitUsage;
    }
    RunOptions run = o.run();
    if (!o.metadata.empty()) run.metadata = &metadata;
    const rows::ConvertOptions options{o.lossy};
    Destination destination;
    if (const std::string problem = destination.open(o); !problem.empty()) return usage_error(problem, "convert");
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o, reporter);
    const RunTotals t = run_documents(o.files, run, [&](const Document& d, Outcome& out) {
        std::optional<std::string_view> line;
        if (!o.metadata.empty()) line = d.metadata;
        rows::ConvertedText converted;
        const bool ok = rows::convert(d.text, o.schema_name, o.to_name, converted, out.finding.errors, o.style, options, line, o.limits);
        out.finding.dropped = std::move(converted.losses);  // (failed: what --lossy would drop)
        if (ok) {
            out.out = std::move(converted.text) + "\n";
        } else if (converted.metadata_fault) {
            out.finding.path = &o.metadata;  // the error is the metadata line's
            out.finding.line = d.metadata_line;
        }
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out, destination), true;
        tally.count(out.finding);
        reporter.report(out.finding, dropped_field(o, out));
        return tally.wrote(destination.write(out.finding.path, out.out), destination) && !reporter.stopped();
    });
    summary(o, tally.file_lines("converted", "failed"), std::to_string(tally.ok) + " converted, " + std::to_string(tally.failed) + " failed" + tally.losses_summary("convert"), t, reporter);
    return tally.status();
}

// ----- upgrade -----------------------------------------------------------------------------------

int run_upgrade(const Options& o) {
    if (const std::string refusal = upgrade_refusal(o.schema_name, *o.to, o.lossy); !refusal.empty()) return usage_error(refusal, "upgrade");
    const rows::ConvertOptions options{o.lossy};
    Destination destination;
    if (const std::string problem = destination.open(o); !problem.empty()) return usage_error(problem, "upgrade");
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o, reporter);
    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::Upgraded up;
        if (rows::upgrade(d.text, o.schema_name, o.to->id, up, out.finding.errors, o.style, options, o.limits))
            out.out = std::move(up.text) + "\n";
        out.finding.dropped = std::move(up.losses);  // (failed: what --lossy would drop)
        if (up.from && tally.by_version) out.finding.read_as = rows::schema_info(*up.from).name;
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out, destination), true;
        tally.count(out.finding);
        const std::string fields = tally.schema_field(out.finding) + dropped_field(o, out);
        reporter.report(out.finding, fields);
        return tally.wrote(destination.write(out.finding.path, out.out), destination) && !reporter.stopped();
    });
    summary(o, tally.file_lines("upgraded", "failed"), std::to_string(tally.ok) + " upgraded, " + std::to_string(tally.failed) + " failed" + tally.read_as_summary() + tally.losses_summary("upgrade"),
            t, reporter);
    return tally.status();
}

// ----- schema ------------------------------------------------------------------------------------

int run_schema(const std::vector<std::string>& args) {
    if (args.size() == 1 && args[0] == "list") {
        // by name: "any" first, then each family's name without a version just before its versions
        for (const std::string_view name : rows::schema_names()) {
            if (const rows::SchemaInfo* s = rows::find_schema(name)) {
                std::cout << name << "\t" << s->uri << "\n";
            } else if (name == "any") {
                std::cout << "any\ta row of any family and version: each document read as the family and version its schema_id names\n";
            } else {
                std::cout << name << "\tany version, each document read as the version it names:";
                for (const rows::SchemaId id : rows::schemas_named(name)) std::cout << " " << rows::schema_info(id).name;
                std::cout << "\n";
            }
        }
        return kExitOk;
    }
    if (args.size() == 2 && args[0] == "show") {
        try {
            std::cout << rows::schema_document(args[1]);
        } catch (const std::invalid_argument&) {
            return usage_error(unknown_schema(args[1]), "schema");
        }
        return kExitOk;
    }
    return usage_error("schema takes list, or show NAME", "schema");
}

}  // namespace sediment_rows_cli
