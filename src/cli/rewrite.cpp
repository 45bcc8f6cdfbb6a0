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

// ----- convert -----------------------------------------------------------------------------------

/// The "dropped" field of a document's --format jsonl report under --lossy; the other formats list
/// the losses themselves, so it is written only where it is read.
std::string dropped_field(const Options& o, const Outcome& out) {
    return o.lossy && o.format == Format::jsonl ? "\"dropped\": " + json_errors(out.finding.dropped, SIZE_MAX) + ", " : "";
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
        reporter.report(out.finding, dropped_field(o, out));
        std::cout << out.out;
        return std::cout.good() && !reporter.stopped();
    });
    summary(o, std::to_string(tally.ok) + " converted, " + std::to_string(tally.failed) + " failed" + tally.losses_summary("convert", "the values listed"), t, reporter);
    return tally.status();
}

// ----- upgrade -----------------------------------------------------------------------------------

int run_upgrade(const Options& o) {
    if (const std::string refusal = upgrade_refusal(o.schema_name, *o.to); !refusal.empty()) return usage_error(refusal, "upgrade");
    const rows::ConvertOptions options{o.lossy};
    Reporter reporter(std::cerr, o.reporting());
    Tally tally(o);
    tally.lossy_drops = o.to->base == "nemo-gym-rollout";  // the only family whose upgrade drops (a CI resolution)
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
        const std::string fields = versions.take(out) + dropped_field(o, out);
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
        std::cout << "any\tany of the names above: each document read as the family and version its schema_id names\n";
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

}  // namespace sediment_rows_cli
