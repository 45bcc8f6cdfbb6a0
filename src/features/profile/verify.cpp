// verify_profile(): is a consumer profile folder the one Sediment wrote? Every check of
// docs/profiles.md "What verify checks", each finding at its file, line and JSON Pointer (rows.verify.*).
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>

#include "detail/text.hpp"
#include "features/lint/split.hpp"
#include "features/profile/forms.hpp"
#include "features/profile/verify_rows.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/encode.hpp"
#include "sediment/rows/json.hpp"

namespace sediment::rows {
namespace {

namespace fs = std::filesystem;
using detail::verification::Pair;
using detail::verification::Pending;
using detail::verification::Row;

constexpr const char* kManifest = "compatibility.json";

// The first place two values differ: its pointer, or "" when they are equal.
bool first_difference(const Json& a, const Json& b, std::string& at) {
    if (a.is_number() && b.is_number()) return a != b || a.is_number_float() != b.is_number_float();
    if (a.type() != b.type() || (!a.is_structured() && a != b)) return true;
    if (a.is_array()) {
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
            const std::string here = at + "/" + std::to_string(i);
            if (i >= a.size() || i >= b.size()) return at = here, true;
            std::string inner = here;
            if (first_difference(a[i], b[i], inner)) return at = inner, true;
        }
        return false;
    }
    if (a.is_object()) {
        for (const auto& [key, value] : a.items()) {
            std::string inner = at;
            detail::append_pointer_token(inner, key);
            if (!b.contains(key)) return at = inner, true;
            if (first_difference(value, b[key], inner)) return at = inner, true;
        }
        for (const auto& [key, value] : b.items())
            if (!a.contains(key)) return detail::append_pointer_token(at, key), true;
    }
    return false;
}

struct Collector {
    ProfileVerdict& verdict;
    std::size_t max;
    std::size_t dropped = 0;
    void add(std::string file, std::size_t line, const char* id, std::string pointer, std::string message) {
        if (verdict.findings.size() >= max) return void(++dropped);
        verdict.findings.push_back({std::move(file), line, Error{id, std::move(pointer), std::move(message)}});
    }
};

// The canonical rows given with --canonical, by their row digest.
struct CanonicalRow {
    std::string file;
    std::size_t line;
    std::string text;
};

// A line as read: its bytes (with the newline) and its number.
std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::size_t stop = end == std::string_view::npos ? text.size() : end + 1;
        out.push_back(text.substr(start, stop - start));
        start = stop;
    }
    return out;
}

class Verifier {
public:
    Verifier(const fs::path& folder, const VerifyOptions& options, ProfileVerdict& verdict)
        : folder_(folder), options_(options), out_{verdict, options.max_findings} {}

    void run() {
        if (!manifest()) return finish();
        files();
        canonical_rows();
        for (const Pair& pair : pairs_) rows_of(pair);
        totals();
        finish();
    }

private:
    // compatibility.json: present, JSON, the manifest's model, digest form, the profile's entry.
    bool manifest() {
        detail::MappedFile file;
        if (!file.open(folder_ / kManifest)) {
            out_.add(kManifest, 0, "rows.verify.manifest", "", "no compatibility.json: not a consumer profile folder Sediment wrote");
            return false;
        }
        const std::string_view text = file.text();
        std::vector<Error> errors;
        if (!parse(text, manifest_, errors)) {
            for (const Error& e : errors) out_.add(kManifest, 1, "rows.verify.manifest", e.pointer, "not JSON: " + e.message);
            return false;
        }
        const Validated v = validate(SchemaId::profile_manifest, manifest_);
        for (const Error& e : v.errors) out_.add(kManifest, 1, "rows.verify.model", e.pointer, e.message + " [" + e.id + "]");
        if (!v.valid()) return false;
        const std::string formed = digest_form(manifest_) + "\n";
        if (text != formed)
            out_.add(kManifest, 1, "rows.verify.manifest_form", "",
                     "not in Sediment's digest form (sorted keys, no spaces) and a newline: " + detail::verification::byte_difference(text, formed));
        const std::string id = manifest_["profile"]["id"].get<std::string>();
        try {
            profile_ = &profile(id);
        } catch (const ProfileError& e) {
            out_.add(kManifest, 1, "rows.verify.profile", "/profile/id", e.what());
            return false;
        }
        out_.verdict.profile = profile_;
        std::string at;
        const Json entry = profile_entry(*profile_);
        if (first_difference(manifest_["profile"], entry, at)) {
            const Json::json_pointer where(at);
            const auto shown = [&](const Json& j) { return j.contains(where) ? encode(j.at(where)) : std::string("nothing"); };
            out_.add(kManifest, 1, "rows.verify.profile", "/profile" + at,
                     "is " + shown(manifest_["profile"]) + "; " + id + "'s entry has " + shown(entry));
        }
        const bool rlvr = profile_->objective == "rlvr";
        if (profile_->writable() && !manifest_["skipped"].empty())
            out_.add(kManifest, 1, "rows.verify.skipped", "/skipped",
                     std::string("the ") + (rlvr ? "SWE-bench" : "SFT and DPO") + " adapter skips no row; the manifest says it did");
        if (!rlvr && manifest_.contains("fragmented"))
            out_.add(kManifest, 1, "rows.verify.skipped", "/fragmented", "only RLVR exports count fragmented rows");
        if (rlvr && !manifest_.contains("fragmented"))
            out_.add(kManifest, 1, "rows.verify.skipped", "", "an RLVR export's manifest counts its fragmented rows (\"fragmented\", maybe {})");
        return true;
    }

    // The folder's files against the manifest's: names, sizes, digests, and the layout of the names.
    void files() {
        std::set<std::string> listed;
        for (const auto& [name, entry] : manifest_["files"].items()) listed.insert(name);
        std::error_code ec;
        std::set<std::string> present;
        for (const fs::directory_entry& e : fs::directory_iterator(folder_, ec)) {
            const std::string name = e.path().filename().string();
            if (name == kManifest) continue;
            present.insert(name);
            if (!listed.count(name))
                out_.add(name, 0, "rows.verify.file_extra", "", "a file the manifest does not list (Sediment writes only its data, evidence and manifest)");
        }
        bool split = false, unsplit = false;
        for (const std::string& name : listed) {
            std::string pointer = "/files";
            detail::append_pointer_token(pointer, name);
            if (name == "data.jsonl" || name == "evidence.jsonl") unsplit = true;
            else if (name == "data.train.jsonl" || name == "data.eval.jsonl" || name == "evidence.train.jsonl" || name == "evidence.eval.jsonl") split = true;
            else out_.add(kManifest, 1, "rows.verify.file_names", pointer, "'" + detail::printable(name) + "' is not a file Sediment writes in a profile folder");
            if (!present.count(name)) {
                out_.add(kManifest, 1, "rows.verify.file_missing", pointer, "the manifest lists " + detail::printable(name) + "; the folder has no such file");
                continue;
            }
            auto file = std::make_unique<detail::MappedFile>();
            if (!file->open(folder_ / name)) {
                out_.add(name, 0, "rows.verify.file_missing", "", "cannot be read");
                continue;
            }
            texts_.emplace(name, std::move(file));
        }
        // Each file's size and SHA-256, the files hashed two at a time (the largest two, then the next two, ...).
        std::vector<std::pair<std::string_view, std::string_view>> by_size;  // name, bytes
        for (const auto& [name, file] : texts_) by_size.emplace_back(name, file->text());
        std::sort(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
        std::map<std::string_view, std::string> digests;
        for (std::size_t i = 0; i < by_size.size(); i += 2) {
            std::array<unsigned char, 32> first{}, second{};
            detail::sha256_two(by_size[i].second, i + 1 < by_size.size() ? by_size[i + 1].second : std::string_view(), first, second);
            digests[by_size[i].first] = detail::hex(first);
            if (i + 1 < by_size.size()) digests[by_size[i + 1].first] = detail::hex(second);
        }
        for (const auto& [name, file] : texts_) {
            std::string pointer = "/files";
            detail::append_pointer_token(pointer, name);
            const Json& entry = manifest_["files"][name];
            if (entry["bytes"] != file->text().size())
                out_.add(name, 0, "rows.verify.file_size", "",
                         "is " + std::to_string(file->text().size()) + " bytes; the manifest says " + entry["bytes"].dump() + " (" + pointer + "/bytes)");
            if (entry["sha256"] != digests[name])
                out_.add(name, 0, "rows.verify.file_sha256", "",
                         "its SHA-256 is " + digests[name] + "; the manifest says " + entry["sha256"].get<std::string>() + " (" + pointer + "/sha256)");
        }
        if (split && unsplit)
            out_.add(kManifest, 1, "rows.verify.file_names", "/files", "both split files (data.train.jsonl, ...) and unsplit ones (data.jsonl): Sediment writes one layout");
        for (const std::string side : {"eval", "train", ""}) {
            const std::string suffix = side.empty() ? ".jsonl" : "." + side + ".jsonl";
            const bool data = listed.count("data" + suffix), evidence = listed.count("evidence" + suffix);
            if (data != evidence)
                out_.add(kManifest, 1, "rows.verify.file_names", "/files",
                         (data ? "data" : "evidence") + suffix + " without " + (data ? "evidence" : "data") + suffix + ": each data file has its evidence");
            if (data && evidence && texts_.count("data" + suffix) && texts_.count("evidence" + suffix))
                pairs_.push_back({side, "data" + suffix, "evidence" + suffix});
        }
        if (listed.empty()) out_.add(kManifest, 1, "rows.verify.file_names", "/files", "no files: Sediment writes no folder for an empty export");
    }

    void canonical_rows() {
        std::string spare;
        for (const fs::path& path : options_.canonical) {
            const std::string name = path.string();
            detail::MappedFile file;
            if (!file.open(path)) {
                out_.add(name, 0, "rows.verify.canonical", "", "cannot be read");
                continue;
            }
            detail::each_line(file.text(), [&](std::size_t number, std::string_view line) {
                std::string digest;
                const StringText text = file.line(line, spare);
                const bool fast = detail::fast_parse_dom(text.text(), Limits{}, text.padded(),
                                                         [&](simdjson::dom::element root, const detail::BigIntegers& big, detail::TokenStarts) {
                                                             const detail::TapeDoc d{detail::tape::value_of(root), &big};
                                                             digest = detail::sorted_sha256(d, d.root);
                                                         });
                if (!fast) {
                    Json row;
                    std::vector<Error> errors;
                    if (!parse(line, row, errors)) {
                        out_.add(name, number, "rows.verify.canonical", errors.front().pointer, "not JSON: " + errors.front().message);
                        return;
                    }
                    digest = row_sha256(row);
                }
                std::string kept(line);
                kept.reserve(kept.size() + kTextPadding);  // read in place by adapt_row()
                canonical_.emplace(std::move(digest), CanonicalRow{name, number, std::move(kept)});
            });
        }
    }

    // The lines of one pair of files.
    void rows_of(const Pair& pair) {
        const detail::MappedFile &data_file = *texts_[pair.data], &evidence_file = *texts_[pair.evidence];
        const std::vector<std::string_view> data = lines_of(data_file.text()), evidence = lines_of(evidence_file.text());
        if (data.size() != evidence.size()) {
            const bool more = data.size() > evidence.size();
            out_.add(more ? pair.evidence : pair.data, std::min(data.size(), evidence.size()) + 1, "rows.verify.line_count", "",
                     (more ? pair.data : pair.evidence) + " has " + std::to_string(std::max(data.size(), evidence.size())) + " lines and " +
                         (more ? pair.evidence : pair.data) + " " + std::to_string(std::min(data.size(), evidence.size())) +
                         ": line i of each is one row");
        }
        const std::size_t n = std::min(data.size(), evidence.size());
        const detail::verification::RowReader reader(*profile_, options_.exact);
        Row previous;
        std::string_view previous_evidence;  // (the files stay mapped)
        std::size_t previous_line = 0;  // of the last row read whole, or 0
        for (std::size_t i = 0; i < n; ++i) {
            ++out_.verdict.rows;
            Row row;
            std::vector<Pending> pending;
            const bool read = reader.read(pair, i + 1, data_file, data[i], evidence_file, evidence[i], row, pending);
            for (Pending& p : pending)
                out_.add(p.evidence ? pair.evidence : pair.data, i + 1, p.id, std::move(p.pointer), std::move(p.message));
            if (!read) continue;
            ++out_.verdict.rows_by_split[row.side];
            if (previous_line) {
                const bool before = detail::sorts_before(row.side, row.digest, [&] { return evidence[i]; }, previous.side, previous.digest,
                                                         [&] { return previous_evidence; });
                if (before)
                    out_.add(pair.data, i + 1, "rows.verify.order", "",
                             "out of Sediment's order (split, then the row's digest, then its evidence): it sorts before line " +
                                 std::to_string(previous_line));
            }
            previous_line = i + 1, previous_evidence = evidence[i];
            if (profile_->writable() && !options_.canonical.empty()) mapping(pair, i + 1, data[i], evidence[i], row);
            if (profile_->objective == "rlvr") configuration(pair, i + 1, row);
            where_.push_back({pair.evidence, i + 1});
            seen_.push_back(row);
            previous = std::move(row);
        }
    }

    // With --canonical: the row's source is a given canonical row, and (SFT, DPO) the lines are its mapping.
    void mapping(const Pair& pair, std::size_t number, std::string_view data, std::string_view evidence, const Row& row) {
        const auto found = canonical_.find(row.source);
        if (found == canonical_.end()) {
            out_.add(pair.evidence, number, "rows.verify.source_row", "/source_row_sha256", "names no row of the canonical files");
            return;
        }
        // (SWE-bench without the consumer config: the source digest, made from the data row and its
        // evidence, already ties their canonical part to the row; the task's settings are unknown)
        if (profile_->consumer == "swe-bench" && !options_.consumer) return;
        const CanonicalRow& canonical = found->second;
        const std::string at = " (" + canonical.file + " line " + std::to_string(canonical.line) + ")";
        ProfileRow expected;
        try {
            static const ConsumerSettings none;  // (the given config by reference: copying it for each row costs its size)
            expected = adapt_row(*profile_, StringText(canonical.text), std::nullopt, options_.consumer ? *options_.consumer : none);
        } catch (const std::exception& e) {
            out_.add(pair.data, number, "rows.verify.mapping", "", std::string("Sediment refuses its canonical row") + at + ": " + e.what());
            return;
        }
        std::string pointer;
        if (expected.data != data) {
            first_difference(parse(data), parse(expected.data), pointer);
            out_.add(pair.data, number, "rows.verify.mapping", pointer, "is not the mapping of its canonical row" + at);
        }
        pointer.clear();
        if (expected.evidence != evidence) {
            first_difference(parse(evidence), parse(expected.evidence), pointer);
            out_.add(pair.evidence, number, "rows.verify.mapping", pointer, "is not the evidence of its canonical row" + at);
        }
    }

    // An RLVR row's configuration_digest: the export's one consumer config (the given one's, with
    // VerifyOptions::consumer; else the first row's).
    void configuration(const Pair& pair, std::size_t number, const Row& row) {
        if (options_.consumer) {
            if (row.configuration != options_.consumer->digest())
                out_.add(pair.evidence, number, "rows.verify.configuration_digest", "/configuration_digest",
                         "is not the digest of the given consumer config (" + options_.consumer->digest() + ")");
        } else if (first_configuration_.empty()) {
            first_configuration_ = row.configuration, first_configuration_at_ = pair.evidence + " line " + std::to_string(number);
        } else if (row.configuration != first_configuration_) {
            out_.add(pair.evidence, number, "rows.verify.configuration_digest", "/configuration_digest",
                     "differs from " + first_configuration_at_ + "'s: an export has one consumer config");
        }
    }

    // The manifest's counts against the lines; no exact prompt in train and eval.
    void totals() {
        std::vector<Split> splits;
        std::vector<std::string_view> prompts;
        std::vector<std::string> rewards;
        for (const Row& r : seen_) {
            splits.push_back(r.side == "eval" ? Split::eval : Split::train);
            prompts.push_back(r.prompt);
            rewards.push_back(r.reward);
        }
        std::size_t overlap = 0;
        const Json diagnostics = detail::diagnostics(splits, prompts, rewards, overlap);
        // Each eval row whose exact prompt a train row has, at its evidence line.
        std::map<std::string_view, std::pair<std::string, std::size_t>> train;
        for (std::size_t i = 0; i < seen_.size(); ++i)
            if (splits[i] == Split::train && !seen_[i].prompt.empty()) train.emplace(seen_[i].prompt, where_[i]);
        const bool split_folder = std::any_of(pairs_.begin(), pairs_.end(), [](const Pair& p) { return !p.side.empty(); });
        for (std::size_t i = 0; i < seen_.size() && split_folder; ++i) {
            if (splits[i] != Split::eval || seen_[i].prompt.empty()) continue;
            const auto t = train.find(seen_[i].prompt);
            if (t == train.end()) continue;
            out_.add(where_[i].first, where_[i].second, "rows.verify.overlap", "/prompt_sha256",
                     "an exact prompt in both train and eval (also " + t->second.first + " line " + std::to_string(t->second.second) +
                         "): Sediment refuses such an export");
        }
        if (manifest_["rows"] != out_.verdict.rows)
            out_.add(kManifest, 1, "rows.verify.rows", "/rows",
                     "is " + manifest_["rows"].dump() + "; the data files have " + std::to_string(out_.verdict.rows) + " rows");
        const auto compare = [&](const char* key, const char* what) {
            const Json& said = manifest_["diagnostics"][key];
            if (said != diagnostics[key])
                out_.add(kManifest, 1, "rows.verify.diagnostics", std::string("/diagnostics/") + key,
                         "is " + encode(said) + "; the " + what + " are " + encode(diagnostics[key]));
        };
        compare("rows_by_split", "rows by split");
        compare("reward_counts", "rows by reward");
        compare("exact_prompt_overlap", "exact prompts in both train and eval");
    }

    void finish() {
        if (out_.dropped)
            out_.verdict.findings.push_back({kManifest, 0, Error{"rows.verify.more", "", std::to_string(out_.dropped) + " more findings not listed"}});
    }

    fs::path folder_;
    const VerifyOptions& options_;
    Collector out_;
    Json manifest_;
    const Profile* profile_ = nullptr;
    std::map<std::string, std::unique_ptr<detail::MappedFile>> texts_;  // the files read, by name
    std::vector<Pair> pairs_;
    std::multimap<std::string, CanonicalRow> canonical_;  // by digest
    std::vector<Row> seen_;                                   // each row read whole
    std::string first_configuration_, first_configuration_at_;  // (RLVR) the first row's configuration_digest, where
    std::vector<std::pair<std::string, std::size_t>> where_;  // its evidence file and line
};

}  // namespace

ProfileVerdict verify_profile(const fs::path& folder, const VerifyOptions& options) {
    ProfileVerdict verdict;
    Verifier(folder, options, verdict).run();
    return verdict;
}

}  // namespace sediment::rows
