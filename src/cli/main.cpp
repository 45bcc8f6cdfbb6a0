// sediment-rows: validate, format, convert and inspect documents of the bundled schemas.
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
#include "report.hpp"
#include "run.hpp"
#include "sediment/rows.hpp"

namespace rows = sediment::rows;
using namespace sediment_rows_cli;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

// ----- help --------------------------------------------------------------------------------------

const char* const kOverview = R"(usage: sediment-rows COMMAND [OPTIONS] [FILE...]

Commands:
  validate   check documents against a bundled schema
  format     re-encode documents strictly, to standard output or in place, or check that they are
  convert    convert ATIF trajectories to rollout rows or their parts, and rollout rows to ATIF
  upgrade    rewrite documents of an older published version as a newer one
  lint       check that rollout rows are what Sediment's derivation rules produce
  schema     list the bundled schemas, or print one
  help       'sediment-rows help COMMAND' (or 'sediment-rows COMMAND --help') explains one

  --version  print the version
  --help     print this

Exit status: 0 when every document passes, 1 when one does not, 2 on a usage or I/O error.
)";

const char* const kFiles = R"(
FILE is a path, or - for standard input. A file named *.json or *.json.gz holds one document; any
other file holds one document per line (JSONL; blank lines are skipped), unless --document says each
file is one document. Compressed files (gzip) are read whatever their name. Files are read as a
stream: memory holds the documents in flight, not the file. A file that holds no document is said so
on standard error ("no documents in FILE").
)";

const char* const kCommonOptions = R"(
Reporting:
  --format text|jsonl|github
                 text (default): 'FILE:LINE: POINTER: message' for each error;
                 jsonl: one JSON object per document {"file", "line", "valid", "errors"};
                 github: GitHub Actions annotations (the first 10 errors and 10 warnings, then a
                 count of the rest)
  -q, --quiet    errors only: no summary, no progress line, no dropped values
  -v, --verbose  also the run's time, speed and peak resident memory (validate: and each valid document)
  --fail-fast    stop at the first document that fails
  --max-errors N stop after N errors
Input:
  --document     each FILE (standard input too) is one JSON document, whatever its name and layout
                 (a pretty-printed document, a JSON array)
  --require-documents
                 a FILE that holds no document fails the run (exit 1), as an empty export should
Running:
  -j, --jobs N   threads (default: every core); output stays in input order
  --max-depth N, --max-document-bytes N, --max-string-bytes N
                 limits on one document (defaults 1000, 268435456, 67108864); exceeding one is an
                 error that names it
On a terminal, a progress line (documents, MB/s) shows on standard error while a command runs.
)";

const char* const kValidate = R"(usage: sediment-rows validate --schema NAME [OPTIONS] FILE...

Checks every document against a bundled schema ('sediment-rows schema list'). Errors go to standard
output, the summary ("N valid, M invalid") to standard error.

  --schema NAME          the documents' schema; nemo-gym-rollout without a version reads each row
                         as the version its metadata.schema_id names (jsonl reports add "schema")
  --engine typed|schema  typed (default) decodes into the C++ models with every rule of the schema
                         and of the spec; schema runs valijson over the bundled JSON Schema
  --check-image-files    atif and atif-v1.7: every image content part's source.path in the steps'
                         messages and observation results names a file that exists, relative to the
                         trajectory file's folder (URLs are skipped), as Harbor's validator checks
)";

const char* const kValidateExit = R"(
Exit status:
  0  every document is valid
  1  a document is invalid
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kFormat = R"(usage: sediment-rows format --schema NAME [--style compact|sediment] [--check | -i]
                            [OPTIONS] FILE...

Decodes every document strictly and writes it again, one line per document: to standard output, or
with -i back into its file. Errors go to standard error, with the summary.

  --schema NAME          the documents' schema (nemo-gym-rollout: each row's own version)
  --style compact|sediment
                         compact (default): no spaces; sediment: the bytes Sediment's exporter
                         writes (", " and ": ")
  --check                write nothing; report each file that would change, at its first line
                         that would
  -i, --in-place         rewrite each file that would change: the new file is written beside it and
                         renamed over it, so a reader sees the old file or the new one, never a part.
                         A file holding an invalid document is left as it was. Plain files only
                         (not standard input, not compressed files)
)";

const char* const kFormatExit = R"(
Exit status:
  0  every document is valid (and, with --check, every file is formatted)
  1  a document is invalid, or (--check) a file would be reformatted
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read or rewritten
)";

const char* const kConvert = R"(usage: sediment-rows convert --from NAME --to NAME [--metadata FILE] [--lossy]
                             [OPTIONS] FILE...

Converts ATIF trajectories to rollout rows or their parts, and rollout rows to ATIF, one output line
per document, to standard output. Errors go to standard error. docs/convert.md shows the three paths
(a trajectory from elsewhere to trainer parts, to a row with Sediment's metadata, a row and back);
docs/atif-mapping.md the mapping field by field.
  --from atif-v1.7 --to nemo-gym-rollout[.vN] | nemo-gym-response.vN | nemo-gym-responses-create-params.vN
  --from atif        the same from any ATIF version (Harbor's model): upgraded to atif-v1.7 first
                     (see upgrade), so what NeMo Gym's subset refuses fails the document
  --from nemo-gym-rollout[.vN] --to atif-v1.7
  A rollout row of any version converts (without .vN, each row is read as the version it names); a
  row made from a trajectory is of the version --to names, or without .vN, of its metadata's.

  --metadata FILE        a rollout row needs metadata: the trajectory's own (written by --to
                         atif-v1.7), or line i of FILE for the i-th trajectory, an object
                         {"metadata": {...}, "reward": 1.0} ("reward" optional) of the row's version
  --lossy                a value the target cannot hold fails the document, with the full list;
                         --lossy drops exactly those values and lists them as warnings; the
                         summary counts what was dropped, by kind
  --style compact|sediment
                         as for format
)";

const char* const kConvertExit = R"(
Exit status:
  0  every document was converted
  1  a document could not be (invalid, or it would lose values without --lossy)
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kUpgrade = R"(usage: sediment-rows upgrade --to NAME [--from NAME] [--lossy] [--style compact|sediment]
                             [OPTIONS] FILE...

Rewrites each document as a newer version of its schema, one output line per document, to standard
output (docs/upgrade.md: what each version adds, and how it is derived). Errors go to standard error.
  --to NAME              the version to write: nemo-gym-rollout.v4, ci-outcome.v3, ...; atif-v1.7
                         (NeMo Gym's subset) from atif, Harbor's model of any ATIF version: the
                         label becomes ATIF-v1.7, every other value stays, and what the subset
                         refuses fails the document
  --from NAME            the documents' version. Rows name their own: by default each is read as the
                         version its metadata.schema_id names (jsonl reports add "schema"); other
                         documents need it (nemo-gym-response.v1, ...)
  --lossy                a field the newer version needs and the document cannot give fails the
                         document, naming the field and why; --lossy drops the CI resolution it
                         belongs to instead (with its reward), and lists what it dropped as warnings
  --style compact|sediment
                         as for format
)";

const char* const kUpgradeExit = R"(
Exit status:
  0  every document was upgraded
  1  a document could not be (invalid, newer than --to, or a field it cannot derive)
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kLint = R"(usage: sediment-rows lint --schema nemo-gym-rollout[.vN] [--eval-fraction F]
                          [--sessions-complete] [OPTIONS] FILE...

Checks what a schema cannot say: that each rollout row is what Sediment's derivation rules produce
(docs/lint.md lists every rule). A row that is not schema-valid gets its schema errors and no lint.
Each finding names its rule: 'FILE:LINE: POINTER: message [rule]' (jsonl: "id" in each error).
  Within a row: reward, reward_source and the CI verdict agree; instance_id; split; verifier_results
  sorted and of the row's org; ci_resolution recomputed from verifier_results; the turns (input,
  echoes, tool calls and results, completions); the version 3 and 4 fields.
  Across rows (state per session, never per row): the rows of a session agree on everything but their
  turns; segment indexes and instance ids are unique.
Findings go to standard output, the summary to standard error.

  --schema NAME          nemo-gym-rollout.vN, or nemo-gym-rollout: each row as the version it names
  --eval-fraction F      the eval fraction the split was derived with, 0.0 to 0.5 (default 0.1)
  --sessions-complete    the files hold whole sessions: each session's segments are 0..k-1
)";

const char* const kLintExit = R"(
Exit status:
  0  no finding
  1  a finding, or a row that is not schema-valid
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kSchema = R"(usage: sediment-rows schema list
       sediment-rows schema show NAME

list prints first the names without a version, each with the versions it stands for, then each
bundled schema's name and URI; show prints one, byte for byte.

Exit status:
  0  done
  2  usage error (an unknown schema)
)";

std::string help(const std::string& command) {
    if (command == "validate") return std::string(kValidate) + kCommonOptions + kFiles + kValidateExit;
    if (command == "format") return std::string(kFormat) + kCommonOptions + kFiles + kFormatExit;
    if (command == "convert") return std::string(kConvert) + kCommonOptions + kFiles + kConvertExit;
    if (command == "upgrade") return std::string(kUpgrade) + kCommonOptions + kFiles + kUpgradeExit;
    if (command == "lint") return std::string(kLint) + kCommonOptions + kFiles + kLintExit;
    if (command == "schema") return kSchema;
    return kOverview;
}

/// "sediment-rows: MESSAGE" on standard error, in valid UTF-8 (an argument or path may not be).
void say(const std::string& message) { std::cerr << "sediment-rows: " << rows::detail::printable(message) << "\n"; }

int usage_error(const std::string& message, const std::string& command = "") {
    say(message);
    std::cerr << "Try 'sediment-rows " << (command.empty() ? "" : command + " ") << "--help'.\n";
    return kExitUsage;
}

// ----- options -----------------------------------------------------------------------------------

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
    bool lossy = false, check = false, in_place = false, check_image_files = false;
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
        r.fail_fast = fail_fast, r.max_errors = max_errors, r.ids = command == "lint";
        return r;
    }
};

/// A whole number from `min` up to `max`, or nothing.
std::optional<std::size_t> number(const std::string& v, std::size_t min, std::size_t max) {
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const std::size_t n = std::stoull(v);
    if (n < min || n > max) return std::nullopt;
    return n;
}

/// Why `name` names no schema: unknown (with the nearest names), or a name without the version its
/// documents do not say, or (`--to` of upgrade) one that stands for every version.
std::string unknown_schema(const std::string& name) {
    if (rows::schemas_named(name).empty()) return rows::unknown_schema_message(name) + " (see 'sediment-rows schema list')";
    std::string names;
    for (const rows::SchemaId id : rows::versions_of(name)) names += (names.empty() ? "" : ", ") + std::string(rows::schema_info(id).name);
    return "'" + name + "' stands for every version here: name one of " + names;
}

/// Parses the options of validate, format and convert into `o`; a usage error's message, or empty.
std::string parse_options(const std::vector<std::string>& args, Options& o) {
    const std::string& c = o.command;
    const bool two_schemas = c == "convert" || c == "upgrade";  // --from and --to
    bool files_only = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string a = args[i];
        std::optional<std::string> inline_value;  // --name=value
        if (!files_only && a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
            inline_value = a.substr(a.find('=') + 1);
            a.resize(a.find('='));
        }
        std::string v;
        const auto value = [&] {
            if (inline_value) v = *inline_value;
            else if (i + 1 < args.size()) v = args[++i];
            else return false;
            return true;
        };
        const auto flag = [&](bool& b) {
            b = true;
            return !inline_value;
        };
        if (files_only || a == "-" || a.empty() || a[0] != '-') {
            o.files.push_back(args[i]);
        } else if (a == "--") {
            files_only = true;
        } else if (a == (two_schemas ? "--from" : "--schema") || (a == "--to" && two_schemas)) {
            if (!value()) return a + " needs a NAME";
            const rows::SchemaInfo* s = rows::find_schema(v);
            const bool any_version = (a != "--to" || c == "convert") && !rows::schemas_named(v).empty();
            if (!s && !any_version) return unknown_schema(v);
            if (a == "--to") o.to = s, o.to_name = v;
            else o.schema = s, o.schema_name = v;
        } else if (a == "--metadata" && c == "convert") {
            if (!value()) return "--metadata needs a FILE";
            o.metadata = v;
        } else if (a == "--lossy" && two_schemas) {
            if (!flag(o.lossy)) return "--lossy takes no value";
        } else if (a == "--check-image-files" && c == "validate") {
            if (!flag(o.check_image_files)) return "--check-image-files takes no value";
        } else if (a == "--eval-fraction" && c == "lint") {
            char* end = nullptr;
            const bool decimal = value() && !v.empty() && v.find_first_not_of("0123456789.") == std::string::npos;
            o.lint.eval_fraction = decimal ? std::strtod(v.c_str(), &end) : -1;
            try {
                if (!decimal || *end) throw std::invalid_argument("not a decimal");
                rows::check_lint_options(o.lint);  // the library's bounds
            } catch (const std::invalid_argument&) {
                return "--eval-fraction is a number from 0.0 to 0.5";
            }
        } else if (a == "--sessions-complete" && c == "lint") {
            if (!flag(o.lint.sessions_complete)) return "--sessions-complete takes no value";
        } else if (a == "--engine" && c == "validate") {
            if (!value() || (v != "typed" && v != "schema")) return "--engine is typed or schema";
            o.schema_engine = v == "schema";
        } else if (a == "--style" && c != "validate") {
            if (!value() || (v != "compact" && v != "sediment")) return "--style is compact or sediment";
            o.style = v == "sediment" ? rows::Style::sediment : rows::Style::compact;
        } else if (a == "--check" && c == "format") {
            if (!flag(o.check)) return "--check takes no value";
        } else if ((a == "-i" || a == "--in-place") && c == "format") {
            if (!flag(o.in_place)) return a + " takes no value";
        } else if (a == "--format") {
            if (!value() || (v != "text" && v != "jsonl" && v != "github")) return "--format is text, jsonl or github";
            o.format = v == "jsonl" ? Format::jsonl : v == "github" ? Format::github : Format::text;
        } else if (a == "-q" || a == "--quiet") {
            if (!flag(o.quiet)) return a + " takes no value";
        } else if (a == "-v" || a == "--verbose") {
            if (!flag(o.verbose)) return a + " takes no value";
        } else if (a == "--fail-fast") {
            if (!flag(o.fail_fast)) return "--fail-fast takes no value";
        } else if (a == "--document") {
            if (!flag(o.whole_files)) return "--document takes no value";
        } else if (a == "--require-documents") {
            if (!flag(o.require_documents)) return "--require-documents takes no value";
        } else if (a == "--max-errors") {
            const auto n = value() ? number(v, 1, SIZE_MAX) : std::nullopt;
            if (!n) return "--max-errors needs a number, 1 or more";
            o.max_errors = *n;
        } else if (a == "--max-depth" || a == "--max-document-bytes" || a == "--max-string-bytes") {
            const auto n = value() ? number(v, 1, SIZE_MAX) : std::nullopt;
            if (!n) return a + " needs a positive number";
            (a == "--max-depth" ? o.limits.max_depth : a == "--max-document-bytes" ? o.limits.max_document_bytes
                                                                                 : o.limits.max_string_bytes) = *n;
        } else if (a == "--jobs" || a == "-j") {
            const auto n = value() ? number(v, 1, 1024) : std::nullopt;
            if (!n) return a + " needs a number of threads, 1 to 1024";
            o.jobs = static_cast<unsigned>(*n);
        } else {
            return "unknown option '" + a + "' for " + c;
        }
    }
    if (c == "convert" && (o.schema_name.empty() || o.to_name.empty())) return "convert needs --from NAME and --to NAME";
    if (c == "upgrade" && !o.to) return "upgrade needs --to NAME";
    if (c == "upgrade" && o.schema_name.empty() && o.to->id == rows::SchemaId::atif_v1_7) {  // ATIF of any version
        o.schema = rows::find_schema("atif");
        o.schema_name = "atif";
    }
    if (c == "upgrade" && o.schema_name.empty()) {  // rows name their version; other documents need --from
        if (rows::schemas_named(o.to->base).size() < 2) return "upgrade needs --from NAME: " + std::string(o.to->base) + " documents do not name their version";
        o.schema_name = std::string(o.to->base);
    }
    if (o.schema_name.empty()) return c + " needs --schema NAME";
    if (c == "lint" && (rows::schemas_named(o.schema_name).empty() ||
                        rows::schema_info(rows::schemas_named(o.schema_name).front()).base != "nemo-gym-rollout"))
        return "lint reads rollout rows: --schema nemo-gym-rollout[.vN]";
    if (o.check_image_files && o.schema_name != "atif" && o.schema_name != "atif-v1.7")
        return "--check-image-files goes with --schema atif or atif-v1.7";
    if (o.files.empty()) return c + " needs at least one FILE (- for standard input)";
    if (o.quiet && o.verbose) return "--quiet and --verbose do not go together";
    if (o.check && o.in_place) return "--check and --in-place do not go together";
    for (const std::string& f : o.files)
        if (o.in_place && f == "-") return "--in-place rewrites files, not standard input";
    return {};
}

// ----- what every document command shares --------------------------------------------------------

/// Counts, I/O errors, files without documents, dropped values and the exit status shared by every
/// document command.
struct Tally {
    explicit Tally(const Options& o) : quiet(o.quiet), require_documents(o.require_documents) {}

    bool quiet, require_documents;
    std::size_t ok = 0, failed = 0;
    bool io_error = false;
    std::size_t empty_files = 0;                 // files that held no document
    const std::string* unreadable = nullptr;     // the file of the last I/O error
    std::map<std::string, std::size_t> dropped;  // lossy: the values dropped, by kind (rows::loss_kind)
    std::size_t dropped_documents = 0;
    std::size_t lossy_would = 0;                 // strict: documents that failed only on what --lossy drops

    /// Takes an outcome that is not a document's: an I/O error is printed and remembered, and a file
    /// that held no document is said so (with --require-documents, a failure).
    void other(const Outcome& o) {
        if (o.kind == Document::io_error) {
            io_failure(o.message);
            unreadable = o.finding.path;
        } else if (o.kind == Document::end_of_file && o.documents == 0 && o.finding.path != unreadable) {
            ++empty_files;
            if (!quiet || require_documents)
                say("no documents in " + display_name(*o.finding.path) + (require_documents ? " (--require-documents)" : ""));
        }
    }
    void io_failure(const std::string& message) {
        say(message);
        io_error = true;
    }
    void count(const Finding& f) {
        ++(f.ok() ? ok : failed);
        for (const rows::Error& e : f.dropped) ++dropped[rows::loss_kind(e)];
        dropped_documents += !f.dropped.empty();
        lossy_would += !f.ok() && std::all_of(f.errors.begin(), f.errors.end(), [](const rows::Error& e) {
            return e.id.rfind("rows.convert.loss.", 0) == 0 || e.id == "rows.upgrade.underivable";
        });
    }
    /// What a lossy run dropped, "; dropped from 7 documents: 7 ci_resolution, 7 reward, 7
    /// reward_source"; or what a strict one would have ("; 2 would upgrade with --lossy, ..."); or nothing.
    std::string losses_summary(const char* verb, const char* what) const {
        std::string kinds;
        for (const auto& [kind, n] : dropped) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
        if (!kinds.empty())
            return "; dropped from " + std::to_string(dropped_documents) + (dropped_documents == 1 ? " document: " : " documents: ") + kinds;
        if (lossy_would) return "; " + std::to_string(lossy_would) + " would " + verb + " with --lossy, which drops " + what;
        return "";
    }
    int status(bool failed_otherwise = false) const {
        if (io_error) return kExitUsage;
        return failed || failed_otherwise || (require_documents && empty_files) ? kExitFailed : kExitOk;
    }
};

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
void summary(const Options& o, const std::string& counts, const RunTotals& t, Reporter& reporter) {
    reporter.finish();
    if (o.quiet) return;
    std::cerr << counts;
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

/// The version each document was read as, for a --schema without one: reported with each document, and
/// counted for the summary.
struct Versions {
    bool any = false;  // the schema was named without its version
    std::map<std::string, std::size_t> counts;

    /// Takes the version of one outcome; the jsonl fields that report it.
    std::string take(Outcome& out) {
        if (!any) return "";
        ++counts[out.finding.read_as.empty() ? "no version" : out.finding.read_as];
        return "\"schema\": " + (out.finding.read_as.empty() ? std::string("null") : json_string(out.finding.read_as)) + ", ";
    }
    /// " (read as nemo-gym-rollout.v1: 2, nemo-gym-rollout.v4: 7)"
    std::string summary() const {
        std::string text;
        for (const auto& [name, n] : counts) text += (text.empty() ? "" : ", ") + name + ": " + std::to_string(n);
        return text.empty() ? "" : " (read as " + text + ")";
    }
};

/// --check-image-files: `errors` (the schema engine's verdict, or none), else the typed verdict on a
/// trajectory of type T, else its image files that are missing; one decode.
template <class T>
std::vector<rows::Error> trajectory_and_images(const Document& d, const Options& o, std::vector<rows::Error> errors) {
    T trajectory;
    if (errors.empty() && rows::decode(d.text, trajectory, errors, o.schema->id, o.limits))
        errors = rows::missing_image_files(trajectory, *d.path == "-" ? "." : std::filesystem::path(*d.path).parent_path().string());
    return errors;
}

int run_validate(const Options& o) {
    Reporter reporter(std::cout, o.reporting());
    Tally tally(o);
    Versions versions{o.schema == nullptr, {}};
    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::Validated c;
        if (o.schema_engine) c = rows::validate(o.schema_name, d.text, rows::Engine::schema, o.limits);
        else if (!o.check_image_files) c = rows::validate(o.schema_name, rows::StringText(d.text), o.limits);
        out.finding.errors = std::move(c.errors);
        if (o.check_image_files)  // the typed engine's verdict comes from the one decode it needs
            out.finding.errors = o.schema->id == rows::SchemaId::atif
                                     ? trajectory_and_images<rows::HarborAtifTrajectory>(d, o, std::move(out.finding.errors))
                                     : trajectory_and_images<rows::NemoGymAtifTrajectory>(d, o, std::move(out.finding.errors));
        if (c.schema && versions.any) out.finding.read_as = rows::schema_info(*c.schema).name;
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out), true;
        tally.count(out.finding);
        reporter.report(out.finding, versions.take(out));
        return std::cout.good() && !reporter.stopped();
    });
    summary(o, std::to_string(tally.ok) + " valid, " + std::to_string(tally.failed) + " invalid" + versions.summary(), t, reporter);
    return tally.status();
}

// ----- lint --------------------------------------------------------------------------------------

int run_lint(const Options& o) {
    Reporter reporter(std::cout, o.reporting());
    Tally tally(o);
    Versions versions{o.schema == nullptr, {}};
    rows::Linter linter(o.lint);
    const std::string* current = nullptr;
    std::size_t invalid = 0, findings = 0;
    bool session_findings = false;  // about whole sessions, after the last row
    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::SessionFacts facts;
        const auto version = rows::lint(o.schema_name, rows::StringText(d.text), out.finding.errors, facts, o.lint, o.limits);
        if (!version) {
            if (versions.any)  // the version it was read as, for the report
                if (const auto read_as = rows::validate(o.schema_name, d.text, o.limits).schema) out.finding.read_as = rows::schema_info(*read_as).name;
            return;
        }
        facts.line = d.line;
        out.facts = std::move(facts);
        if (versions.any) out.finding.read_as = rows::schema_info(*version).name;
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
        reporter.report(out.finding, versions.take(out));
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
    summary(o, std::to_string(tally.ok + tally.failed) + " rows: " + std::to_string(findings) + " findings, " +
                   std::to_string(invalid) + " not schema-valid" + versions.summary(),
            t, reporter);
    return tally.status(session_findings);
}

// ----- format ------------------------------------------------------------------------------------

/// A file's new content, written beside it and renamed over it once complete.
class Replacement {
public:
    Replacement() = default;
    Replacement(const Replacement&) = delete;
    Replacement& operator=(const Replacement&) = delete;
    ~Replacement() { discard(); }

    /// Starts the new content of `path` (a symbolic link's target is rewritten, the link kept).
    bool open(const std::string& path) {
        char resolved[PATH_MAX];
        if (!realpath(path.c_str(), resolved)) return fail("cannot rewrite " + path);
        target_ = resolved;
        struct stat st {};
        if (stat(resolved, &st) != 0) return fail("cannot rewrite " + path);
        const std::size_t slash = target_.rfind('/');
        temp_ = target_.substr(0, slash + 1) + "." + target_.substr(slash + 1) + ".sediment-rows-XXXXXX";
        fd_ = mkstemp(temp_.data());
        if (fd_ < 0) return temp_.clear(), fail("cannot write beside " + path);
        if (fchmod(fd_, st.st_mode & 07777) != 0) return fail("cannot write beside " + path);
        return true;
    }
    bool write(const std::string& bytes) {
        std::size_t done = 0;
        while (fd_ >= 0 && done < bytes.size()) {
            const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return fail("cannot write " + temp_);
            done += static_cast<std::size_t>(n);
        }
        return fd_ >= 0;
    }
    /// Makes the new content durable and puts it in the file's place.
    bool commit() {
        if (fd_ < 0) return false;
        if (fsync(fd_) != 0 || close(fd_) != 0) return fd_ = -1, fail("cannot write " + temp_);
        fd_ = -1;
        if (std::rename(temp_.c_str(), target_.c_str()) != 0) return fail("cannot replace " + target_);
        temp_.clear();
        return true;
    }
    /// Drops the new content; the file stays as it was.
    void discard() {
        if (fd_ >= 0) close(fd_);
        fd_ = -1;
        if (!temp_.empty()) unlink(temp_.c_str());
        temp_.clear();
    }
    const std::string& error() const { return error_; }

private:
    bool fail(const std::string& what) {
        if (error_.empty()) error_ = what + ": " + std::strerror(errno);
        discard();
        return false;
    }
    std::string target_, temp_, error_;
    int fd_ = -1;
};

int run_format(const Options& o) {
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o);
    std::size_t files = 0, changed_files = 0;
    // the file being read: its first line that changes, whether it holds an invalid document
    std::size_t first_change = 0;
    bool invalid = false, unreadable = false;
    std::optional<Replacement> replacement;  // --in-place: the new content of the file being read
    const auto replacement_of = [&](const std::string& path) -> Replacement& {
        if (!replacement) replacement.emplace().open(path);  // a failure shows in write(), commit() and error()
        return *replacement;
    };
    const bool rewriting = o.check || o.in_place;

    const auto end_of_file = [&](const Outcome& out) {
        tally.other(out);
        ++files;
        const std::string name = display_name(*out.finding.path);
        if (out.layout_line && (!first_change || out.layout_line < first_change)) first_change = out.layout_line;
        const char* verdict = "already formatted";
        if (o.in_place && out.compressed) {
            tally.io_failure(name + " is compressed: --in-place rewrites plain files only");
            verdict = "left as it was";
        } else if (unreadable) {
            verdict = "left as it was (it could not be read, or its new content written)";
        } else if (invalid) {
            verdict = "left as it was (it holds an invalid document)";
        } else if (first_change && o.check) {
            ++changed_files;
            verdict = "would be reformatted";
            reporter.report(Finding{out.finding.path, first_change, {}, {}, "would be reformatted from this line on", {}});
        } else if (first_change) {
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

    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::Validated c = rows::format(o.schema_name, d.text, o.style, out.out, o.limits);
        out.finding.errors = std::move(c.errors);
        if (c.schema && !o.schema) out.finding.read_as = rows::schema_info(*c.schema).name;
        if (!out.finding.errors.empty()) return out.out.clear();
        out.out += '\n';
        if (!rewriting) return;
        // a line's text has no '\n'; a .json file's whole text should end with one
        const std::string_view line(out.out.data(), out.out.size() - 1);
        out.changed = d.whole_file ? d.text != out.out : d.text != line;
    }, [&](Outcome& out) {
        if (out.kind == Document::end_of_file) return end_of_file(out), !reporter.stopped();
        if (out.kind == Document::io_error) {
            tally.other(out);
            unreadable = true;
            return true;
        }
        tally.count(out.finding);
        reporter.report(out.finding);
        if (!out.finding.ok()) {
            invalid = true;
        } else {
            if (out.changed && !first_change) first_change = out.finding.line;
            if (o.in_place && !invalid && !unreadable) {
                if (!replacement_of(*out.finding.path).write(out.out)) {
                    unreadable = true;
                    tally.io_failure(replacement->error());
                }
            } else if (!rewriting) {
                std::cout << out.out;
            }
        }
        return std::cout.good() && !reporter.stopped();
    });
    std::string counts = std::to_string(tally.ok) + " formatted, " + std::to_string(tally.failed) + " invalid";
    if (rewriting)
        counts += "; " + std::to_string(changed_files) + " of " + std::to_string(files) + " files " +
                  (o.check ? "would be reformatted" : "reformatted");
    summary(o, counts, t, reporter);
    return tally.status(o.check && changed_files > 0);
}

// ----- convert -----------------------------------------------------------------------------------

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
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o);
    const RunTotals t = run_documents(o.files, run, [&](const Document& d, Outcome& out) {
        std::optional<std::string_view> line;
        if (!o.metadata.empty()) line = d.metadata;
        rows::ConvertedText converted;
        if (rows::convert(d.text, o.schema_name, o.to_name, converted, out.finding.errors, o.style, options, line, o.limits)) {
            out.out = std::move(converted.text) + "\n";
            out.finding.dropped = std::move(converted.losses);
        } else if (converted.metadata_fault) {
            out.finding.path = &o.metadata;  // the error is the metadata line's
            out.finding.line = d.metadata_line;
        }
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out), true;
        tally.count(out.finding);
        reporter.report(out.finding, o.lossy ? "\"dropped\": " + json_errors(out.finding.dropped, SIZE_MAX) + ", " : "");
        std::cout << out.out;
        return std::cout.good() && !reporter.stopped();
    });
    summary(o, std::to_string(tally.ok) + " converted, " + std::to_string(tally.failed) + " failed" + tally.losses_summary("convert", "the values listed"), t, reporter);
    return tally.status();
}

// ----- upgrade -----------------------------------------------------------------------------------

int run_upgrade(const Options& o) {
    const rows::SchemaInfo& from = o.schema ? *o.schema : rows::schema_info(rows::schemas_named(o.schema_name).front());
    const bool atif = from.id == rows::SchemaId::atif && o.to->id == rows::SchemaId::atif_v1_7;
    if (!atif && (from.base != o.to->base || o.to->version == 0 || (o.schema && o.schema->version > o.to->version)))
        return usage_error("upgrade goes to a newer version of the same schema: " + o.schema_name + " to " + std::string(o.to->name) +
                           " is not", "upgrade");
    const rows::ConvertOptions options{o.lossy};
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o);
    Versions versions{o.schema == nullptr, {}};
    const RunTotals t = run_documents(o.files, o.run(), [&](const Document& d, Outcome& out) {
        rows::Upgraded up;
        if (rows::upgrade(d.text, o.schema_name, o.to->id, up, out.finding.errors, o.style, options, o.limits)) {
            out.out = std::move(up.text) + "\n";
            out.finding.dropped = std::move(up.losses);
        }
        if (up.from && versions.any) out.finding.read_as = rows::schema_info(*up.from).name;
    }, [&](Outcome& out) {
        if (out.kind != Document::document) return tally.other(out), true;
        tally.count(out.finding);
        const std::string fields = versions.take(out) + (o.lossy ? "\"dropped\": " + json_errors(out.finding.dropped, SIZE_MAX) + ", " : "");
        reporter.report(out.finding, fields);
        std::cout << out.out;
        return std::cout.good() && !reporter.stopped();
    });
    summary(o, std::to_string(tally.ok) + " upgraded, " + std::to_string(tally.failed) + " failed" + versions.summary() + tally.losses_summary("upgrade", "each CI resolution it cannot derive, with its reward"),
            t, reporter);
    return tally.status();
}

// ----- schema ------------------------------------------------------------------------------------

int run_schema(const std::vector<std::string>& args) {
    if (args.size() == 1 && args[0] == "list") {
        std::vector<const rows::SchemaInfo*> list;  // by name, then version
        for (const rows::SchemaInfo& s : rows::kSchemas) list.push_back(&s);
        std::sort(list.begin(), list.end(), [](const rows::SchemaInfo* a, const rows::SchemaInfo* b) {
            return a->base != b->base ? a->base < b->base : a->version < b->version;
        });
        // first the names without a version (documents that say their own), then every schema
        for (const rows::SchemaInfo* s : list) {
            const std::vector<rows::SchemaId> versions = rows::schemas_named(s->base);
            if (versions.size() < 2 || versions.front() != s->id) continue;
            std::cout << s->base << "\tany version, each document read as the version it names:";
            for (const rows::SchemaId id : versions) std::cout << " " << rows::schema_info(id).name;
            std::cout << "\n";
        }
        for (const rows::SchemaInfo* s : list) std::cout << s->name << "\t" << s->uri << "\n";
        return kExitOk;
    }
    if (args.size() == 2 && args[0] == "show") {
        const rows::SchemaInfo* s = rows::find_schema(args[1]);
        if (!s) return usage_error(unknown_schema(args[1]), "schema");
        std::cout << rows::schema_text(s->id);
        return kExitOk;
    }
    return usage_error("schema takes list, or show NAME", "schema");
}

bool is_help(const std::string& a) { return a == "--help" || a == "-h"; }

/// `status`, unless standard output could not take everything written to it (a full disk, a closed
/// pipe): then an I/O error.
int flushed(int status) {
    if (std::cout.flush()) return status;
    std::cerr << "sediment-rows: cannot write to standard output\n";
    return kExitUsage;
}

int run(const std::vector<std::string>& args);

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    return flushed(run({argv + 1, argv + argc}));
}

namespace {

int run(const std::vector<std::string>& args) {
    if (args.empty()) return usage_error("no command");
    const std::string& command = args[0];
    if (is_help(command) || command == "help") {
        if (args.size() > 2 || (args.size() == 2 && help(args[1]) == kOverview))
            return usage_error("help takes one command: validate, format, convert, upgrade, lint or schema");
        std::cout << help(args.size() == 2 ? args[1] : "");
        return kExitOk;
    }
    if (command == "--version" || command == "version") {
        std::cout << "sediment-rows " << rows::library_version() << "\n";
        return kExitOk;
    }
    if (command != "validate" && command != "format" && command != "convert" && command != "upgrade" && command != "lint" &&
        command != "schema")
        return usage_error("unknown command '" + command + "'");
    for (std::size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
        if (is_help(args[i])) {
            std::cout << help(command);
            return kExitOk;
        }
    }
    if (command == "schema") return run_schema({args.begin() + 1, args.end()});

    Options o;
    o.command = command;
    const std::string problem = parse_options(args, o);
    if (!problem.empty()) return usage_error(problem, command);
    if (command == "convert") return run_convert(o);
    if (command == "upgrade") return run_upgrade(o);
    if (command == "lint") return run_lint(o);
    return command == "validate" ? run_validate(o) : run_format(o);
}

}  // namespace
