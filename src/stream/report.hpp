// How the CLI reports what it finds: text, JSON Lines or GitHub Actions annotations.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows/error.hpp"
#include "sediment/rows/repair.hpp"

namespace sediment_rows_cli {

enum class Format { text, jsonl, github };

/// What one document gave: where it is, its errors, and the values a lossy conversion dropped.
struct Finding {
    const std::string* path = nullptr;
    std::size_t line = 0;
    std::vector<sediment::rows::Error> errors;   ///< each fails the document
    std::vector<sediment::rows::Error> dropped;  ///< --lossy: values the output lacks; failed: what --lossy would drop
    std::string problem;                         ///< an error with no pointer (format --check)
    std::string read_as;                         ///< --schema without a version: the version read, or empty
    std::vector<sediment::rows::Repair> repairs; ///< repair: what changed
    bool ok() const { return errors.empty() && problem.empty(); }
};

/// Writes findings in one format, counts errors, and says when the run should stop: at the first
/// failed document (--fail-fast) or after `max_errors` errors (--max-errors).
class Reporter {
public:
    struct Options {
        Format format = Format::text;
        bool every_document = false;  ///< report valid documents too (jsonl always does)
        bool quiet = false;           ///< errors only: no dropped values
        bool fail_fast = false;
        std::size_t max_errors = 0;   ///< 0: no limit
        bool ids = false;             ///< each error with its id (lint: the rule), text " [id]", jsonl "id"
    };
    Reporter(std::ostream& out, const Options& options) : out_(out), o_(options) {}

    /// Reports one document. `fields` are extra JSON members for the jsonl line ("\"k\": v, " each).
    void report(const Finding& f, std::string_view fields = {});
    /// Under --format jsonl, the record that sums up the file `path` after its documents:
    /// {"file": F, "summary": {`fields`}} (`fields`: JSON members, "\"k\": v" with ", " between).
    void file_summary(const std::string& path, std::string_view fields);
    /// Ends the report: under --format github, the count of findings beyond the first 10.
    void finish();
    /// True once --fail-fast or --max-errors says to stop.
    bool stopped() const { return stopped_; }
    /// Why the run stopped early, or empty.
    std::string stop_reason() const;

private:
    void write(const std::string& name, std::size_t line, const std::string* pointer, const std::string& message,
               bool warning, const std::string* id = nullptr);
    bool take_error();

    std::ostream& out_;
    Options o_;
    std::size_t errors_ = 0;
    std::size_t annotated_[2] = {0, 0}, unannotated_[2] = {0, 0};  // errors, warnings
    bool stopped_ = false;
};

/// `s` as a JSON string literal; bytes that are not UTF-8 are written as \xNN (rows::detail::printable).
std::string json_string(std::string_view s);

/// `errors` as a JSON array of {"pointer", "message"} objects ({"id", "pointer", "message"} with `ids`).
std::string json_errors(const std::vector<sediment::rows::Error>& errors, std::size_t count, bool ids = false);

/// `repairs` as a JSON array of {"id", "pointer", "message", "lossy"} objects.
std::string json_repairs(const std::vector<sediment::rows::Repair>& repairs);

/// The name under which `path` is reported, valid UTF-8 (bytes that are not are written as \xNN):
/// "<stdin>" for "-".
std::string display_name(const std::string& path);

}  // namespace sediment_rows_cli
