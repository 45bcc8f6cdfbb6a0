// Sediment's consumer profiles: the registry, the two JSON forms, the SFT/DPO adapter and the folder
// (sediment-ai/sediment at ef084b9, packages/export/sediment_export/compatibility.py and jsonl.py).
#include "sediment/rows/profile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <system_error>

#include "detail/text.hpp"
#include "detail/writer.hpp"
#include "features/profile/profile_detail.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/json.hpp"
#include "sediment/rows/lint.hpp"

namespace sediment::rows {

// ----- the registry (compatibility.py PROFILES, get_profile()) --------------------------------------

const std::vector<Profile>& profiles() {
    static const std::vector<Profile> all = [] {
        const std::vector<std::pair<std::string_view, std::string_view>> hf = {
            {"datasets", "5.0.1"}, {"trl", "1.13.0"}, {"transformers", "5.17.0"}};
        std::vector<Profile> out;
        for (const bool fireworks : {false, true}) {
            for (const bool dpo : {false, true}) {
                Profile p;
                p.consumer = fireworks ? "fireworks" : "hf-trl";
                p.objective = dpo ? "dpo" : "sft";
                p.profile_version = dpo ? 2 : 1;
                p.id = fireworks ? (dpo ? "fireworks-dpo-v2" : "fireworks-sft-v1") : (dpo ? "hf-trl-dpo-v2" : "hf-trl-sft-v1");
                p.canonical = dpo ? SchemaId::dpo_pair_v4 : SchemaId::sft_sample_v3;
                p.canonical_schema = dpo ? "https://sediment.so/schemas/training-rows/dpo-pair/v4.json"
                                         : "https://sediment.so/schemas/training-rows/sft-sample/v3.json";
                if (!fireworks) p.dependencies = hf;
                p.validation = fireworks ? "Fireworks documented JSONL contract, 2026-09-13"
                                         : "datasets.Dataset.from_list; trl.is_conversational";
                p.support = fireworks ? "format; hosted acceptance not tested" : "loader";
                p.data = fireworks ? (dpo ? SchemaId::fireworks_dpo_v2 : SchemaId::fireworks_sft_v1)
                                   : (dpo ? SchemaId::hf_trl_dpo_v2 : SchemaId::hf_trl_sft_v1);
                p.evidence = dpo ? SchemaId::dpo_profile_evidence : SchemaId::sft_profile_evidence;
                out.push_back(p);
            }
        }
        Profile swe;
        swe.id = "swe-bench-tasks-v1", swe.consumer = "swe-bench", swe.objective = "rlvr";
        swe.canonical = SchemaId::swe_bench_task_v3;
        swe.canonical_schema = "https://sediment.so/schemas/training-rows/swe-bench-task/v3.json";
        swe.dependencies = {{"swebench", "5.0.1"}, {"datasets", "5.0.1"}};
        swe.validation = "swebench.harness.utils.load_swebench_dataset; make_test_spec";
        swe.support = "loader and runtime parser; repository tests not run";
        out.push_back(swe);
        Profile nemo;
        nemo.id = "nemo-gym-rollouts-v1", nemo.consumer = "nemo-gym", nemo.objective = "rlvr";
        nemo.canonical = SchemaId::nemo_gym_rollout_v4;
        nemo.canonical_schema = "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json";
        nemo.dependencies = {{"nemo-gym", "0.2.1"}, {"openai", "2.6.1"}};
        nemo.validation = "nemo_gym.base_resources_server.BaseVerifyResponse";
        nemo.support = "native parser; optimizer not tested";
        out.push_back(nemo);
        return out;
    }();
    return all;
}

const Profile* find_profile(std::string_view id) noexcept {
    for (const Profile& p : profiles())
        if (p.id == id) return &p;
    return nullptr;
}

const Profile& profile(std::string_view id) {
    if (id == "hf-trl-dpo-v1" || id == "fireworks-dpo-v1") {
        const std::string name(id);
        throw ProfileError("profile " + name + " is retired; use " + name.substr(0, name.size() - 2) +
                           "v2 and re-export canonical evidence with DPO recipe v2/schema v4");
    }
    if (const Profile* p = find_profile(id)) return *p;
    throw ProfileError("unsupported profile: " + std::string(id));
}

Json profile_entry(const Profile& p) {
    Json dependencies = Json::array();
    for (const auto& [name, version] : p.dependencies) dependencies.push_back(Json::array({name, version}));
    return Json{{"id", p.id},
                {"consumer", p.consumer},
                {"objective", p.objective},
                {"profile_version", p.profile_version},
                {"canonical_schema", p.canonical_schema},
                {"dependencies", std::move(dependencies)},
                {"validation", p.validation},
                {"support", p.support}};
}

// ----- the two forms -----------------------------------------------------------------------------

std::string digest_form(const Json& value) {
    std::string out;
    detail::Writer w(out, Style::compact);
    w.json(value, /*sort_keys=*/true);
    return std::move(w.finish());
}

std::string row_sha256(const Json& value) { return detail::hex(sha256(digest_form(value))); }

std::string line_form(const Json& value) {
    std::string out;
    {
        detail::Writer w(out, Style::sediment);
        w.json(value);
    }
    out += '\n';
    return out;
}

namespace detail {

std::string hex(const std::array<unsigned char, 32>& digest) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(64, '0');
    for (std::size_t i = 0; i < 32; ++i) out[2 * i] = kDigits[digest[i] >> 4], out[2 * i + 1] = kDigits[digest[i] & 15];
    return out;
}

std::string_view split_name(Split s) { return s == Split::eval ? "eval" : "train"; }

// ----- what Sediment's model makes of a canonical row (_validate_canonical()) -------------------------

namespace {

// The canonical schema's JSON, for the walk that does what pydantic's strict round trip does.
const Json& schema_json(SchemaId id) {
    static const Json sft = Json::parse(schema_text(SchemaId::sft_sample_v3));
    static const Json dpo = Json::parse(schema_text(SchemaId::dpo_pair_v4));
    return id == SchemaId::dpo_pair_v4 ? dpo : sft;
}

// Fields Sediment's models give a default, and that default (docs/profiles.md): a row without one is read
// with it, so the row comes back changed.
const Json* default_of(std::string_view key) {
    static const Json null_value = nullptr, empty = Json::array();
    for (const std::string_view member : {"chosen_", "rejected_"})  // a DPO pair's, of each member
        if (key.substr(0, member.size()) == member) key.remove_prefix(member.size());
    if (key == "repository_identity" || key == "attribution_source" || key == "policy_digest") return &null_value;
    if (key == "session_commit_observation_ids") return &empty;
    return nullptr;
}

// Walks a value along its schema as pydantic reads it strictly and dumps it (TypeAdapter(...).
// validate_json(strict=True), dump_python(mode="json")): a key no model has is dropped, a defaulted
// field filled in, an integer in a float field becomes a float, an integral float in an integer
// Literal becomes an integer. Sets `refused` for what the strict read refuses outright that the bundled
// schema (which reads 5.0 as an integer) lets through: a float in a plain integer field.
class Restorer {
public:
    explicit Restorer(const Json& root) : root_(root) {}
    bool refused = false;

    void walk(Json& v, const Json& s) {
        const Json& schema = resolve(s);
        if (schema.contains("anyOf")) return any_of(v, schema["anyOf"]);
        if (schema.contains("const")) {
            if (v.is_number_float() && schema["const"].is_number_integer() && v.get<double>() == schema["const"].get<double>())
                v = schema["const"];
            return;
        }
        const std::string type = schema.value("type", "");
        if (type == "number") {
            if (v.is_number_integer()) v = static_cast<double>(v.get<double>());
        } else if (type == "integer") {
            if (v.is_number_float()) refused = true;
        } else if (type == "array" && v.is_array() && schema.contains("items") && schema["items"].is_object()) {
            for (Json& item : v) walk(item, schema["items"]);
        } else if (schema.contains("properties") && v.is_object()) {
            object(v, schema);
        }
    }

private:
    const Json& resolve(const Json& s) const {
        if (!s.contains("$ref")) return s;
        const std::string ref = s["$ref"].get<std::string>();  // "#/$defs/Name"
        return root_["$defs"][ref.substr(8)];
    }

    void object(Json& v, const Json& schema) {
        const Json& properties = schema["properties"];
        Json out = Json::object();
        for (auto& [key, value] : v.items()) {
            if (!properties.contains(key)) continue;  // pydantic drops it
            walk(value, properties[key]);
            out[key] = std::move(value);
        }
        for (const auto& [key, property] : properties.items())
            if (!out.contains(key))
                if (const Json* d = default_of(key)) out[key] = *d;
        v = std::move(out);
    }

    // A union: of objects, the branches whose role admits the value's (messages); else a number or null.
    void any_of(Json& v, const Json& branches) {
        std::vector<const Json*> objects;
        collect(branches, objects);
        if (v.is_object() && !objects.empty()) {
            std::vector<const Json*> chosen;
            for (const Json* b : objects)
                if (admits_role(*b, v)) chosen.push_back(b);
            if (chosen.empty()) return;  // the strict read refuses it
            Json merged = Json{{"properties", Json::object()}};
            for (const Json* b : chosen)
                for (const auto& [key, property] : (*b)["properties"].items())
                    if (!merged["properties"].contains(key)) merged["properties"][key] = property;
            return object(v, merged);
        }
        for (const Json& b : branches) {
            const Json& r = resolve(b);
            if (r.value("type", "") == "number" || r.value("type", "") == "integer") return walk(v, r);
        }
    }

    void collect(const Json& branches, std::vector<const Json*>& objects) const {
        for (const Json& b : branches) {
            const Json& r = resolve(b);
            if (r.contains("anyOf")) collect(r["anyOf"], objects);
            else if (r.contains("properties")) objects.push_back(&r);
        }
    }

    static bool admits_role(const Json& branch, const Json& v) {
        const Json& properties = branch["properties"];
        if (!properties.contains("role")) return true;
        if (!v.contains("role") || !v["role"].is_string()) return false;
        const Json& role = properties["role"];
        if (role.contains("const")) return role["const"] == v["role"];
        if (role.contains("enum")) return std::find(role["enum"].begin(), role["enum"].end(), v["role"]) != role["enum"].end();
        return true;
    }

    const Json& root_;
};

// The canonical row's keys: exactly its dataclass's fields.
const std::vector<std::string_view>& fields_of(SchemaId canonical) {
    static const std::vector<std::string_view> sft = {"prompt", "completion", "tools", "metadata"};
    static const std::vector<std::string_view> dpo = {"prompt", "chosen", "rejected", "tools", "metadata"};
    return canonical == SchemaId::dpo_pair_v4 ? dpo : sft;
}

}  // namespace

void check_canonical(const Profile& p, const Json& row, Split split) {
    const ProfileError invalid(std::string(p.id) + ": invalid canonical row");
    const std::vector<std::string_view>& fields = fields_of(p.canonical);
    if (!row.is_object() || row.size() != fields.size()) throw invalid;
    for (const std::string_view f : fields)
        if (!row.contains(f)) throw invalid;
    if (!row["tools"].is_array() || !row["tools"].empty()) throw invalid;
    Json restored = row;
    Restorer restorer(schema_json(p.canonical));
    restorer.walk(restored, schema_json(p.canonical));
    if (restorer.refused || !validate(p.canonical, restored).valid()) throw invalid;
    const Json& metadata = row["metadata"];
    if (digest_form(restored) != digest_form(row) || !metadata.contains("split") || metadata["split"] != split_name(split))
        throw ProfileError(std::string(p.id) + ": canonical row has unknown or altered fields");
}

}  // namespace detail

// ----- the SFT/DPO adapter (adapt_training_rows(), _messages()) ------------------------------------------

namespace {

Json messages(const Json& list, bool fireworks, int weight) {
    Json out = list;  // copy.deepcopy
    for (std::size_t i = 0; i < out.size(); ++i) {
        Json& m = out[i];
        if (m.contains("thinking")) {
            Json thinking = std::move(m["thinking"]);
            m.erase("thinking");
            m["reasoning_content"] = std::move(thinking);
        }
        if (!fireworks) continue;
        if (m["role"] == "developer") throw ProfileError("Fireworks profiles do not support developer messages");
        if (m["role"] == "system" && i != 0) throw ProfileError("Fireworks profiles require the system message to be first");
        if (m.contains("tool_calls"))
            for (Json& call : m["tool_calls"]) call["function"]["arguments"] = digest_form(call["function"]["arguments"]);
        if (weight >= 0 && m["role"] == "assistant") m["weight"] = weight;
    }
    return out;
}

bool documented_text(const Json& m) {
    return m.size() == 2 && m.contains("role") && m.contains("content") && m["content"].is_string() &&
           (m["role"] == "system" || m["role"] == "user" || m["role"] == "assistant");
}

}  // namespace

ProfileRow adapt_row(const Profile& p, const Json& canonical, Split split) {
    if (!p.writable()) throw ProfileError(std::string(p.id) + " requires the RLVR adapter");
    detail::check_canonical(p, canonical, split);
    const bool fireworks = p.consumer == "fireworks", sft = p.objective == "sft";
    ProfileRow out;
    out.split = split;
    Json prompt = messages(canonical["prompt"], fireworks, sft ? 0 : -1);
    if (sft) {
        Json completion = messages(canonical["completion"], fireworks, 1);
        if (fireworks) {
            for (Json& m : completion) prompt.push_back(std::move(m));
            out.data = Json{{"messages", std::move(prompt)}};
        } else {
            out.data = Json{{"prompt", std::move(prompt)}, {"completion", std::move(completion)}, {"tools", Json::array()}};
        }
    } else {
        Json chosen = messages(canonical["chosen"], fireworks, -1), rejected = messages(canonical["rejected"], fireworks, -1);
        if (fireworks) {
            if (chosen.size() != 1 || rejected.size() != 1)
                throw ProfileError("Fireworks DPO requires one final assistant message per output");
            for (const Json* list : {&prompt, &chosen, &rejected})
                for (const Json& m : *list)
                    if (!documented_text(m)) throw ProfileError("Fireworks DPO v2 supports documented text messages only");
            out.data = Json{{"input", Json{{"messages", std::move(prompt)}, {"tools", Json::array()}}},
                            {"preferred_output", std::move(chosen)},
                            {"non_preferred_output", std::move(rejected)}};
        } else {
            out.data = Json{{"prompt", std::move(prompt)}, {"chosen", std::move(chosen)}, {"rejected", std::move(rejected)},
                            {"tools", Json::array()}};
        }
    }
    out.evidence = Json{{"row_sha256", row_sha256(out.data)},
                        {"canonical_schema", p.canonical_schema},
                        {"source_row_sha256", row_sha256(canonical)},
                        {"prompt_sha256", row_sha256(Json{{"prompt", canonical["prompt"]}})},
                        {"metadata", canonical["metadata"]},
                        {"tool_definitions", "absent"}};
    return out;
}

namespace {

// The split a canonical export's file name gives (sft.train.jsonl, dpo.eval.jsonl.gz), else none.
std::optional<Split> split_of_name(const std::filesystem::path& path) {
    const std::string name = path.filename().string();
    if (name.find(".train.") != std::string::npos) return Split::train;
    if (name.find(".eval.") != std::string::npos) return Split::eval;
    return std::nullopt;
}

}  // namespace

std::vector<ProfileRow> adapt_files(const Profile& p, const std::vector<std::filesystem::path>& files) {
    std::vector<ProfileRow> out;
    for (const std::filesystem::path& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in)
            throw std::filesystem::filesystem_error("cannot read", file, std::error_code(errno ? errno : ENOENT, std::generic_category()));
        const std::optional<Split> named = split_of_name(file);
        std::string line;
        for (std::size_t number = 1; std::getline(in, line); ++number) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.find_first_not_of(" \t") == std::string::npos) continue;
            const std::string where = detail::printable(file.string()) + ":" + std::to_string(number) + ": ";
            Json row;
            std::vector<Error> errors;
            if (!parse(line, row, errors))
                throw ProfileError(where + (errors.front().pointer.empty() ? "" : errors.front().pointer + ": ") + errors.front().message);
            Split side = Split::train;
            if (named) side = *named;
            else if (row.is_object() && row.contains("metadata") && row["metadata"].is_object() && row["metadata"].contains("split"))
                side = row["metadata"]["split"] == "eval" ? Split::eval : Split::train;
            try {
                out.push_back(adapt_row(p, row, side));
            } catch (const ProfileError& e) {
                throw ProfileError(where + e.what());
            } catch (const EncodeError& e) {
                throw ProfileError(where + e.error().pointer + ": " + e.error().message);
            }
        }
        if (in.bad()) throw std::filesystem::filesystem_error("cannot read", file, std::error_code(EIO, std::generic_category()));
    }
    return out;
}

// ----- the folder (aligned_rows(), publish_compatible_rows(), write_jsonl()) --------------------------------

namespace detail {

// The evidence's digest form without row_sha256: the last key of Sediment's sort.
std::string evidence_key(const Json& evidence) {
    Json rest = evidence;
    rest.erase("row_sha256");
    return digest_form(rest);
}

void sort_rows(std::vector<ProfileRow>& rows) {
    // (split name, row digest, evidence digest form); the digest form only where the first two tie.
    std::stable_sort(rows.begin(), rows.end(), [](const ProfileRow& a, const ProfileRow& b) {
        const std::string_view sa = split_name(a.split), sb = split_name(b.split);
        if (sa != sb) return sa < sb;
        const std::string& da = a.evidence["row_sha256"].get_ref<const std::string&>();
        const std::string& db = b.evidence["row_sha256"].get_ref<const std::string&>();
        if (da != db) return da < db;
        return evidence_key(a.evidence) < evidence_key(b.evidence);
    });
}

Json diagnostics(const std::vector<const Json*>& evidence, const std::vector<Split>& splits, const std::vector<const Json*>& data,
                 std::size_t& overlap) {
    std::map<std::string, std::size_t> by_split, rewards;
    std::set<std::string> prompts[2];
    for (std::size_t i = 0; i < evidence.size(); ++i) {
        ++by_split[std::string(split_name(splits[i]))];
        if (evidence[i]->contains("prompt_sha256") && (*evidence[i])["prompt_sha256"].is_string())
            prompts[splits[i] == Split::eval].insert((*evidence[i])["prompt_sha256"].get<std::string>());
        if (data[i]->is_object() && data[i]->contains("reward")) ++rewards[python_str((*data[i])["reward"])];
    }
    overlap = 0;
    for (const std::string& p : prompts[1]) overlap += prompts[0].count(p);
    Json out = Json::object();
    out["rows_by_split"] = Json::object();
    for (const auto& [split, n] : by_split) out["rows_by_split"][split] = n;
    out["reward_counts"] = Json::object();
    for (const auto& [reward, n] : rewards) out["reward_counts"][reward] = n;
    out["exact_prompt_overlap"] = overlap;
    out["semantic_task_overlap"] = "not_assessed";
    return out;
}

// Python's str() of a reward (a float or an int; Sediment's rewards are 1.0 and 0.0).
std::string python_str(const Json& v) {
    if (v.is_number_float()) {
        std::string out;
        Writer w(out, Style::compact);
        w.json(v);
        return std::move(w.finish());
    }
    return v.dump();
}

}  // namespace detail

namespace {

// A file of the staging folder, 0600, written whole and flushed to disk.
void write_file(const std::filesystem::path& path, const std::string& bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    const auto fail = [&](int error) {
        throw std::filesystem::filesystem_error("cannot write", path, std::error_code(error, std::generic_category()));
    };
    if (fd < 0) fail(errno);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            fail(error);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fchmod(fd, 0600) != 0 || ::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        fail(error);
    }
    if (::close(fd) != 0) fail(errno);
}

}  // namespace

Json write_profile(const Profile& p, std::vector<ProfileRow> rows, const std::filesystem::path& out, const ProfileOptions& options) {
    detail::sort_rows(rows);
    std::vector<const Json*> evidence, data;
    std::vector<Split> splits;
    for (const ProfileRow& r : rows) evidence.push_back(&r.evidence), data.push_back(&r.data), splits.push_back(r.split);
    std::size_t overlap = 0;
    Json diagnostics = detail::diagnostics(evidence, splits, data, overlap);
    if (options.split && overlap)
        throw ProfileError("consumer export has " + std::to_string(overlap) +
                           " exact prompts in both train and eval; select a coherent cohort");
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(out, ec)))
        throw ProfileError("consumer destination already exists: " + out.string());

    Json manifest = Json::object();
    manifest["profile"] = profile_entry(p);
    manifest["rows"] = rows.size();
    manifest["skipped"] = Json::object();
    if (options.canonical_skipped) {
        Json counts = Json::object();  // sorted, as dict(sorted(...)); the digest form sorts them anyway
        for (const auto& [name, n] : options.canonical_skipped->items()) counts[name] = n;
        manifest["canonical_skipped"] = std::move(counts);
    }
    if (rows.empty()) {
        manifest["diagnostics"] = std::move(diagnostics);
        return manifest;
    }

    // The files, by name: data and evidence, split or not; an empty partition has none.
    std::map<std::string, std::string> files;
    for (const ProfileRow& r : rows) {
        const std::string side = options.split ? "." + std::string(detail::split_name(r.split)) : "";
        files["data" + side + ".jsonl"] += line_form(r.data);
        files["evidence" + side + ".jsonl"] += line_form(r.evidence);
    }

    const std::filesystem::path target = std::filesystem::absolute(out).lexically_normal();
    std::filesystem::path parent = target.parent_path(), name = target.filename();
    if (name.empty()) name = target.parent_path().filename(), parent = target.parent_path().parent_path();
    std::filesystem::create_directories(parent);
    std::string pattern = (parent / ("." + name.string() + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw std::filesystem::filesystem_error("cannot make a staging folder", parent, std::error_code(errno, std::generic_category()));
    const std::filesystem::path staging = pattern;
    try {
        Json entries = Json::object();
        for (const auto& [file, bytes] : files) {
            write_file(staging / file, bytes);
            entries[file] = Json{{"sha256", detail::hex(sha256(bytes))}, {"bytes", bytes.size()}};
        }
        manifest["files"] = std::move(entries);
        manifest["training_execution"] = "not_run";
        manifest["tool_definitions"] = "not_inferred";
        manifest["diagnostics"] = std::move(diagnostics);
        write_file(staging / "compatibility.json", digest_form(manifest) + "\n");
        if (std::filesystem::exists(std::filesystem::symlink_status(target, ec)))
            throw ProfileError("consumer destination already exists: " + out.string());
        std::filesystem::rename(staging, target);
    } catch (...) {
        std::filesystem::remove_all(staging, ec);
        throw;
    }
    return manifest;
}

}  // namespace sediment::rows
