// Test documents: one complete, valid rollout row written by hand (every optional field present,
// every part type, nulls and values), the parts cut from it, and mutations by JSON Pointer.
#pragma once

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sediment/rows.hpp>

#include "detail/text.hpp"  // append_double()

namespace test {

using sediment::rows::Json;
using sediment::rows::SchemaId;

constexpr SchemaId kRollout = SchemaId::nemo_gym_rollout_v2;
constexpr SchemaId kResponse = SchemaId::nemo_gym_response_v2;
constexpr SchemaId kParams = SchemaId::nemo_gym_responses_create_params_v2;
constexpr SchemaId kOutcome = SchemaId::ci_outcome_v1;
// the other published versions
constexpr SchemaId kRolloutV1 = SchemaId::nemo_gym_rollout_v1;
constexpr SchemaId kRolloutV3 = SchemaId::nemo_gym_rollout_v3;
constexpr SchemaId kRolloutV4 = SchemaId::nemo_gym_rollout_v4;
constexpr SchemaId kResponseV1 = SchemaId::nemo_gym_response_v1;
constexpr SchemaId kResponseV3 = SchemaId::nemo_gym_response_v3;
constexpr SchemaId kParamsV1 = SchemaId::nemo_gym_responses_create_params_v1;
constexpr SchemaId kOutcomeV2 = SchemaId::ci_outcome_v2;
constexpr SchemaId kOutcomeV3 = SchemaId::ci_outcome_v3;

inline const char* const kRow = R"({"responses_create_params": {"input": [
  {"role": "system", "parts": [{"type": "text", "content": "You are a careful engineer."}]},
  {"role": "user", "parts": [{"type": "text", "content": "Fix the failing test in parser.cpp \u00e9\ud83d\ude00"}]}]},
 "response": {"turns": [
  {"inference_call_id": "ic_0001",
   "new_messages": [
     {"role": "system", "parts": [{"type": "text", "content": "You are a careful engineer."}]},
     {"role": "user", "parts": [{"type": "text", "content": "Fix the failing test in parser.cpp \u00e9\ud83d\ude00"}]}],
   "completion": "Let me look.\nls src",
   "tool_calls": [{"type": "tool_call", "id": "call_1", "name": "bash", "arguments": {"command": "ls src", "timeout": 30}}],
   "decisions": [{"accepted": true, "explicit": false, "agent_harness": "claude-code", "interaction_mode": "agent", "file_path": ""}]},
  {"inference_call_id": "ic_0002",
   "new_messages": [
     {"role": "assistant", "parts": [
       {"type": "reasoning", "content": "The listing will show the parser."},
       {"type": "text", "content": "Let me look."},
       {"type": "tool_call", "id": "call_1", "name": "bash", "arguments": {"command": "ls src", "timeout": 30}}],
      "finish_reason": "tool_calls"},
     {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "result": {"exit_code": 0, "stdout": "parser.cpp\n", "big": 18446744073709551615, "ratio": 0.1}}]}],
   "completion": "Done.",
   "tool_calls": [],
   "decisions": []}]},
 "reward": 1.0,
 "metadata": {"instance_id": "org_a-sess_b-seg0", "recipe_id": "rlvr_ci", "recipe_version": 1,
  "reward_source": "resolved_ci_pass", "org_id": "org_a", "session_id": "sess_b", "segment_index": 0,
  "verification": {"verification_command": "ctest -R parser"},
  "verifier_results": [{"schema_version": 1, "outcome_id": "out_1", "org_id": "org_a", "provider": "github_actions",
    "run_id": "123", "run_attempt": 1, "repo": "o/r", "commit_sha": "0123456789abcdef0123456789abcdef01234567",
    "branch": "main", "result": "passed", "workflow_name": "CI", "workflow_id": "42", "workflow_path": null,
    "run_url": null, "provider_result": "success", "error_type": null, "reason": null, "source_event_type": null,
    "source_spec_version": null, "source_event_id": null, "pr_number": 7, "captured_at": "2026-11-02T10:00:00Z",
    "raw": {"z": 1, "a": [true, null, "x"]}}],
  "ci_resolution": {"org_id": "org_a", "repo": "o/r", "commit_sha": "0123456789abcdef0123456789abcdef01234567",
   "verdict": "passed", "reliability": 1.0, "suspected_flake": false,
   "workflow_resolutions": [{"provider": "github_actions", "run_id": "123", "workflow_id": "42", "workflow_name": "CI",
     "workflow_path": null, "branch": "main", "verdict": "passed", "reliability": 1.0, "suspected_flake": false,
     "source_outcome_ids": ["out_1"], "verdict_outcome_id": "out_1", "non_verdict_outcome_ids": []}],
   "source_outcome_ids": ["out_1"], "verdict_outcome_ids": ["out_1"], "non_verdict_outcome_ids": [],
   "provenance": {"policy_version": "2026.11.1", "quarantine_revision": 12, "policy_digest": null}},
  "attribution_source": "git_notes", "split": "train",
  "provenance": {"policy_version": "2026.11.1", "quarantine_revision": 12, "policy_digest": null},
  "schema_id": "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v2.json", "schema_version": 2}})";

constexpr SchemaId kAtif = SchemaId::atif_v1_7;
constexpr SchemaId kHarbor = SchemaId::atif;

/// A valid ATIF v1.7 trajectory, written by hand: every object, optional fields absent, null and set.
inline const char* const kTrajectory = R"({"schema_version": "ATIF-v1.7", "session_id": "s-1", "trajectory_id": null,
 "agent": {"name": "coder", "version": "1.0", "model_name": "m-1", "tool_definitions": [{"name": "bash"}], "extra": {"k": [1, 2]}},
 "steps": [
  {"step_id": 1, "timestamp": "2026-08-24T12:00:00Z", "source": "system", "message": "You are a careful engineer."},
  {"step_id": 2, "source": "user", "message": [{"type": "text", "text": "Fix the test."}, {"type": "image", "source": {"media_type": "image/png", "path": "shot.png"}}], "model_name": null, "is_copied_context": false},
  {"step_id": 3, "timestamp": "2026-08-24 12:00:01.1234567", "source": "agent", "model_name": "m-1", "reasoning_effort": "high",
   "message": "Let me look.", "reasoning_content": "The listing shows the parser.",
   "tool_calls": [{"tool_call_id": "call_1", "function_name": "bash", "arguments": {"command": "ls"}}, {"tool_call_id": "call_2", "function_name": "noop", "arguments": {}, "extra": null}],
   "observation": {"results": [{"source_call_id": "call_1", "content": "parser.cpp"}, {"source_call_id": null, "content": [{"type": "text", "text": ""}], "extra": {"tool_result": {"exit": 0}}}, {"subagent_trajectory_ref": [{"trajectory_id": "t-2"}]}]},
   "metrics": {"prompt_tokens": 1180591620717411303424, "completion_tokens": 7, "cached_tokens": 0, "cost_usd": 0.0012, "prompt_token_ids": [1, 2, 0], "completion_token_ids": [], "logprobs": [-0.5, 0, -1e-07], "extra": {}},
   "llm_call_count": 1, "extra": {"note": "x"}},
  {"step_id": 4, "source": "agent", "message": "", "llm_call_count": 0, "tool_calls": [{"tool_call_id": "call_3", "function_name": "bash", "arguments": {"command": "make"}}]}],
 "notes": "hand-written for the tests",
 "final_metrics": {"total_prompt_tokens": 100, "total_completion_tokens": 20, "total_cached_tokens": null, "total_cost_usd": 1, "total_steps": 4, "extra": {"subagents": 1}},
 "continued_trajectory_ref": null, "subagent_trajectories": [], "extra": null})";

/// A valid trajectory under Harbor's model (the `atif` schema), labelled ATIF-v1.8: kTrajectory with
/// typed subagent references and an embedded subagent trajectory labelled ATIF-v1.6, whose own
/// reference names a session and a trajectory file.
inline const char* const kHarborSubagent = R"({"schema_version": "ATIF-v1.6", "session_id": "s-2", "trajectory_id": "sub-1",
 "agent": {"name": "helper", "version": "0.3"},
 "steps": [
  {"step_id": 1, "source": "user", "message": "Find the parser."},
  {"step_id": 2, "source": "agent", "message": "", "reasoning_effort": "low", "llm_call_count": 0,
   "tool_calls": [{"tool_call_id": "c1", "function_name": "grep", "arguments": {"q": "parse"}}],
   "observation": {"results": [{"source_call_id": "c1", "content": "parser.cpp", "subagent_trajectory_ref": [{"session_id": "s-3", "trajectory_path": "s-3.json"}]}]},
   "metrics": null}]})";

inline sediment::rows::Json harbor_trajectory() {
    Json t = sediment::rows::parse(kTrajectory);
    t["steps"][2]["observation"]["results"][2]["subagent_trajectory_ref"] =
        Json::parse(R"([{"trajectory_id": "sub-1", "session_id": "s-2", "trajectory_path": null, "extra": {}}, {"trajectory_path": "trajectories/sub-2.json"}])");
    t["subagent_trajectories"] = Json::array({sediment::rows::parse(kHarborSubagent)});
    t["schema_version"] = "ATIF-v1.8";  // what Harbor writes today
    return t;
}

/// `n` finite doubles from random bit patterns (every exponent, subnormals, both zeros), each with the
/// text append_double() writes for it.
inline std::vector<std::pair<double, std::string>> random_doubles(std::uint64_t seed, int n) {
    std::mt19937_64 random(seed);
    std::vector<std::pair<double, std::string>> out;
    while (static_cast<int>(out.size()) < n) {
        double v;
        const std::uint64_t bits = random();
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) continue;
        std::string text;
        sediment::rows::detail::append_double(text, v);
        out.emplace_back(v, std::move(text));
    }
    return out;
}

/// `object` with `members` inserted after its member `after` (first when `after` is empty), in order.
inline Json insert_after(const Json& object, const std::string& after, const Json& members) {
    Json out = Json::object();
    if (after.empty()) out.update(members);
    for (const auto& kv : object.items()) {
        out[kv.key()] = kv.value();
        if (kv.key() == after) out.update(members);
    }
    return out;
}

/// kRow as rollout version `version` (1 to 4) has it: its schema_id and schema_version, and the members
/// each version adds, with values (observation ids, a repository identity, identified CI outcomes).
inline Json row_of_version(int version) {
    Json row = sediment::rows::parse(kRow);
    Json& m = row["metadata"];
    m["schema_id"] = "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v" + std::to_string(version) + ".json";
    m["schema_version"] = version;
    if (version < 3) return row;
    Json added = Json::object();
    added["session_commit_observation_ids"] = {"5f0c6a3e-2b1d-4c8e-9f7a-1d2e3f405162", "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"};
    if (version >= 4) {
        const Json identity = Json::parse(R"({"provider": "github", "host": "github.com", "repository_id": "101"})");
        added["repository_identity"] = identity;
        m["ci_resolution"] = insert_after(m["ci_resolution"], "provenance", Json{{"repository_identity", identity}});
        for (Json& outcome : m["verifier_results"]) {
            outcome["schema_version"] = 2;
            outcome = insert_after(outcome, "schema_version",
                                   Json::parse(R"({"repository_provider": "github", "repository_host": "github.com", "repository_id": "101"})"));
        }
    }
    m = insert_after(m, "provenance", added);
    return row;
}

/// A valid document of the schema `s` (inside the schema document `root`), built from the schema alone:
/// every property present, the first branch of a union that is not null, one item in an array that may
/// have items, strings that meet their format, integers at their minimum.
inline Json example(const Json& root, const Json& s, int depth = 0) {
    if (depth > 40) return Json();
    if (s.contains("$ref")) return example(root, root["$defs"][s["$ref"].get<std::string>().substr(8)], depth + 1);
    if (s.contains("const")) return s["const"];
    if (s.contains("enum")) return s["enum"][0];
    if (s.contains("anyOf")) {
        for (const Json& branch : s["anyOf"])
            if (branch != Json{{"type", "null"}}) {
                Json merged = branch;  // sibling keywords constrain the branch
                for (const auto& kw : s.items())
                    if (kw.key() != "anyOf" && kw.key() != "description") merged[kw.key()] = kw.value();
                return example(root, merged, depth + 1);
            }
    }
    const std::string type = s.value("type", "");
    if (type == "string" && s.value("pattern", "") == "^[0-9a-f]{64}$") return std::string(64, 'a');  // a SHA-256
    if (type == "string") return s.value("format", "") == "date-time" ? "2026-01-02T03:04:05Z" : "x";
    if (type == "integer") return s.value("minimum", Json(1));
    if (type == "number") return 0.5;
    if (type == "boolean") return true;
    if (type == "array") {
        if (s["items"] == false) return Json::array();
        return Json::array({example(root, s["items"], depth + 1)});
    }
    if (type == "object") {
        Json out = Json::object();
        if (!s.contains("properties")) return Json{{"k", 1}};  // free-form
        for (const auto& p : s["properties"].items()) out[p.key()] = example(root, p.value(), depth + 1);
        return out;
    }
    return "v";  // any value
}

/// A task's settings in a consumer config (swe-task-settings), as an operator may write them: its
/// ids, commits and date-time in forms Sediment's types normalize.
inline Json swe_task_settings() {
    return sediment::rows::parse(R"({"repo": " Acme/Widgets ", "base_commit": "0123456789ABCDEF0123456789abcdef01234567",
      "problem_statement": "The parser drops the last line.", "test_patch": "diff --git a/t.py b/t.py\n", "hints_text": "",
      "created_at": "2024-05-06 07:08:09.5+02:00", "version": " 1.2 ", "environment_setup_commit": "89abcdef0123456789abcdef0123456789abcdef",
      "FAIL_TO_PASS": ["tests/t.py::test_last_line"], "PASS_TO_PASS": ["tests/t.py::test_first_line"], "image": "sweb.eval.acme",
      "eval_script": "#!/bin/bash\necho '>>>>> Start Test Output'\npytest\necho '>>>>> End Test Output'\n",
      "log_parser": "pytest", "eval_type": "pass_and_fail"})");
}

/// The valid base document of each bundled schema: hand-written for the rollout rows, their parts and
/// ATIF; built from the schema for the other families. (Built once per schema: base_of() below.)
inline Json build_base(SchemaId schema) {
    switch (schema) {
        case SchemaId::nemo_gym_rollout_v1: return row_of_version(1);
        case SchemaId::nemo_gym_rollout_v2: return row_of_version(2);
        case SchemaId::nemo_gym_rollout_v3: return row_of_version(3);
        case SchemaId::nemo_gym_rollout_v4: return row_of_version(4);
        case SchemaId::nemo_gym_response_v1: return row_of_version(1)["response"];
        case SchemaId::nemo_gym_response_v2: return row_of_version(2)["response"];
        case SchemaId::nemo_gym_response_v3: return row_of_version(3)["response"];
        case SchemaId::nemo_gym_responses_create_params_v1: return row_of_version(1)["responses_create_params"];
        case SchemaId::nemo_gym_responses_create_params_v2: return row_of_version(3)["responses_create_params"];
        case SchemaId::ci_outcome_v1: return row_of_version(2)["metadata"]["verifier_results"][0];
        case SchemaId::ci_outcome_v2: return row_of_version(3)["metadata"]["verifier_results"][0];
        case SchemaId::ci_outcome_v3: return row_of_version(4)["metadata"]["verifier_results"][0];
        case SchemaId::atif_v1_7: return sediment::rows::parse(kTrajectory);
        case SchemaId::atif: return harbor_trajectory();
        case SchemaId::profile_manifest:  // its maps' values are checked in code: a file's entry, a dependency pair
            return sediment::rows::parse(R"({"profile": {"id": "hf-trl-sft-v1", "consumer": "hf-trl", "objective": "sft",
              "profile_version": 1, "canonical_schema": "https://sediment.so/schemas/training-rows/sft-sample/v3.json",
              "dependencies": [["datasets", "5.0.1"]], "validation": "v", "support": "loader"}, "rows": 1, "skipped": {},
              "canonical_skipped": {"below_confidence_floor": 2},
              "files": {"data.jsonl": {"sha256": "0000000000000000000000000000000000000000000000000000000000000000", "bytes": 10}},
              "training_execution": "not_run", "tool_definitions": "not_inferred",
              "diagnostics": {"rows_by_split": {"train": 1}, "reward_counts": {}, "exact_prompt_overlap": 0,
              "semantic_task_overlap": "not_assessed"}})");
        case SchemaId::swe_task_settings: return swe_task_settings();
        case SchemaId::consumer_config:  // its tasks are checked in code
            return Json{{"schema_version", 1}, {"nemo", nullptr}, {"tasks", Json{{"acme__widgets-7", swe_task_settings()}}}};
        case SchemaId::swe_bench_tasks_v1: {  // the settings as Sediment writes them, then the row's two
            Json row = swe_task_settings();
            row["repo"] = "acme/widgets", row["base_commit"] = "0123456789abcdef0123456789abcdef01234567";
            row["created_at"] = "2024-05-06T07:08:09.500000+02:00", row["version"] = "1.2";
            row["instance_id"] = "acme__widgets-7", row["patch"] = "diff --git a/p.py b/p.py\n";
            return row;
        }
        case SchemaId::nemo_gym_rollouts_v1:  // a message's id and content follow its role (checked in code)
            return sediment::rows::parse(R"({"responses_create_params": {"input": [{"type": "message", "role": "user", "content": "Fix it."}],
              "parallel_tool_calls": false, "tool_choice": "auto", "tools": [{"type": "function", "name": "bash"}]},
              "response": {"id": "i-1", "created_at": 1700000000.25, "model": "m-1", "object": "response",
              "output": [{"type": "reasoning", "id": "c1-output-0-0", "summary": [{"type": "summary_text", "text": "Look."}]},
              {"type": "function_call", "id": "c1-output-0-1", "call_id": "t1", "name": "bash", "arguments": "{\"cmd\":\"ls\"}"},
              {"type": "function_call_output", "call_id": "t1", "output": "a.py"},
              {"type": "message", "id": "c2-output-0-0", "role": "assistant", "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}],
              "parallel_tool_calls": false, "tool_choice": "auto", "tools": [{"type": "function", "name": "bash"}]}, "reward": 1.0})");
        case SchemaId::nemo_gym_profile_evidence: {  // its native messages are checked in code
            const Json root = Json::parse(sediment::rows::schema_text(schema));
            Json out = example(root, root);
            out["metadata"] = row_of_version(4)["metadata"];
            out["native_output_messages"] = sediment::rows::parse(R"([[{"role": "assistant", "parts": [{"type": "reasoning", "content": "Look."},
              {"type": "tool_call", "id": "t1", "name": "bash", "arguments": {"cmd": "ls"}}], "finish_reason": "tool_calls"}],
              [{"role": "assistant", "parts": [{"type": "text", "content": "Done."}], "finish_reason": null}]])");
            return out;
        }
        default: {
            const Json root = Json::parse(sediment::rows::schema_text(schema));
            return example(root, root);
        }
    }
}

/// build_base(schema), built on first use and kept: tests mutate it hundreds of times per schema.
inline const Json& base_of(SchemaId schema) {
    static std::map<SchemaId, Json> built;
    auto it = built.find(schema);
    if (it == built.end()) it = built.emplace(schema, build_base(schema)).first;
    return it->second;
}

/// A copy of the valid base document of `schema`, to change.
inline Json base(SchemaId schema) { return base_of(schema); }

/// One change to a document: set `pointer` to the JSON text `value`, or remove it when value is empty.
struct Change {
    std::string pointer;
    std::string value;
};

/// The JSON text of `doc` after the change. Values go in as raw text, so that `3.0`, `3e0` and
/// `9223372036854775808` reach the decoder exactly as written.
inline std::string mutate(Json doc, const Change& change) {
    const Json::json_pointer ptr(change.pointer);
    if (change.value.empty()) {
        doc.at(ptr.parent_pointer()).erase(ptr.back());
        return sediment::rows::encode(doc);
    }
    const std::string marker = "\"@@raw-value@@\"";
    doc[ptr] = "@@raw-value@@";
    std::string text = sediment::rows::encode(doc);
    text.replace(text.find(marker), marker.size(), change.value);
    return text;
}

inline std::string mutate(SchemaId schema, const Change& change) { return mutate(base_of(schema), change); }

/// row_of_version(v) (a faithful row of one segment) with the members of `edits` set (JSON text) or
/// removed (""), by pointer.
inline std::string edited_row(int version, const std::vector<Change>& edits = {}) {
    Json doc = row_of_version(version);
    for (const Change& e : edits) doc = sediment::rows::parse(mutate(doc, e));
    return sediment::rows::encode(doc);
}

// valijson reports an unknown key at the key and an anyOf failure at the part; the typed decoder at
// the object and at the failing member. valijson also repeats each failure on every enclosing
// object, so only its deepest errors count: one of them must contain, or lie inside, the typed one.
inline bool same_place(const std::string& typed, const std::vector<sediment::rows::Error>& schema_errors) {
    const auto inside = [](const std::string& p, const std::string& outer) { return p.rfind(outer + "/", 0) == 0; };
    for (const sediment::rows::Error& e : schema_errors) {
        bool deepest = true;
        for (const sediment::rows::Error& other : schema_errors) deepest = deepest && !inside(other.pointer, e.pointer);
        if (deepest && (e.pointer == typed || inside(e.pointer, typed) || inside(typed, e.pointer))) return true;
    }
    return false;
}

}  // namespace test
