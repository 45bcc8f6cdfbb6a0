// verify, and convert --to PROFILE: Sediment's consumer profile folders (docs/profiles.md).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli.hpp"

namespace sediment_rows_cli {

namespace fs = std::filesystem;

bool names_profile(const std::string& name) {
    return rows::find_profile(name) || rows::retired_profile(name);
}

// ----- convert --to PROFILE --------------------------------------------------------------------------

// The consumer config in file `path` into `out`; false (said) when it cannot be read or is not one.
bool read_consumer_config(const std::string& path, rows::ConsumerSettings& out, const char* command) {
    std::ifstream file(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file && !file.eof()) {
        usage_error("cannot read " + display_name(path), command);
        return false;
    }
    try {
        out = rows::ConsumerSettings::parse(text);
    } catch (const rows::ProfileError& e) {
        usage_error(display_name(path) + ": " + e.what(), command);
        return false;
    }
    return true;
}

int run_profile_convert(const std::vector<std::string>& args) {
    std::string to, out, from;
    bool split = true, quiet = false;
    unsigned jobs = 0;
    std::optional<rows::Json> skipped = rows::Json::object(), fragmented;
    std::string config;
    std::vector<std::string> files;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&](std::string& into) {
            if (i + 1 >= args.size()) return false;
            into = args[++i];
            return true;
        };
        if (a == "--") {
            files.insert(files.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            break;
        }
        if (a == "--to") {
            if (!value(to)) return usage_error("--to needs a profile", "convert");
        } else if (a == "--out") {
            if (!value(out)) return usage_error("--out needs a folder", "convert");
        } else if (a == "--from") {
            if (!value(from)) return usage_error("--from needs a schema", "convert");
        } else if (a == "--no-split") {
            split = false;
        } else if (a == "-j" || a == "--jobs") {
            std::string n;
            if (!value(n) || n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 4 || std::stoi(n) < 1)
                return usage_error("-j needs a number of threads, 1 or more", "convert");
            jobs = static_cast<unsigned>(std::stoi(n));
        } else if (a == "-q" || a == "--quiet") {
            quiet = true;
        } else if (a == "--canonical-skipped" || a == "--fragmented") {
            std::string text;
            const std::string example = a == "--fragmented" ? "'{\"segment_gap\": 1}'" : "'{\"below_confidence_floor\": 2}'";
            if (!value(text)) return usage_error(a + " needs a JSON object of counts", "convert");
            rows::Json counts;
            std::vector<rows::Error> errors;
            if (!rows::parse(text, counts, errors) || !counts.is_object())
                return usage_error(a + " needs a JSON object of counts, e.g. " + example, "convert");
            for (const auto& [name, n] : counts.items())
                if (!n.is_number_unsigned() && !(n.is_number_integer() && n.get<std::int64_t>() >= 0))
                    return usage_error(a + ": the count of '" + name + "' is not a non-negative integer", "convert");
            (a == "--fragmented" ? fragmented : skipped) = std::move(counts);
        } else if (a == "--consumer-config") {
            if (!value(config)) return usage_error("--consumer-config needs a file (the operator's consumer config)", "convert");
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usage_error("unknown option '" + a + "' for convert --to PROFILE", "convert");
        } else {
            files.push_back(a);
        }
    }
    const rows::Profile* p = nullptr;
    try {
        p = &rows::profile(to);
    } catch (const rows::ProfileError& e) {
        return usage_error(e.what(), "convert");
    }
    if (!p->writable())
        return usage_error(std::string(p->id) + " needs Sediment's inference calls, which rows do not hold: verify its folders with 'sediment-rows verify'",
                           "convert");
    if (p->objective != "rlvr" && fragmented) return usage_error("--fragmented counts an RLVR export's rows (swe-bench-tasks-v1)", "convert");
    if (p->consumer != "swe-bench" && !config.empty()) return usage_error("--consumer-config is swe-bench-tasks-v1's", "convert");
    if (p->consumer == "swe-bench" && config.empty())
        return usage_error("swe-bench-tasks-v1 needs --consumer-config FILE: each task's settings (docs/profiles.md)", "convert");
    const rows::SchemaInfo& canonical = rows::schema_info(p->canonical);
    if (!from.empty() && from != canonical.name && from != canonical.base)
        return usage_error(std::string(p->id) + " maps " + std::string(canonical.name) + " rows, not " + from, "convert");
    if (out.empty()) return usage_error("convert --to " + to + " needs --out FOLDER (the profile folder to write)", "convert");
    if (files.empty()) return usage_error("no canonical files (" + std::string(canonical.name) + " JSONL)", "convert");

    rows::ProfileOptions options;
    if (!config.empty() && !read_consumer_config(config, options.consumer, "convert")) return kExitUsage;
    options.split = split;
    options.canonical_skipped = skipped;
    options.fragmented = fragmented;
    options.jobs = jobs;
    rows::Json manifest;
    try {
        manifest = rows::write_profile_files(*p, std::vector<fs::path>(files.begin(), files.end()), out, options);
    } catch (const rows::ProfileError& e) {
        say(std::string(e.what()) + "; nothing written");
        return kExitFailed;
    } catch (const fs::filesystem_error& e) {
        say(std::string(e.what()));
        return kExitUsage;
    }
    if (!quiet) {
        if (manifest["rows"] == 0) {
            std::cerr << "no rows: nothing written (Sediment writes no folder for an empty export)\n";
        } else {
            std::string files_said;
            for (const auto& [name, entry] : manifest["files"].items())
                files_said += (files_said.empty() ? "" : ", ") + name;
            std::cerr << "wrote " << manifest["rows"].dump() << " rows as " << p->id << " to " << display_name(out) << " (" << files_said
                      << ", compatibility.json)\n";
        }
    }
    return kExitOk;
}

// ----- verify ----------------------------------------------------------------------------------------

int run_verify(const std::vector<std::string>& args) {
    Reporter::Options reporting;
    reporting.ids = true;
    rows::VerifyOptions options;
    std::vector<std::string> folders;
    bool quiet = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--canonical") {
            if (i + 1 >= args.size()) return usage_error("--canonical needs a file", "verify");
            options.canonical.push_back(args[++i]);
        } else if (a == "--consumer-config") {
            if (i + 1 >= args.size()) return usage_error("--consumer-config needs a file (the operator's consumer config)", "verify");
            rows::ConsumerSettings consumer;
            if (!read_consumer_config(args[++i], consumer, "verify")) return kExitUsage;
            options.consumer = std::move(consumer);
        } else if (a == "--format") {
            if (i + 1 >= args.size()) return usage_error("--format needs text, jsonl or github", "verify");
            const std::string& f = args[++i];
            if (f == "text") reporting.format = Format::text;
            else if (f == "jsonl") reporting.format = Format::jsonl;
            else if (f == "github") reporting.format = Format::github;
            else return usage_error("--format is text, jsonl or github, not '" + f + "'", "verify");
        } else if (a == "-q" || a == "--quiet") {
            quiet = true;
        } else if (a == "--") {
            folders.insert(folders.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            break;
        } else if (a.size() > 1 && a[0] == '-') {
            return usage_error("unknown option '" + a + "' for verify", "verify");
        } else {
            folders.push_back(a);
        }
    }
    if (folders.empty()) return usage_error("verify needs a profile FOLDER (the folder `sediment export --profile` wrote)", "verify");
    for (const std::string& folder : folders) {
        std::error_code ec;
        if (!fs::is_directory(folder, ec)) {
            say(display_name(folder) + " is not a folder");
            return kExitUsage;
        }
    }
    for (const fs::path& file : options.canonical) {
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) {
            say("cannot read " + display_name(file.string()));
            return kExitUsage;
        }
    }
    Reporter reporter(std::cout, reporting);
    bool failed = false;
    for (const std::string& folder : folders) {
        const rows::ProfileVerdict verdict = rows::verify_profile(folder, options);
        std::vector<std::string> names;  // each finding's file, named as the user would open it
        names.reserve(verdict.findings.size());
        for (const rows::ProfileFinding& f : verdict.findings)
            names.push_back(fs::path(f.file).is_absolute() || std::find(options.canonical.begin(), options.canonical.end(), fs::path(f.file)) != options.canonical.end()
                                ? f.file
                                : (fs::path(folder) / f.file).string());
        for (std::size_t i = 0; i < verdict.findings.size(); ++i) {
            Finding finding;
            finding.path = &names[i];
            finding.line = verdict.findings[i].line;
            finding.errors = {verdict.findings[i].error};
            reporter.report(finding);
        }
        failed = failed || !verdict.ok();
        std::string splits;
        for (const auto& [split, n] : verdict.rows_by_split) splits += (splits.empty() ? "" : ", ") + split + " " + std::to_string(n);
        const std::string profile = verdict.profile ? std::string(verdict.profile->id) : "no profile";
        reporter.file_summary(folder, "\"profile\": " + (verdict.profile ? json_string(profile) : std::string("null")) +
                                          ", \"rows\": " + std::to_string(verdict.rows) + ", \"findings\": " +
                                          std::to_string(verdict.findings.size()) + ", \"verified\": " + (verdict.ok() ? "true" : "false"));
        if (!quiet)
            std::cerr << (display_name(folder) + ": " + profile + ", " + std::to_string(verdict.rows) + " rows" +
                (splits.empty() ? "" : " (" + splits + ")") + ": " +
                (verdict.ok() ? std::string("verified") : std::to_string(verdict.findings.size()) + (verdict.findings.size() == 1 ? " finding" : " findings"))) << "\n";
    }
    reporter.finish();
    return failed ? kExitFailed : kExitOk;
}

}  // namespace sediment_rows_cli
