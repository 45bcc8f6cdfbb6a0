// The command-line tool's parts: the help, the options, and one function per command (src/cli/).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "output.hpp"
#include "report.hpp"
#include "run.hpp"
#include "sediment/rows.hpp"

namespace sediment_rows_cli {

namespace rows = sediment::rows;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

/// The help of `command` ("" or an unknown one: the overview). (help.cpp)
std::string help(const std::string& command);
/// Whether `command` has help of its own.
bool has_help(const std::string& command);

/// "sediment-rows: MESSAGE" on standard error, in valid UTF-8 (an argument or path may not be).
void say(const std::string& message);
/// say(message), then where to find help; kExitUsage.
int usage_error(const std::string& message, const std::string& command = "");

struct Options {
    std::string command;
    std::string schema_name;                   // --schema (convert: --from), with or without a version
    const rows::SchemaInfo* schema = nullptr;  // the schema of a versioned name
    const rows::SchemaInfo* to = nullptr;      // --to of a versioned name
    std::string to_name;                       // --to
    Format format = Format::text;
    bool schema_engine = false;
    rows::Style style = rows::Style::compact;
    std::string metadata;
    std::string out;                           // --out FOLDER: a file for each input, there
    bool lossy = false, check = false, in_place = false, check_media_files = false;
    bool quiet = false, verbose = false, fail_fast = false;
    bool whole_files = false, require_documents = false;
    rows::LintOptions lint;
    std::size_t max_errors = 0;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    rows::Limits limits;
    std::vector<std::string> files;

    RunOptions run() const {
        RunOptions r;
        r.jobs = jobs, r.limits = limits, r.progress = !quiet, r.whole_files = whole_files;
        return r;
    }
    Reporter::Options reporting() const {
        Reporter::Options r;
        r.format = format, r.every_document = verbose && command == "validate", r.quiet = quiet;
        r.fail_fast = fail_fast, r.max_errors = max_errors, r.ids = command == "lint" || command == "repair";
        return r;
    }
};

/// Why `name` names no schema: unknown (with the nearest names), or a name without the version its
/// documents do not say, or (`--to` of upgrade) one that stands for every version. (options.cpp)
std::string unknown_schema(const std::string& name);

/// Parses the options of validate, format and convert into `o`; a usage error's message, or empty. (options.cpp)
std::string parse_options(const std::vector<std::string>& args, Options& o);

/// Where the documents a command writes go: standard output, or with --out FOLDER a file for each
/// input (output_names()) that appears under its name whole, once its input is read. (rewrite.cpp)
class Destination {
public:
    /// Usage problems first: an output that would be an input. Empty when it can go ahead.
    std::string open(const Options& o);
    /// The output of a document of `input`.
    bool write(const std::string* input, const std::string& text);
    /// `input` is read: its file appears (or, `failed`, is dropped). False, with error(), when it cannot.
    bool finish(const std::string* input, bool failed);
    const std::string& error() const { return error_; }

private:
    bool start(const std::string* input);
    std::map<const std::string*, std::string> targets_;  // each input's output path
    const std::string* current_ = nullptr;
    Publication file_;
    std::string error_;
    bool verbose_ = false;
};

/// Counts, I/O errors, files without documents, dropped values and the exit status shared by every
/// document command.
struct Tally {
    /// `reporter` gets each file's summary record (--format jsonl) at the file's end.
    Tally(const Options& o, Reporter& reporter)
        : quiet(o.quiet), require_documents(o.require_documents), by_version(o.schema == nullptr), reporter(reporter) {}

    /// What one file held: its documents that passed and failed, by the version each was read as.
    struct File {
        const std::string* path = nullptr;
        std::size_t ok = 0, failed = 0;
        std::map<std::string, std::size_t> read_as;
    };

    bool quiet, require_documents;
    bool by_version;  // the schema was named without its version: each document's version reported and counted
    Reporter& reporter;
    std::size_t ok = 0, failed = 0;
    std::vector<File> files;                     // in input order; the last is the file being read
    bool io_error = false;
    std::size_t empty_files = 0;                 // files that held no document
    const std::string* unreadable = nullptr;     // the file of the last I/O error
    std::map<std::string, std::size_t> dropped;  // lossy: the values dropped, by kind (rows::loss_kind)
    std::size_t dropped_documents = 0;
    std::map<std::string, std::size_t> would_drop;  // strict: what --lossy would drop, by kind
    std::size_t lossy_would = 0;                 // strict: documents that failed only on what --lossy drops

    /// Takes an outcome that is not a document's: an I/O error is printed and remembered, and a file
    /// that held no document is said so (with --require-documents, a failure).
    void other(const Outcome& o) {
        if (o.kind == Document::end_of_file) end_file(o.finding.path);
        if (o.kind == Document::io_error) {
            io_failure(o.message);
            unreadable = o.finding.path;
        } else if (o.kind == Document::end_of_file && o.documents == 0 && o.finding.path != unreadable) {
            ++empty_files;
            if (!quiet || require_documents)
                say("no documents in " + display_name(*o.finding.path) + (require_documents ? " (--require-documents)" : ""));
        }
    }
    /// other(o), and the end of the input `o` names for `destination` (an unreadable input's output is dropped).
    void other(const Outcome& o, Destination& destination);
    /// Whether the output of a document could be written (`ok`); an I/O failure otherwise, which stops the run.
    bool wrote(bool ok, const Destination& destination);
    void io_failure(const std::string& message) {
        say(message);
        io_error = true;
    }
    /// Counts a document; its `dropped` are what --lossy dropped, or (a document that failed) what it would drop.
    void count(const Finding& f) {
        ++(f.ok() ? ok : failed);
        File& file = file_of(f.path);
        ++(f.ok() ? file.ok : file.failed);
        if (by_version) ++file.read_as[f.read_as.empty() ? "no version" : f.read_as];
        for (const rows::Error& e : f.dropped) ++(f.ok() ? dropped : would_drop)[rows::loss_kind(e)];
        (f.ok() ? dropped_documents : lossy_would) += !f.dropped.empty();
    }
    /// What a lossy run dropped, "; dropped from 7 documents: 7 ci_resolution, 7 reward, 7
    /// reward_source"; or what a strict one would have ("; 2 would upgrade with --lossy, which drops
    /// from 2 documents: 2 ci_resolution, ..."); or nothing.
    std::string losses_summary(const char* verb) const {
        const auto listed = [](std::size_t documents, const std::map<std::string, std::size_t>& by_kind) {
            std::string kinds;
            for (const auto& [kind, n] : by_kind) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
            return std::to_string(documents) + (documents == 1 ? " document: " : " documents: ") + kinds;
        };
        if (dropped_documents) return "; dropped from " + listed(dropped_documents, dropped);
        if (lossy_would) return "; " + std::to_string(lossy_would) + " would " + verb + " with --lossy, which drops from " + listed(lossy_would, would_drop);
        return "";
    }
    /// The summary's line for each file, when there are several: "  FILE: 3 valid, 1 invalid (read as
    /// sft-sample.v3: 4)" with `passed` "valid" and `failed` "invalid".
    std::string file_lines(const char* passed, const char* failed_word) const;
    /// With by_version, the jsonl fields that report the version `f` was read as: "\"schema\": ..., ".
    std::string schema_field(const Finding& f) const {
        if (!by_version) return "";
        return "\"schema\": " + (f.read_as.empty() ? std::string("null") : json_string(f.read_as)) + ", ";
    }
    /// With by_version, every file's documents by version: " (read as nemo-gym-rollout.v1: 2, ...)".
    std::string read_as_summary() const;
    int status(bool failed_otherwise = false) const {
        if (io_error) return kExitUsage;
        return failed || failed_otherwise || (require_documents && empty_files) ? kExitFailed : kExitOk;
    }

private:
    File& file_of(const std::string* path) {
        if (files.empty() || files.back().path != path) files.push_back({path, 0, 0, {}});
        return files.back();
    }
    /// The end of the file `path`: its summary record.
    void end_file(const std::string* path);
};


/// The summary on standard error (not with --quiet): `file_lines` (Tally::file_lines), `counts`, the time, speed and peak memory with
/// --verbose, why the run stopped early. (check.cpp)
void summary(const Options& o, const std::string& file_lines, const std::string& counts, const RunTotals& t, Reporter& reporter);

/// Why `formatted` (what format writes for a valid document) differs from `text`, the document's bytes
/// (a line, which may end in CR; or a whole .json file): the first difference, in words. (difference.cpp)
std::string reformat_reason(std::string_view text, std::string_view formatted);

int run_validate(const Options& o);  ///< check.cpp
int run_lint(const Options& o);      ///< check.cpp
int run_format(const Options& o);    ///< check.cpp
int run_convert(const Options& o);   ///< rewrite.cpp
int run_upgrade(const Options& o);   ///< rewrite.cpp
int run_repair(const Options& o);    ///< repair.cpp
int run_schema(const std::vector<std::string>& args);  ///< rewrite.cpp
/// Whether `name` names a consumer profile (a retired one too): convert --to it writes a profile folder. (profile.cpp)
bool names_profile(const std::string& name);
int run_profile_convert(const std::vector<std::string>& args);  ///< profile.cpp: convert --to PROFILE
int run_verify(const std::vector<std::string>& args);          ///< profile.cpp

}  // namespace sediment_rows_cli
