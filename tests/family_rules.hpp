// One case per trap of Sediment's other families (spec/family/README.md): the trainer messages' untagged
// union, `"items": false`, nullable vs optional, consts, enums, bounds, date-times and the id pattern.
// Each changes the family's base document (test::base, built from the schema) and gives the typed
// decoder's verdict; rules.hpp appends them to rule_cases(), so every rule test runs them too (both
// engines, the fast path, python-jsonschema).
#pragma once

#include <vector>

#include "rules.hpp"

namespace test {

constexpr SchemaId kSft = SchemaId::sft_sample_v3;
constexpr SchemaId kSftV1 = SchemaId::sft_sample_v1;
constexpr SchemaId kDpo = SchemaId::dpo_pair_v4;
constexpr SchemaId kDiffSft = SchemaId::diff_sft_sample_v3;
constexpr SchemaId kRecovery = SchemaId::recovery_row_v3;
constexpr SchemaId kSweBench = SchemaId::swe_bench_task_v3;
constexpr SchemaId kRlvrTask = SchemaId::sediment_rlvr_task_v3;
constexpr SchemaId kRlvrRollout = SchemaId::sediment_rlvr_rollout_v4;
constexpr SchemaId kRlvrRolloutV1 = SchemaId::sediment_rlvr_rollout_v1;
constexpr SchemaId kToolMessage = SchemaId::trainer_messages_tool_message_v1;

#define TOOL_CALL "/completion/0/tool_calls/0"
#define SWE_CIO "/metadata/verifier_results/0"

inline std::vector<RuleCase> family_cases() {
    return {
        // the trainer messages: one anyOf, selected by role and by which keys are there, in which order
        {"trainer: a system prompt message", kSft, {"/prompt/0/role", "\"system\""}, "", ""},
        {"trainer: a prompt message of role tool is a tool message", kSft, {"/prompt/0/role", "\"tool\""}, "rows.decode.missing_key", "/prompt/0"},
        {"trainer: a role no message has", kSft, {"/prompt/0/role", "\"robot\""}, "rows.decode.enum", "/prompt/0/role"},
        {"trainer: a prompt may hold a tool message", kSft, {"/prompt/0", R"({"role": "tool", "name": "Read", "tool_call_id": "c1", "content": "x"})"}, "", ""},
        {"trainer: a prompt may hold an assistant message", kSft, {"/prompt/0", R"({"role": "assistant", "tool_calls": []})"}, "", ""},
        {"trainer: assistant thinking only", kSft, {"/completion/0", R"({"role": "assistant", "thinking": "t"})"}, "", ""},
        {"trainer: assistant tool calls only", kSft, {"/completion/0", R"({"role": "assistant", "tool_calls": []})"}, "", ""},
        {"trainer: assistant thinking before content", kSft, {"/completion/0", R"({"role": "assistant", "thinking": "t", "content": "c"})"}, "", ""},
        {"trainer: assistant with nothing to say", kSft, {"/completion/0", R"({"role": "assistant"})"}, "rows.decode.missing_key", "/completion/0"},
        {"trainer: a completion of role user", kSft, {"/completion/0", R"({"role": "user", "content": "x"})"}, "rows.decode.const", "/completion/0/role"},
        {"trainer: a completion tool message", kDpo, {"/rejected/0", R"({"role": "tool", "name": "n", "tool_call_id": "c", "content": "x"})"}, "rows.decode.const", "/rejected/0/role"},
        {"trainer: assistant unknown key", kSft, {"/completion/0/name", "\"x\""}, "rows.decode.unknown_key", "/completion/0"},
        {"trainer: thinking optional, never null", kSft, {"/completion/0/thinking", "null"}, "rows.decode.type", "/completion/0/thinking"},
        {"trainer: content not a string", kSft, {"/prompt/0/content", "[]"}, "rows.decode.type", "/prompt/0/content"},
        {"trainer: message not an object", kSft, {"/completion/0", "\"hi\""}, "rows.decode.type", "/completion/0"},
        {"trainer: tool call type const", kSft, {TOOL_CALL "/type", "\"tool\""}, "rows.decode.const", TOOL_CALL "/type"},
        {"trainer: arguments any object", kSft, {TOOL_CALL "/function/arguments", R"({"deep": [1, {"x": null}]})"}, "", ""},
        {"trainer: arguments not an object", kSft, {TOOL_CALL "/function/arguments", "[]"}, "rows.decode.type", TOOL_CALL "/function/arguments"},
        {"trainer: tool message part missing tool_call_id", kToolMessage, {"/tool_call_id", ""}, "rows.decode.missing_key", ""},
        // "items": false: only []
        {"tools: an item", kSft, {"/tools", "[{}]"}, "rows.decode.no_items", "/tools/0"},
        {"tools: a string item", kDpo, {"/tools", "[\"Read\"]"}, "rows.decode.no_items", "/tools/0"},
        {"tools: not an array", kDiffSft, {"/tools", "{}"}, "rows.decode.type", "/tools"},
        // SFT metadata: nullable vs optional, consts, enums, the pattern
        {"sft: repository_identity null", kSft, {"/metadata/repository_identity", "null"}, "", ""},
        {"sft: repository_identity missing", kSft, {"/metadata/repository_identity", ""}, "rows.decode.missing_key", "/metadata"},
        {"sft: repository provider const", kSft, {"/metadata/repository_identity/provider", "\"gitlab\""}, "rows.decode.const", "/metadata/repository_identity/provider"},
        {"sft: attribution_source null", kSft, {"/metadata/attribution_source", "null"}, "", ""},
        {"sft: attribution_source enum", kSft, {"/metadata/attribution_source", "\"manual\""}, "rows.decode.enum", "/metadata/attribution_source"},
        {"sft: observation id with U+0000", kSft, {"/metadata/session_commit_observation_ids/0", R"("a\u0000")"}, "rows.decode.pattern", "/metadata/session_commit_observation_ids/0"},
        {"sft: completion_id has no pattern", kSft, {"/metadata/completion_id", R"("a\u0000")"}, "", ""},
        {"sft: schema_version const", kSft, {"/metadata/schema_version", "2"}, "rows.decode.const", "/metadata/schema_version"},
        {"sft: recipe_id enum", kSft, {"/metadata/recipe_id", "\"dpo_human\""}, "rows.decode.enum", "/metadata/recipe_id"},
        {"sft: quarantine_revision an integer", kSft, {"/metadata/provenance/quarantine_revision", "1.5"}, "rows.decode.integer", "/metadata/provenance/quarantine_revision"},
        {"sft: label_confidence a number", kSft, {"/metadata/label_confidence", "\"high\""}, "rows.decode.type", "/metadata/label_confidence"},
        {"sft v1: attribution_source unknown", kSftV1, {"/metadata/attribution_source", "null"}, "rows.decode.unknown_key", "/metadata"},
        // DPO
        {"dpo: recipe_version const 2", kDpo, {"/metadata/recipe_version", "1"}, "rows.decode.const", "/metadata/recipe_version"},
        {"dpo: chosen label source enum", kDpo, {"/metadata/chosen_label_source", "\"explicit_reject\""}, "rows.decode.enum", "/metadata/chosen_label_source"},
        {"dpo: provenance unknown key", kDpo, {"/metadata/provenance/chosen/x", "1"}, "rows.decode.unknown_key", "/metadata/provenance/chosen"},
        {"dpo: rejected identity null", kDpo, {"/metadata/rejected_repository_identity", "null"}, "", ""},
        {"dpo: observation ids not an array", kDpo, {"/metadata/chosen_session_commit_observation_ids", "\"a\""}, "rows.decode.type", "/metadata/chosen_session_commit_observation_ids"},
        // diff-SFT
        {"diff-sft: attribution_sources item null", kDiffSft, {"/metadata/attribution_sources/0", "null"}, "rows.decode.type", "/metadata/attribution_sources/0"},
        {"diff-sft: source ids unknown key", kDiffSft, {"/metadata/source_ids/x", "1"}, "rows.decode.unknown_key", "/metadata/source_ids"},
        {"diff-sft: observation id with U+0000", kDiffSft, {"/metadata/source_ids/session_commit_observation_ids/0", R"("\u0000")"}, "rows.decode.pattern", "/metadata/source_ids/session_commit_observation_ids/0"},
        // recovery
        {"recovery: evidence session_id with U+0000", kRecovery, {"/failed_attribution_evidence/0/session_id", R"("s\u0000")"}, "rows.decode.pattern", "/failed_attribution_evidence/0/session_id"},
        {"recovery: evidence source enum", kRecovery, {"/fixed_attribution_evidence/0/attribution_sources/0", "\"manual\""}, "rows.decode.enum", "/fixed_attribution_evidence/0/attribution_sources/0"},
        {"recovery: repo has no pattern", kRecovery, {"/repo", R"("o/r\u0000")"}, "", ""},
        {"recovery: evidence missing", kRecovery, {"/fixed_attribution_evidence", ""}, "rows.decode.missing_key", ""},
        // SWE-bench
        {"swe-bench: reward_source const", kSweBench, {"/metadata/reward_source", "\"resolved_ci_fail\""}, "rows.decode.const", "/metadata/reward_source"},
        {"swe-bench: verification optional", kSweBench, {"/metadata/verification", ""}, "", ""},
        {"swe-bench: verification never null", kSweBench, {"/metadata/verification", "null"}, "rows.decode.type", "/metadata/verification"},
        {"swe-bench: instance_id with U+0000", kSweBench, {"/instance_id", R"("i\u0000")"}, "rows.decode.pattern", "/instance_id"},
        {"swe-bench: captured_at February 30", kSweBench, {SWE_CIO "/captured_at", "\"2026-02-30T00:00:00Z\""}, "rows.decode.format", SWE_CIO "/captured_at"},
        {"swe-bench: CI schema_version 2", kSweBench, {SWE_CIO "/schema_version", "2"}, "", ""},
        {"swe-bench: CI schema_version 3", kSweBench, {SWE_CIO "/schema_version", "3"}, "rows.decode.enum", SWE_CIO "/schema_version"},
        {"swe-bench: run_attempt 0", kSweBench, {SWE_CIO "/run_attempt", "0"}, "rows.decode.range", SWE_CIO "/run_attempt"},
        {"swe-bench: reason over 4096", kSweBench, {SWE_CIO "/reason", "\"" + std::string(4097, 'r') + "\""}, "rows.decode.max_length", SWE_CIO "/reason"},
        // Sediment's RLVR tasks and rollouts
        {"rlvr task: reward_source required", kRlvrTask, {"/reward_source", ""}, "rows.decode.missing_key", ""},
        {"rlvr task: verification optional", kRlvrTask, {"/verification", ""}, "", ""},
        {"rlvr rollout: reward_source optional", kRlvrRollout, {"/reward_source", ""}, "", ""},
        {"rlvr rollout: ci_resolution optional", kRlvrRollout, {"/ci_resolution", ""}, "", ""},
        {"rlvr rollout: ci_resolution never null", kRlvrRollout, {"/ci_resolution", "null"}, "rows.decode.type", "/ci_resolution"},
        {"rlvr rollout: tool call id with U+0000", kRlvrRollout, {"/turns/0/tool_calls/0/id", R"("c\u0000")"}, "rows.decode.pattern", "/turns/0/tool_calls/0/id"},
        {"rlvr rollout: finish_reason optional", kRlvrRollout, {"/turns/0/new_messages/0/finish_reason", ""}, "", ""},
        {"rlvr rollout: a cursor decision", kRlvrRollout, {"/turns/0/decisions/0/agent_harness", "\"cursor\""}, "", ""},
        {"rlvr rollout v1: no cursor", kRlvrRolloutV1, {"/turns/0/decisions/0/agent_harness", "\"cursor\""}, "rows.decode.enum", "/turns/0/decisions/0/agent_harness"},
    };
}

#undef TOOL_CALL
#undef SWE_CIO

}  // namespace test
