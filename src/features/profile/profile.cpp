// Sediment's consumer profiles: the registry, the two JSON forms, the SFT/DPO adapter and the folder
// (sediment-ai/sediment at ef084b9, packages/export/sediment_export/compatibility.py and jsonl.py).
#include "sediment/rows/profile.hpp"

#include <algorithm>
#include <functional>

#include "detail/writer.hpp"
#include "features/lint/split.hpp"
#include "features/profile/forms.hpp"
#include "features/profile/profile_detail.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/json.hpp"

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
        swe.data = SchemaId::swe_bench_tasks_v1, swe.evidence = SchemaId::swe_bench_profile_evidence;
        out.push_back(swe);
        Profile nemo;
        nemo.id = "nemo-gym-rollouts-v1", nemo.consumer = "nemo-gym", nemo.objective = "rlvr";
        nemo.canonical = SchemaId::nemo_gym_rollout_v4;
        nemo.canonical_schema = "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json";
        nemo.dependencies = {{"nemo-gym", "0.2.1"}, {"openai", "2.6.1"}};
        nemo.validation = "nemo_gym.base_resources_server.BaseVerifyResponse";
        nemo.support = "native parser; optimizer not tested";
        nemo.data = SchemaId::nemo_gym_rollouts_v1, nemo.evidence = SchemaId::nemo_gym_profile_evidence;
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

bool retired_profile(std::string_view id) noexcept { return id == "hf-trl-dpo-v1" || id == "fireworks-dpo-v1"; }

const Profile& profile(std::string_view id) {
    if (retired_profile(id)) {
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

std::string row_sha256(const Json& value) { return detail::sha256_hex(digest_form(value)); }

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

ProfileRow adapt_row(const Profile& p, const Json& canonical, Split split) { return adapt_row(p, canonical, split, ConsumerSettings()); }

ProfileRow adapt_row(const Profile& p, const Json& canonical, Split split, const ConsumerSettings& consumer) {
    if (!p.writable()) throw ProfileError(std::string(p.id) + " requires the RLVR adapter");
    if (p.consumer == "swe-bench") return detail::adapt_swe(p, canonical, split, consumer);
    detail::check_canonical(p, canonical, split);
    const bool fireworks = p.consumer == "fireworks", sft = p.objective == "sft";
    Json data;
    Json prompt = messages(canonical["prompt"], fireworks, sft ? 0 : -1);
    if (sft) {
        Json completion = messages(canonical["completion"], fireworks, 1);
        if (fireworks) {
            for (Json& m : completion) prompt.push_back(std::move(m));
            data = Json{{"messages", std::move(prompt)}};
        } else {
            data = Json{{"prompt", std::move(prompt)}, {"completion", std::move(completion)}, {"tools", Json::array()}};
        }
    } else {
        Json chosen = messages(canonical["chosen"], fireworks, -1), rejected = messages(canonical["rejected"], fireworks, -1);
        if (fireworks) {
            if (chosen.size() != 1 || rejected.size() != 1)
                throw ProfileError("Fireworks DPO requires one final assistant message per output");
            for (const Json* list : {&prompt, &chosen, &rejected})
                for (const Json& m : *list)
                    if (!documented_text(m)) throw ProfileError("Fireworks DPO v2 supports documented text messages only");
            data = Json{{"input", Json{{"messages", std::move(prompt)}, {"tools", Json::array()}}},
                        {"preferred_output", std::move(chosen)},
                        {"non_preferred_output", std::move(rejected)}};
        } else {
            data = Json{{"prompt", std::move(prompt)}, {"chosen", std::move(chosen)}, {"rejected", std::move(rejected)},
                        {"tools", Json::array()}};
        }
    }
    ProfileRow out;
    out.split = split;
    out.row_sha256 = row_sha256(data);
    out.prompt_sha256 = row_sha256(Json{{"prompt", canonical["prompt"]}});
    out.data = line_form(data);
    out.evidence = line_form(Json{{"row_sha256", out.row_sha256},
                                  {"canonical_schema", p.canonical_schema},
                                  {"source_row_sha256", row_sha256(canonical)},
                                  {"prompt_sha256", out.prompt_sha256},
                                  {"metadata", canonical["metadata"]},
                                  {"tool_definitions", "absent"}});
    return out;
}

namespace {

using detail::tape::Value;

// How each number of a canonical row's metadata is read by Sediment's model: a float field ('n'), an
// integer Literal ('c'), a plain integer ('i'); by its path below the metadata ("provenance/..."). The
// bundled schema reads 1 in a float field and 5.0 as an integer; Sediment's strict model writes the
// first back as 1.0 and refuses the second.
const std::map<std::string, char>& number_kinds(SchemaId canonical) {
    static const auto build = [](SchemaId id) {
        std::map<std::string, char> out;
        const Json& root = detail::schema_json(id);
        const std::function<void(const Json&, const std::string&)> walk = [&](const Json& s, const std::string& at) {
            const Json& schema = s.contains("$ref") ? root["$defs"][s["$ref"].get<std::string>().substr(8)] : s;
            if (schema.contains("anyOf")) {
                for (const Json& b : schema["anyOf"]) walk(b, at);
                return;
            }
            if (schema.contains("properties")) {
                for (const auto& [key, property] : schema["properties"].items()) walk(property, at.empty() ? key : at + "/" + key);
                return;
            }
            const std::string type = schema.value("type", "");
            if (type == "number") out[at] = 'n';
            else if (type == "integer") out[at] = schema.contains("const") ? 'c' : 'i';
        };
        walk(root["properties"]["metadata"], "");
        return out;
    };
    static const std::map<std::string, char> sft = build(SchemaId::sft_sample_v3), dpo = build(SchemaId::dpo_pair_v4);
    return canonical == SchemaId::dpo_pair_v4 ? dpo : sft;
}

// The metadata's numbers as Sediment's model reads them: 'i' (refused), 'a' (changed), or 0.
char number_verdict(Value v, const std::map<std::string, char>& kinds, std::string& at) {
    char verdict = 0;
    if (v.type() == '{') {
        detail::tape::each_member(v, [&](std::string_view key, Value value) {
            const std::size_t size = at.size();
            at += (at.empty() ? "" : "/"), at += key;
            const char inner = number_verdict(value, kinds, at);
            if (inner == 'i' || (inner && !verdict)) verdict = inner;
            at.resize(size);
        });
        return verdict;
    }
    const auto kind = kinds.find(at);
    if (kind == kinds.end()) return 0;
    const char type = v.type();
    if (kind->second == 'n' && (type == 'l' || type == 'u')) return 'a';  // 1 comes back 1.0
    if (kind->second == 'c' && type == 'd') return 'a';                    // 3.0 comes back 3
    if (kind->second == 'i' && type == 'd') return 'i';                    // 5.0 is refused
    return 0;
}

// The adapter over a canonical row the fast path accepted: its refusal, or the row mapped into `out`.
std::optional<std::string> adapt_tape(const Profile& p, const detail::TapeDoc& d, Split split, ProfileRow& out, bool lines) {
    using detail::member;
    const Value metadata = member(d.root, "metadata");
    std::string at;
    const char numbers = number_verdict(metadata, number_kinds(p.canonical), at);
    if (numbers == 'i') return std::string(p.id) + ": invalid canonical row";
    const Value said = member(metadata, "split");
    if (numbers == 'a' || said.string() != detail::split_name(split))
        return std::string(p.id) + ": canonical row has unknown or altered fields";
    const bool fireworks = p.consumer == "fireworks", sft = p.objective == "sft";
    const Value prompt = member(d.root, "prompt");
    const Value second = member(d.root, sft ? "completion" : "chosen"), rejected = sft ? Value{} : member(d.root, "rejected");
    if (fireworks) {
        for (const Value list : {prompt, second, rejected}) {
            if (!list.at) continue;
            std::size_t i = 0;
            for (Value m = list.first(); m.at < list.close(); m = m.with(m.next()), ++i) {
                const std::string_view role = member(m, "role").string();
                if (role == "developer") return std::string("Fireworks profiles do not support developer messages");
                if (role == "system" && i != 0) return std::string("Fireworks profiles require the system message to be first");
            }
        }
        if (!sft) {
            const auto count = [](Value list) {
                std::size_t n = 0;
                for (Value m = list.first(); m.at < list.close(); m = m.with(m.next())) ++n;
                return n;
            };
            if (count(second) != 1 || count(rejected) != 1) return std::string("Fireworks DPO requires one final assistant message per output");
            for (const Value list : {prompt, second, rejected})
                for (Value m = list.first(); m.at < list.close(); m = m.with(m.next())) {
                    std::size_t keys = 0;
                    detail::tape::each_member(m, [&](std::string_view, Value) { ++keys; });
                    const Value role = member(m, "role"), content = member(m, "content");
                    if (keys != 2 || !content.at || content.type() != '"' ||
                        !(role.string() == "system" || role.string() == "user" || role.string() == "assistant"))
                        return std::string("Fireworks DPO v2 supports documented text messages only");
                }
        }
    }
    // The body, in its keys' order or sorted (its digest form).
    const auto body = [&](detail::Writer& w, bool sorted) {
        detail::MessageForm form;
        form.fireworks = fireworks, form.sorted = sorted;
        const auto list = [&](std::string_view key, Value v, int weight) {
            w.key(key);
            w.begin_array();
            form.weight = weight;
            detail::write_messages(w, d, v, form);
            w.end_array();
        };
        const auto tools = [&] { w.key("tools"), w.begin_array(), w.end_array(); };
        w.begin_object();
        if (sft && fireworks) {
            w.key("messages");
            w.begin_array();
            form.weight = 0;
            detail::write_messages(w, d, prompt, form);
            form.weight = 1;
            detail::write_messages(w, d, second, form);
            w.end_array();
        } else if (sft) {
            if (sorted) list("completion", second, 1), list("prompt", prompt, 0), tools();
            else list("prompt", prompt, 0), list("completion", second, 1), tools();
        } else if (fireworks) {
            const auto input = [&] {
                w.key("input");
                w.begin_object();
                list("messages", prompt, -1);
                tools();
                w.end_object();
            };
            if (sorted) input(), list("non_preferred_output", rejected, -1), list("preferred_output", second, -1);
            else input(), list("preferred_output", second, -1), list("non_preferred_output", rejected, -1);
        } else {
            if (sorted) list("chosen", second, -1), list("prompt", prompt, -1), list("rejected", rejected, -1), tools();
            else list("prompt", prompt, -1), list("chosen", second, -1), list("rejected", rejected, -1), tools();
        }
        w.end_object();
    };
    thread_local std::string scratch;
    const auto digest = [&](const auto& write) {
        scratch.clear();
        {
            detail::Writer w(scratch, Style::compact);
            write(w);
        }
        return detail::sha256_hex(scratch);
    };
    out.split = split;
    out.row_sha256 = digest([&](detail::Writer& w) { body(w, true); });
    out.prompt_sha256 = digest([&](detail::Writer& w) {
        w.begin_object(), w.key("prompt"), detail::write_tape(w, d, prompt, true), w.end_object();
    });
    out.data.clear(), out.evidence.clear();
    if (!lines) return std::nullopt;
    const std::string source = detail::sorted_sha256(d, d.root);
    {
        detail::Writer w(out.data, Style::sediment);
        body(w, false);
    }
    out.data += '\n';
    {
        detail::Writer w(out.evidence, Style::sediment);
        w.begin_object();
        w.key("row_sha256"), w.string(out.row_sha256);
        w.key("canonical_schema"), w.string(p.canonical_schema);
        w.key("source_row_sha256"), w.string(source);
        w.key("prompt_sha256"), w.string(out.prompt_sha256);
        w.key("metadata"), detail::write_tape(w, d, metadata, false);
        w.key("tool_definitions"), w.string("absent");
        w.end_object();
    }
    out.evidence += '\n';
    return std::nullopt;
}

}  // namespace

void detail::adapt_text(const Profile& p, const StringText& canonical, std::optional<Split> split, ProfileRow& out, bool lines,
                        const ConsumerSettings& consumer, bool valid) {
    if (!p.writable()) throw ProfileError(std::string(p.id) + " requires the RLVR adapter");
    std::optional<std::string> refusal;
    bool mapped = false;
    const detail::DomLook look = [&](simdjson::dom::element root, const detail::BigIntegers& big, detail::TokenStarts) {
        const detail::TapeDoc d{detail::tape::value_of(root), &big};
        const Split side = split ? *split
                                 : detail::member(detail::member(d.root, "metadata"), "split").string() == "eval" ? Split::eval : Split::train;
        refusal = adapt_tape(p, d, side, out, lines);
        mapped = true;
    };
    if (p.consumer == "swe-bench") {
        // tasks are few and small: the Json path maps them
    } else if (valid) detail::fast_parse_dom(canonical.text(), Limits{}, canonical.padded(), look);
    else detail::fast_check_dom(schema_info(p.canonical).name, canonical.text(), Limits{}, canonical.padded(), look, /*any_order=*/true);
    if (refusal) throw ProfileError(*refusal);
    if (mapped) return;
    Json row;  // what the fast path leaves: judged on the Json path
    std::vector<Error> errors;
    if (!parse(canonical.text(), row, errors))
        throw ProfileError((errors.front().pointer.empty() ? "" : errors.front().pointer + ": ") + errors.front().message);
    Split side = Split::train;
    if (split) side = *split;
    else if (row.is_object() && row.contains("metadata") && row["metadata"].is_object() && row["metadata"].contains("split"))
        side = row["metadata"]["split"] == "eval" ? Split::eval : Split::train;
    out = adapt_row(p, row, side, consumer);
}

ProfileRow adapt_row(const Profile& p, const StringText& canonical, std::optional<Split> split, const ConsumerSettings& consumer) {
    ProfileRow out;
    detail::adapt_text(p, canonical, split, out, true, consumer);
    return out;
}

}  // namespace sediment::rows
