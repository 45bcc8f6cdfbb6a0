// verify_profile(): is a consumer profile folder the one Sediment wrote? Every check of
// docs/profiles.md "What verify checks", each finding at its file, line and JSON Pointer (rows.verify.*).
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "features/profile/profile_detail.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/encode.hpp"
#include "sediment/rows/json.hpp"
#include "sediment/rows/lint.hpp"
#include "detail/text.hpp"

namespace sediment::rows {
namespace {

namespace fs = std::filesystem;

constexpr const char* kManifest = "compatibility.json";

bool read_all(const fs::path& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    out = std::move(s).str();
    return !in.bad();
}

// Escapes a key for a JSON Pointer (RFC 6901).
std::string token(std::string_view key) {
    std::string out;
    for (const char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
}

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
            std::string inner = at + "/" + token(key);
            if (!b.contains(key)) return at = inner, true;
            if (first_difference(value, b[key], inner)) return at = inner, true;
        }
        for (const auto& [key, value] : b.items())
            if (!a.contains(key)) return at = at + "/" + token(key), true;
    }
    return false;
}

// Where `actual` first differs from `expected`, in words: "byte 12: ', ' where ... has ','".
std::string byte_difference(std::string_view actual, std::string_view expected) {
    std::size_t i = 0;
    while (i < actual.size() && i < expected.size() && actual[i] == expected[i]) ++i;
    const auto excerpt = [](std::string_view s, std::size_t at) {
        if (at >= s.size()) return std::string("the end");
        return "'" + detail::printable(s.substr(at, std::min<std::size_t>(12, s.size() - at))) + "'";
    };
    return "from byte " + std::to_string(i + 1) + ": " + excerpt(actual, i) + " where Sediment writes " + excerpt(expected, i);
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
    Json row;
};

// One pair of data and evidence files: "data.train.jsonl" and "evidence.train.jsonl", or unsplit.
struct Pair {
    std::string side;  // "train", "eval" or "" (unsplit)
    std::string data, evidence;
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

// The canonical row an SFT/DPO data row maps from (docs/profiles.md), as far as digests see it: the
// adapter's renames and weights undone, Fireworks' arguments parsed back. False when the row cannot be
// read back (the model's findings say why).
bool canonical_of(const Profile& p, const Json& data, const Json& metadata, Json& out, std::string& prompt_pointer) {
    const auto restore = [](Json list) {
        for (Json& m : list) {
            if (!m.is_object()) return list;
            m.erase("weight");
            if (m.contains("reasoning_content")) {
                Json r = std::move(m["reasoning_content"]);
                m.erase("reasoning_content");
                m["thinking"] = std::move(r);
            }
            if (m.contains("tool_calls") && m["tool_calls"].is_array())
                for (Json& call : m["tool_calls"])
                    if (call.is_object() && call.contains("function") && call["function"].contains("arguments") &&
                        call["function"]["arguments"].is_string()) {
                        Json args;
                        std::vector<Error> errors;
                        if (parse(call["function"]["arguments"].get_ref<const std::string&>(), args, errors))
                            call["function"]["arguments"] = std::move(args);
                    }
        }
        return list;
    };
    const bool fireworks = p.consumer == "fireworks";
    if (p.objective == "sft") {
        Json prompt = Json::array(), completion = Json::array();
        if (fireworks) {
            bool after = false;
            for (const Json& m : data["messages"]) {
                after = after || (m.contains("weight") && m["weight"] == 1);
                (after ? completion : prompt).push_back(m);
            }
            prompt_pointer = "/messages";
        } else {
            prompt = data["prompt"], completion = data["completion"];
            prompt_pointer = "/prompt";
        }
        out = Json{{"prompt", restore(prompt)}, {"completion", restore(completion)}, {"tools", Json::array()}, {"metadata", metadata}};
        return true;
    }
    if (fireworks) {
        out = Json{{"prompt", restore(data["input"]["messages"])},
                   {"chosen", restore(data["preferred_output"])},
                   {"rejected", restore(data["non_preferred_output"])},
                   {"tools", Json::array()},
                   {"metadata", metadata}};
        prompt_pointer = "/input/messages";
    } else {
        out = Json{{"prompt", restore(data["prompt"])}, {"chosen", restore(data["chosen"])}, {"rejected", restore(data["rejected"])},
                   {"tools", Json::array()}, {"metadata", metadata}};
        prompt_pointer = "/prompt";
    }
    return true;
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
        if (!read_all(folder_ / kManifest, manifest_text_)) {
            out_.add(kManifest, 0, "rows.verify.manifest", "", "no compatibility.json: not a consumer profile folder Sediment wrote");
            return false;
        }
        std::vector<Error> errors;
        if (!parse(manifest_text_, manifest_, errors)) {
            for (const Error& e : errors) out_.add(kManifest, 1, "rows.verify.manifest", e.pointer, "not JSON: " + e.message);
            return false;
        }
        const Validated v = validate(SchemaId::profile_manifest, manifest_);
        for (const Error& e : v.errors) out_.add(kManifest, 1, "rows.verify.model", e.pointer, e.message + " [" + e.id + "]");
        if (!v.valid()) return false;
        if (manifest_text_ != digest_form(manifest_) + "\n")
            out_.add(kManifest, 1, "rows.verify.manifest_form", "",
                     "not in Sediment's digest form (sorted keys, no spaces) and a newline: " +
                         byte_difference(manifest_text_, digest_form(manifest_) + "\n"));
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
        if (profile_->writable()) {
            if (!manifest_["skipped"].empty())
                out_.add(kManifest, 1, "rows.verify.skipped", "/skipped", "the SFT and DPO adapter skips no row; the manifest says it did");
            if (manifest_.contains("fragmented"))
                out_.add(kManifest, 1, "rows.verify.skipped", "/fragmented", "only RLVR exports count fragmented rows");
        }
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
            const std::string pointer = "/files/" + token(name);
            if (name == "data.jsonl" || name == "evidence.jsonl") unsplit = true;
            else if (name == "data.train.jsonl" || name == "data.eval.jsonl" || name == "evidence.train.jsonl" || name == "evidence.eval.jsonl") split = true;
            else out_.add(kManifest, 1, "rows.verify.file_names", pointer, "'" + detail::printable(name) + "' is not a file Sediment writes in a profile folder");
            if (!present.count(name)) {
                out_.add(kManifest, 1, "rows.verify.file_missing", pointer, "the manifest lists " + detail::printable(name) + "; the folder has no such file");
                continue;
            }
            std::string& bytes = texts_[name];
            if (!read_all(folder_ / name, bytes)) {
                out_.add(name, 0, "rows.verify.file_missing", "", "cannot be read");
                continue;
            }
            const Json& entry = manifest_["files"][name];
            if (entry["bytes"] != bytes.size())
                out_.add(name, 0, "rows.verify.file_size", "", "is " + std::to_string(bytes.size()) + " bytes; the manifest says " + entry["bytes"].dump() + " (" + pointer + "/bytes)");
            const std::string digest = detail::hex(sha256(bytes));
            if (entry["sha256"] != digest)
                out_.add(name, 0, "rows.verify.file_sha256", "", "its SHA-256 is " + digest + "; the manifest says " + entry["sha256"].get<std::string>() + " (" + pointer + "/sha256)");
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
        for (const fs::path& path : options_.canonical) {
            std::string text;
            const std::string name = path.string();
            if (!read_all(path, text)) {
                out_.add(name, 0, "rows.verify.canonical", "", "cannot be read");
                continue;
            }
            std::size_t number = 0;
            for (std::string_view line : lines_of(text)) {
                ++number;
                while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
                if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
                Json row;
                std::vector<Error> errors;
                if (!parse(line, row, errors)) {
                    out_.add(name, number, "rows.verify.canonical", errors.front().pointer, "not JSON: " + errors.front().message);
                    continue;
                }
                std::string digest;
                try {
                    digest = row_sha256(row);
                } catch (const EncodeError& e) {
                    out_.add(name, number, "rows.verify.canonical", e.error().pointer, e.error().message);
                    continue;
                }
                canonical_.emplace(std::move(digest), CanonicalRow{name, number, std::move(row)});
            }
        }
    }

    // The lines of one pair of files.
    void rows_of(const Pair& pair) {
        const std::vector<std::string_view> data = lines_of(texts_[pair.data]), evidence = lines_of(texts_[pair.evidence]);
        if (data.size() != evidence.size()) {
            const bool more = data.size() > evidence.size();
            out_.add(more ? pair.evidence : pair.data, std::min(data.size(), evidence.size()) + 1, "rows.verify.line_count", "",
                     (more ? pair.data : pair.evidence) + " has " + std::to_string(std::max(data.size(), evidence.size())) + " lines and " +
                         (more ? pair.evidence : pair.data) + " " + std::to_string(std::min(data.size(), evidence.size())) +
                         ": line i of each is one row");
        }
        const std::size_t n = std::min(data.size(), evidence.size());
        std::string previous_side, previous_digest;
        std::size_t previous_line = 0;  // of the last row read whole, or 0
        for (std::size_t i = 0; i < n; ++i) {
            Json d, e;
            const bool data_ok = line(pair.data, i + 1, data[i], profile_->data, d);
            const bool evidence_ok = line(pair.evidence, i + 1, evidence[i], profile_->evidence, e);
            ++out_.verdict.rows;
            if (!data_ok || !evidence_ok || !e.is_object()) continue;
            const std::string digest = row_sha256(d);
            if (!e.contains("row_sha256") || e["row_sha256"] != digest)
                out_.add(pair.evidence, i + 1, "rows.verify.row_sha256", "/row_sha256",
                         "is not the digest of " + pair.data + " line " + std::to_string(i + 1) + " (" + digest + ")");
            if (!e.contains("canonical_schema") || e["canonical_schema"] != profile_->canonical_schema)
                out_.add(pair.evidence, i + 1, "rows.verify.canonical_schema", "/canonical_schema", "is not " + std::string(profile_->canonical_schema));
            // The row's split: its file's, which its evidence must say too; unsplit, the evidence's.
            const Json* said = e.contains("metadata") && e["metadata"].is_object() && e["metadata"].contains("split") ? &e["metadata"]["split"] : nullptr;
            std::string side = pair.side;
            if (side.empty()) side = said && said->is_string() ? said->get<std::string>() : "train";
            else if (!said || *said != side)
                out_.add(pair.evidence, i + 1, "rows.verify.split", "/metadata/split", "is not '" + side + "', the split of " + pair.evidence);
            ++out_.verdict.rows_by_split[side];
            splits_.push_back(side == "eval" ? Split::eval : Split::train);
            where_.push_back({pair.evidence, i + 1});
            evidence_.push_back(e);
            data_.push_back(std::move(d));
            // Sediment's order: (split, row digest, evidence digest form without row_sha256); the last only on a tie.
            if (previous_line) {
                const bool before = side != previous_side ? side < previous_side
                                    : digest != previous_digest
                                        ? digest < previous_digest
                                        : detail::evidence_key(e) < detail::evidence_key(evidence_[evidence_.size() - 2]);
                if (before)
                    out_.add(pair.data, i + 1, "rows.verify.order", "",
                             "out of Sediment's order (split, then the row's digest, then its evidence): it sorts before line " + std::to_string(previous_line));
            }
            previous_side = side, previous_digest = digest, previous_line = i + 1;
            if (profile_->writable()) mapping(pair, i + 1, data_.back(), e);
        }
    }

    // One line: JSON in Sediment's line form, valid under its model (where the project has one).
    bool line(const std::string& file, std::size_t number, std::string_view text, const std::optional<SchemaId>& model, Json& out) {
        std::vector<Error> errors;
        std::string_view body = text;
        const bool newline = !body.empty() && body.back() == '\n';
        if (newline) body.remove_suffix(1);
        if (!parse(body, out, errors)) {
            out_.add(file, number, "rows.verify.line_form", errors.front().pointer, "not JSON: " + errors.front().message);
            return false;
        }
        if (model) {
            const Validated v = validate(*model, body);
            for (const Error& e : v.errors) out_.add(file, number, "rows.verify.model", e.pointer, e.message + " [" + e.id + "]");
            if (!v.valid()) return false;
        }
        std::string formatted;
        try {
            formatted = line_form(out);
        } catch (const EncodeError& e) {
            out_.add(file, number, "rows.verify.line_form", e.error().pointer, e.error().message);
            return false;
        }
        if (formatted != text)
            out_.add(file, number, "rows.verify.line_form", "",
                     "not Sediment's line form (\", \" and \": \", non-ASCII as \\u escapes, a newline at the end): " + byte_difference(text, formatted));
        if (model) key_order(file, number, out, "");
        return true;
    }

    // The keys the adapter writes in an order of its own: a body's and an evidence record's, and in a
    // message, a renamed reasoning_content last but for a weight, which is last. (A message's other keys,
    // a tool call's and the metadata's keep the canonical row's order, which Sediment leaves free.)
    void key_order(const std::string& file, std::size_t number, const Json& v, const std::string& at) {
        static const std::map<std::string, std::vector<std::string>> kOrders = {
            {"hf-trl-sft-v1", {"prompt", "completion", "tools"}},
            {"hf-trl-dpo-v2", {"prompt", "chosen", "rejected", "tools"}},
            {"fireworks-sft-v1", {"messages"}},
            {"fireworks-dpo-v2", {"input", "preferred_output", "non_preferred_output"}},
            {"input", {"messages", "tools"}},
            {"evidence", {"row_sha256", "canonical_schema", "source_row_sha256", "prompt_sha256", "metadata", "tool_definitions"}}};
        const auto check = [&](const Json& object, const std::vector<std::string>& order, const std::string& pointer) {
            std::vector<std::string> keys;
            for (const auto& [key, value] : object.items()) keys.push_back(key);
            if (keys == order) return;
            std::string expected;
            for (const std::string& k : order) expected += (expected.empty() ? "" : ", ") + k;
            out_.add(file, number, "rows.verify.key_order", pointer, "keys not in the adapter's order (" + expected + ")");
        };
        const bool evidence = v.contains("row_sha256");
        check(v, kOrders.at(evidence ? "evidence" : std::string(profile_->id)), at);
        if (evidence) return;
        if (v.contains("input")) check(v["input"], kOrders.at("input"), "/input");
        for (const auto& [key, list] : v.items()) {
            const Json& messages = key == "input" ? list["messages"] : list;
            if (!messages.is_array()) continue;
            for (std::size_t i = 0; i < messages.size(); ++i) {
                const Json& m = messages[i];
                if (!m.is_object()) continue;
                std::vector<std::string> keys;
                for (const auto& [k, value] : m.items()) keys.push_back(k);
                std::size_t tail = keys.size();
                if (m.contains("weight") && keys[--tail] != "weight") tail = SIZE_MAX;
                if (tail != SIZE_MAX && m.contains("reasoning_content") && keys[tail - 1] != "reasoning_content") tail = SIZE_MAX;
                if (tail == SIZE_MAX)
                    out_.add(file, number, "rows.verify.key_order", (key == "input" ? "/input/messages/" : "/" + key + "/") + std::to_string(i),
                             "the adapter writes a renamed reasoning_content last, and then a weight");
            }
        }
    }

    // SFT and DPO: the evidence's source and prompt digests are those of the canonical row the data row
    // maps from; with --canonical, that row is given and maps to these very lines.
    void mapping(const Pair& pair, std::size_t number, const Json& data, const Json& evidence) {
        Json canonical;
        std::string prompt_pointer;
        if (!canonical_of(*profile_, data, evidence["metadata"], canonical, prompt_pointer)) return;
        const std::string source = row_sha256(canonical);
        if (evidence["source_row_sha256"] != source)
            out_.add(pair.evidence, number, "rows.verify.source_row_sha256", "/source_row_sha256",
                     "is not the digest of the canonical row " + pair.data + " line " + std::to_string(number) + " maps from (" + source + ")");
        const std::string prompt = row_sha256(Json{{"prompt", canonical["prompt"]}});
        if (evidence["prompt_sha256"] != prompt)
            out_.add(pair.evidence, number, "rows.verify.prompt_sha256", "/prompt_sha256",
                     "is not the digest of the prompt of " + pair.data + " line " + std::to_string(number) + " (" + prompt + ")");
        if (options_.canonical.empty()) return;
        const auto found = canonical_.find(evidence["source_row_sha256"].get<std::string>());
        if (found == canonical_.end()) {
            out_.add(pair.evidence, number, "rows.verify.source_row", "/source_row_sha256", "names no row of the canonical files");
            return;
        }
        const CanonicalRow& row = found->second;
        const std::string at = " (" + row.file + " line " + std::to_string(row.line) + ")";
        ProfileRow expected;
        try {
            const Json& split = row.row["metadata"]["split"];
            expected = adapt_row(*profile_, row.row, split == "eval" ? Split::eval : Split::train);
        } catch (const std::exception& e) {
            out_.add(pair.data, number, "rows.verify.mapping", "", std::string("Sediment refuses its canonical row") + at + ": " + e.what());
            return;
        }
        std::string pointer;
        if (line_form(expected.data) != line_form(data)) {
            first_difference(data, expected.data, pointer);
            out_.add(pair.data, number, "rows.verify.mapping", pointer, "is not the mapping of its canonical row" + at);
        }
        pointer.clear();
        if (line_form(expected.evidence) != line_form(evidence)) {
            first_difference(evidence, expected.evidence, pointer);
            out_.add(pair.evidence, number, "rows.verify.mapping", pointer, "is not the evidence of its canonical row" + at);
        }
    }

    // The manifest's counts against the lines; no exact prompt in train and eval.
    void totals() {
        std::vector<const Json*> evidence, data;
        for (const Json& e : evidence_) evidence.push_back(&e);
        for (const Json& d : data_) data.push_back(&d);
        std::size_t overlap = 0;
        const Json diagnostics = detail::diagnostics(evidence, splits_, data, overlap);
        // Each eval row whose exact prompt a train row has, at its evidence line.
        std::map<std::string, std::pair<std::string, std::size_t>> train;
        for (std::size_t i = 0; i < evidence_.size(); ++i)
            if (splits_[i] == Split::train && evidence_[i].contains("prompt_sha256") && evidence_[i]["prompt_sha256"].is_string())
                train.emplace(evidence_[i]["prompt_sha256"].get<std::string>(), where_[i]);
        const bool split_folder = std::any_of(pairs_.begin(), pairs_.end(), [](const Pair& p) { return !p.side.empty(); });
        for (std::size_t i = 0; i < evidence_.size() && split_folder; ++i) {
            if (splits_[i] != Split::eval || !evidence_[i].contains("prompt_sha256") || !evidence_[i]["prompt_sha256"].is_string()) continue;
            const auto t = train.find(evidence_[i]["prompt_sha256"].get<std::string>());
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
    std::string manifest_text_;
    Json manifest_;
    const Profile* profile_ = nullptr;
    std::map<std::string, std::string> texts_;  // the files read, by name
    std::vector<Pair> pairs_;
    std::multimap<std::string, CanonicalRow> canonical_;
    std::vector<Json> evidence_, data_;
    std::vector<Split> splits_;
    std::vector<std::pair<std::string, std::size_t>> where_;  // each row's evidence file and line
};

}  // namespace

ProfileVerdict verify_profile(const fs::path& folder, const VerifyOptions& options) {
    ProfileVerdict verdict;
    Verifier(folder, options, verdict).run();
    return verdict;
}

}  // namespace sediment::rows
