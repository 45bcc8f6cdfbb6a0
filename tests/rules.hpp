// One case per rule of the bundled schemas: a change to a valid base document, and the verdict the
// typed decoder must give (no error, or the first error's id and JSON Pointer). The decode tests
// assert these; the differential test runs valijson over the same documents.
#pragma once

#include <string>
#include <vector>

#include "support.hpp"

namespace test {

struct RuleCase {
    std::string rule;
    SchemaId schema;
    Change change;
    const char* id;       // "" when the document stays valid
    const char* pointer;  // of the first error
};

}  // namespace test

#include "family_rules.hpp"

namespace test {

#define TURN0 "/response/turns/0"
#define TURN1 "/response/turns/1"
#define CIO "/metadata/verifier_results/0"
#define CIR "/metadata/ci_resolution"

inline const std::vector<RuleCase>& rule_cases() {
    static std::vector<RuleCase> cases = {
        // unknown keys, at every level: the error is on the object
        {"unknown key: root", kRollout, {"/debug", "1"}, "rows.decode.unknown_key", ""},
        {"unknown key: create params", kRollout, {"/responses_create_params/x", "1"}, "rows.decode.unknown_key", "/responses_create_params"},
        {"unknown key: message", kRollout, {"/responses_create_params/input/0/name", "\"x\""}, "rows.decode.unknown_key", "/responses_create_params/input/0"},
        {"unknown key: text part", kRollout, {TURN0 "/new_messages/0/parts/0/id", "\"x\""}, "rows.decode.unknown_key", TURN0 "/new_messages/0/parts/0"},
        {"unknown key: tool call", kRollout, {TURN0 "/tool_calls/0/index", "0"}, "rows.decode.unknown_key", TURN0 "/tool_calls/0"},
        {"unknown key: tool response", kRollout, {TURN1 "/new_messages/1/parts/0/is_error", "false"}, "rows.decode.unknown_key", TURN1 "/new_messages/1/parts/0"},
        {"unknown key: turn", kRollout, {TURN0 "/logprobs", "[]"}, "rows.decode.unknown_key", TURN0},
        {"unknown key: decision", kRollout, {TURN0 "/decisions/0/why", "\"\""}, "rows.decode.unknown_key", TURN0 "/decisions/0"},
        {"unknown key: metadata", kRollout, {"/metadata/debug", "true"}, "rows.decode.unknown_key", "/metadata"},
        {"unknown key: verification", kRollout, {"/metadata/verification/env", "{}"}, "rows.decode.unknown_key", "/metadata/verification"},
        {"unknown key: CI outcome", kRollout, {CIO "/extra", "null"}, "rows.decode.unknown_key", CIO},
        {"unknown key: CI resolution", kRollout, {CIR "/extra", "null"}, "rows.decode.unknown_key", CIR},
        {"unknown key: workflow resolution", kRollout, {CIR "/workflow_resolutions/0/x", "1"}, "rows.decode.unknown_key", CIR "/workflow_resolutions/0"},
        {"unknown key: provenance", kRollout, {"/metadata/provenance/x", "1"}, "rows.decode.unknown_key", "/metadata/provenance"},
        {"unknown key: response root", kResponse, {"/x", "1"}, "rows.decode.unknown_key", ""},
        {"unknown key: CI outcome root", kOutcome, {"/x", "1"}, "rows.decode.unknown_key", ""},
        {"free-form objects take any key", kRollout, {TURN0 "/tool_calls/0/arguments/anything", "{\"deep\": [1]}"}, "", ""},

        // missing required keys: the error is on the object
        {"missing key: response", kRollout, {"/response", ""}, "rows.decode.missing_key", ""},
        {"missing key: instance_id", kRollout, {"/metadata/instance_id", ""}, "rows.decode.missing_key", "/metadata"},
        {"missing key: const recipe_id", kRollout, {"/metadata/recipe_id", ""}, "rows.decode.missing_key", "/metadata"},
        {"missing key: nullable workflow_id", kRollout, {CIO "/workflow_id", ""}, "rows.decode.missing_key", CIO},
        {"missing key: nullable verdict", kRollout, {CIR "/verdict", ""}, "rows.decode.missing_key", CIR},
        {"missing key: part content", kRollout, {TURN1 "/new_messages/0/parts/0/content", ""}, "rows.decode.missing_key", TURN1 "/new_messages/0/parts/0"},
        {"missing key: any-JSON result", kRollout, {TURN1 "/new_messages/1/parts/0/result", ""}, "rows.decode.missing_key", TURN1 "/new_messages/1/parts/0"},
        {"missing key: CI outcome raw", kOutcome, {"/raw", ""}, "rows.decode.missing_key", ""},

        // optional, never null: absent is fine, null is not
        {"optional absent: reward", kRollout, {"/reward", ""}, "", ""},
        {"optional absent: reward_source", kRollout, {"/metadata/reward_source", ""}, "", ""},
        {"optional absent: verification", kRollout, {"/metadata/verification", ""}, "", ""},
        {"optional absent: ci_resolution", kRollout, {"/metadata/ci_resolution", ""}, "", ""},
        {"optional absent: finish_reason", kRollout, {TURN1 "/new_messages/0/finish_reason", ""}, "", ""},
        {"optional null: reward", kRollout, {"/reward", "null"}, "rows.decode.type", "/reward"},
        {"optional null: reward_source", kRollout, {"/metadata/reward_source", "null"}, "rows.decode.type", "/metadata/reward_source"},
        {"optional null: verification", kRollout, {"/metadata/verification", "null"}, "rows.decode.type", "/metadata/verification"},
        {"optional null: ci_resolution", kRollout, {"/metadata/ci_resolution", "null"}, "rows.decode.type", "/metadata/ci_resolution"},
        {"optional null: finish_reason", kRollout, {TURN1 "/new_messages/0/finish_reason", "null"}, "rows.decode.type", TURN1 "/new_messages/0/finish_reason"},

        // required and nullable: null is a value
        {"nullable: workflow_id null", kRollout, {CIO "/workflow_id", "null"}, "", ""},
        {"nullable: run_attempt null", kRollout, {CIO "/run_attempt", "null"}, "", ""},
        {"nullable: pr_number null", kRollout, {CIO "/pr_number", "null"}, "", ""},
        {"nullable: verdict null", kRollout, {CIR "/verdict", "null"}, "", ""},
        {"nullable: reliability null", kRollout, {CIR "/reliability", "null"}, "", ""},
        {"nullable: policy_digest string", kRollout, {"/metadata/provenance/policy_digest", "\"abc\""}, "", ""},
        {"nullable: wrong type", kRollout, {CIO "/workflow_id", "42"}, "rows.decode.type", CIO "/workflow_id"},

        // wrong types and null where not allowed
        {"type: string", kRollout, {"/metadata/session_id", "1"}, "rows.decode.type", "/metadata/session_id"},
        {"type: string not null", kRollout, {"/metadata/session_id", "null"}, "rows.decode.type", "/metadata/session_id"},
        {"type: integer", kRollout, {"/metadata/segment_index", "\"3\""}, "rows.decode.type", "/metadata/segment_index"},
        {"type: integer not boolean", kRollout, {"/metadata/segment_index", "true"}, "rows.decode.type", "/metadata/segment_index"},
        {"type: number", kRollout, {"/reward", "\"1\""}, "rows.decode.type", "/reward"},
        {"type: boolean", kRollout, {TURN0 "/decisions/0/accepted", "1"}, "rows.decode.type", TURN0 "/decisions/0/accepted"},
        {"type: array", kRollout, {TURN0 "/tool_calls", "{}"}, "rows.decode.type", TURN0 "/tool_calls"},
        {"type: array items", kRollout, {CIR "/source_outcome_ids/0", "1"}, "rows.decode.type", CIR "/source_outcome_ids/0"},
        {"type: object", kRollout, {"/metadata/provenance", "[]"}, "rows.decode.type", "/metadata/provenance"},
        {"type: free-form object", kRollout, {TURN0 "/tool_calls/0/arguments", "[]"}, "rows.decode.type", TURN0 "/tool_calls/0/arguments"},
        {"type: free-form object not null", kOutcome, {"/raw", "null"}, "rows.decode.type", "/raw"},
        {"type: root", kRollout, {"", "[]"}, "rows.decode.type", ""},
        {"any JSON: result null", kRollout, {TURN1 "/new_messages/1/parts/0/result", "null"}, "", ""},
        {"any JSON: result string", kRollout, {TURN1 "/new_messages/1/parts/0/result", "\"ok\""}, "", ""},
        {"any JSON: result array", kRollout, {TURN1 "/new_messages/1/parts/0/result", "[1, {\"b\": 2, \"a\": 1}]"}, "", ""},
        {"number: integer reward", kRollout, {"/reward", "0"}, "", ""},
        {"number: negative reward", kRollout, {"/reward", "-1.0"}, "", ""},
        {"number: large reward", kRollout, {"/reward", "1.5e300"}, "", ""},

        // const
        {"const: recipe_id", kRollout, {"/metadata/recipe_id", "\"rlvr\""}, "rows.decode.const", "/metadata/recipe_id"},
        {"const: recipe_version", kRollout, {"/metadata/recipe_version", "2"}, "rows.decode.const", "/metadata/recipe_version"},
        {"const: recipe_version 1.0", kRollout, {"/metadata/recipe_version", "1.0"}, "", ""},
        {"const: recipe_version 1.5", kRollout, {"/metadata/recipe_version", "1.5"}, "rows.decode.integer", "/metadata/recipe_version"},
        {"const: recipe_version string", kRollout, {"/metadata/recipe_version", "\"1\""}, "rows.decode.type", "/metadata/recipe_version"},
        {"const: schema_id", kRollout, {"/metadata/schema_id", "\"https://sediment.so/schemas/training-rows/nemo-gym-rollout/v1.json\""}, "rows.decode.other_version", "/metadata/schema_id"},
        {"const: schema_version", kRollout, {"/metadata/schema_version", "3"}, "rows.decode.const", "/metadata/schema_version"},
        {"const: CI outcome schema_version", kOutcome, {"/schema_version", "2"}, "rows.decode.const", "/schema_version"},

        // enums
        {"enum: split", kRollout, {"/metadata/split", "\"test\""}, "rows.decode.enum", "/metadata/split"},
        {"enum: case matters", kRollout, {"/metadata/split", "\"Train\""}, "rows.decode.enum", "/metadata/split"},
        {"enum: attribution_source", kRollout, {"/metadata/attribution_source", "\"manual\""}, "rows.decode.enum", "/metadata/attribution_source"},
        {"enum: reward_source", kRollout, {"/metadata/reward_source", "\"resolved_ci_flake\""}, "rows.decode.enum", "/metadata/reward_source"},
        {"enum: agent_harness", kRollout, {TURN0 "/decisions/0/agent_harness", "\"claude_code\""}, "rows.decode.enum", TURN0 "/decisions/0/agent_harness"},
        {"enum: agent_harness cursor", kRollout, {TURN0 "/decisions/0/agent_harness", "\"cursor\""}, "", ""},
        {"enum: interaction_mode", kRollout, {TURN0 "/decisions/0/interaction_mode", "\"chat\""}, "rows.decode.enum", TURN0 "/decisions/0/interaction_mode"},
        {"enum: provider", kOutcome, {"/provider", "\"travis\""}, "rows.decode.enum", "/provider"},
        {"enum: result", kOutcome, {"/result", "\"success\""}, "rows.decode.enum", "/result"},
        {"enum: nullable verdict", kRollout, {CIR "/verdict", "\"ok\""}, "rows.decode.enum", CIR "/verdict"},
        {"enum: verdict timed_out", kRollout, {CIR "/workflow_resolutions/0/verdict", "\"timed_out\""}, "", ""},

        // integers: bounds, fractions, 64-bit range
        {"integer: run_attempt minimum", kOutcome, {"/run_attempt", "0"}, "rows.decode.range", "/run_attempt"},
        {"integer: run_attempt negative", kOutcome, {"/run_attempt", "-1"}, "rows.decode.range", "/run_attempt"},
        {"integer: run_attempt maximum", kOutcome, {"/run_attempt", "9223372036854775807"}, "", ""},
        {"integer: run_attempt above maximum", kOutcome, {"/run_attempt", "9223372036854775808"}, "rows.decode.range", "/run_attempt"},
        {"integer: pr_number above maximum", kRollout, {CIO "/pr_number", "9223372036854775808"}, "rows.decode.range", CIO "/pr_number"},
        {"integer: pr_number far above maximum", kOutcome, {"/pr_number", "18446744073709551615"}, "rows.decode.range", "/pr_number"},
        {"integer: pr_number 1.0", kOutcome, {"/pr_number", "1.0"}, "", ""},
        {"integer: pr_number 1e0", kOutcome, {"/pr_number", "1e0"}, "", ""},
        {"integer: pr_number 0.0", kOutcome, {"/pr_number", "0.0"}, "rows.decode.range", "/pr_number"},
        {"integer: 3.5", kRollout, {"/metadata/segment_index", "3.5"}, "rows.decode.integer", "/metadata/segment_index"},
        {"integer: 3.0", kRollout, {"/metadata/segment_index", "3.0"}, "", ""},
        {"integer: 30e-1", kRollout, {"/metadata/segment_index", "30e-1"}, "", ""},
        {"integer: negative unbounded", kRollout, {"/metadata/segment_index", "-9223372036854775808"}, "", ""},
        {"integer: beyond 64 bits", kRollout, {"/metadata/segment_index", "9223372036854775808"}, "rows.decode.range", "/metadata/segment_index"},
        {"integer: 2^70", kRollout, {"/metadata/segment_index", "1180591620717411303424"}, "rows.decode.range", "/metadata/segment_index"},
        {"number: 2^70", kRollout, {"/reward", "-1180591620717411303424"}, "rows.decode.range", "/reward"},
        {"free-form: 2^70", kRollout, {CIO "/raw/a/0", "1180591620717411303424"}, "", ""},
        {"integer: 1e18", kRollout, {"/metadata/provenance/quarantine_revision", "1e18"}, "", ""},
        {"integer: 2^63 as a float", kRollout, {"/metadata/provenance/quarantine_revision", "9223372036854775807.0"}, "rows.decode.range", "/metadata/provenance/quarantine_revision"},

        // maxLength counts code points
        {"maxLength: 4096 ASCII", kOutcome, {"/reason", "\"" + std::string(4096, 'a') + "\""}, "", ""},
        {"maxLength: 4097 ASCII", kOutcome, {"/reason", "\"" + std::string(4097, 'a') + "\""}, "rows.decode.max_length", "/reason"},
        {"maxLength: 4096 emoji", kOutcome, {"/reason", [] {
             std::string s = "\"";
             for (int i = 0; i < 4096; ++i) s += "\xF0\x9F\x98\x80";
             return s + "\"";
         }()}, "", ""},
        {"maxLength: 4097 escaped emoji", kRollout, {CIO "/reason", [] {
             std::string s = "\"";
             for (int i = 0; i < 4097; ++i) s += "\\ud83d\\ude00";
             return s + "\"";
         }()}, "rows.decode.max_length", CIO "/reason"},

        // pattern: create-params tool-call ids, in that schema only
        {"pattern: create-params tool-call id with U+0000", kParams, {"/input/0/parts/0", R"({"type": "tool_call", "id": "call\u0000", "name": "bash", "arguments": {}})"}, "rows.decode.pattern", "/input/0/parts/0/id"},
        {"pattern: create-params tool-response id with U+0000", kParams, {"/input/1/parts/0", R"({"type": "tool_call_response", "id": "\u0000", "result": 1})"}, "rows.decode.pattern", "/input/1/parts/0/id"},
        {"pattern: create-params tool-call id without U+0000", kParams, {"/input/0/parts/0", R"({"type": "tool_call", "id": "call\u0001\u00e9", "name": "bash", "arguments": {}})"}, "", ""},
        {"pattern: rollout's own create params take U+0000", kRollout, {"/responses_create_params/input/0/parts/0", R"({"type": "tool_call", "id": "call\u0000", "name": "bash", "arguments": {}})"}, "", ""},
        {"pattern: response schema takes U+0000", kResponse, {"/turns/0/tool_calls/0/id", R"("call\u0000")"}, "", ""},

        // date-time: RFC 3339 with real calendar dates and an offset
        {"date-time: Z", kOutcome, {"/captured_at", "\"2026-11-02T10:00:00Z\""}, "", ""},
        {"date-time: lower-case t and z", kOutcome, {"/captured_at", "\"2026-11-02t10:00:00z\""}, "", ""},
        {"date-time: fraction and offset", kOutcome, {"/captured_at", "\"2026-11-02T10:00:00.123456-05:30\""}, "", ""},
        {"date-time: leap day", kOutcome, {"/captured_at", "\"2028-02-29T00:00:00Z\""}, "", ""},
        {"date-time: leap second", kOutcome, {"/captured_at", "\"2026-12-31T23:59:60Z\""}, "", ""},
        {"date-time: no leap day", kOutcome, {"/captured_at", "\"2026-02-29T00:00:00Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: century without leap day", kOutcome, {"/captured_at", "\"2100-02-29T00:00:00Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: April 31", kOutcome, {"/captured_at", "\"2026-04-31T00:00:00Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: month 13", kOutcome, {"/captured_at", "\"2026-13-01T00:00:00Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: hour 24", kOutcome, {"/captured_at", "\"2026-11-02T24:00:00Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: no offset", kOutcome, {"/captured_at", "\"2026-11-02T10:00:00\""}, "rows.decode.format", "/captured_at"},
        {"date-time: space separator", kRollout, {CIO "/captured_at", "\"2026-11-02 10:00:00Z\""}, "rows.decode.format", CIO "/captured_at"},
        {"date-time: date only", kOutcome, {"/captured_at", "\"2026-11-02\""}, "rows.decode.format", "/captured_at"},
        {"date-time: five-digit year", kOutcome, {"/captured_at", "\"12026-11-02T10:00:00Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: empty fraction", kOutcome, {"/captured_at", "\"2026-11-02T10:00:00.Z\""}, "rows.decode.format", "/captured_at"},
        {"date-time: offset without colon", kOutcome, {"/captured_at", "\"2026-11-02T10:00:00+0100\""}, "rows.decode.format", "/captured_at"},

        // message parts: the branch `type` names reports its own error
        {"part: reasoning", kRollout, {TURN0 "/new_messages/0/parts/0/type", "\"reasoning\""}, "", ""},
        {"part: unknown type", kRollout, {TURN0 "/new_messages/0/parts/0/type", "\"image\""}, "rows.decode.const", TURN0 "/new_messages/0/parts/0/type"},
        {"part: missing type", kRollout, {TURN0 "/new_messages/0/parts/0/type", ""}, "rows.decode.missing_key", TURN0 "/new_messages/0/parts/0"},
        {"part: type not a string", kRollout, {TURN0 "/new_messages/0/parts/0/type", "1"}, "rows.decode.type", TURN0 "/new_messages/0/parts/0/type"},
        {"part: not an object", kRollout, {TURN0 "/new_messages/0/parts/0", "\"text\""}, "rows.decode.type", TURN0 "/new_messages/0/parts/0"},
        {"part: a text part's keys under type tool_call", kRollout, {TURN0 "/new_messages/0/parts/0/type", "\"tool_call\""}, "rows.decode.unknown_key", TURN0 "/new_messages/0/parts/0"},
        {"part: tool_call_response content", kRollout, {TURN1 "/new_messages/1/parts/0/content", "\"x\""}, "rows.decode.unknown_key", TURN1 "/new_messages/1/parts/0"},
        {"part: tool_calls hold tool calls only", kRollout, {TURN0 "/tool_calls/0/type", "\"text\""}, "rows.decode.const", TURN0 "/tool_calls/0/type"},

        // ----- what differs between versions (spec/family/README.md), each in its own version ------
        // v1 has no `cursor` harness; v2 on have it
        {"v1: agent_harness cursor", kRolloutV1, {TURN0 "/decisions/0/agent_harness", "\"cursor\""}, "rows.decode.enum", TURN0 "/decisions/0/agent_harness"},
        {"v1: response agent_harness cursor", kResponseV1, {"/turns/0/decisions/0/agent_harness", "\"cursor\""}, "rows.decode.enum", "/turns/0/decisions/0/agent_harness"},
        {"v1: agent_harness pi", kRolloutV1, {TURN0 "/decisions/0/agent_harness", "\"pi\""}, "", ""},
        {"v3: agent_harness cursor", kRolloutV3, {TURN0 "/decisions/0/agent_harness", "\"cursor\""}, "", ""},
        {"v4: agent_harness cursor", kRolloutV4, {TURN0 "/decisions/0/agent_harness", "\"cursor\""}, "", ""},
        {"v3: response agent_harness cursor", kResponseV3, {"/turns/0/decisions/0/agent_harness", "\"cursor\""}, "", ""},
        // the schema_id and schema_version of each version
        {"v1: schema_id", kRolloutV1, {"/metadata/schema_id", "\"https://sediment.so/schemas/training-rows/nemo-gym-rollout/v2.json\""}, "rows.decode.other_version", "/metadata/schema_id"},
        {"v1: schema_version", kRolloutV1, {"/metadata/schema_version", "2"}, "rows.decode.const", "/metadata/schema_version"},
        {"v3: schema_id", kRolloutV3, {"/metadata/schema_id", "\"https://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json\""}, "rows.decode.other_version", "/metadata/schema_id"},
        {"v4: schema_version", kRolloutV4, {"/metadata/schema_version", "3"}, "rows.decode.const", "/metadata/schema_version"},
        {"v4: schema_version 4.0", kRolloutV4, {"/metadata/schema_version", "4.0"}, "", ""},
        // create-params v1 has no pattern on tool-call ids
        {"create-params v1: tool-call id with U+0000", kParamsV1, {"/input/0/parts/0", R"({"type": "tool_call", "id": "call\u0000", "name": "bash", "arguments": {}})"}, "", ""},
        // v3 puts the pattern on id-like strings everywhere in a row, a response and a CI outcome
        {"v3: create-params tool-call id with U+0000", kRolloutV3, {"/responses_create_params/input/0/parts/0", R"({"type": "tool_call", "id": "call\u0000", "name": "bash", "arguments": {}})"}, "rows.decode.pattern", "/responses_create_params/input/0/parts/0/id"},
        {"v3: tool_calls id with U+0000", kRolloutV3, {TURN0 "/tool_calls/0/id", R"("call\u0000")"}, "rows.decode.pattern", TURN0 "/tool_calls/0/id"},
        {"v3: tool response id with U+0000", kRolloutV3, {TURN1 "/new_messages/1/parts/0/id", R"("\u0000")"}, "rows.decode.pattern", TURN1 "/new_messages/1/parts/0/id"},
        {"v3: inference_call_id with U+0000", kRolloutV3, {TURN0 "/inference_call_id", R"("ic\u0000")"}, "rows.decode.pattern", TURN0 "/inference_call_id"},
        {"v3: instance_id with U+0000", kRolloutV3, {"/metadata/instance_id", R"("\u0000")"}, "rows.decode.pattern", "/metadata/instance_id"},
        {"v3: session_id with U+0000", kRolloutV3, {"/metadata/session_id", R"("s\u0000")"}, "rows.decode.pattern", "/metadata/session_id"},
        {"v3: CI outcome_id with U+0000", kRolloutV3, {CIO "/outcome_id", R"("\u0000")"}, "rows.decode.pattern", CIO "/outcome_id"},
        {"v3: CI workflow_id with U+0000", kRolloutV3, {CIO "/workflow_id", R"("\u0000")"}, "rows.decode.pattern", CIO "/workflow_id"},
        {"v3: CI workflow_id null", kRolloutV3, {CIO "/workflow_id", "null"}, "", ""},
        {"v3: resolution repo with U+0000", kRolloutV3, {CIR "/repo", R"("o/\u0000")"}, "rows.decode.pattern", CIR "/repo"},
        {"v3: resolution source_outcome_ids item with U+0000", kRolloutV3, {CIR "/source_outcome_ids/0", R"("\u0000")"}, "rows.decode.pattern", CIR "/source_outcome_ids/0"},
        {"v3: workflow verdict_outcome_id with U+0000", kRolloutV3, {CIR "/workflow_resolutions/0/verdict_outcome_id", R"("\u0000")"}, "rows.decode.pattern", CIR "/workflow_resolutions/0/verdict_outcome_id"},
        {"v3: other control characters pass", kRolloutV3, {"/metadata/session_id", R"("s\u0001\u001f\u00e9")"}, "", ""},
        {"v2: session_id with U+0000", kRollout, {"/metadata/session_id", R"("s\u0000")"}, "", ""},
        {"v3: response inference_call_id with U+0000", kResponseV3, {"/turns/0/inference_call_id", R"("\u0000")"}, "rows.decode.pattern", "/turns/0/inference_call_id"},
        {"v2: response inference_call_id with U+0000", kResponse, {"/turns/0/inference_call_id", R"("\u0000")"}, "", ""},
        {"CI outcome v2: outcome_id with U+0000", kOutcomeV2, {"/outcome_id", R"("\u0000")"}, "rows.decode.pattern", "/outcome_id"},
        {"CI outcome v2: source_event_id with U+0000", kOutcomeV2, {"/source_event_id", R"("\u0000")"}, "rows.decode.pattern", "/source_event_id"},
        {"CI outcome v1: outcome_id with U+0000", kOutcome, {"/outcome_id", R"("\u0000")"}, "", ""},
        // v3 moved reason's maxLength into the string branch: the same rule
        {"CI outcome v2: reason of 4097", kOutcomeV2, {"/reason", "\"" + std::string(4097, 'a') + "\""}, "rows.decode.max_length", "/reason"},
        {"v3: CI reason of 4096", kRolloutV3, {CIO "/reason", "\"" + std::string(4096, 'a') + "\""}, "", ""},
        // v3: session_commit_observation_ids, required, strings
        {"v3: observation ids missing", kRolloutV3, {"/metadata/session_commit_observation_ids", ""}, "rows.decode.missing_key", "/metadata"},
        {"v3: observation ids empty", kRolloutV3, {"/metadata/session_commit_observation_ids", "[]"}, "", ""},
        {"v3: observation ids null", kRolloutV3, {"/metadata/session_commit_observation_ids", "null"}, "rows.decode.type", "/metadata/session_commit_observation_ids"},
        {"v3: observation id not a string", kRolloutV3, {"/metadata/session_commit_observation_ids/1", "1"}, "rows.decode.type", "/metadata/session_commit_observation_ids/1"},
        {"v3: observation id with U+0000", kRolloutV3, {"/metadata/session_commit_observation_ids/0", R"("\u0000")"}, "rows.decode.pattern", "/metadata/session_commit_observation_ids/0"},
        {"v2: observation ids are unknown", kRollout, {"/metadata/session_commit_observation_ids", "[]"}, "rows.decode.unknown_key", "/metadata"},
        {"v3: repository_identity is unknown", kRolloutV3, {"/metadata/repository_identity", "null"}, "rows.decode.unknown_key", "/metadata"},
        // v4: repository_identity on metadata and CI resolution, required and nullable
        {"v4: metadata identity missing", kRolloutV4, {"/metadata/repository_identity", ""}, "rows.decode.missing_key", "/metadata"},
        {"v4: metadata identity null", kRolloutV4, {"/metadata/repository_identity", "null"}, "", ""},
        {"v4: resolution identity missing", kRolloutV4, {CIR "/repository_identity", ""}, "rows.decode.missing_key", CIR},
        {"v4: resolution identity null", kRolloutV4, {CIR "/repository_identity", "null"}, "", ""},
        {"v4: identity not an object", kRolloutV4, {CIR "/repository_identity", "\"github.com/101\""}, "rows.decode.type", CIR "/repository_identity"},
        {"v4: identity provider const", kRolloutV4, {"/metadata/repository_identity/provider", "\"gitlab\""}, "rows.decode.const", "/metadata/repository_identity/provider"},
        {"v4: identity host missing", kRolloutV4, {"/metadata/repository_identity/host", ""}, "rows.decode.missing_key", "/metadata/repository_identity"},
        {"v4: identity unknown key", kRolloutV4, {"/metadata/repository_identity/name", "\"o/r\""}, "rows.decode.unknown_key", "/metadata/repository_identity"},
        {"v4: identity repository_id with U+0000", kRolloutV4, {CIR "/repository_identity/repository_id", R"("1\u0000")"}, "rows.decode.pattern", CIR "/repository_identity/repository_id"},
        {"v4: identity repository_id not a string", kRolloutV4, {CIR "/repository_identity/repository_id", "101"}, "rows.decode.type", CIR "/repository_identity/repository_id"},
        // v4 CI outcomes (ci-outcome v3): schema_version 1 or 2, repository fields required and nullable
        {"v4: CI schema_version 1", kRolloutV4, {CIO "/schema_version", "1"}, "", ""},
        {"v4: CI schema_version 2.0", kRolloutV4, {CIO "/schema_version", "2.0"}, "", ""},
        {"v4: CI schema_version 3", kRolloutV4, {CIO "/schema_version", "3"}, "rows.decode.enum", CIO "/schema_version"},
        {"v4: CI schema_version string", kRolloutV4, {CIO "/schema_version", "\"2\""}, "rows.decode.type", CIO "/schema_version"},
        {"v4: CI repository_provider other", kRolloutV4, {CIO "/repository_provider", "\"gitlab\""}, "rows.decode.const", CIO "/repository_provider"},
        {"v4: CI repository fields null", kRolloutV4, {CIO "/repository_provider", "null"}, "", ""},
        {"v4: CI repository_host missing", kRolloutV4, {CIO "/repository_host", ""}, "rows.decode.missing_key", CIO},
        {"v4: CI repository_host with U+0000", kRolloutV4, {CIO "/repository_host", R"("\u0000")"}, "rows.decode.pattern", CIO "/repository_host"},
        {"CI outcome v3: schema_version 0", kOutcomeV3, {"/schema_version", "0"}, "rows.decode.enum", "/schema_version"},
        {"CI outcome v3: repository_id null", kOutcomeV3, {"/repository_id", "null"}, "", ""},
        {"CI outcome v3: repository_id a number", kOutcomeV3, {"/repository_id", "101"}, "rows.decode.type", "/repository_id"},
        {"CI outcome v2: schema_version 2", kOutcomeV2, {"/schema_version", "2"}, "rows.decode.const", "/schema_version"},
        {"CI outcome v2: repository fields are unknown", kOutcomeV2, {"/repository_host", "null"}, "rows.decode.unknown_key", ""},
    };
    static const bool families = [] {
        for (RuleCase& c : family_cases()) cases.push_back(std::move(c));
        return true;
    }();
    (void)families;
    return cases;
}

#undef TURN0
#undef TURN1
#undef CIO
#undef CIR

}  // namespace test
