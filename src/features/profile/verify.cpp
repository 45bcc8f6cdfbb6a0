// verify_profile(): is a consumer profile folder the one Sediment wrote? Every check of
// docs/profiles.md "What verify checks", each finding at its file, line and JSON Pointer (rows.verify.*).
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include "features/profile/profile_detail.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/encode.hpp"
#include "sediment/rows/json.hpp"
#include "sediment/rows/lint.hpp"
#include "detail/text.hpp"
#include "features/lint/split.hpp"
#include "features/profile/forms.hpp"

namespace sediment::rows {
namespace {

namespace fs = std::filesystem;

constexpr const char* kManifest = "compatibility.json";

// A file's bytes, with kTextPadding bytes of room after them: each line is read where it is.
bool read_all(const fs::path& path, std::string& out) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    if (size < 0) return false;
    out.reserve(static_cast<std::size_t>(size) + kTextPadding);
    out.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    return size == 0 || static_cast<bool>(in.read(out.data(), size));
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
    std::string text;
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
            const std::string pointer = "/files/" + token(name);
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
                                                             digest = sorted_digest(d, d.root);
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
                canonical_.emplace(std::move(digest), CanonicalRow{name, number, std::string(line)});
            });
        }
    }

    // What a row gives the checks across rows.
    struct Row {
        std::string side;    // "train" or "eval"
        std::string digest;  // of the data row
        std::string prompt;  // the evidence's prompt_sha256, or ""
        std::string source;  // the evidence's source_row_sha256, or ""
        std::string reward;  // Python's str() of the data row's reward, or ""
    };

    // A finding of a line, held until both lines of a row are read (the fast path may hand the row to
    // the exact one, which finds the same again).
    struct Pending {
        bool evidence;  // of the evidence line, else the data line
        const char* id;
        std::string pointer, message;
    };

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
        Row previous;
        std::string_view previous_evidence;  // (the files stay mapped)
        std::size_t previous_line = 0;  // of the last row read whole, or 0
        for (std::size_t i = 0; i < n; ++i) {
            ++out_.verdict.rows;
            Row row;
            std::vector<Pending> pending;
            bool read = false;
            if (!options_.exact && fast_row(pair, i + 1, data_file, data[i], evidence_file, evidence[i], row, pending)) read = true;
            else pending.clear(), row = Row{}, read = exact_row(pair, i + 1, data[i], evidence[i], row, pending);
            for (Pending& p : pending)
                out_.add(p.evidence ? pair.evidence : pair.data, i + 1, p.id, std::move(p.pointer), std::move(p.message));
            if (!read) continue;
            ++out_.verdict.rows_by_split[row.side];
            // Sediment's order: (split, row digest, evidence digest form without row_sha256); the last only on a tie.
            if (previous_line) {
                bool before = row.side != previous.side ? row.side < previous.side : row.digest < previous.digest;
                if (row.side == previous.side && row.digest == previous.digest)
                    before = detail::evidence_key(parse(evidence[i])) < detail::evidence_key(parse(previous_evidence));
                if (before)
                    out_.add(pair.data, i + 1, "rows.verify.order", "",
                             "out of Sediment's order (split, then the row's digest, then its evidence): it sorts before line " +
                                 std::to_string(previous_line));
            }
            previous_line = i + 1, previous_evidence = evidence[i];
            if (profile_->writable() && !options_.canonical.empty()) mapping(pair, i + 1, data[i], evidence[i], row);
            where_.push_back({pair.evidence, i + 1});
            seen_.push_back(row);
            previous = std::move(row);
        }
    }

    // ----- the fast path: both lines read from simdjson's tape ---------------------------------------------

    static std::string sorted_digest(const detail::TapeDoc& d, detail::tape::Value v) {
        thread_local std::string text;
        text.clear();
        {
            detail::Writer w(text, Style::compact);
            detail::write_tape(w, d, v, true);
        }
        return detail::sha256_hex(text);
    }

    // Whether `line` (its newline taken off) is in line form (a scan of its bytes); where it is not, the
    // line form Sediment's writer gives, for the finding.
    static bool in_line_form(const detail::TapeDoc& d, std::string_view line, std::string& formed) {
        if (detail::in_line_form(line)) return true;
        formed.clear();
        {
            detail::Writer w(formed, Style::sediment);
            detail::write_tape(w, d, d.root, false);
        }
        return formed == line;
    }

    bool fast_row(const Pair& pair, std::size_t number, const detail::MappedFile& data_file, std::string_view data,
                  const detail::MappedFile& evidence_file, std::string_view evidence, Row& row, std::vector<Pending>& pending) {
        if (data.empty() || data.back() != '\n' || evidence.empty() || evidence.back() != '\n') return false;
        data.remove_suffix(1), evidence.remove_suffix(1);
        thread_local std::string data_spare, evidence_spare;
        const StringText data_text = data_file.line(data, data_spare), evidence_text = evidence_file.line(evidence, evidence_spare);
        thread_local std::string formed;
        std::string metadata, row_sha256, canonical_schema;
        bool read = false;
        // The evidence: its line form and keys, its digests and split, its metadata's digest form.
        detail::fast_check_dom(schema_info(*profile_->evidence).name, evidence_text.text(), Limits{}, evidence_text.padded(),
                               [&](simdjson::dom::element root, const detail::BigIntegers& big, detail::TokenStarts) {
                                   const detail::TapeDoc d{detail::tape::value_of(root), &big};
                                   if (!in_line_form(d, evidence, formed)) pending.push_back(line_form_finding(true, evidence, formed));
                                   key_order(d, d.root, true, pending);
                                   using detail::member;
                                   row_sha256 = member(d.root, "row_sha256").string();
                                   canonical_schema = member(d.root, "canonical_schema").string();
                                   row.source = member(d.root, "source_row_sha256").string();
                                   row.prompt = member(d.root, "prompt_sha256").string();
                                   const detail::tape::Value m = member(d.root, "metadata");
                                   row.side = member(m, "split").string();
                                   thread_local std::string text;
                                   text.clear();
                                   {
                                       detail::Writer w(text, Style::compact);
                                       detail::write_tape(w, d, m, true);
                                   }
                                   metadata = text;
                                   read = true;
                               },
                               /*any_order=*/true);
        if (!read) return false;
        read = false;
        std::string source, prompt;
        // The data row: its line form and keys, its digest, and the digests of the canonical row it maps from.
        detail::fast_check_dom(schema_info(*profile_->data).name, data_text.text(), Limits{}, data_text.padded(),
                               [&](simdjson::dom::element root, const detail::BigIntegers& big, detail::TokenStarts) {
                                   const detail::TapeDoc d{detail::tape::value_of(root), &big};
                                   if (!in_line_form(d, data, formed)) pending.push_back(line_form_finding(false, data, formed));
                                   key_order(d, d.root, false, pending);
                                   thread_local std::string sorted;
                                   sorted.clear();
                                   {
                                       detail::Writer w(sorted, Style::compact);
                                       detail::write_tape(w, d, d.root, true);
                                   }
                                   read = canonical_digests(d, metadata, sorted, row.digest, source, prompt);
                               },
                               /*any_order=*/true);
        if (!read) return false;
        row_findings(pair, number, row, row_sha256, canonical_schema, source, prompt, pending);
        return true;
    }

    // The data row's digest (of `sorted`, its digest form), the source row's and its prompt's, from the
    // data row (the adapter's renames and weights undone) and its evidence's metadata (in digest form):
    // false where the fast path cannot tell.
    bool canonical_digests(const detail::TapeDoc& d, const std::string& metadata, const std::string& sorted, std::string& digest,
                           std::string& source, std::string& prompt) const {
        using detail::member;
        using detail::tape::Value;
        const bool fireworks = profile_->consumer == "fireworks", sft = profile_->objective == "sft";
        Value prompt_list, second, rejected;  // the prompt, the completion (or chosen), the rejected
        detail::MessageForm form, rest;
        form.inverse = rest.inverse = true, form.sorted = rest.sorted = true;
        if (sft && fireworks) {
            prompt_list = second = member(d.root, "messages");
            std::size_t i = 0;
            for (Value m = prompt_list.first(); m.at < prompt_list.close(); m = m.with(m.next()), ++i) {
                const Value weight = member(m, "weight");
                if (weight.at && weight.type() == 'l' && weight.number<std::int64_t>() == 1) break;
            }
            form.last = i, rest.first = i;
        } else if (fireworks) {
            prompt_list = member(member(d.root, "input"), "messages");
            second = member(d.root, "preferred_output"), rejected = member(d.root, "non_preferred_output");
        } else {
            prompt_list = member(d.root, "prompt");
            second = member(d.root, sft ? "completion" : "chosen"), rejected = sft ? Value{} : member(d.root, "rejected");
        }
        thread_local std::string text;
        bool ok = true;
        std::size_t from = 0, to = 0;  // the prompt's text in the source row's digest form, the same in {"prompt": ...}'s
        const auto list = [&](detail::Writer& w, const char* key, Value v, const detail::MessageForm& f) {
            w.key(key);
            if (f.inverse && &f == &form) from = w.written();
            w.begin_array();
            ok = ok && detail::write_messages(w, d, v, f);
            w.end_array();
            if (&f == &form) to = w.written();
        };
        text.clear();
        {
            detail::Writer w(text, Style::compact);
            w.begin_object();
            list(w, sft ? "completion" : "chosen", second, rest);
            w.key("metadata"), w.raw(metadata);
            list(w, "prompt", prompt_list, form);
            if (!sft) list(w, "rejected", rejected, rest);
            w.key("tools"), w.begin_array(), w.end_array();
            w.end_object();
        }
        if (!ok) return false;
        detail::Sha256 hash;
        hash.update("{\"prompt\":"), hash.update(std::string_view(text).substr(from, to - from)), hash.update("}");
        prompt = detail::hex(hash.finish());
        std::array<unsigned char, 32> of_row{}, of_source{};
        detail::sha256_two(sorted, text, of_row, of_source);  // two messages of a size: side by side
        digest = detail::hex(of_row), source = detail::hex(of_source);
        return true;
    }

    // ----- the exact path: both lines parsed into Json ----------------------------------------------------

    bool exact_row(const Pair& pair, std::size_t number, std::string_view data, std::string_view evidence, Row& row, std::vector<Pending>& pending) {
        Json d, e;
        const bool data_ok = exact_line(false, data, profile_->data, d, pending);
        const bool evidence_ok = exact_line(true, evidence, profile_->evidence, e, pending);
        if (!data_ok || !evidence_ok || !e.is_object()) return false;
        const auto text = [](const Json& j, const char* key) {
            return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
        };
        row.digest = row_sha256(d);
        row.prompt = text(e, "prompt_sha256");
        row.source = text(e, "source_row_sha256");
        row.reward = d.is_object() && d.contains("reward") ? detail::python_str(d["reward"]) : std::string();
        const Json* metadata = e.contains("metadata") && e["metadata"].is_object() ? &e["metadata"] : nullptr;
        row.side = metadata ? text(*metadata, "split") : std::string();
        std::string source, prompt;
        if (profile_->writable()) {
            Json canonical;
            std::string unused;
            canonical_of(*profile_, d, e["metadata"], canonical, unused);
            source = row_sha256(canonical);
            prompt = row_sha256(Json{{"prompt", canonical["prompt"]}});
        }
        row_findings(pair, number, row, e.contains("row_sha256") && e["row_sha256"].is_string() ? e["row_sha256"].get<std::string>() : "",
                     text(e, "canonical_schema"), source, prompt, pending);
        return true;
    }

    // One line on the exact path: JSON, valid under its model (where the project has one), in line form.
    bool exact_line(bool evidence, std::string_view text, const std::optional<SchemaId>& model, Json& out, std::vector<Pending>& pending) {
        std::vector<Error> errors;
        std::string_view body = text;
        if (!body.empty() && body.back() == '\n') body.remove_suffix(1);
        if (!parse(body, out, errors)) {
            pending.push_back({evidence, "rows.verify.line_form", errors.front().pointer, "not JSON: " + errors.front().message});
            return false;
        }
        if (model) {
            const Validated v = validate(*model, body);
            for (const Error& e : v.errors) pending.push_back({evidence, "rows.verify.model", e.pointer, e.message + " [" + e.id + "]"});
            if (!v.valid()) return false;
        }
        std::string formed;
        try {
            formed = line_form(out);
        } catch (const EncodeError& e) {
            pending.push_back({evidence, "rows.verify.line_form", e.error().pointer, e.error().message});
            return false;
        }
        formed.pop_back();
        if (formed != body || text.empty() || text.back() != '\n') {
            if (formed == body) formed += '\n', body = text;  // only the newline is missing
            pending.push_back(line_form_finding(evidence, text.back() == '\n' ? body : text, formed));
        }
        if (model) {
            // the keys' order, as the fast path reads it: from the line's own DOM
            detail::fast_parse_dom(body, Limits{}, false, [&](simdjson::dom::element root, const detail::BigIntegers& big, detail::TokenStarts) {
                const detail::TapeDoc d{detail::tape::value_of(root), &big};
                key_order(d, d.root, evidence, pending);
            });
        }
        return true;
    }

    // ----- what both paths find alike ------------------------------------------------------------------------

    static Pending line_form_finding(bool evidence, std::string_view line, std::string_view formed) {
        return {evidence, "rows.verify.line_form", "",
                "not Sediment's line form (\", \" and \": \", non-ASCII as \\u escapes, a newline at the end): " + byte_difference(line, formed)};
    }

    // The keys the adapter writes in an order of its own: a body's and an evidence record's, and in a
    // message, a renamed reasoning_content last but for a weight, which is last. (A message's other keys,
    // a tool call's and the metadata's keep the canonical row's order, which Sediment leaves free.)
    void key_order(const detail::TapeDoc& d, detail::tape::Value root, bool evidence, std::vector<Pending>& pending) const {
        using detail::tape::Value;
        static const std::map<std::string_view, std::vector<std::string_view>> kOrders = {
            {"hf-trl-sft-v1", {"prompt", "completion", "tools"}},
            {"hf-trl-dpo-v2", {"prompt", "chosen", "rejected", "tools"}},
            {"fireworks-sft-v1", {"messages"}},
            {"fireworks-dpo-v2", {"input", "preferred_output", "non_preferred_output"}},
            {"input", {"messages", "tools"}},
            {"evidence", {"row_sha256", "canonical_schema", "source_row_sha256", "prompt_sha256", "metadata", "tool_definitions"}}};
        const auto keys = [](Value object) {
            std::vector<std::string_view> out;
            for (Value key = object.first(); key.at < object.close(); key = key.with(key.with(key.at + 1).next())) out.push_back(key.string());
            return out;
        };
        const auto check = [&](Value object, const std::vector<std::string_view>& order, const std::string& pointer) {
            if (keys(object) == order) return;
            std::string expected;
            for (const std::string_view k : order) expected += (expected.empty() ? "" : ", ") + std::string(k);
            pending.push_back({evidence, "rows.verify.key_order", pointer, "keys not in the adapter's order (" + expected + ")"});
        };
        check(root, kOrders.at(evidence ? "evidence" : profile_->id), "");
        if (evidence) return;
        const Value input = detail::member(root, "input");
        if (input.at) check(input, kOrders.at("input"), "/input");
        for (Value key = root.first(); key.at < root.close(); key = key.with(key.with(key.at + 1).next())) {
            const Value value = key.with(key.at + 1);
            const bool in_input = key.string() == "input";
            const Value messages = in_input ? detail::member(value, "messages") : value;
            if (!messages.at || messages.type() != '[') continue;
            std::size_t i = 0;
            for (Value m = messages.first(); m.at < messages.close(); m = m.with(m.next()), ++i) {
                if (m.type() != '{') continue;
                const std::vector<std::string_view> ks = keys(m);
                std::size_t tail = ks.size();
                bool ok = true;
                if (std::find(ks.begin(), ks.end(), "weight") != ks.end()) ok = ks[--tail] == "weight";
                if (ok && std::find(ks.begin(), ks.end(), "reasoning_content") != ks.end()) ok = ks[tail - 1] == "reasoning_content";
                if (!ok)
                    pending.push_back({false, "rows.verify.key_order",
                                       (in_input ? "/input/messages/" : "/" + std::string(key.string()) + "/") + std::to_string(i),
                                       "the adapter writes a renamed reasoning_content last, and then a weight"});
            }
        }
        (void)d;
    }

    // The row's evidence against its data row: its row_sha256, canonical schema, split, and (SFT, DPO) the
    // digests of the canonical row the data row maps from (`source`, `prompt`).
    void row_findings(const Pair& pair, std::size_t number, Row& row, const std::string& row_sha256, const std::string& canonical_schema,
                      const std::string& source, const std::string& prompt, std::vector<Pending>& pending) const {
        if (row_sha256 != row.digest)
            pending.push_back({true, "rows.verify.row_sha256", "/row_sha256", "is not the digest of " + pair.data + " line " + std::to_string(number) + " (" + row.digest + ")"});
        if (canonical_schema != profile_->canonical_schema)
            pending.push_back({true, "rows.verify.canonical_schema", "/canonical_schema", "is not " + std::string(profile_->canonical_schema)});
        if (!pair.side.empty() && row.side != pair.side)
            pending.push_back({true, "rows.verify.split", "/metadata/split", "is not '" + pair.side + "', the split of " + pair.evidence});
        if (!pair.side.empty()) row.side = pair.side;
        else if (row.side != "eval") row.side = "train";
        if (!profile_->writable()) return;
        if (row.source != source)
            pending.push_back({true, "rows.verify.source_row_sha256", "/source_row_sha256",
                               "is not the digest of the canonical row " + pair.data + " line " + std::to_string(number) + " maps from (" + source + ")"});
        if (row.prompt != prompt)
            pending.push_back({true, "rows.verify.prompt_sha256", "/prompt_sha256",
                               "is not the digest of the prompt of " + pair.data + " line " + std::to_string(number) + " (" + prompt + ")"});
    }

    // With --canonical: the row's source is a given canonical row, and (SFT, DPO) the lines are its mapping.
    void mapping(const Pair& pair, std::size_t number, std::string_view data, std::string_view evidence, const Row& row) {
        const auto found = canonical_.find(row.source);
        if (found == canonical_.end()) {
            out_.add(pair.evidence, number, "rows.verify.source_row", "/source_row_sha256", "names no row of the canonical files");
            return;
        }
        const CanonicalRow& canonical = found->second;
        const std::string at = " (" + canonical.file + " line " + std::to_string(canonical.line) + ")";
        ProfileRow expected;
        try {
            std::string text = canonical.text;
            text.reserve(text.size() + kTextPadding);
            expected = adapt_row(*profile_, StringText(text));
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
    std::string manifest_text_;
    Json manifest_;
    const Profile* profile_ = nullptr;
    std::map<std::string, std::unique_ptr<detail::MappedFile>> texts_;  // the files read, by name
    std::vector<Pair> pairs_;
    std::multimap<std::string, CanonicalRow> canonical_;  // by digest
    std::vector<Row> seen_;                                   // each row read whole
    std::vector<std::pair<std::string, std::size_t>> where_;  // its evidence file and line
};

}  // namespace

ProfileVerdict verify_profile(const fs::path& folder, const VerifyOptions& options) {
    ProfileVerdict verdict;
    Verifier(folder, options, verdict).run();
    return verdict;
}

}  // namespace sediment::rows
