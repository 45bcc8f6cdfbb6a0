// Consumer profiles (docs/profiles.md): the registry, the two JSON forms, the SFT/DPO adapter and its
// refusals, the folder write_profile() publishes, and verify_profile() on it and on each kind of tampering.
// (../shared's profilegen.py is compared byte for byte in tests/python/conformance/test_profiles.py.)
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <tuple>

#include <catch2/catch.hpp>

#include "sediment/rows/profile.hpp"
#include "sediment/rows/json.hpp"
#include "sediment/rows/lint.hpp"
#include "cli.hpp"
#include "features/profile/forms.hpp"
#include "features/profile/profile_detail.hpp"
#include "process.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using sediment::rows::Json;
namespace rows = sediment::rows;

namespace {

// A canonical sft-sample.v3 row: its prompt says `ask`, its split is `split`.
Json sft_row(const std::string& ask, const std::string& split, const std::string& completion_id) {
    return Json::parse(R"({"prompt": [{"role": "system", "content": "Be brief."},
      {"role": "user", "content": ")" + ask + R"("},
      {"role": "assistant", "thinking": "look first", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "read", "arguments": {"path": "a.py", "n": 2, "x": 1.5}}}]},
      {"role": "tool", "name": "read", "tool_call_id": "call_1", "content": "1 printed"}],
     "completion": [{"role": "assistant", "thinking": "done", "content": "It prints 1 \u00e9."}],
     "tools": [],
     "metadata": {"org_id": "acme", "source_model": "m-1", "completion_id": ")" + completion_id + R"(",
       "recipe_id": "sft_curated", "recipe_version": 1, "eligibility_source": "explicit_accept",
       "label_confidence": 0.9, "ci_reliability": null,
       "provenance": {"policy_version": "p1", "quarantine_revision": 3, "policy_digest": null},
       "split": ")" + split + R"(", "repository_identity": null, "attribution_source": null,
       "session_commit_observation_ids": [],
       "schema_id": "https://sediment.so/schemas/training-rows/sft-sample/v3.json", "schema_version": 3}})");
}

// A canonical dpo-pair.v4 row with one text message on each side.
Json dpo_row(const std::string& ask, const std::string& split) {
    return Json::parse(R"({"prompt": [{"role": "user", "content": ")" + ask + R"("}],
      "chosen": [{"role": "assistant", "content": "yes"}], "rejected": [{"role": "assistant", "content": "no"}],
      "tools": [],
      "metadata": {"org_id": "acme", "source_model": "m-1", "chosen_completion_id": "c1", "rejected_completion_id": "c2",
        "recipe_id": "dpo_outcome", "recipe_version": 2, "chosen_label_source": "resolved_ci_pass",
        "rejected_label_source": "resolved_ci_fail", "label_confidence": 0.8, "ci_reliability": 0.5, "confidence_margin": 0.2,
        "provenance": {"chosen": {"policy_version": "p1", "quarantine_revision": 3, "policy_digest": null},
        "rejected": {"policy_version": "p1", "quarantine_revision": 3, "policy_digest": null}},
        "split": ")" + split + R"(", "chosen_repository_identity": null, "rejected_repository_identity": null,
        "chosen_attribution_source": null, "rejected_attribution_source": null,
        "chosen_session_commit_observation_ids": [], "rejected_session_commit_observation_ids": [],
        "schema_id": "https://sediment.so/schemas/training-rows/dpo-pair/v4.json", "schema_version": 4}})");
}

rows::Split split_of(const Json& row) { return row["metadata"]["split"] == "eval" ? rows::Split::eval : rows::Split::train; }

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l + "\n");
    return out;
}
std::string joined(const std::vector<std::string>& ls) {
    std::string out;
    for (const std::string& l : ls) out += l;
    return out;
}

std::string hex_sha256(const std::string& bytes) {
    std::ostringstream s;
    for (const unsigned char c : rows::sha256(bytes)) s << std::hex << std::setw(2) << std::setfill('0') << int(c);
    return s.str();
}

// What a forger does after editing files: the manifest's files entry made to match them again.
void rewrite_manifest(const fs::path& folder, const std::function<void(Json&)>& edit = {}) {
    Json manifest = rows::parse(read(folder / "compatibility.json"));
    for (auto& [name, entry] : manifest["files"].items()) {
        const std::string bytes = read(folder / name);
        entry["sha256"] = hex_sha256(bytes);
        entry["bytes"] = bytes.size();
    }
    if (edit) edit(manifest);
    write(folder / "compatibility.json", rows::digest_form(manifest) + "\n");
}

struct Folder {
    fs::path root = fs::temp_directory_path() / ("sediment-rows-profile-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::path out = root / "profile";
    Folder() { fs::create_directories(root); }
    ~Folder() { fs::remove_all(root); }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

// Ten SFT rows, three of them eval, written as `profile` into f.out.
std::vector<Json> write_sft(Folder& f, const char* profile = "hf-trl-sft-v1", bool split = true) {
    std::vector<Json> canonical;
    std::vector<rows::ProfileRow> mapped;
    for (int i = 0; i < 10; ++i) {
        canonical.push_back(sft_row("question " + std::to_string(i), i % 3 == 0 && i ? "eval" : "train", "c" + std::to_string(i)));
        mapped.push_back(rows::adapt_row(rows::profile(profile), canonical.back(), split_of(canonical.back())));
    }
    rows::ProfileOptions o;
    o.split = split;
    rows::write_profile(rows::profile(profile), mapped, f.out, o);
    return canonical;
}

// verify_profile() on the fast path and on the exact one: the same findings, word for word.
rows::ProfileVerdict verified(const fs::path& folder, rows::VerifyOptions options = {}) {
    const rows::ProfileVerdict fast = rows::verify_profile(folder, options);
    options.exact = true;
    const rows::ProfileVerdict exact = rows::verify_profile(folder, options);
    REQUIRE(fast.findings.size() == exact.findings.size());
    for (std::size_t i = 0; i < fast.findings.size(); ++i) {
        CHECK(fast.findings[i].file == exact.findings[i].file);
        CHECK(fast.findings[i].line == exact.findings[i].line);
        CHECK(fast.findings[i].error == exact.findings[i].error);
    }
    CHECK(fast.rows == exact.rows);
    CHECK(fast.rows_by_split == exact.rows_by_split);
    return fast;
}

// The findings as "file:line:pointer:id", for comparing.
std::vector<std::string> found(const rows::ProfileVerdict& v) {
    std::vector<std::string> out;
    for (const rows::ProfileFinding& f : v.findings)
        out.push_back(f.file + ":" + std::to_string(f.line) + ":" + f.error.pointer + ":" + f.error.id);
    return out;
}
bool has(const rows::ProfileVerdict& v, const std::string& finding) {
    const auto all = found(v);
    return std::find(all.begin(), all.end(), finding) != all.end();
}

}  // namespace

TEST_CASE("profiles: the six, and Sediment's messages for other names", "[profile]") {
    REQUIRE(rows::profiles().size() == 6);
    CHECK(rows::profiles()[0].id == "hf-trl-sft-v1");
    CHECK(rows::profiles()[5].id == "nemo-gym-rollouts-v1");
    const rows::Profile& p = rows::profile("fireworks-dpo-v2");
    CHECK(p.consumer == "fireworks");
    CHECK(p.objective == "dpo");
    CHECK(p.profile_version == 2);
    CHECK(rows::profile_entry(rows::profile("hf-trl-sft-v1")).dump() ==
          R"({"id":"hf-trl-sft-v1","consumer":"hf-trl","objective":"sft","profile_version":1,)"
          R"("canonical_schema":"https://sediment.so/schemas/training-rows/sft-sample/v3.json",)"
          R"("dependencies":[["datasets","5.0.1"],["trl","1.13.0"],["transformers","5.17.0"]],)"
          R"("validation":"datasets.Dataset.from_list; trl.is_conversational","support":"loader"})");
    CHECK_THROWS_WITH(rows::profile("hf-trl-dpo-v1"), "profile hf-trl-dpo-v1 is retired; use hf-trl-dpo-v2 and re-export canonical "
                                                      "evidence with DPO recipe v2/schema v4");
    CHECK_THROWS_WITH(rows::profile("trl"), "unsupported profile: trl");
    CHECK(rows::find_profile("fireworks-dpo-v1") == nullptr);
    CHECK(rows::profile("swe-bench-tasks-v1").writable());  // with a consumer config
    CHECK_FALSE(rows::profile("nemo-gym-rollouts-v1").writable());
}

TEST_CASE("profiles: the digest form and the line form are Python's json.dumps", "[profile]") {
    const Json v = Json::parse(R"({"b": 1, "a": [1.0, 1e-07, "\u00e9\ud83d\ude00", {"z": null, "y": true}], "c": 1.5e300})");
    // json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    CHECK(rows::digest_form(v) == "{\"a\":[1.0,1e-07,\"\xc3\xa9\xf0\x9f\x98\x80\",{\"y\":true,\"z\":null}],\"b\":1,\"c\":1.5e+300}");
    // json.dumps(v) + "\n"
    CHECK(rows::line_form(v) == "{\"b\": 1, \"a\": [1.0, 1e-07, \"\\u00e9\\ud83d\\ude00\", {\"z\": null, \"y\": true}], \"c\": 1.5e+300}\n");
    // hashlib.sha256(b'{"prompt":[]}').hexdigest()
    CHECK(rows::row_sha256(Json{{"prompt", Json::array()}}) == "4af278e5450e8fa62b720ba4d0b00a9d1657c469fc77b4293f14a386835e38bd");
}

// adapt_row() of a row's text (the fast path, from simdjson's tape) and of its Json (the exact path):
// the same lines and digests, which the tests check once.
rows::ProfileRow adapted(const char* profile, const Json& row, rows::Split split) {
    const rows::ProfileRow exact = rows::adapt_row(rows::profile(profile), row, split);
    std::string text = rows::line_form(row);
    text.pop_back();
    text.reserve(text.size() + rows::kTextPadding);
    const rows::ProfileRow fast = rows::adapt_row(rows::profile(profile), rows::StringText(text), split);
    CHECK(fast.data == exact.data);
    CHECK(fast.evidence == exact.evidence);
    CHECK(fast.row_sha256 == exact.row_sha256);
    CHECK(fast.prompt_sha256 == exact.prompt_sha256);
    CHECK(fast.split == exact.split);
    return exact;
}

TEST_CASE("profiles: the line form is known by a scan of the bytes, as json.dumps(json.loads(line)) knows it", "[profile]") {
    // each line against Sediment's writer: in line form exactly when the writer gives it back
    const std::vector<std::string> lines = {
        R"({"a": [1, 2.5, -3, 1e-07, 1.5e+300, -0.0, true, false, null], "b": {}, "c": []})",
        R"({"s": "\" \\ \b \f \n \r \t \u0000 \u001f \u007f \u00e9 \ud83d\ude00 ~ /"})",
        R"({"a":1})", R"({"a": 1,"b": 2})", R"({"a" : 1})", R"( {"a": 1})", R"({"a": 1} )", R"({"a": [1 ]})", R"({ })", R"([1,  2])",
        R"({"s": "\/"})", R"({"s": "\u00E9"})", R"({"s": "\u0041"})", R"({"s": "\u000a"})", R"({"s": "\u0008"})",
        "{\"s\": \"\xc3\xa9\"}", "{\"s\": \"\x7f\"}", R"({"n": -0})", R"({"n": 1E5})", R"({"n": 1.50})", R"({"n": 100000.0})",
        R"({"n": 1e5})", R"({"n": 0.1})", R"({"n": 123456789012345678901234567890})", R"({"n": 1.0e-07})", R"({"n": -0})",
        R"({"s": "a very long string without anything to escape in it at all, past sixteen bytes", "t": "x\u00e9"})"};
    for (const std::string& line : lines) {
        INFO(line);
        std::string formed = rows::line_form(rows::parse(line));
        formed.pop_back();
        CHECK(sediment::rows::detail::in_line_form(line) == (formed == line));
    }
}

TEST_CASE("profiles: the adapter renames thinking, weights and encodes Fireworks' arguments", "[profile]") {
    const Json row = sft_row("hi", "train", "c1");
    const rows::ProfileRow hf = adapted("hf-trl-sft-v1", row, rows::Split::train);
    const Json hf_data = rows::parse(hf.data), hf_evidence = rows::parse(hf.evidence);
    CHECK(rows::line_form(hf_data["prompt"][2]) ==
          "{\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"id\": \"call_1\", \"type\": \"function\", \"function\": "
          "{\"name\": \"read\", \"arguments\": {\"path\": \"a.py\", \"n\": 2, \"x\": 1.5}}}], \"reasoning_content\": \"look first\"}\n");
    CHECK(hf_data["tools"] == Json::array());
    CHECK(hf.data == rows::line_form(hf_data));
    const rows::ProfileRow fw = adapted("fireworks-sft-v1", row, rows::Split::train);
    const Json fw_data = rows::parse(fw.data);
    REQUIRE(fw_data["messages"].size() == 5);
    CHECK(fw_data["messages"][2]["tool_calls"][0]["function"]["arguments"] == "{\"n\":2,\"path\":\"a.py\",\"x\":1.5}");
    CHECK(fw_data["messages"][2]["weight"] == 0);
    CHECK(fw_data["messages"][4]["weight"] == 1);
    CHECK(rows::line_form(fw_data["messages"][4]) ==
          "{\"role\": \"assistant\", \"content\": \"It prints 1 \\u00e9.\", \"reasoning_content\": \"done\", \"weight\": 1}\n");
    // the evidence: row_sha256 first, the source row's digest, the canonical prompt's
    CHECK(hf_evidence["row_sha256"] == rows::row_sha256(hf_data));
    CHECK(hf.row_sha256 == rows::row_sha256(hf_data));
    CHECK(hf_evidence["source_row_sha256"] == hex_sha256(rows::digest_form(row)));
    CHECK(hf_evidence["prompt_sha256"] == rows::prompt_sha256(row["prompt"]));
    CHECK(hf.prompt_sha256 == rows::prompt_sha256(row["prompt"]));
    CHECK(hf_evidence["tool_definitions"] == "absent");
    // both paths on what they read differently: keys in any order, big integers, floats of every form,
    // escapes and non-ASCII in keys of free-form arguments, a DPO pair
    Json odd = Json::object();
    for (const char* k : {"metadata", "completion", "tools", "prompt"}) odd[k] = row[k];
    odd["prompt"][2]["tool_calls"][0]["function"]["arguments"] = rows::parse(
        R"({"z": 123456789012345678901234567890, "\u00e9t\u00e9": [1e-7, 1.5e300, -0.0, 0.1], "a\"b": {"y": null, "x": true}})");
    for (const char* profile : {"hf-trl-sft-v1", "fireworks-sft-v1"}) adapted(profile, odd, rows::Split::train);
    for (const char* profile : {"hf-trl-dpo-v2", "fireworks-dpo-v2"}) adapted(profile, dpo_row("hi", "eval"), rows::Split::eval);
}

TEST_CASE("profiles: the adapter refuses what Sediment refuses, with its message", "[profile]") {
    // each refusal on both paths: the row's Json, and its text (the fast path where it reads it)
    const auto refused = [](const char* profile, const Json& row, rows::Split split = rows::Split::train) {
        std::string exact = "taken", fast = "taken";
        try {
            rows::adapt_row(rows::profile(profile), row, split);
        } catch (const rows::ProfileError& e) {
            exact = e.what();
        }
        try {
            rows::adapt_row(rows::profile(profile), rows::StringText(rows::line_form(row)), split);
        } catch (const rows::ProfileError& e) {
            fast = e.what();
        }
        CHECK(fast == exact);
        return exact;
    };
    const std::string invalid = "hf-trl-sft-v1: invalid canonical row", altered = "hf-trl-sft-v1: canonical row has unknown or altered fields";
    Json row = sft_row("hi", "train", "c1");
    CHECK(refused("hf-trl-sft-v1", row) == "taken");
    SECTION("a row Sediment's strict model refuses") {
        Json r = row;
        r["extra"] = 1;  // keys: exactly the dataclass's
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["tools"] = Json::array({Json::object()});
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["completion"][0]["role"] = "user";  // a completion holds assistant messages
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["prompt"][3].erase("tool_call_id");
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["metadata"]["provenance"]["quarantine_revision"] = 3.0;  // strict int
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["metadata"]["recipe_id"] = "sft_other";
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["prompt"][1]["content"] = 5;
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
        r = row, r["prompt"][2]["tool_calls"][0]["function"]["arguments"] = "{}";
        CHECK(refused("hf-trl-sft-v1", r) == invalid);
    }
    SECTION("a row Sediment's model would change") {
        Json r = row;
        r["metadata"]["label_confidence"] = 1;  // a float field: comes back 1.0
        CHECK(refused("hf-trl-sft-v1", r) == altered);
        r = row, r["metadata"]["schema_version"] = 3.0;  // a Literal: comes back 3
        CHECK(refused("hf-trl-sft-v1", r) == altered);
        r = row, r["metadata"].erase("repository_identity");  // a default is filled in
        CHECK(refused("hf-trl-sft-v1", r) == altered);
        r = row, r["metadata"]["provenance"].erase("policy_digest");
        CHECK(refused("hf-trl-sft-v1", r) == altered);
        r = row, r["prompt"][1]["name"] = "bob";  // a key no model has is dropped
        CHECK(refused("hf-trl-sft-v1", r) == altered);
        r = row, r["metadata"]["debug"] = true;
        CHECK(refused("hf-trl-sft-v1", r) == altered);
        CHECK(refused("hf-trl-sft-v1", row, rows::Split::eval) == altered);  // metadata.split is not the row's
    }
    SECTION("key order and where thinking sits are free") {
        Json r = Json::object();
        for (const char* k : {"metadata", "tools", "completion", "prompt"}) r[k] = row[k];
        CHECK(refused("hf-trl-sft-v1", r) == "taken");
    }
    SECTION("Fireworks") {
        Json r = row;
        r["prompt"][0]["role"] = "developer";
        CHECK(refused("fireworks-sft-v1", r) == "Fireworks profiles do not support developer messages");
        r = row, r["prompt"][1]["role"] = "system";
        CHECK(refused("fireworks-sft-v1", r) == "Fireworks profiles require the system message to be first");
        Json d = dpo_row("hi", "train");
        CHECK(refused("fireworks-dpo-v2", d) == "taken");
        d["chosen"].push_back(d["chosen"][0]);
        CHECK(refused("fireworks-dpo-v2", d) == "Fireworks DPO requires one final assistant message per output");
        d = dpo_row("hi", "train"), d["chosen"][0]["thinking"] = "hmm";
        CHECK(refused("fireworks-dpo-v2", d) == "Fireworks DPO v2 supports documented text messages only");
        CHECK(refused("hf-trl-dpo-v2", d) == "taken");
    }
}

TEST_CASE("profiles: write_profile publishes Sediment's folder", "[profile]") {
    Folder f;
    write_sft(f);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(f.out)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"compatibility.json", "data.eval.jsonl", "data.train.jsonl", "evidence.eval.jsonl",
                                            "evidence.train.jsonl"});
    struct stat st {};
    REQUIRE(::stat(f.out.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    REQUIRE(::stat((f.out / "data.train.jsonl").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    const Json manifest = rows::parse(read(f.out / "compatibility.json"));
    CHECK(read(f.out / "compatibility.json") == rows::digest_form(manifest) + "\n");
    CHECK(manifest["rows"] == 10);
    CHECK(manifest["diagnostics"]["rows_by_split"] == Json::parse(R"({"eval": 3, "train": 7})"));
    CHECK(manifest["canonical_skipped"] == Json::object());
    CHECK(lines(read(f.out / "data.eval.jsonl")).size() == 3);
    // The rows in Sediment's order: by their digest within a split.
    std::vector<std::string> digests;
    for (const std::string& l : lines(read(f.out / "evidence.train.jsonl"))) digests.push_back(rows::parse(l)["row_sha256"].get<std::string>());
    CHECK(std::is_sorted(digests.begin(), digests.end()));

    CHECK_THROWS_WITH(write_sft(f), "consumer destination already exists: " + f.out.string());
    Folder g;
    std::vector<rows::ProfileRow> overlap;
    for (const char* split : {"train", "eval"}) {
        const Json r = sft_row("same", split, std::string("c-") + split);
        overlap.push_back(rows::adapt_row(rows::profile("hf-trl-sft-v1"), r, split_of(r)));
    }
    CHECK_THROWS_WITH(rows::write_profile(rows::profile("hf-trl-sft-v1"), overlap, g.out),
                      "consumer export has 1 exact prompts in both train and eval; select a coherent cohort");
    CHECK_FALSE(fs::exists(g.out));
    CHECK(fs::is_empty(g.root));  // no staging folder left
    rows::ProfileOptions unsplit;
    unsplit.split = false;
    const Json m = rows::write_profile(rows::profile("hf-trl-sft-v1"), overlap, g.out, unsplit);
    CHECK(m["diagnostics"]["exact_prompt_overlap"] == 1);
    CHECK(fs::exists(g.out / "data.jsonl"));
    CHECK(verified(g.out).ok());
    Folder empty;
    CHECK(rows::write_profile(rows::profile("hf-trl-sft-v1"), {}, empty.out)["rows"] == 0);
    CHECK_FALSE(fs::exists(empty.out));  // an empty export: no folder
}

TEST_CASE("verify: Sediment's folders verify, and each tampering is found at its file and line", "[profile]") {
    for (const char* profile : {"hf-trl-sft-v1", "fireworks-sft-v1"}) {
        Folder f;
        const std::vector<Json> canonical = write_sft(f, profile);
        CAPTURE(profile);
        REQUIRE(found(verified(f.out)).empty());
        const fs::path train = f.out / "data.train.jsonl", evidence = f.out / "evidence.train.jsonl";
        std::vector<std::string> data = lines(read(train));
        const auto edit_line_2 = [&] {
            const std::size_t at = data[1].find("question");
            REQUIRE(at != std::string::npos);
            data[1].replace(at, 8, "QUESTION");
            write(train, joined(data));
        };
        SECTION("a row edited, the manifest not rewritten") {
            edit_line_2();
            const rows::ProfileVerdict v = verified(f.out);
            CHECK(has(v, "data.train.jsonl:0::rows.verify.file_sha256"));
            CHECK(has(v, "evidence.train.jsonl:2:/row_sha256:rows.verify.row_sha256"));
        }
        SECTION("a row edited, the manifest rewritten") {
            edit_line_2();
            rewrite_manifest(f.out);
            const rows::ProfileVerdict v = verified(f.out);
            CHECK(has(v, "evidence.train.jsonl:2:/row_sha256:rows.verify.row_sha256"));
            CHECK(has(v, "evidence.train.jsonl:2:/source_row_sha256:rows.verify.source_row_sha256"));
            CHECK_FALSE(has(v, "data.train.jsonl:0::rows.verify.file_sha256"));
        }
        SECTION("a row edited, its row_sha256 and the manifest rewritten: the canonical row's digests tell") {
            edit_line_2();
            std::vector<std::string> ev = lines(read(evidence));
            Json e = rows::parse(ev[1]);
            e["row_sha256"] = rows::row_sha256(rows::parse(data[1]));
            ev[1] = rows::line_form(e);
            write(evidence, joined(ev));
            rewrite_manifest(f.out);
            const rows::ProfileVerdict v = verified(f.out);
            CHECK(has(v, "evidence.train.jsonl:2:/source_row_sha256:rows.verify.source_row_sha256"));
            CHECK(has(v, "evidence.train.jsonl:2:/prompt_sha256:rows.verify.prompt_sha256"));
            CHECK_FALSE(has(v, "evidence.train.jsonl:2:/row_sha256:rows.verify.row_sha256"));
        }
        SECTION("lines reordered") {
            std::vector<std::string> ev = lines(read(evidence));
            std::swap(data[0], data[1]);
            std::swap(ev[0], ev[1]);
            write(train, joined(data));
            write(evidence, joined(ev));
            rewrite_manifest(f.out);
            CHECK(found(verified(f.out)) == std::vector<std::string>{"data.train.jsonl:2::rows.verify.order"});
        }
        SECTION("an evidence line gone") {
            std::vector<std::string> ev = lines(read(evidence));
            ev.pop_back();
            write(evidence, joined(ev));
            rewrite_manifest(f.out);
            const rows::ProfileVerdict v = verified(f.out);
            CHECK(has(v, "evidence.train.jsonl:7::rows.verify.line_count"));
            CHECK(has(v, "compatibility.json:1:/rows:rows.verify.rows"));
        }
        SECTION("counts changed in the manifest") {
            rewrite_manifest(f.out, [](Json& m) {
                m["rows"] = 11;
                m["diagnostics"]["rows_by_split"]["train"] = 8;
            });
            CHECK(found(verified(f.out)) ==
                  std::vector<std::string>{"compatibility.json:1:/rows:rows.verify.rows",
                                           "compatibility.json:1:/diagnostics/rows_by_split:rows.verify.diagnostics"});
        }
        SECTION("a digest or a size changed in the manifest") {
            rewrite_manifest(f.out, [](Json& m) {
                m["files"]["data.eval.jsonl"]["sha256"] = std::string(64, '0');
                m["files"]["evidence.eval.jsonl"]["bytes"] = 1;
            });
            CHECK(found(verified(f.out)) == std::vector<std::string>{"data.eval.jsonl:0::rows.verify.file_sha256",
                                                                                 "evidence.eval.jsonl:0::rows.verify.file_size"});
        }
        SECTION("the manifest not in digest form, or its profile entry changed") {
            Json m = rows::parse(read(f.out / "compatibility.json"));
            write(f.out / "compatibility.json", rows::line_form(m));
            CHECK(found(verified(f.out)) == std::vector<std::string>{"compatibility.json:1::rows.verify.manifest_form"});
            rewrite_manifest(f.out, [](Json& m) { m["profile"]["support"] = "all tested"; });
            CHECK(found(verified(f.out)) == std::vector<std::string>{"compatibility.json:1:/profile/support:rows.verify.profile"});
        }
        SECTION("a file added, or one gone") {
            write(f.out / "notes.txt", "hi\n");
            CHECK(found(verified(f.out)) == std::vector<std::string>{"notes.txt:0::rows.verify.file_extra"});
            fs::remove(f.out / "notes.txt");
            fs::remove(f.out / "evidence.eval.jsonl");
            CHECK(found(verified(f.out)) ==
                  std::vector<std::string>{"compatibility.json:1:/files/evidence.eval.jsonl:rows.verify.file_missing",
                                           "compatibility.json:1:/rows:rows.verify.rows",
                                           "compatibility.json:1:/diagnostics/rows_by_split:rows.verify.diagnostics"});
        }
        SECTION("a split mislabelled") {
            std::vector<std::string> ev = lines(read(f.out / "evidence.eval.jsonl"));
            Json e = rows::parse(ev[0]);
            e["metadata"]["split"] = "train";
            ev[0] = rows::line_form(e);
            write(f.out / "evidence.eval.jsonl", joined(ev));
            rewrite_manifest(f.out);
            const rows::ProfileVerdict v = verified(f.out);
            CHECK(has(v, "evidence.eval.jsonl:1:/metadata/split:rows.verify.split"));
        }
        SECTION("a line not in Sediment's line form") {
            data[0] = rows::parse(data[0]).dump() + "\n";  // no spaces, keys in their order
            write(train, joined(data));
            rewrite_manifest(f.out);
            CHECK(found(verified(f.out)) == std::vector<std::string>{"data.train.jsonl:1::rows.verify.line_form"});
        }
        SECTION("a row its model refuses") {
            Json d = rows::parse(data[0]);
            d["extra"] = 1;
            data[0] = rows::line_form(d);
            write(train, joined(data));
            rewrite_manifest(f.out);
            CHECK(has(verified(f.out), "data.train.jsonl:1::rows.verify.model"));
        }
        SECTION("with --canonical: a source row missing, a row not its canonical row's mapping") {
            Folder g;
            std::string given;
            for (std::size_t i = 1; i < canonical.size(); ++i) given += rows::line_form(canonical[i]);
            write(g.root / "sft.jsonl", given);
            rows::VerifyOptions o;
            o.canonical = {g.root / "sft.jsonl"};
            const rows::ProfileVerdict v = verified(f.out, o);
            REQUIRE(v.findings.size() == 1);
            const std::string source = rows::row_sha256(canonical[0]);
            const std::string file = v.findings[0].file;
            CHECK(v.findings[0].error.id == "rows.verify.source_row");
            CHECK(v.findings[0].error.pointer == "/source_row_sha256");
            // the line: where canonical row 0's evidence is
            const std::vector<std::string> ev = lines(read(f.out / file));
            CHECK(rows::parse(ev.at(v.findings[0].line - 1))["source_row_sha256"] == source);
        }
    }
}

TEST_CASE("profiles: write_profile_files on threads writes the same folder, and refuses at the first row", "[profile]") {
    Folder f;
    std::string train, eval;
    for (int i = 0; i < 5000; ++i) {
        const bool is_eval = i % 7 == 0;
        (is_eval ? eval : train) += rows::line_form(sft_row("q" + std::to_string(i), is_eval ? "eval" : "train", "c" + std::to_string(i)));
    }
    write(f.root / "sft.train.jsonl", train);
    write(f.root / "sft.eval.jsonl", eval);
    const std::vector<fs::path> files = {f.root / "sft.train.jsonl", f.root / "sft.eval.jsonl"};
    std::map<unsigned, std::map<std::string, std::string>> written;
    for (const unsigned jobs : {1u, 2u, 3u}) {
        rows::ProfileOptions o;
        o.jobs = jobs;
        const fs::path out = f.root / ("j" + std::to_string(jobs));
        CHECK(rows::write_profile_files(rows::profile("fireworks-sft-v1"), files, out, o)["rows"] == 5000);
        for (const auto& e : fs::directory_iterator(out)) written[jobs][e.path().filename().string()] = read(e.path());
    }
    CHECK(written[1] == written[2]);
    CHECK(written[1] == written[3]);
    CHECK(lines(written[1]["data.train.jsonl"]).size() == 4285);  // more than a batch (2,048 rows) in each file's partition
    CHECK(verified(f.root / "j2").ok());
    // two refused rows: the first in file order is the export's refusal, whichever thread reads it
    std::vector<std::string> ls = lines(train);
    Json early = rows::parse(ls[9]), late = rows::parse(ls[4000]);
    early["prompt"][1]["role"] = "developer", late["prompt"][1]["role"] = "system";
    ls[9] = rows::line_form(early), ls[4000] = rows::line_form(late);
    write(f.root / "sft.train.jsonl", joined(ls));
    for (const unsigned jobs : {1u, 2u, 3u}) {
        rows::ProfileOptions o;
        o.jobs = jobs;
        CHECK_THROWS_WITH(rows::write_profile_files(rows::profile("fireworks-sft-v1"), files, f.root / "refused", o),
                          (f.root / "sft.train.jsonl").string() + ":10: Fireworks profiles do not support developer messages");
        CHECK_FALSE(fs::exists(f.root / "refused"));
    }
}

TEST_CASE("verify: an exact prompt in train and eval, forged into a split folder", "[profile]") {
    Folder f;
    std::vector<rows::ProfileRow> mapped;
    for (const char* split : {"train", "eval"}) {
        const Json r = sft_row("same", split, std::string("c-") + split);
        mapped.push_back(rows::adapt_row(rows::profile("hf-trl-sft-v1"), r, split_of(r)));
    }
    rows::ProfileOptions unsplit;
    unsplit.split = false;
    rows::write_profile(rows::profile("hf-trl-sft-v1"), mapped, f.out, unsplit);
    REQUIRE(verified(f.out).ok());  // allowed without splitting, and counted
    // The forger splits it by hand: the eval row to the eval files.
    const std::vector<std::string> data = lines(read(f.out / "data.jsonl")), ev = lines(read(f.out / "evidence.jsonl"));
    REQUIRE(rows::parse(ev[0])["metadata"]["split"] == "eval");
    write(f.out / "data.eval.jsonl", data[0]), write(f.out / "evidence.eval.jsonl", ev[0]);
    write(f.out / "data.train.jsonl", data[1]), write(f.out / "evidence.train.jsonl", ev[1]);
    fs::remove(f.out / "data.jsonl"), fs::remove(f.out / "evidence.jsonl");
    rewrite_manifest(f.out, [&](Json& m) {
        Json files = Json::object();
        for (const char* name : {"data.eval.jsonl", "data.train.jsonl", "evidence.eval.jsonl", "evidence.train.jsonl"}) {
            const std::string bytes = read(f.out / name);
            files[name] = Json{{"sha256", hex_sha256(bytes)}, {"bytes", bytes.size()}};
        }
        m["files"] = files;
    });
    CHECK(found(verified(f.out)) == std::vector<std::string>{"evidence.eval.jsonl:1:/prompt_sha256:rows.verify.overlap"});
}

TEST_CASE("verify: a NeMo Gym profile's folder: its models, and the checks of every folder", "[profile]") {
    // nemo-gym-rollouts-v1 (written from Sediment's inference calls, which rows do not hold): files, digests,
    // models, line form, key order, order, splits, reward counts, one configuration_digest
    Folder f;
    fs::create_directories(f.out);
    const Json metadata = [] {
        Json m = test::base(rows::SchemaId::nemo_gym_rollout_v4)["metadata"];
        m["split"] = "train";
        return m;
    }();
    const auto row = [](double reward, const char* id) {
        const Json settings = {{"parallel_tool_calls", false}, {"tool_choice", "auto"}, {"tools", Json::array()}};
        Json request = {{"input", Json::array({Json{{"type", "message"}, {"role", "user"}, {"content", "Fix the test."}}})}};
        Json response = {{"id", id}, {"created_at", 1700000000.5}, {"model", "m-1"}, {"object", "response"},
                         {"output", Json::array({Json{{"type", "reasoning"}, {"id", "c1-output-0-0"},
                                                      {"summary", Json::array({Json{{"type", "summary_text"}, {"text", "Look."}}})}},
                                                 Json{{"type", "message"}, {"id", "c1-output-0-1"}, {"role", "assistant"},
                                                      {"content", Json::array({Json{{"type", "output_text"}, {"text", "Done."},
                                                                                    {"annotations", Json::array()}}})}}})}};
        for (Json* part : {&request, &response})
            for (const auto& [key, value] : settings.items()) (*part)[key] = value;
        return Json{{"responses_create_params", request}, {"response", response}, {"reward", reward}};
    };
    const std::string configuration(64, 'c');
    std::vector<std::tuple<std::string, std::string, std::string>> lines_;  // (digest, data line, evidence line), sorted
    for (const auto& [reward, id] : std::vector<std::pair<double, const char*>>{{1.0, "a"}, {0.0, "b"}, {1.0, "c"}}) {
        const Json data = row(reward, id);
        const Json evidence = {{"row_sha256", rows::row_sha256(data)},
                               {"canonical_schema", "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json"},
                               {"metadata", metadata},
                               {"source_row_sha256", std::string(64, 'a')},
                               {"prompt_sha256", hex_sha256(id)},
                               {"inference_call_ids", Json::array({"c1"})},
                               {"created_at_source_call_id", "c1"},
                               {"response_configuration_source", "operator"},
                               {"configuration_digest", configuration},
                               {"readable_reasoning_mapping", "verbatim summary_text; no summarization"},
                               {"native_output_messages", Json::array({Json::array({Json{
                                   {"role", "assistant"},
                                   {"parts", Json::array({Json{{"type", "reasoning"}, {"content", "Look."}},
                                                          Json{{"type", "text"}, {"content", "Done."}}})},
                                   {"finish_reason", nullptr}}})})}};
        lines_.emplace_back(rows::row_sha256(data), rows::line_form(data), rows::line_form(evidence));
    }
    std::sort(lines_.begin(), lines_.end());
    std::string data, evidence;
    for (const auto& [digest, d, e] : lines_) data += d, evidence += e;
    write(f.out / "data.train.jsonl", data);
    write(f.out / "evidence.train.jsonl", evidence);
    Json manifest = {{"profile", rows::profile_entry(rows::profile("nemo-gym-rollouts-v1"))},
                     {"rows", 3},
                     {"skipped", Json{{"missing_reward", 2}}},
                     {"canonical_skipped", Json::object()},
                     {"fragmented", Json::object()},
                     {"files", Json{{"data.train.jsonl", Json::object()}, {"evidence.train.jsonl", Json::object()}}},  // (filled in below)
                     {"training_execution", "not_run"},
                     {"tool_definitions", "not_inferred"},
                     {"diagnostics", Json{{"rows_by_split", Json{{"train", 3}}},
                                          {"reward_counts", Json{{"0.0", 1}, {"1.0", 2}}},
                                          {"exact_prompt_overlap", 0},
                                          {"semantic_task_overlap", "not_assessed"}}}};
    write(f.out / "compatibility.json", rows::digest_form(manifest) + "\n");
    rewrite_manifest(f.out);
    const rows::ProfileVerdict v = verified(f.out);
    CHECK(found(v).empty());
    CHECK(v.profile == &rows::profile("nemo-gym-rollouts-v1"));
    CHECK(v.rows == 3);
    rewrite_manifest(f.out, [](Json& m) { m["diagnostics"]["reward_counts"]["1.0"] = 3; });
    CHECK(found(verified(f.out)) == std::vector<std::string>{"compatibility.json:1:/diagnostics/reward_counts:rows.verify.diagnostics"});
    rewrite_manifest(f.out);
    // a line its model refuses, at its pointer: an assistant message without an id, a part of no known type
    const auto edited = [&](const fs::path& file, const std::function<void(Json&)>& edit) {
        std::vector<std::string> ls = lines(read(file));
        Json j = rows::parse(ls[0]);
        edit(j);
        ls[0] = rows::line_form(j);
        write(file, joined(ls));
        rewrite_manifest(f.out);
    };
    SECTION("models") {
        edited(f.out / "data.train.jsonl", [](Json& d) { d["response"]["output"][1].erase("id"); });
        CHECK(has(verified(f.out), "data.train.jsonl:1:/response/output/1/id:rows.verify.model"));
        edited(f.out / "evidence.train.jsonl", [](Json& e) { e["native_output_messages"][0][0]["parts"][1]["type"] = "image"; });
        CHECK(has(verified(f.out), "evidence.train.jsonl:1:/native_output_messages/0/0/parts/1/type:rows.verify.model"));
    }
    SECTION("key order, and another config") {
        edited(f.out / "data.train.jsonl", [](Json& d) {
            Json r = d["response"];
            d["response"] = Json{{"created_at", r["created_at"]}};
            for (const auto& [key, value] : r.items()) d["response"][key] = value;
        });
        CHECK(has(verified(f.out), "data.train.jsonl:1:/response:rows.verify.key_order"));
        edited(f.out / "evidence.train.jsonl", [](Json& e) { e["configuration_digest"] = std::string(64, 'd'); });
        CHECK(has(verified(f.out), "evidence.train.jsonl:2:/configuration_digest:rows.verify.configuration_digest"));  // (not the first row's)
    }
}

TEST_CASE("verify: a folder that is no profile folder", "[profile]") {
    Folder f;
    fs::create_directories(f.out);
    CHECK(found(verified(f.out)) == std::vector<std::string>{"compatibility.json:0::rows.verify.manifest"});
    write(f.out / "compatibility.json", "{\"profile\": ");
    CHECK(found(verified(f.out)).at(0).find("compatibility.json:1:") == 0);
    write(f.out / "compatibility.json", "{}\n");
    CHECK(has(verified(f.out), "compatibility.json:1::rows.verify.model"));
}

TEST_CASE("convert --to PROFILE and verify, on the command line", "[profile][cli]") {
    Folder f;
    std::string train, eval;
    for (int i = 0; i < 6; ++i) (i % 3 ? train : eval) += rows::line_form(sft_row("q" + std::to_string(i), i % 3 ? "train" : "eval", "c" + std::to_string(i)));
    write(f.root / "sft.train.jsonl", train);
    write(f.root / "sft.eval.jsonl", eval);
    const auto run = [](const std::string& args) { return test::cli(args); };
    auto r = run("convert --to hf-trl-sft-v1 --out " + f.out.string() + " " + (f.root / "sft.train.jsonl").string() + " " +
                 (f.root / "sft.eval.jsonl").string());
    CHECK(r.status == 0);
    CHECK(r.err.find("wrote 6 rows as hf-trl-sft-v1") != std::string::npos);
    r = run("verify " + f.out.string());
    CHECK(r.status == 0);
    CHECK(r.err == f.out.string() + ": hf-trl-sft-v1, 6 rows (eval 2, train 4): verified\n");
    write(f.out / "notes.txt", "x");
    r = run("verify " + f.out.string());
    CHECK(r.status == 1);
    CHECK(r.out == (f.out / "notes.txt").string() +
                       ":0: (root): a file the manifest does not list (Sediment writes only its data, evidence and manifest) "
                       "[rows.verify.file_extra]\n");
    r = run("convert --to hf-trl-sft-v1 --out " + f.out.string() + " " + (f.root / "sft.train.jsonl").string());
    CHECK(r.status == 1);
    CHECK(r.err == "sediment-rows: consumer destination already exists: " + f.out.string() + "; nothing written\n");
    r = run("convert --to hf-trl-dpo-v1 --out x " + (f.root / "sft.train.jsonl").string());
    CHECK(r.status == 2);
    CHECK(r.err.find("profile hf-trl-dpo-v1 is retired") != std::string::npos);
    r = run("convert --to nemo-gym-rollouts-v1 --out x " + (f.root / "sft.train.jsonl").string());
    CHECK(r.status == 2);
    r = run("convert --to fireworks-dpo-v2 --out " + (f.root / "dpo").string() + " " + (f.root / "sft.train.jsonl").string());
    CHECK(r.status == 1);
    CHECK(r.err.find("sft.train.jsonl:1: fireworks-dpo-v2: invalid canonical row; nothing written") != std::string::npos);
    r = run("verify " + (f.root / "nowhere").string());
    CHECK(r.status == 2);
}

// ----- swe-bench-tasks-v1 (consumer_rlvr.py) ----------------------------------------------------------

namespace {

// A canonical swe-bench-task.v3 row of task `id`.
Json swe_row(const std::string& id, const std::string& split, const std::string& patch = "diff --git a/p.py b/p.py\n+fix\n") {
    Json row = Json::parse(R"({"instance_id": "", "repo": "acme/widgets", "base_commit": "0123456789abcdef0123456789abcdef01234567",
      "problem_statement": "The parser drops the last line \u00e9.", "patch": "",
      "metadata": {"recipe_id": "rlvr_ci", "recipe_version": 1, "reward_source": "resolved_ci_pass", "verifier_results": [],
        "ci_resolution": {"org_id": "acme", "repo": "acme/widgets", "commit_sha": "89abcdef0123456789abcdef0123456789abcdef",
          "verdict": "passed", "reliability": 1.0, "suspected_flake": false, "workflow_resolutions": [], "source_outcome_ids": ["o1"],
          "verdict_outcome_ids": ["o1"], "non_verdict_outcome_ids": [],
          "provenance": {"policy_version": "p1", "quarantine_revision": 3, "policy_digest": null}, "repository_identity": null},
        "attribution_source": "git_notes", "split": "", "provenance": {"policy_version": "p1", "quarantine_revision": 3, "policy_digest": null},
        "session_commit_observation_ids": [], "repository_identity": null,
        "schema_id": "https://sediment.so/schemas/training-rows/swe-bench-task/v3.json", "schema_version": 3}})");
    row["instance_id"] = id, row["patch"] = patch, row["metadata"]["split"] = split;
    return row;
}

// A config with the settings of tasks `ids` (test::swe_task_settings() each, its problem statement naming it).
Json swe_config(const std::vector<std::string>& ids) {
    Json tasks = Json::object();
    for (const std::string& id : ids) {
        Json t = rows::parse(R"({"repo": " Acme/Widgets ", "base_commit": "0123456789ABCDEF0123456789abcdef01234567",
          "problem_statement": "", "test_patch": "diff --git a/t.py b/t.py\n", "hints_text": "", "created_at": "2024-05-06 07:08:09.5+02:00",
          "version": " 1.2 ", "environment_setup_commit": "89abcdef0123456789abcdef0123456789abcdef",
          "FAIL_TO_PASS": ["tests/t.py::test_last_line"], "PASS_TO_PASS": ["tests/t.py::test_first_line"], "image": "sweb.eval.acme",
          "eval_script": "#!/bin/bash\necho '>>>>> Start Test Output'\npytest\necho '>>>>> End Test Output'\n",
          "log_parser": "pytest", "eval_type": "pass_and_fail"})");
        t["problem_statement"] = "Fix task " + id + ".";
        tasks[" " + id + " "] = t;  // (ids are stripped)
    }
    return Json{{"tasks", tasks}};
}

}  // namespace

TEST_CASE("profiles: SWE-bench's settings read as sediment_core and pydantic read them", "[profile]") {
    using namespace sediment::rows::detail;
    // Python's str.strip(): str.isspace() at both ends, non-ASCII spaces too
    CHECK(python_strip(" \t\x1c a b \xc2\xa0\xe3\x80\x80") == "a b");
    CHECK(python_strip("\xe2\x80\x8b" "x") == "\xe2\x80\x8b" "x");  // U+200B is not a space to Python
    std::string out, why;
    CHECK(repo_slug(" Acme/Widgets ", out, why));
    CHECK(out == "acme/widgets");
    CHECK(repo_slug("  ", out, why));  // the absent sentinel
    CHECK(out.empty());
    for (const char* bad : {"acme", "/w", "a/", "a/b/c"}) CHECK_FALSE(repo_slug(bad, out, why));
    CHECK(repo_slug("\xc3\x89" "cole/\xe1\xba\x9e\xc4\xb0", out, why));  // Python: 'ÉCOLE/ẞİ'.lower()
    CHECK(out == "\xc3\xa9" "cole/\xc3\x9f" "i\xcc\x87");
    CHECK_FALSE(repo_slug("acme/\xce\x91\xce\xa3", out, why));  // 'ΑΣ'.lower() is 'ας': a capital sigma is refused
    CHECK(python_lower("\xe1\xbe\x88\xf0\x90\x90\x80\xe2\x84\xaa") == "\xe1\xbe\x80\xf0\x90\x90\xa8k");  // ᾈ𐐀K (Kelvin)
    CHECK(commit_sha(" 0123456789ABCDEF0123456789abcdef01234567\n", out));
    CHECK(out == "0123456789abcdef0123456789abcdef01234567");
    CHECK(commit_sha(std::string(64, 'F'), out));
    CHECK_FALSE(commit_sha(std::string(39, 'a'), out));
    CHECK_FALSE(commit_sha(std::string(39, 'a') + "g", out));
    // pydantic 2.13.4's AwareDatetime, strict, from JSON: what it read, and what model_dump(mode="json") wrote
    const std::vector<std::pair<const char*, const char*>> read = {
        {"2024-01-02T03:04:05Z", "2024-01-02T03:04:05Z"},
        {"2024-01-02T03:04:05.000Z", "2024-01-02T03:04:05Z"},
        {"2024-01-02T03:04:05.5+05:30", "2024-01-02T03:04:05.500000+05:30"},
        {"2024-01-02 03:04Z", "2024-01-02T03:04:00Z"},
        {"2024-01-02T03:04:05-00:00", "2024-01-02T03:04:05Z"},
        {"2024-01-02T03:04:05+0530", "2024-01-02T03:04:05+05:30"},
        {"2024-01-02t03:04:05z", "2024-01-02T03:04:05Z"},
        {"2024-01-02T03:04:05.1234567891Z", "2024-01-02T03:04:05.123456Z"},
        {"2024-01-02T03:04:05,5Z", "2024-01-02T03:04:05.500000Z"},
        {"2024-01-02_03:04:05Z", "2024-01-02T03:04:05Z"},
        {"2024-01-02T03:04:05.123456+00:00", "2024-01-02T03:04:05.123456Z"},
        {"0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00+01:00"},
        {"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"},
        {"2024-01-02T03:04:05-23:59", "2024-01-02T03:04:05-23:59"},
        {"2024-01-02T03:04:05-00:01", "2024-01-02T03:04:05-00:01"},
        {"1700000000", "2023-11-14T22:13:20Z"},
        {"+1700000000", "2023-11-14T22:13:20Z"},
        {"1700000000.", "2023-11-14T22:13:20Z"},
        {"-1", "1969-12-31T23:59:59Z"},
        {"0", "1970-01-01T00:00:00Z"},
        {"20000000000", "2603-10-11T11:33:20Z"},
        {"20000000001", "1970-08-20T11:33:20.001000Z"},   // beyond 2e10: milliseconds
        {"-20000000001", "1969-05-14T12:26:39.999000Z"},
        {"99999999999999", "5138-11-16T09:46:39.999000Z"}};
    for (const auto& [text, written] : read) {
        CAPTURE(text);
        CHECK(aware_datetime(text, out, why));
        CHECK(out == written);
    }
    for (const char* refused : {"2024-01-02T03:04:05", "2024-01-02", "2024-01-02T24:00:00Z", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
                                "2024-01-02T03:04:60Z", "2024-01-02T03:04:05+24:00", "2024-01-02T03:04:05.Z", "2024-01-02T03Z",
                                "  2024-01-02T03:04:05Z", "2024-01-02T03:04:05+05", "2024-01-02T03:04:05 Z", "+2024-01-02T03:04:05Z",
                                "2024-1-02T03:04:05Z", "0000-01-01T00:00:00Z", "2024-01-02T03:04:05Z ", "1e9", " 1700000000",
                                "1_700_000_000", "9999999999999999999", "-", ".", "nan", ""}) {
        CAPTURE(refused);
        CHECK_FALSE(aware_datetime(refused, out, why));
    }
    CHECK_FALSE(aware_datetime("1700000000.5", out, why));  // pydantic reads it; refused here, and said so
    CHECK(why.find("fraction") != std::string::npos);
}

TEST_CASE("profiles: a consumer config is read strictly, normalized, and digested with its defaults", "[profile]") {
    // Sediment without a config: ConsumerSettings() dumps {"schema_version": 1, "nemo": null, "tasks": {}}
    CHECK(rows::ConsumerSettings().digest() == hex_sha256(R"({"nemo":null,"schema_version":1,"tasks":{}})"));
    CHECK(rows::ConsumerSettings::parse("{}").digest() == rows::ConsumerSettings().digest());
    const rows::ConsumerSettings s = rows::ConsumerSettings::parse(rows::encode(swe_config({"acme__widgets-7"})));
    REQUIRE(s.task("acme__widgets-7"));
    CHECK(s.task(" acme__widgets-7 ") == nullptr);  // keys are stripped ids
    const Json& t = *s.task("acme__widgets-7");
    CHECK(t["repo"] == "acme/widgets");
    CHECK(t["base_commit"] == "0123456789abcdef0123456789abcdef01234567");
    CHECK(t["created_at"] == "2024-05-06T07:08:09.500000+02:00");
    CHECK(t["version"] == "1.2");
    std::vector<std::string> keys;
    for (const auto& [key, value] : t.items()) keys.push_back(key);
    CHECK(keys == std::vector<std::string>{"repo", "base_commit", "problem_statement", "test_patch", "hints_text", "created_at", "version",
                                           "environment_setup_commit", "FAIL_TO_PASS", "PASS_TO_PASS", "image", "eval_script",
                                           "log_parser", "eval_type"});
    CHECK(s.digest() == hex_sha256(rows::digest_form(s.value())));
    CHECK(s.value()["schema_version"] == 1);
    CHECK(s.value()["nemo"].is_null());
    // refused, at the pointer and with the id of the first error
    const auto refused = [](const std::function<void(Json&)>& edit) {
        Json c = swe_config({"t-1"});
        edit(c);
        try {
            rows::ConsumerSettings::parse(rows::encode(c));
        } catch (const rows::ProfileError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    Json& (*task)(Json&) = [](Json& c) -> Json& { return c["tasks"][" t-1 "]; };
    CHECK(refused([&](Json& c) { task(c)["repo"] = "acme"; }) == "consumer config: /tasks/ t-1 /repo: repo must be \"owner/repo\" [rows.decode.repo_slug]");
    CHECK(refused([&](Json& c) { task(c)["base_commit"] = "abc"; }).find("/tasks/ t-1 /base_commit: ") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["created_at"] = "2024-05-06T07:08:09"; }).find("[rows.decode.aware_datetime]") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["version"] = " \t"; }).find("/tasks/ t-1 /version: version is blank") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["FAIL_TO_PASS"] = Json::array(); }).find("/tasks/ t-1 /FAIL_TO_PASS: ") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["FAIL_TO_PASS"][0] = " "; }).find("/tasks/ t-1 /FAIL_TO_PASS/0: ") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["eval_script"] = ""; }).find("/tasks/ t-1 /eval_script: eval_script is empty") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["hint"] = ""; }).find("/tasks/ t-1 : unknown key 'hint'") != std::string::npos);
    CHECK(refused([&](Json& c) { task(c)["eval_type"] = "pass"; }).find("/tasks/ t-1 /eval_type: ") != std::string::npos);
    CHECK(refused([&](Json& c) { c["tasks"]["  "] = task(c); }).find("/tasks/  : an instance id is blank") != std::string::npos);
    CHECK(refused([](Json& c) { c["schema_version"] = 1.0; }).find("/schema_version: ") != std::string::npos);  // an integer only
    CHECK(refused([](Json& c) { c["schema_version"] = 2; }).find("/schema_version: ") != std::string::npos);
    CHECK(refused([](Json& c) { c["nemo"] = Json{{"parallel_tool_calls", 1}, {"tool_choice", "auto"}, {"tools", Json::array()}}; })
              .find("/nemo/parallel_tool_calls: ") != std::string::npos);
    CHECK(refused([](Json& c) { c["extra"] = 1; }).find("unknown key 'extra'") != std::string::npos);
    CHECK(refused([](Json& c) { c["nemo"] = Json{{"parallel_tool_calls", true}, {"tool_choice", "auto"}, {"tools", Json::array({Json{{"type", "function"}}})}}; }) ==
          "accepted");
}

TEST_CASE("profiles: swe-bench-tasks-v1 binds a task's settings to its row, and refuses as Sediment does", "[profile]") {
    const rows::Profile& p = rows::profile("swe-bench-tasks-v1");
    const rows::ConsumerSettings s = rows::ConsumerSettings::parse(rows::encode(swe_config({"t-1"})));
    const Json canonical = swe_row("t-1", "train");
    const rows::ProfileRow r = rows::adapt_row(p, canonical, rows::Split::train, s);
    const Json data = rows::parse(r.data), evidence = rows::parse(r.evidence);
    Json expected = *s.task("t-1");  // the settings, then the row's instance_id and patch
    expected["instance_id"] = "t-1", expected["patch"] = canonical["patch"];
    CHECK(rows::encode(data) == rows::encode(expected));
    CHECK(r.row_sha256 == rows::row_sha256(data));
    CHECK(r.prompt_sha256 == hex_sha256(R"({"prompt":"Fix task t-1."})"));
    std::vector<std::string> keys;
    for (const auto& [key, value] : evidence.items()) keys.push_back(key);
    CHECK(keys == std::vector<std::string>{"row_sha256", "canonical_schema", "metadata", "source_row_sha256", "prompt_sha256",
                                           "task_configuration_source", "configuration_digest", "captured_first_user_message"});
    CHECK(evidence["source_row_sha256"] == rows::row_sha256(canonical));
    CHECK(evidence["configuration_digest"] == s.digest());
    CHECK(evidence["captured_first_user_message"] == canonical["problem_statement"]);
    CHECK(evidence["metadata"] == canonical["metadata"]);
    CHECK(rows::validate(rows::SchemaId::swe_bench_tasks_v1, r.data).errors.empty());
    CHECK(rows::validate(rows::SchemaId::swe_bench_profile_evidence, r.evidence).errors.empty());
    // the same from the row's text (the file writer's path)
    std::string text = rows::encode(canonical);
    text.reserve(text.size() + rows::kTextPadding);
    const rows::ProfileRow from_text = rows::adapt_row(p, rows::StringText(text), std::nullopt, s);
    CHECK(from_text.data == r.data);
    CHECK(from_text.evidence == r.evidence);

    const auto refusal = [&](const Json& row, const Json& config, rows::Split split = rows::Split::train) {
        try {
            rows::adapt_row(p, row, split, rows::ConsumerSettings::parse(rows::encode(config)));
        } catch (const rows::ProfileError& e) {
            return std::string(e.what());
        }
        return std::string("mapped");
    };
    Json config = swe_config({"t-1"});
    Json& task = config["tasks"][" t-1 "];
    CHECK(refusal(canonical, config) == "mapped");
    CHECK(refusal(swe_row("t-2", "train"), config) == "SWE-bench task configuration missing for t-2");
    CHECK(refusal(swe_row("t-1 ", "train"), config) == "SWE-bench task configuration missing for t-1 ");  // a config's ids are stripped
    CHECK_THROWS_WITH(rows::adapt_row(p, canonical, rows::Split::train), "SWE-bench task configuration missing for t-1");  // no config
    Json other = config;
    other["tasks"][" t-1 "]["repo"] = "acme/gadgets";
    CHECK(refusal(canonical, other) == "SWE-bench task configuration does not match t-1");
    other = config;
    other["tasks"][" t-1 "]["base_commit"] = std::string(40, 'f');
    CHECK(refusal(canonical, other) == "SWE-bench task configuration does not match t-1");
    other = config;
    other["tasks"][" t-1 "]["problem_statement"] = " \n";
    CHECK(refusal(canonical, other) == "SWE-bench requires a repair request");
    other = config;
    other["tasks"][" t-1 "]["PASS_TO_PASS"].push_back(" tests/t.py::test_last_line");  // the same id once stripped
    CHECK(refusal(canonical, other) == "SWE-bench test transitions overlap");
    other = config;
    other["tasks"][" t-1 "]["eval_script"] = "pytest\n";
    CHECK(refusal(canonical, other) == "SWE-bench eval_script requires test-output markers");
    Json bad = canonical;
    bad["metadata"]["recipe_id"] = "rlvr";
    CHECK(refusal(bad, config) == "swe-bench-tasks-v1: invalid canonical row");
    CHECK(refusal(canonical, config, rows::Split::eval) == "swe-bench-tasks-v1: canonical row has unknown or altered fields");
    (void)task;
}

TEST_CASE("verify: SWE-bench folders, and their tampering at file, line and pointer", "[profile]") {
    Folder f;
    std::string rows_text;
    std::vector<std::string> ids;
    for (int i = 0; i < 6; ++i) {
        ids.push_back("acme__widgets-" + std::to_string(i));
        rows_text += rows::encode(swe_row(ids.back(), i % 3 == 2 ? "eval" : "train", "diff " + std::to_string(i) + "\n")) + "\n";
    }
    const fs::path canonical = f.root / "swe-bench.jsonl", config_file = f.root / "config.json";
    write(canonical, rows_text);
    write(config_file, rows::encode(swe_config(ids)));
    rows::ProfileOptions o;
    o.consumer = rows::ConsumerSettings::parse(read(config_file));
    o.fragmented = Json{{"replayed_prefix_missing", 1}};
    const Json manifest = rows::write_profile_files(rows::profile("swe-bench-tasks-v1"), {canonical}, f.out, o);
    CHECK(manifest["rows"] == 6);
    CHECK(manifest["fragmented"] == Json{{"replayed_prefix_missing", 1}});
    CHECK(manifest["skipped"] == Json::object());
    CHECK(manifest["diagnostics"]["rows_by_split"] == Json{{"eval", 2}, {"train", 4}});
    rows::VerifyOptions with;
    with.canonical = {canonical};
    with.consumer = o.consumer;
    REQUIRE(found(verified(f.out)).empty());
    REQUIRE(found(verified(f.out, with)).empty());

    const fs::path train = f.out / "data.train.jsonl", evidence = f.out / "evidence.train.jsonl";
    std::vector<std::string> data = lines(read(train)), ev = lines(read(evidence));
    // (an edited row's digest may put it out of order: that finding is not what these look for)
    const auto found = [](const rows::ProfileVerdict& v) {
        std::vector<std::string> out = ::found(v);
        out.erase(std::remove(out.begin(), out.end(), "data.train.jsonl:3::rows.verify.order"), out.end());
        out.erase(std::remove(out.begin(), out.end(), "data.train.jsonl:2::rows.verify.order"), out.end());
        return out;
    };
    // line 2 edited by `edit`, its row_sha256 and the manifest written again
    const auto forge = [&](const std::function<void(Json&, Json&)>& edit) {
        Json d = rows::parse(data[1]), e = rows::parse(ev[1]);
        edit(d, e);
        e["row_sha256"] = rows::row_sha256(d);
        data[1] = rows::line_form(d), ev[1] = rows::line_form(e);
        write(train, joined(data));
        write(evidence, joined(ev));
        rewrite_manifest(f.out);
    };
    SECTION("the problem statement") {
        forge([](Json& d, Json&) { d["problem_statement"] = "Something else."; });
        CHECK(found(verified(f.out)) == std::vector<std::string>{"evidence.train.jsonl:2:/prompt_sha256:rows.verify.prompt_sha256"});
    }
    SECTION("the patch: the canonical row it maps from is another") {
        forge([](Json& d, Json&) { d["patch"] = "diff --git a/evil.py b/evil.py\n"; });
        CHECK(found(verified(f.out)) == std::vector<std::string>{"evidence.train.jsonl:2:/source_row_sha256:rows.verify.source_row_sha256"});
    }
    SECTION("the captured message and the source digest, both: the canonical files tell") {
        forge([](Json& d, Json& e) {
            e["captured_first_user_message"] = "forged";
            e["source_row_sha256"] = rows::row_sha256(Json{{"instance_id", d["instance_id"]}, {"repo", d["repo"]}, {"base_commit", d["base_commit"]},
                                                          {"problem_statement", "forged"}, {"patch", d["patch"]}, {"metadata", e["metadata"]}});
        });
        CHECK(found(verified(f.out)).empty());  // consistent in itself
        rows::VerifyOptions given;
        given.canonical = {canonical};
        CHECK(found(verified(f.out, given)) == std::vector<std::string>{"evidence.train.jsonl:2:/source_row_sha256:rows.verify.source_row"});
    }
    SECTION("a setting: only the config tells") {
        forge([](Json& d, Json&) { d["created_at"] = "2024-05-06T05:08:09.500000Z"; });
        CHECK(found(verified(f.out)).empty());
        const std::vector<std::string> v = found(verified(f.out, with));
        CHECK(v == std::vector<std::string>{"data.train.jsonl:2:/created_at:rows.verify.mapping", "evidence.train.jsonl:2:/row_sha256:rows.verify.mapping"});
    }
    SECTION("a setting not as Sediment writes it") {
        forge([](Json& d, Json&) { d["repo"] = "Acme/Widgets"; });
        CHECK(has(verified(f.out), "data.train.jsonl:2:/repo:rows.verify.model"));
    }
    SECTION("another config's digest") {
        forge([](Json&, Json& e) { e["configuration_digest"] = std::string(64, '0'); });
        CHECK(found(verified(f.out)) ==
              std::vector<std::string>{"evidence.train.jsonl:2:/configuration_digest:rows.verify.configuration_digest"});
        rows::VerifyOptions config_only;
        config_only.consumer = o.consumer;
        CHECK(found(verified(f.out, config_only)) ==
              std::vector<std::string>{"evidence.train.jsonl:2:/configuration_digest:rows.verify.configuration_digest"});
    }
    SECTION("a manifest without fragmented, or with skipped rows") {
        rewrite_manifest(f.out, [](Json& m) { m.erase("fragmented"); });
        CHECK(found(verified(f.out)) == std::vector<std::string>{"compatibility.json:1::rows.verify.skipped"});
        rewrite_manifest(f.out, [](Json& m) { m["fragmented"] = Json::object(), m["skipped"] = Json{{"missing_reward", 1}}; });
        CHECK(found(verified(f.out)) == std::vector<std::string>{"compatibility.json:1:/skipped:rows.verify.skipped"});
    }
    SECTION("the evidence of the wrong split") {
        forge([](Json&, Json& e) { e["metadata"]["split"] = "eval"; });
        CHECK(has(verified(f.out), "evidence.train.jsonl:2:/metadata/split:rows.verify.split"));
    }
}
