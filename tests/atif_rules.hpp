// One case per rule of the ATIF v1.7 subset: a change to the valid base trajectory, the typed
// decoder's verdict (the first error's id and JSON Pointer, or none), and whether the bundled JSON
// Schema can say the rule (when not, the schema engine is not expected to agree).
#pragma once

#include <vector>

#include <catch2/catch.hpp>

#include "support.hpp"

namespace test {

struct AtifCase {
    const char* rule;
    Change change;
    const char* id;       // "" when the trajectory stays valid
    const char* pointer;  // of the first error
    bool schema_says_it = true;
};

#define S0 "/steps/0"
#define S1 "/steps/1"
#define S2 "/steps/2"
#define S3 "/steps/3"
#define M2 "/steps/2/metrics"

inline const std::vector<AtifCase>& atif_cases() {
    static const std::vector<AtifCase> cases = {
        // the version gate
        {"schema_version: another version", {"/schema_version", "\"ATIF-v1.6\""}, "rows.decode.other_version", "/schema_version"},
        {"schema_version: not a version", {"/schema_version", "\"ATIF-v1.9\""}, "rows.decode.const", "/schema_version"},
        {"schema_version: missing", {"/schema_version", ""}, "rows.decode.missing_key", ""},
        {"schema_version: null", {"/schema_version", "null"}, "rows.decode.type", "/schema_version"},

        // unknown keys, at every level
        {"unknown key: trajectory", {"/x", "1"}, "rows.decode.unknown_key", ""},
        {"unknown key: agent", {"/agent/x", "1"}, "rows.decode.unknown_key", "/agent"},
        {"unknown key: step", {S0 "/x", "1"}, "rows.decode.unknown_key", S0},
        {"unknown key: tool call", {S2 "/tool_calls/0/x", "1"}, "rows.decode.unknown_key", S2 "/tool_calls/0"},
        {"unknown key: observation", {S2 "/observation/x", "1"}, "rows.decode.unknown_key", S2 "/observation"},
        {"unknown key: observation result", {S2 "/observation/results/0/x", "1"}, "rows.decode.unknown_key", S2 "/observation/results/0"},
        {"unknown key: metrics", {M2 "/x", "1"}, "rows.decode.unknown_key", M2},
        {"unknown key: final metrics", {"/final_metrics/x", "1"}, "rows.decode.unknown_key", "/final_metrics"},
        {"unknown key: content part", {S1 "/message/0/x", "1"}, "rows.decode.unknown_key", S1 "/message/0"},
        {"unknown key: image source", {S1 "/message/1/source/x", "1"}, "rows.decode.unknown_key", S1 "/message/1/source"},
        {"free-form: extra holds anything", {"/extra", "{\"a\": [1, {\"b\": null}]}"}, "", ""},

        // required objects and arrays
        {"steps: at least one", {"/steps", "[]"}, "rows.decode.min_items", "/steps"},
        {"steps: missing", {"/steps", ""}, "rows.decode.missing_key", ""},
        {"agent: name missing", {"/agent/name", ""}, "rows.decode.missing_key", "/agent"},
        {"observation: results required", {S2 "/observation", "{}"}, "rows.decode.missing_key", S2 "/observation"},
        {"observation: results may be empty", {S2 "/observation/results", "[]"}, "", ""},
        {"observation: null", {S2 "/observation", "null"}, "", ""},
        {"tool call: arguments may be empty", {S2 "/tool_calls/0/arguments", "{}"}, "", ""},
        {"tool call: arguments null", {S2 "/tool_calls/0/arguments", "null"}, "rows.decode.type", S2 "/tool_calls/0/arguments"},
        {"tool call: arguments an array", {S2 "/tool_calls/0/arguments", "[]"}, "rows.decode.type", S2 "/tool_calls/0/arguments"},
        {"optional: null is absent", {"/session_id", "null"}, "", ""},
        {"optional: wrong type", {"/notes", "1"}, "rows.decode.type", "/notes"},

        // content: a string or an array of parts
        {"content: empty string", {S0 "/message", "\"\""}, "", ""},
        {"content: empty array", {S0 "/message", "[]"}, "", ""},
        {"content: null message", {S0 "/message", "null"}, "rows.decode.type", S0 "/message"},
        {"content: a number", {S0 "/message", "5"}, "rows.decode.type", S0 "/message"},
        {"content: result content null", {S2 "/observation/results/0/content", "null"}, "", ""},
        {"content part: text without text", {S1 "/message/0", "{\"type\": \"text\"}"}, "rows.decode.atif_content_part", S1 "/message/0"},
        {"content part: empty text", {S1 "/message/0", "{\"type\": \"text\", \"text\": \"\"}"}, "", ""},
        {"content part: text with a source", {S1 "/message/0/source", "{\"media_type\": \"image/png\", \"path\": \"a.png\"}"}, "rows.decode.atif_content_part", S1 "/message/0/source"},
        {"content part: image without source", {S1 "/message/1/source", ""}, "rows.decode.atif_content_part", S1 "/message/1"},
        {"content part: image with text", {S1 "/message/1/text", "\"x\""}, "rows.decode.atif_content_part", S1 "/message/1/text"},
        {"content part: text with null source", {S1 "/message/0/source", "null"}, "", ""},
        {"content part: unknown type", {S1 "/message/0/type", "\"video\""}, "rows.decode.enum", S1 "/message/0/type"},
        {"image source: media type", {S1 "/message/1/source/media_type", "\"image/bmp\""}, "rows.decode.enum", S1 "/message/1/source/media_type"},
        {"image source: path required", {S1 "/message/1/source/path", ""}, "rows.decode.missing_key", S1 "/message/1/source"},

        // steps: ids, sources, agent-only fields
        {"step_id: not the position", {S0 "/step_id", "5"}, "rows.decode.atif_step_id", S0 "/step_id", false},
        {"step_id: 0", {S0 "/step_id", "0"}, "rows.decode.range", S0 "/step_id"},
        {"step_id: 1.0", {S0 "/step_id", "1.0"}, "rows.decode.integer", S0 "/step_id"},
        {"step_id: true", {S0 "/step_id", "true"}, "rows.decode.type", S0 "/step_id"},
        {"step_id: \"1\"", {S0 "/step_id", "\"1\""}, "rows.decode.type", S0 "/step_id"},
        {"source: tool", {S0 "/source", "\"tool\""}, "rows.decode.enum", S0 "/source"},
        {"agent-only: model_name on a system step", {S0 "/model_name", "\"m\""}, "rows.decode.atif_step", S0 "/model_name"},
        {"agent-only: reasoning_effort on a user step", {S1 "/reasoning_effort", "\"low\""}, "rows.decode.atif_step", S1 "/reasoning_effort"},
        {"agent-only: reasoning_content on a user step", {S1 "/reasoning_content", "\"x\""}, "rows.decode.atif_step", S1 "/reasoning_content"},
        {"agent-only: empty tool_calls on a user step", {S1 "/tool_calls", "[]"}, "rows.decode.atif_step", S1 "/tool_calls"},
        {"agent-only: empty metrics on a system step", {S0 "/metrics", "{}"}, "rows.decode.atif_step", S0 "/metrics"},
        {"agent-only: null is fine", {S0 "/tool_calls", "null"}, "", ""},
        {"any step: observation on a user step", {S1 "/observation", "{\"results\": []}"}, "", ""},
        {"any step: llm_call_count on a user step", {S1 "/llm_call_count", "1"}, "", ""},
        {"llm_call_count 0: reasoning_content", {S3 "/reasoning_content", "\"x\""}, "rows.decode.atif_step", S3 "/reasoning_content"},
        {"llm_call_count 0: reasoning_effort", {S3 "/reasoning_effort", "1"}, "rows.decode.atif_step", S3 "/reasoning_effort"},
        {"llm_call_count 0: metrics", {S3 "/metrics", "{}"}, "rows.decode.atif_step", S3 "/metrics"},
        {"llm_call_count 0: tool calls are fine", {S3 "/tool_calls/0/tool_call_id", "\"call_4\""}, "", ""},
        {"llm_call_count: negative", {S3 "/llm_call_count", "-1"}, "rows.decode.range", S3 "/llm_call_count"},
        {"llm_call_count: 2.0", {S2 "/llm_call_count", "2.0"}, "rows.decode.integer", S2 "/llm_call_count"},
        {"reasoning_effort: a number", {S2 "/reasoning_effort", "0.5"}, "", ""},
        {"reasoning_effort: a boolean", {S2 "/reasoning_effort", "true"}, "rows.decode.type", S2 "/reasoning_effort"},
        {"is_copied_context: not a boolean", {S1 "/is_copied_context", "1"}, "rows.decode.type", S1 "/is_copied_context"},

        // tool references and totals
        {"source_call_id: names no tool call", {S2 "/observation/results/0/source_call_id", "\"call_9\""}, "rows.decode.atif_source_call_id", S2 "/observation/results/0/source_call_id", false},
        {"source_call_id: another step's call", {S2 "/observation/results/0/source_call_id", "\"call_3\""}, "rows.decode.atif_source_call_id", S2 "/observation/results/0/source_call_id", false},
        {"source_call_id: the second call", {S2 "/observation/results/0/source_call_id", "\"call_2\""}, "", ""},
        {"total_steps: not the count", {"/final_metrics/total_steps", "3"}, "rows.decode.atif_total_steps", "/final_metrics/total_steps", false},
        {"total_steps: null", {"/final_metrics/total_steps", "null"}, "", ""},
        {"totals need not add up", {"/final_metrics/total_prompt_tokens", "1"}, "", ""},

        // timestamps as Python's datetime.fromisoformat reads them
        {"timestamp: a date", {S0 "/timestamp", "\"2026-08-24\""}, "", ""},
        {"timestamp: no offset", {S0 "/timestamp", "\"2026-08-24T12:00:00\""}, "", ""},
        {"timestamp: empty", {S0 "/timestamp", "\"\""}, "rows.decode.format", S0 "/timestamp", false},
        {"timestamp: not one", {S0 "/timestamp", "\"not-a-timestamp\""}, "rows.decode.format", S0 "/timestamp", false},
        {"timestamp: February 30", {S0 "/timestamp", "\"2026-02-30T00:00:00\""}, "rows.decode.format", S0 "/timestamp", false},
        {"timestamp: ZZ", {S0 "/timestamp", "\"2026-08-24T12:00:00ZZ\""}, "rows.decode.format", S0 "/timestamp", false},
        {"timestamp: epoch number", {S0 "/timestamp", "1724500000"}, "rows.decode.type", S0 "/timestamp"},

        // strict numbers
        {"tokens: any size", {M2 "/completion_tokens", "1180591620717411303424"}, "", ""},
        {"tokens: 7.0", {M2 "/completion_tokens", "7.0"}, "rows.decode.integer", M2 "/completion_tokens"},
        {"tokens: true", {M2 "/completion_tokens", "true"}, "rows.decode.type", M2 "/completion_tokens"},
        {"tokens: \"7\"", {M2 "/completion_tokens", "\"7\""}, "rows.decode.type", M2 "/completion_tokens"},
        {"tokens: negative", {M2 "/cached_tokens", "-1"}, "rows.decode.range", M2 "/cached_tokens"},
        {"tokens: negative beyond 64 bits", {M2 "/cached_tokens", "-1180591620717411303424"}, "rows.decode.range", M2 "/cached_tokens"},
        {"cost: an integer", {M2 "/cost_usd", "2"}, "", ""},
        {"cost: negative", {M2 "/cost_usd", "-0.5"}, "rows.decode.range", M2 "/cost_usd"},
        {"cost: a boolean", {M2 "/cost_usd", "false"}, "rows.decode.type", M2 "/cost_usd"},
        {"token ids: negative", {M2 "/prompt_token_ids/1", "-1"}, "rows.decode.range", M2 "/prompt_token_ids/1"},
        {"token ids: a boolean", {M2 "/prompt_token_ids/1", "true"}, "rows.decode.type", M2 "/prompt_token_ids/1"},
        {"token ids: 1.0", {M2 "/completion_token_ids", "[1.0]"}, "rows.decode.integer", M2 "/completion_token_ids/0"},
        {"logprobs: a boolean", {M2 "/logprobs/0", "true"}, "rows.decode.type", M2 "/logprobs/0"},
        {"total_steps: 4.0", {"/final_metrics/total_steps", "4.0"}, "rows.decode.integer", "/final_metrics/total_steps"},

        // NeMo Gym's JSON boundary
        {"decimal: 0.1", {M2 "/logprobs/0", "0.1"}, "", ""},
        {"decimal: 1.50 is 1.5", {M2 "/logprobs/0", "-1.50"}, "", ""},
        {"decimal: 25e-1", {M2 "/cost_usd", "25e-1"}, "", ""},
        {"decimal: not exactly a double", {M2 "/logprobs/0", "0.10000000000000001"}, "rows.parse.inexact_decimal", M2 "/logprobs/0"},
        {"decimal: in a free-form value", {"/extra", "{\"x\": 1.00000000000000000001}"}, "rows.parse.inexact_decimal", "/extra/x"},
        {"decimal: underflow", {M2 "/cost_usd", "1e-400"}, "rows.parse.inexact_decimal", M2 "/cost_usd"},
        {"decimal: integers are never limited", {"/extra", "{\"x\": 123456789012345678901234567890}"}, "", ""},

        // free-form arrays hold objects
        {"subagent_trajectories: an item not an object", {"/subagent_trajectories", "[1]"}, "rows.decode.type", "/subagent_trajectories/0"},
        {"tool_definitions: an item not an object", {"/agent/tool_definitions/0", "\"bash\""}, "rows.decode.type", "/agent/tool_definitions/0"},
        {"subagent_trajectory_ref: an item not an object", {S2 "/observation/results/2/subagent_trajectory_ref/0", "[]"}, "rows.decode.type", S2 "/observation/results/2/subagent_trajectory_ref/0"},
        {"extra: not an object", {S2 "/extra", "\"x\""}, "rows.decode.type", S2 "/extra"},
    };
    return cases;
}

#define SUB "/subagent_trajectories/0"
#define SUBREF SUB "/steps/1/observation/results/0/subagent_trajectory_ref/0"
#define REF S2 "/observation/results/2/subagent_trajectory_ref"
#define AUDIO_TYPED(type) "{\"type\": \"audio\", \"source\": {\"media_type\": \"" type "\", \"path\": \"clip.wav\"}}"
#define AUDIO_WITH(duration) "{\"type\": \"audio\", \"source\": {\"media_type\": \"audio/wav\", \"path\": \"clip.wav\", \"duration_sec\": " duration "}}"
#define AUDIO AUDIO_WITH("12.5")

/// Harbor's model (the `atif` schema), on test::harbor_trajectory(): each of Harbor's rules 1-9 where
/// it differs from the subset or only Harbor has it, the version labels, and each policy difference
/// (what this library refuses although Harbor's lax parse accepts it).
inline const std::vector<AtifCase>& harbor_cases() {
    static const std::string two_subagents = std::string("[") + kHarborSubagent + ", " + kHarborSubagent + "]";
    static const std::vector<AtifCase> cases = {
        // version labels: any of v1.0 to v1.8, or none (v1.8); nothing else
        {"label: ATIF-v1.0", {"/schema_version", "\"ATIF-v1.0\""}, "", ""},
        {"label: ATIF-v1.2", {"/schema_version", "\"ATIF-v1.2\""}, "", ""},
        {"label: ATIF-v1.5", {"/schema_version", "\"ATIF-v1.5\""}, "", ""},
        {"label: ATIF-v1.7", {"/schema_version", "\"ATIF-v1.7\""}, "", ""},
        {"label: absent is ATIF-v1.8", {"/schema_version", ""}, "", ""},
        {"label: ATIF-v1.9", {"/schema_version", "\"ATIF-v1.9\""}, "rows.decode.enum", "/schema_version"},
        {"label: case matters", {"/schema_version", "\"atif-v1.7\""}, "rows.decode.enum", "/schema_version"},
        {"label: null", {"/schema_version", "null"}, "rows.decode.type", "/schema_version"},
        {"label: nothing is gated (v1.7 fields in a v1.0 document)", {"/schema_version", "\"ATIF-v1.0\""}, "", ""},

        // objects are strict, subagent references typed
        {"unknown key: trajectory", {"/x", "1"}, "rows.decode.unknown_key", ""},
        {"unknown key: step", {S0 "/x", "1"}, "rows.decode.unknown_key", S0},
        {"unknown key: observation result", {S2 "/observation/results/0/x", "1"}, "rows.decode.unknown_key", S2 "/observation/results/0"},
        {"unknown key: subagent reference", {REF "/0/x", "1"}, "rows.decode.unknown_key", REF "/0"},
        {"subagent reference: not an object", {REF "/0", "[]"}, "rows.decode.type", REF "/0"},
        {"subagent reference: session_id a number", {REF "/0/session_id", "5"}, "rows.decode.type", REF "/0/session_id"},
        {"session_id: optional in every version", {"/session_id", ""}, "", ""},
        {"steps: at least one", {"/steps", "[]"}, "rows.decode.min_items", "/steps"},
        {"agent: required", {"/agent", ""}, "rows.decode.missing_key", ""},
        {"message: required", {S0 "/message", ""}, "rows.decode.missing_key", S0},
        {"message: null", {S0 "/message", "null"}, "rows.decode.type", S0 "/message"},
        {"message: an object", {S0 "/message", "{\"role\": \"user\"}"}, "rows.decode.type", S0 "/message"},
        {"content part: text with a source", {S1 "/message/0/source", "{\"media_type\": \"image/png\", \"path\": \"a.png\"}"}, "rows.decode.atif_content_part", S1 "/message/0/source"},
        {"tool call: arguments a JSON string", {S2 "/tool_calls/0/arguments", "\"{}\""}, "rows.decode.type", S2 "/tool_calls/0/arguments"},

        // rule 1: step ids
        {"rule 1: step_id not the position", {S0 "/step_id", "5"}, "rows.decode.atif_step_id", S0 "/step_id", false},
        {"rule 1: step_id 0", {S0 "/step_id", "0"}, "rows.decode.range", S0 "/step_id"},
        {"rule 1: a subagent's own numbering", {SUB "/steps/1/step_id", "3"}, "rows.decode.atif_step_id", SUB "/steps/1/step_id", false},

        // rule 2: embedded subagents
        {"rule 2: no trajectory_id", {SUB "/trajectory_id", ""}, "rows.decode.atif_subagent", SUB},
        {"rule 2: a null trajectory_id", {SUB "/trajectory_id", "null"}, "rows.decode.atif_subagent", SUB "/trajectory_id"},
        {"rule 2: the same trajectory_id twice", {"/subagent_trajectories", two_subagents}, "rows.decode.atif_subagent", "/subagent_trajectories/1/trajectory_id", false},
        {"rule 2: a subagent is a full trajectory", {SUB "/agent/name", ""}, "rows.decode.missing_key", SUB "/agent"},
        {"rule 2: a subagent's unknown key", {SUB "/x", "1"}, "rows.decode.unknown_key", SUB},
        {"rule 2: a subagent of any version", {SUB "/schema_version", "\"ATIF-v1.0\""}, "", ""},
        {"rule 2: a subagent's label", {SUB "/schema_version", "\"ATIF-v2.0\""}, "rows.decode.enum", SUB "/schema_version"},
        {"rule 2: subagents nest", {SUB "/subagent_trajectories", two_subagents}, "rows.decode.atif_subagent", SUB "/subagent_trajectories/1/trajectory_id", false},

        // rule 3: tool references
        {"rule 3: source_call_id names no tool call", {S2 "/observation/results/0/source_call_id", "\"call_9\""}, "rows.decode.atif_source_call_id", S2 "/observation/results/0/source_call_id", false},
        {"rule 3: in a subagent", {SUB "/steps/1/observation/results/0/source_call_id", "\"c9\""}, "rows.decode.atif_source_call_id", SUB "/steps/1/observation/results/0/source_call_id", false},

        // rule 4: agent-only fields
        {"rule 4: model_name on a system step", {S0 "/model_name", "\"m\""}, "rows.decode.atif_step", S0 "/model_name"},
        {"rule 4: empty tool_calls on a user step", {S1 "/tool_calls", "[]"}, "rows.decode.atif_step", S1 "/tool_calls"},
        {"rule 4: empty metrics on a system step", {S0 "/metrics", "{}"}, "rows.decode.atif_step", S0 "/metrics"},
        {"rule 4: observation on a system step", {S0 "/observation", "{\"results\": [{}]}"}, "", ""},

        // rule 5: an agent step without a model call
        {"rule 5: reasoning_content", {S3 "/reasoning_content", "\"x\""}, "rows.decode.atif_step", S3 "/reasoning_content"},
        {"rule 5: metrics", {S3 "/metrics", "{}"}, "rows.decode.atif_step", S3 "/metrics"},
        {"rule 5: reasoning_effort stays (Harbor)", {S3 "/reasoning_effort", "\"low\""}, "", ""},
        {"rule 5: only on agent steps (Harbor)", {S1 "/llm_call_count", "0"}, "", ""},
        {"rule 5: llm_call_count negative", {S3 "/llm_call_count", "-1"}, "rows.decode.range", S3 "/llm_call_count"},

        // rule 6: timestamps
        {"rule 6: a date", {S0 "/timestamp", "\"2026-08-24\""}, "", ""},
        {"rule 6: February 30", {S0 "/timestamp", "\"2026-02-30T00:00:00\""}, "rows.decode.format", S0 "/timestamp", false},
        {"rule 6: ZZ", {S0 "/timestamp", "\"2026-08-24T12:00:00ZZ\""}, "rows.decode.format", S0 "/timestamp", false},
        {"rule 6: in a subagent", {SUB "/steps/0/timestamp", "\"yesterday\""}, "rows.decode.format", SUB "/steps/0/timestamp", false},

        // rule 7: a subagent reference says which trajectory it means, under every label (Harbor's model)
        {"rule 7: neither id nor path", {REF "/0", "{\"session_id\": \"s-2\"}"}, "rows.decode.atif_subagent_ref", REF "/0"},
        {"rule 7: both null", {REF "/0", "{\"trajectory_id\": null, \"trajectory_path\": null}"}, "rows.decode.atif_subagent_ref", REF "/0"},
        {"rule 7: an empty object", {REF "/1", "{}"}, "rows.decode.atif_subagent_ref", REF "/1"},
        {"rule 7: a path alone", {REF "/0", "{\"trajectory_path\": \"sub.json\"}"}, "", ""},
        {"rule 7: in a subagent labelled ATIF-v1.6", {SUBREF, "{\"session_id\": \"s-3\"}"}, "rows.decode.atif_subagent_ref", SUBREF},

        // rule 8: a step's tool_call_ids are distinct
        {"rule 8: the same tool_call_id twice in a step", {S2 "/tool_calls/1/tool_call_id", "\"call_1\""}, "rows.decode.atif_tool_call_id", S2 "/tool_calls/1/tool_call_id", false},
        {"rule 8: the same tool_call_id in two steps", {S3 "/tool_calls/0/tool_call_id", "\"call_1\""}, "", ""},
        {"rule 8: in a subagent", {SUB "/steps/1/tool_calls", "[{\"tool_call_id\": \"c1\", \"function_name\": \"a\", \"arguments\": {}}, {\"tool_call_id\": \"c1\", \"function_name\": \"b\", \"arguments\": {}}]"}, "rows.decode.atif_tool_call_id", SUB "/steps/1/tool_calls/1/tool_call_id", false},

        // rule 9: a reference without a trajectory_path names an embedded subagent of its own trajectory
        {"rule 9: an id that names no embedded subagent", {REF "/0/trajectory_id", "\"sub-9\""}, "rows.decode.atif_subagent_ref", REF "/0", false},
        {"rule 9: no embedded subagent to name", {"/subagent_trajectories", "null"}, "rows.decode.atif_subagent_ref", REF "/0", false},
        {"rule 9: an empty path is no path", {REF "/0", "{\"trajectory_path\": \"\"}"}, "rows.decode.atif_subagent_ref", REF "/0", false},
        {"rule 9: an empty path and an id that resolves", {REF "/0", "{\"trajectory_id\": \"sub-1\", \"trajectory_path\": \"\"}"}, "", ""},
        {"rule 9: with a path, any id", {REF "/0", "{\"trajectory_id\": \"elsewhere\", \"trajectory_path\": \"x.json\"}"}, "", ""},
        {"rule 9: a subagent resolves against its own subagents, not its parent's", {SUBREF, "{\"trajectory_id\": \"sub-1\"}"}, "rows.decode.atif_subagent_ref", SUBREF, false},

        // audio parts (ATIF-v1.8; the base is labelled ATIF-v1.8)
        {"audio: a part in a message", {S1 "/message/1", AUDIO}, "", ""},
        {"audio: in an observation result", {S2 "/observation/results/0/content", "[" AUDIO "]"}, "", ""},
        {"audio: without a label (ATIF-v1.8)", {"/schema_version", ""}, "", ""},
        {"audio: duration 0", {S1 "/message/1", AUDIO_WITH("0")}, "", ""},
        {"audio: duration -0.0 equals 0", {S1 "/message/1", AUDIO_WITH("-0.0")}, "", ""},
        {"audio: duration an integer", {S1 "/message/1", AUDIO_WITH("90")}, "", ""},
        {"audio: duration null", {S1 "/message/1", AUDIO_WITH("null")}, "", ""},
        {"audio: duration negative", {S1 "/message/1", AUDIO_WITH("-1.5")}, "rows.decode.range", S1 "/message/1/source/duration_sec"},
        {"audio: duration a string (Harbor coerces)", {S1 "/message/1", AUDIO_WITH("\"12.5\"")}, "rows.decode.type", S1 "/message/1/source/duration_sec"},
        {"audio: duration a boolean (Harbor coerces)", {S1 "/message/1", AUDIO_WITH("true")}, "rows.decode.type", S1 "/message/1/source/duration_sec"},
        {"audio: an unknown key in the source", {S1 "/message/1", "{\"type\": \"audio\", \"source\": {\"media_type\": \"audio/wav\", \"path\": \"a.wav\", \"bitrate\": 1}}"}, "rows.decode.unknown_key", S1 "/message/1/source"},
        {"audio: no path", {S1 "/message/1", "{\"type\": \"audio\", \"source\": {\"media_type\": \"audio/wav\"}}"}, "rows.decode.missing_key", S1 "/message/1/source"},
        {"audio: no source", {S1 "/message/1", "{\"type\": \"audio\"}"}, "rows.decode.atif_content_part", S1 "/message/1"},
        {"audio: a null source", {S1 "/message/1", "{\"type\": \"audio\", \"source\": null}"}, "rows.decode.atif_content_part", S1 "/message/1"},
        {"audio: text on an audio part", {S1 "/message/1", "{\"type\": \"audio\", \"text\": \"hi\", \"source\": {\"media_type\": \"audio/wav\", \"path\": \"a.wav\"}}"}, "rows.decode.atif_content_part", S1 "/message/1/text"},
        {"audio: an image source under an audio part", {S1 "/message/1/type", "\"audio\""}, "rows.decode.atif_content_part", S1 "/message/1/source"},
        {"audio: an audio source under an image part", {S1 "/message/1/source", "{\"media_type\": \"audio/wav\", \"path\": \"a.wav\"}"}, "rows.decode.atif_content_part", S1 "/message/1/source"},
        {"audio: a duration on an image source", {S1 "/message/1/source/duration_sec", "1"}, "rows.decode.unknown_key", S1 "/message/1/source"},
        {"audio: upper case (Harbor lower-cases)", {S1 "/message/1", AUDIO_TYPED("AUDIO/WAV")}, "rows.decode.enum", S1 "/message/1/source/media_type"},
        {"audio: surrounding spaces (Harbor strips them)", {S1 "/message/1", AUDIO_TYPED(" audio/wav ")}, "rows.decode.enum", S1 "/message/1/source/media_type"},
        {"audio: a parameter", {S1 "/message/1", AUDIO_TYPED("audio/wav; codecs=1")}, "rows.decode.enum", S1 "/message/1/source/media_type"},
        {"audio: an unknown type", {S1 "/message/1", AUDIO_TYPED("audio/midi")}, "rows.decode.enum", S1 "/message/1/source/media_type"},
        {"audio: image types are not normalized either", {S1 "/message/1/source/media_type", "\"IMAGE/PNG\""}, "rows.decode.enum", S1 "/message/1/source/media_type"},
        {"audio: in a subagent labelled ATIF-v1.6", {SUB "/steps/0/message", "[" AUDIO "]"}, "rows.decode.atif_audio", SUB "/steps/0/message/0"},
        {"audio: in a v1.6 subagent's observation", {SUB "/steps/1/observation/results/0/content", "[" AUDIO "]"}, "rows.decode.atif_audio", SUB "/steps/1/observation/results/0/content/0"},
        {"audio: a subagent labelled ATIF-v1.8", {SUB "/schema_version", "\"ATIF-v1.8\""}, "", ""},

        // no bounds where Harbor has none
        {"bounds: negative tokens", {M2 "/cached_tokens", "-1"}, "", ""},
        {"bounds: negative cost", {M2 "/cost_usd", "-0.5"}, "", ""},
        {"bounds: negative token ids", {M2 "/prompt_token_ids/1", "-1"}, "", ""},
        {"bounds: total_steps is not the step count", {"/final_metrics/total_steps", "9"}, "", ""},
        {"bounds: total_steps negative", {"/final_metrics/total_steps", "-1"}, "rows.decode.range", "/final_metrics/total_steps"},
        {"bounds: integers of any size", {M2 "/completion_tokens", "1180591620717411303424"}, "", ""},
        {"bounds: a decimal Python reads as its nearest double", {M2 "/logprobs/0", "0.10000000000000001"}, "", ""},

        // policy: strict where Harbor coerces (each is valid to Harbor)
        {"strict: step_id \"1\"", {S0 "/step_id", "\"1\""}, "rows.decode.type", S0 "/step_id"},
        {"strict: step_id 1.0", {S0 "/step_id", "1.0"}, "rows.decode.integer", S0 "/step_id"},
        {"strict: step_id true", {S0 "/step_id", "true"}, "rows.decode.type", S0 "/step_id"},
        {"strict: tokens \"7\"", {M2 "/completion_tokens", "\"7\""}, "rows.decode.type", M2 "/completion_tokens"},
        {"strict: cost \"0.1\"", {M2 "/cost_usd", "\"0.1\""}, "rows.decode.type", M2 "/cost_usd"},
        {"strict: is_copied_context \"yes\"", {S1 "/is_copied_context", "\"yes\""}, "rows.decode.type", S1 "/is_copied_context"},
        {"strict: is_copied_context 1", {S1 "/is_copied_context", "1"}, "rows.decode.type", S1 "/is_copied_context"},
        {"strict: a duplicate key", {"/extra", "{\"a\": 1, \"a\": 2}"}, "rows.parse.duplicate_key", "/extra"},
        {"strict: NaN", {M2 "/cost_usd", "NaN"}, "rows.parse.syntax", M2 "/cost_usd"},
        {"strict: Infinity", {M2 "/logprobs/0", "-Infinity"}, "rows.parse.syntax", M2 "/logprobs/0"},
    };
    return cases;
}

#undef SUB
#undef SUBREF
#undef REF
#undef AUDIO
#undef AUDIO_WITH
#undef AUDIO_TYPED
#undef S0
#undef S1
#undef S2
#undef S3
#undef M2

/// Each case's verdict from the typed engine under `schema`: valid, or the first error's id and pointer.
inline void check_verdicts(SchemaId schema, const std::vector<AtifCase>& cases) {
    for (const AtifCase& c : cases) {
        DYNAMIC_SECTION(c.rule) {
            const auto errors = sediment::rows::validate(schema, mutate(schema, c.change)).errors;
            INFO((errors.empty() ? std::string("valid") : to_string(errors[0])));
            if (*c.id == '\0') {
                CHECK(errors.empty());
            } else {
                REQUIRE_FALSE(errors.empty());
                CHECK(errors[0].id == c.id);
                CHECK(errors[0].pointer == c.pointer);
            }
        }
    }
}

/// The schema engine agrees with the typed engine on each case the schema can say, at the same place;
/// on the others (cross-field rules, Python's timestamps: code only) it accepts what the typed engine refuses.
inline void check_schema_agrees(SchemaId schema, const std::vector<AtifCase>& cases) {
    for (const AtifCase& c : cases) {
        DYNAMIC_SECTION(c.rule) {
            const std::string text = mutate(schema, c.change);
            const auto typed = sediment::rows::validate(schema, text).errors;
            const auto by_schema = sediment::rows::validate(schema, text, sediment::rows::Engine::schema).errors;
            INFO("typed: " << (typed.empty() ? "valid" : to_string(typed[0])));
            INFO("schema: " << (by_schema.empty() ? "valid" : to_string(by_schema[0])));
            if (!c.schema_says_it) {
                CHECK_FALSE(typed.empty());
                CHECK(by_schema.empty());
            } else {
                REQUIRE(typed.empty() == by_schema.empty());
                if (!typed.empty()) CHECK(same_place(typed[0].pointer, by_schema));
            }
        }
    }
}

}  // namespace test
