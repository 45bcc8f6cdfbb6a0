// The options of the document commands, and usage errors.
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

/// "sediment-rows: MESSAGE" on standard error, in valid UTF-8 (an argument or path may not be).
void say(const std::string& message) { std::cerr << "sediment-rows: " << rows::detail::printable(message) << "\n"; }

int usage_error(const std::string& message, const std::string& command) {
    say(message);
    std::cerr << "Try 'sediment-rows " << (command.empty() ? "" : command + " ") << "--help'.\n";
    return kExitUsage;
}

namespace {

/// A whole number from `min` up to `max`, or nothing.
std::optional<std::size_t> number(const std::string& v, std::size_t min, std::size_t max) {
    if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const std::size_t n = std::stoull(v);
    if (n < min || n > max) return std::nullopt;
    return n;
}

}  // namespace

std::string unknown_schema(const std::string& name) {
    if (rows::schemas_named(name).empty()) return rows::unknown_schema_message(name) + " (see 'sediment-rows schema list')";
    if (name == "any") return "'any' stands for every family and version here: name one schema (see 'sediment-rows schema list')";
    std::string names;
    for (const rows::SchemaId id : rows::versions_of(name)) names += (names.empty() ? "" : ", ") + std::string(rows::schema_info(id).name);
    return "'" + name + "' stands for every version here: name one of " + names;
}

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
        } else if (a == "--lossy" && (two_schemas || c == "repair")) {
            if (!flag(o.lossy)) return "--lossy takes no value";
        } else if ((a == "--check-media-files" || a == "--check-image-files") && c == "validate") {  // the old name stays
            if (!flag(o.check_media_files)) return a + " takes no value";
        } else if ((a == "--eval-fraction" || a == "--min-confidence") && c == "lint") {
            double& field = a == "--eval-fraction" ? o.lint.eval_fraction : o.lint.min_confidence;
            char* end = nullptr;
            const bool decimal = value() && !v.empty() && v.find_first_not_of("0123456789.") == std::string::npos;
            field = decimal ? std::strtod(v.c_str(), &end) : -1;
            try {
                if (!decimal || *end) throw std::invalid_argument("not a decimal");
                rows::check_lint_options(o.lint);  // the library's bounds
            } catch (const std::invalid_argument&) {
                return a + (a == "--eval-fraction" ? " is a number from 0.0 to 0.5" : " is a number from 0.0 to 1.0");
            }
        } else if (a == "--max-pairs-per-bucket" && c == "lint") {
            const auto n = value() ? number(v, 1, 1000000) : std::nullopt;
            if (!n) return "--max-pairs-per-bucket needs a number of pairs, 1 or more";
            o.lint.max_pairs_per_bucket = static_cast<std::size_t>(*n);
        } else if (a == "--sessions-complete" && c == "lint") {
            if (!flag(o.lint.sessions_complete)) return "--sessions-complete takes no value";
        } else if (a == "--engine" && c == "validate") {
            if (!value() || (v != "typed" && v != "schema")) return "--engine is typed or schema";
            o.schema_engine = v == "schema";
        } else if (a == "--style" && c != "validate") {
            if (!value() || (v != "compact" && v != "sediment")) return "--style is compact or sediment";
            o.style = v == "sediment" ? rows::Style::sediment : rows::Style::compact;
        } else if (a == "--out" && (two_schemas || c == "format" || c == "repair")) {
            if (!value() || v.empty()) return "--out needs a FOLDER";
            o.out = v;
        } else if (a == "--check" && c == "format") {
            if (!flag(o.check)) return "--check takes no value";
        } else if ((a == "-i" || a == "--in-place") && (c == "format" || c == "repair")) {
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
    if (c == "upgrade" && o.schema_name.empty()) {  // rows name their version, ATIF-v1.7 reads any; others need --from
        o.schema_name = upgrade_source(*o.to);
        if (o.schema_name.empty()) return "upgrade needs --from NAME: " + std::string(o.to->base) + " documents do not name their version";
        o.schema = rows::find_schema(o.schema_name);
    }
    if (o.schema_name.empty()) return c + " needs --schema NAME";
    if (c == "lint" && !rows::lints(o.schema_name))
        return "lint reads Sediment's rows: --schema nemo-gym-rollout, sft-sample, dpo-pair, diff-sft-sample, recovery-row, "
               "sediment-rlvr-rollout, sediment-rlvr-task or swe-bench-task (each with or without .vN), or any";
    if (o.check_media_files && o.schema_name != "atif" && o.schema_name != "atif-v1.7")
        return "--check-media-files goes with --schema atif or atif-v1.7";
    if (o.files.empty()) return c + " needs at least one FILE (- for standard input)";
    std::vector<std::string> files;  // a folder's files in its place
    if (std::string problem; !expand_folders(o.files, files, problem)) return problem;
    o.files = std::move(files);
    if (o.quiet && o.verbose) return "--quiet and --verbose do not go together";
    if (o.check && o.in_place) return "--check and --in-place do not go together";
    if (!o.out.empty() && (o.check || o.in_place)) return std::string("--out and ") + (o.check ? "--check" : "--in-place") + " do not go together";
    for (const std::string& f : o.files) {
        if (o.in_place && f == "-") return "--in-place rewrites files, not standard input";
        if (!o.out.empty() && f == "-") return "--out writes a file for each input FILE: standard input has no name";
    }
    return {};
}

}  // namespace sediment_rows_cli
