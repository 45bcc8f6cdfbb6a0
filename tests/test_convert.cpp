// ATIF <-> row conversion: one test per mapping rule (docs/atif-mapping.md), expected values written
// by hand from the rule, each loss asserted by pointer and kind.
#include <catch2/catch.hpp>
#include <variant>

#include <sediment/rows/encode.hpp>
#include "support.hpp"

using namespace sediment::rows;

namespace {

NemoGymAtifTrajectory atif(const std::string& steps, const std::string& more = "") {
    return decode<NemoGymAtifTrajectory>(R"({"schema_version": "ATIF-v1.7", "agent": {"name": "sediment-rows", "version": "1"},)" +
                                  more + R"( "steps": )" + steps + "}");
}

/// The row side as JSON, compact: what a test compares with hand-written JSON. (The library encodes
/// models; a list of them, or a union, is encoded an item at a time.)
template <class T>
Json json(const T& value) { return parse(encode(value)); }
template <class... T>
Json json(const std::variant<T...>& value) { return std::visit([](const auto& v) { return json(v); }, value); }
template <class T>
Json json(const std::vector<T>& items) {
    Json out = Json::array();
    for (const T& item : items) out.push_back(json(item));
    return out;
}

std::vector<std::string> pointers(const std::vector<Error>& errors) {
    std::vector<std::string> out;
    for (const Error& e : errors) out.push_back(e.pointer);
    return out;
}

std::vector<std::pair<std::string, std::string>> ids_and_pointers(const std::vector<Error>& errors) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Error& e : errors) out.emplace_back(e.id, e.pointer);
    return out;
}

std::vector<Error> strict_errors(const NemoGymAtifTrajectory& t) {
    try {
        to_row_parts(t);
    } catch (const ConvertError& e) {
        return e.errors();
    }
    return {};
}

const ConvertOptions kLossy{true};

NemoGymRolloutRowV2 row_of(const Json& j) { return decode<NemoGymRolloutRowV2>(encode(j)); }

/// What to_atif wrote in a step's or the trajectory's extension (null when nothing).
Json extension_of(const std::optional<Nullable<Json>>& extra) {
    if (!extra || extra->is_null()) return Json();
    const auto it = (*extra)->find("sediment_rows");
    return it == (*extra)->end() ? Json() : *it;
}

}  // namespace

TEST_CASE("convert: a rich trajectory gives the row the mapping says, and lists every value it drops") {
    const auto t = decode<NemoGymAtifTrajectory>(test::kTrajectory);
    const auto r = to_row_parts(t, kLossy);
    const Json input = parse(R"([{"role": "system", "parts": [{"type": "text", "content": "You are a careful engineer."}]},
        {"role": "user", "parts": [{"type": "text", "content": "Fix the test."}]}])");
    CHECK(json(r.value.responses_create_params) == Json{{"input", input}});
    const auto& turns = r.value.response.turns;
    REQUIRE(turns.size() == 2);
    CHECK(json(turns[0].new_messages) == input);
    CHECK(turns[0].completion == "Let me look.\nls");
    CHECK(json(turns[0].tool_calls) == parse(R"([{"type": "tool_call", "id": "call_1", "name": "bash", "arguments": {"command": "ls"}},
        {"type": "tool_call", "id": "call_2", "name": "noop", "arguments": {}}])"));
    CHECK(json(turns[1].new_messages) == parse(R"([
        {"role": "assistant", "parts": [{"type": "reasoning", "content": "The listing shows the parser."},
          {"type": "text", "content": "Let me look."},
          {"type": "tool_call", "id": "call_1", "name": "bash", "arguments": {"command": "ls"}},
          {"type": "tool_call", "id": "call_2", "name": "noop", "arguments": {}}]},
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "result": "parser.cpp"}]}])"));
    CHECK(turns[1].completion == "make");
    CHECK(json(turns[1].tool_calls) == parse(R"([{"type": "tool_call", "id": "call_3", "name": "bash", "arguments": {"command": "make"}}])"));
    CHECK(turns[0].decisions.empty());

    using P = std::pair<std::string, std::string>;
    CHECK(ids_and_pointers(r.losses) == std::vector<P>{
        {"rows.convert.loss.session", "/session_id"},
        {"rows.convert.loss.agent", "/agent/name"},
        {"rows.convert.loss.agent", "/agent/version"},
        {"rows.convert.loss.model_name", "/agent/model_name"},
        {"rows.convert.loss.tool_definitions", "/agent/tool_definitions"},
        {"rows.convert.loss.extra", "/agent/extra/k"},
        {"rows.convert.loss.notes", "/notes"},
        {"rows.convert.loss.metrics", "/final_metrics"},
        {"rows.convert.loss.timestamp", "/steps/0/timestamp"},
        {"rows.convert.loss.image", "/steps/1/message/1"},
        {"rows.convert.loss.timestamp", "/steps/2/timestamp"},
        {"rows.convert.loss.model_name", "/steps/2/model_name"},
        {"rows.convert.loss.reasoning_effort", "/steps/2/reasoning_effort"},
        {"rows.convert.loss.metrics", "/steps/2/metrics"},
        {"rows.convert.loss.extra", "/steps/2/extra/note"},
        {"rows.convert.loss.unpaired_result", "/steps/2/observation/results/1"},
        {"rows.convert.loss.unpaired_result", "/steps/2/observation/results/2"},
        {"rows.convert.loss.llm_call_count", "/steps/3/llm_call_count"},
    });

    SECTION("strict mode (the default) fails with exactly that list") {
        const auto errors = strict_errors(t);
        CHECK(errors == r.losses);
        CHECK_THROWS_AS(to_row_parts(t), ConvertError);
    }
}

TEST_CASE("convert: system and user steps before the first agent step are the input and turn 0's new_messages") {
    const auto r = to_row_parts(atif(R"([{"step_id": 1, "source": "user", "message": "a"},
        {"step_id": 2, "source": "system", "message": [{"type": "text", "text": "b"}, {"type": "text", "text": ""}]},
        {"step_id": 3, "source": "user", "message": ""},
        {"step_id": 4, "source": "agent", "message": "ok"}])"));
    const Json input = parse(R"([{"role": "user", "parts": [{"type": "text", "content": "a"}]},
        {"role": "system", "parts": [{"type": "text", "content": "b"}, {"type": "text", "content": ""}]},
        {"role": "user", "parts": []}])");
    CHECK(json(r.value.responses_create_params.input) == input);
    CHECK(json(r.value.response.turns.at(0).new_messages) == input);
    CHECK(r.value.response.turns[0].completion == "ok");
}

TEST_CASE("convert: a trajectory without an agent step is all input and no turn") {
    const auto r = to_row_parts(atif(R"([{"step_id": 1, "source": "system", "message": "s"}, {"step_id": 2, "source": "user", "message": "u"}])"));
    CHECK(r.value.responses_create_params.input.size() == 2);
    CHECK(r.value.response.turns.empty());
    CHECK(to_row_parts(to_atif(r.value)).value == r.value);
}

TEST_CASE("convert: completion is the text, then the arguments' string leaves by sorted key, empty items skipped") {
    RLVRInferenceMessageRow m;
    m.role = "assistant";
    m.parts = {ReasoningPart{"not scored"}, TextPart{"A"}, TextPart{""},
               ToolCallPart{"c1", "edit", parse(R"({"b": "2", "a": ["1", {"z": "3", "y": ""}], "n": 5, "t": true})")},
               TextPart{"B"}, ToolCallPart{"c2", "x", parse(R"({"é": "5", "e": "4"})")}};
    CHECK(scoring_text(m) == "A\nB\n1\n3\n2\n4\n5");
    m.parts = {ToolCallResponsePart{"c1", "not scored"}};
    CHECK(scoring_text(m).empty());
}

TEST_CASE("convert: tool results pair by source_call_id, never by position") {
    const auto r = to_row_parts(atif(R"([{"step_id": 1, "source": "user", "message": "Use both tools."},
        {"step_id": 2, "source": "agent", "message": "", "reasoning_content": "I need both.",
         "tool_calls": [{"tool_call_id": "call-a", "function_name": "lookup", "arguments": {"q": "x"}},
                        {"tool_call_id": "call-b", "function_name": "calculate", "arguments": {"x": 2}}],
         "observation": {"results": [{"source_call_id": "call-b", "content": "4"}, {"source_call_id": "call-a", "content": "found"}]}},
        {"step_id": 3, "source": "agent", "message": "The answer is 4."}])"));
    const auto& next = r.value.response.turns.at(1).new_messages;
    REQUIRE(next.size() == 3);
    CHECK(json(next[1]) == parse(R"({"role": "tool", "parts": [{"type": "tool_call_response", "id": "call-b", "result": "4"}]})"));
    CHECK(json(next[2]) == parse(R"({"role": "tool", "parts": [{"type": "tool_call_response", "id": "call-a", "result": "found"}]})"));
    CHECK(r.value.response.turns[0].completion == "x");  // the string leaf; 2 is a number
}

TEST_CASE("convert: a tool result is the content, or extra.tool_result when content is null") {
    const auto results = [](const std::string& list) {
        const auto t = atif(R"([{"step_id": 1, "source": "agent", "message": "",
            "tool_calls": [{"tool_call_id": "c", "function_name": "f", "arguments": {}}],
            "observation": {"results": )" + list + R"(}}, {"step_id": 2, "source": "agent", "message": "done"}])");
        return to_row_parts(t, kLossy);
    };
    SECTION("a string") {
        const auto r = results(R"([{"source_call_id": "c", "content": "out"}])");
        CHECK(json(r.value.response.turns[1].new_messages[1].parts) == parse(R"([{"type": "tool_call_response", "id": "c", "result": "out"}])"));
        CHECK(r.losses.empty());
    }
    SECTION("a structured value in extra.tool_result, key order and big integers kept") {
        const auto r = results(R"([{"source_call_id": "c", "content": null, "extra": {"tool_result": {"z": 1, "a": 18446744073709551616}}}])");
        REQUIRE(r.value.response.turns[1].new_messages[1].parts.size() == 1);
        CHECK(encode(r.value.response.turns[1].new_messages[1].parts[0]) ==
              R"({"type":"tool_call_response","id":"c","result":{"z":1,"a":18446744073709551616}})");
        CHECK(r.losses.empty());
    }
    SECTION("content parts as their JSON, and a tool_result beside content is listed") {
        const auto r = results(R"([{"source_call_id": "c", "content": [{"type": "text", "text": "a"}, {"type": "image", "source": {"media_type": "image/png", "path": "p.png"}}],
                                     "extra": {"tool_result": 1, "other": 2}}])");
        CHECK(json(r.value.response.turns[1].new_messages[1].parts[0]) ==
              parse(R"({"type": "tool_call_response", "id": "c", "result": [{"type": "text", "text": "a"}, {"type": "image", "source": {"media_type": "image/png", "path": "p.png"}}]})"));
        CHECK(pointers(r.losses) == std::vector<std::string>{"/steps/0/observation/results/0/extra/tool_result",
                                                             "/steps/0/observation/results/0/extra/other"});
    }
    SECTION("no content and no tool_result: null; a subagent reference is listed") {
        const auto r = results(R"([{"source_call_id": "c", "subagent_trajectory_ref": [{"trajectory_id": "t"}]}])");
        CHECK(r.value.response.turns[1].new_messages[1].parts[0] == Part(ToolCallResponsePart{"c", Json()}));
        CHECK(ids_and_pointers(r.losses) == std::vector<std::pair<std::string, std::string>>{
            {"rows.convert.loss.subagent", "/steps/0/observation/results/0/subagent_trajectory_ref"}});
    }
}

TEST_CASE("convert: user steps between agent steps follow the tool results in the next turn") {
    const auto r = to_row_parts(atif(R"([{"step_id": 1, "source": "agent", "message": "hi",
          "tool_calls": [{"tool_call_id": "c", "function_name": "f", "arguments": {}}],
          "observation": {"results": [{"source_call_id": "c", "content": "r"}]}},
        {"step_id": 2, "source": "user", "message": "more"},
        {"step_id": 3, "source": "system", "message": "note"},
        {"step_id": 4, "source": "agent", "message": "bye"}])"));
    CHECK(r.value.responses_create_params.input.empty());
    std::vector<std::string> roles;
    for (const auto& m : r.value.response.turns.at(1).new_messages) roles.push_back(m.role);
    CHECK(roles == std::vector<std::string>{"assistant", "tool", "user", "system"});
}

TEST_CASE("convert: inference_call_id is deterministic, one per step, or the extension's") {
    const std::string steps = R"([{"step_id": 1, "source": "agent", "message": "a"}, {"step_id": 2, "source": "agent", "message": "b"}])";
    const auto a = to_row_parts(atif(steps)).value.response.turns;
    const auto b = to_row_parts(atif(steps)).value.response.turns;
    CHECK(a[0].inference_call_id == b[0].inference_call_id);
    CHECK(a[1].inference_call_id == b[1].inference_call_id);
    CHECK(a[0].inference_call_id != a[1].inference_call_id);
    CHECK(a[0].inference_call_id.size() == 19);
    CHECK(a[0].inference_call_id.rfind("ic_", 0) == 0);
    const auto other = to_row_parts(atif(R"([{"step_id": 1, "source": "agent", "message": "a"}, {"step_id": 2, "source": "agent", "message": "c"}])"));
    CHECK(other.value.response.turns[0].inference_call_id != a[0].inference_call_id);
    const auto given = to_row_parts(atif(R"([{"step_id": 1, "source": "agent", "message": "a", "extra": {"sediment_rows": {"inference_call_id": "ic_mine"}}}])"));
    CHECK(given.value.response.turns[0].inference_call_id == "ic_mine");
}

TEST_CASE("convert: the last turn keeps its output only as completion and tool_calls") {
    const auto lossy = [](const std::string& last) {
        return to_row_parts(atif(R"([{"step_id": 1, "source": "user", "message": "go"}, )" + last + "]"), kLossy);
    };
    SECTION("text before the argument text survives; reasoning, finish_reason and results are listed") {
        const auto r = lossy(R"({"step_id": 2, "source": "agent", "message": "Running it.", "reasoning_content": "why",
            "tool_calls": [{"tool_call_id": "c", "function_name": "bash", "arguments": {"command": "make"}}],
            "observation": {"results": [{"source_call_id": "c", "content": "ok"}]},
            "extra": {"sediment_rows": {"finish_reason": "tool_calls"}}})");
        CHECK(r.value.response.turns.at(0).completion == "Running it.\nmake");
        CHECK(ids_and_pointers(r.losses) == std::vector<std::pair<std::string, std::string>>{
            {"rows.convert.loss.last_output", "/steps/1/reasoning_content"},
            {"rows.convert.loss.last_output", "/steps/1/extra/sediment_rows/finish_reason"},
            {"rows.convert.loss.last_output", "/steps/1/observation"}});
        CHECK(to_row_parts(to_atif(r.value)).value == r.value);  // and what is kept comes back exactly
    }
    SECTION("two text parts cannot be told apart in the completion") {
        const auto r = lossy(R"({"step_id": 2, "source": "agent", "message": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})");
        CHECK(r.value.response.turns.at(0).completion == "a\nb");
        CHECK(pointers(r.losses) == std::vector<std::string>{"/steps/1/message"});
    }
    SECTION("an image part alone is listed, the text is not") {
        const auto r = lossy(R"({"step_id": 2, "source": "agent", "message": [{"type": "text", "text": "a"}, {"type": "image", "source": {"media_type": "image/gif", "path": "x.gif"}}]})");
        CHECK(pointers(r.losses) == std::vector<std::string>{"/steps/1/message/1"});
    }
    SECTION("steps after the last agent step are listed whole") {
        const auto r = lossy(R"({"step_id": 2, "source": "agent", "message": "a"}, {"step_id": 3, "source": "user", "message": "thanks", "timestamp": "2026-01-01"})");
        CHECK(ids_and_pointers(r.losses) == std::vector<std::pair<std::string, std::string>>{{"rows.convert.loss.after_last_turn", "/steps/2"}});
        CHECK(r.value.response.turns.size() == 1);
    }
}

TEST_CASE("convert: each ATIF-only field is listed where it is") {
    using P = std::pair<std::string, std::string>;
    const auto losses = [](const std::string& step_fields, const std::string& more = "") {
        return ids_and_pointers(to_row_parts(atif(R"([{"step_id": 1, "source": "agent", "message": "a")" + step_fields + "}]", more), kLossy).losses);
    };
    CHECK(losses(R"(, "metrics": {"prompt_token_ids": [1], "logprobs": [-0.1]})") == std::vector<P>{{"rows.convert.loss.metrics", "/steps/0/metrics"}});
    CHECK(losses(R"(, "is_copied_context": true)") == std::vector<P>{{"rows.convert.loss.copied_context", "/steps/0/is_copied_context"}});
    CHECK(losses(R"(, "is_copied_context": false, "llm_call_count": 1, "model_name": null)").empty());
    CHECK(losses(R"(, "llm_call_count": 2)") == std::vector<P>{{"rows.convert.loss.llm_call_count", "/steps/0/llm_call_count"}});
    CHECK(losses(R"(, "reasoning_effort": 0.5)") == std::vector<P>{{"rows.convert.loss.reasoning_effort", "/steps/0/reasoning_effort"}});
    CHECK(losses(R"(, "tool_calls": [{"tool_call_id": "c", "function_name": "f", "arguments": {}, "extra": {"a/b": 1}}])") ==
          std::vector<P>{{"rows.convert.loss.extra", "/steps/0/tool_calls/0/extra/a~1b"}});
    CHECK(losses("", R"("continued_trajectory_ref": "next.json", "subagent_trajectories": [{"x": 1}], "extra": {"k": 1},)") ==
          std::vector<P>{{"rows.convert.loss.continuation", "/continued_trajectory_ref"},
                         {"rows.convert.loss.subagent", "/subagent_trajectories/0"},
                         {"rows.convert.loss.extra", "/extra/k"}});
    CHECK(losses("", R"("subagent_trajectories": [], "notes": null, "extra": {},)").empty());
    // each is what --lossy drops, of the kind the summaries count it as
    const Error metrics = to_row_parts(atif(R"([{"step_id": 1, "source": "agent", "message": "a", "metrics": {"logprobs": [-0.1]}}])"), kLossy).losses.at(0);
    CHECK(lossy_would_drop(metrics));
    CHECK(loss_kind(metrics) == "metrics");
    CHECK_FALSE(lossy_would_drop(Error{"rows.decode.missing_key", "", "missing key 'steps'"}));
    CHECK(losses("", R"("trajectory_id": "t",)") == std::vector<P>{{"rows.convert.loss.session", "/trajectory_id"}});
}

TEST_CASE("convert: observations on a system or user step answer no tool call") {
    const auto r = to_row_parts(atif(R"([{"step_id": 1, "source": "user", "message": "u", "observation": {"results": [{"content": "x"}]}},
        {"step_id": 2, "source": "agent", "message": "a"}])"), kLossy);
    CHECK(ids_and_pointers(r.losses) == std::vector<std::pair<std::string, std::string>>{{"rows.convert.loss.unpaired_result", "/steps/0/observation"}});
    const auto empty = to_row_parts(atif(R"([{"step_id": 1, "source": "user", "message": "u", "observation": {"results": []}},
        {"step_id": 2, "source": "agent", "message": "a"}])"));
    CHECK(empty.losses.empty());
}

TEST_CASE("convert: a row becomes a valid trajectory, and comes back byte for byte") {
    const NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    const NemoGymAtifTrajectory t = to_atif(row);
    CHECK(validate(SchemaId::atif_v1_7, encode(t)).errors.empty());
    REQUIRE(t.steps.size() == 4);
    CHECK(t.steps[0].source == AtifStepSource::system);
    CHECK(t.steps[1].source == AtifStepSource::user);
    CHECK(t.steps[2].source == AtifStepSource::agent);
    CHECK(t.steps[3].source == AtifStepSource::agent);
    CHECK(t.session_id == std::optional<Nullable<std::string>>(std::string("sess_b")));
    CHECK(t.trajectory_id == std::optional<Nullable<std::string>>(std::string("org_a-sess_b-seg0")));
    CHECK(t.agent.name == "sediment-rows");
    // the first output, from its echo in turn 1
    const NemoGymAtifStep& first = t.steps[2];
    CHECK(first.reasoning_content == std::optional<Nullable<std::string>>(std::string("The listing will show the parser.")));
    CHECK(first.message == AtifContent(std::string("Let me look.")));
    CHECK(json(**first.observation) == parse(R"({"results": [{"source_call_id": "call_1", "content": null,
        "extra": {"tool_result": {"exit_code": 0, "stdout": "parser.cpp\n", "big": 18446744073709551615, "ratio": 0.1}}}]})"));
    CHECK(extension_of(first.extra) == parse(R"({"inference_call_id": "ic_0001", "finish_reason": "tool_calls",
        "decisions": [{"accepted": true, "explicit": false, "agent_harness": "claude-code", "interaction_mode": "agent", "file_path": ""}]})"));
    // the last output, from completion and tool_calls only
    CHECK(t.steps[3].message == AtifContent(std::string("Done.")));
    CHECK(extension_of(t.steps[3].extra) == parse(R"({"inference_call_id": "ic_0002"})"));
    CHECK(extension_of(t.extra).at("metadata") == json(row.metadata));
    CHECK(extension_of(t.extra).at("reward") == Json(1.0));

    const auto back = to_rollout_row<NemoGymRolloutRowV2>(t);
    CHECK(back.losses.empty());
    CHECK(back.value == row);
    CHECK(encode(back.value, Style::sediment) == encode(row, Style::sediment));
    SECTION("the row's parts alone make a trajectory without metadata") {
        const NemoGymAtifTrajectory parts = to_atif(RowParts{row.responses_create_params, row.response});
        CHECK(!parts.session_id);
        CHECK(extension_of(parts.extra).is_null());
        CHECK(to_row_parts(parts).value == RowParts{row.responses_create_params, row.response});
    }
}

TEST_CASE("convert: what the steps cannot say travels in the extension, so any valid row comes back") {
    const Json base = test::base(test::kRollout);
    const auto round_trip = [](const Json& j) {
        const NemoGymRolloutRowV2 row = row_of(j);
        const NemoGymAtifTrajectory t = to_atif(row);
        CHECK(validate(SchemaId::atif_v1_7, encode(t)).errors.empty());
        CHECK(to_rollout_row<NemoGymRolloutRowV2>(t).value == row);
        return t;
    };
    SECTION("an input that is not plain system or user text") {
        Json j = base;
        j["responses_create_params"]["input"][1]["role"] = "developer";
        j["response"]["turns"][0]["new_messages"] = j["responses_create_params"]["input"];
        const auto t = round_trip(j);
        CHECK(extension_of(t.extra).at("input") == j["responses_create_params"]["input"]);
        CHECK(t.steps[0].source == AtifStepSource::agent);
    }
    SECTION("turn 0's new_messages differ from the input") {
        Json j = base;
        j["response"]["turns"][0]["new_messages"].erase(0);
        const auto t = round_trip(j);
        CHECK(extension_of(t.steps[2].extra).at("new_messages") == j["response"]["turns"][0]["new_messages"]);
    }
    SECTION("a later turn's new_messages are not an echo, its results and plain messages") {
        Json j = base;
        auto& messages = j["response"]["turns"][1]["new_messages"];
        std::swap(messages[0], messages[1]);
        const auto t = round_trip(j);
        CHECK(extension_of(t.steps[3].extra).at("new_messages") == messages);
        CHECK(!t.steps[2].observation);  // the results live in the extension, not twice
        CHECK(!t.steps[2].reasoning_content);
    }
    SECTION("a completion the output does not give") {
        Json j = base;
        j["response"]["turns"][0]["completion"] = "something else";
        j["response"]["turns"][1]["completion"] = "";
        const auto t = round_trip(j);
        CHECK(extension_of(t.steps[2].extra).at("completion") == "something else");
        CHECK(!extension_of(t.steps[3].extra).contains("completion"));  // "" gives "": nothing to record
    }
    SECTION("tool_calls other than the output's") {
        Json j = base;
        j["response"]["turns"][0]["tool_calls"] = Json::array();
        const auto t = round_trip(j);
        CHECK(extension_of(t.steps[2].extra).at("tool_calls") == Json::array());
    }
    SECTION("a last completion that does not end with the argument text") {
        Json j = base;
        j["response"]["turns"][1]["tool_calls"] = j["response"]["turns"][0]["tool_calls"];
        j["response"]["turns"][1]["completion"] = "no arguments here";
        const auto t = round_trip(j);
        CHECK(extension_of(t.steps[3].extra).at("completion") == "no arguments here");
    }
    SECTION("no turn") {
        Json j = base;
        j["response"]["turns"] = Json::array();
        const auto t = round_trip(j);
        CHECK(t.steps.size() == 2);
    }
    SECTION("nothing at all has no ATIF form") {
        Json j = base;
        j["response"]["turns"] = Json::array();
        j["responses_create_params"]["input"] = Json::array();
        try {
            to_atif(row_of(j));
            FAIL("no error");
        } catch (const ConvertError& e) {
            CHECK(e.errors().at(0).id == "rows.convert.empty");
        }
    }
}

TEST_CASE("convert: a complete row needs metadata, from the argument or the trajectory") {
    const auto t = atif(R"([{"step_id": 1, "source": "agent", "message": "a"}])", R"("session_id": "sess_b",)");
    const NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    try {
        to_rollout_row<NemoGymRolloutRowV2>(t, std::nullopt, kLossy);
        FAIL("no error");
    } catch (const ConvertError& e) {
        CHECK(e.errors().at(0).id == "rows.convert.metadata");
    }
    const RowMetadataOf<NemoGymRolloutRowV2> metadata{row.metadata, Number(0.0)};
    const auto r = to_rollout_row<NemoGymRolloutRowV2>(t, metadata);  // strict: the session id is the metadata's
    CHECK(r.value.metadata == row.metadata);
    CHECK(r.value.reward == std::optional<Number>(Number(0.0)));
    CHECK(r.value.response.turns.size() == 1);

    SECTION("a different session id is listed") {
        RowMetadataOf<NemoGymRolloutRowV2> other = metadata;
        other.metadata.session_id = "sess_c";
        CHECK(pointers(to_rollout_row<NemoGymRolloutRowV2>(t, other, kLossy).losses) == std::vector<std::string>{"/session_id"});
    }
    SECTION("the argument replaces the trajectory's metadata, which is listed when it differs") {
        const NemoGymAtifTrajectory carried = to_atif(row);
        CHECK(to_rollout_row<NemoGymRolloutRowV2>(carried, RowMetadataOf<NemoGymRolloutRowV2>{row.metadata, row.reward}).losses.empty());
        RowMetadataOf<NemoGymRolloutRowV2> other{row.metadata, std::nullopt};
        other.metadata.segment_index = 1;
        const auto r2 = to_rollout_row<NemoGymRolloutRowV2>(carried, other, kLossy);
        CHECK(pointers(r2.losses) == std::vector<std::string>{"/extra/sediment_rows/metadata", "/extra/sediment_rows/reward"});
        CHECK(r2.value.metadata.segment_index == 1);
        CHECK(!r2.value.reward);
    }
}

TEST_CASE("convert: the extension is read strictly, each error at its place") {
    const auto errors = [](const std::string& steps, const std::string& more = "") {
        try {
            to_row_parts(atif(steps, more), kLossy);
        } catch (const ConvertError& e) {
            return e.errors();
        }
        return std::vector<Error>{};
    };
    using P = std::pair<std::string, std::string>;
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "agent", "message": "a", "extra": {"sediment_rows": {"id": "x"}}}])")) ==
          std::vector<P>{{"rows.convert.extension", "/steps/0/extra/sediment_rows"}});
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "agent", "message": "a", "extra": {"sediment_rows": {"decisions": [{"accepted": 1}]}}}])")) ==
          std::vector<P>{{"rows.decode.type", "/steps/0/extra/sediment_rows/decisions/0/accepted"},
                         {"rows.decode.missing_key", "/steps/0/extra/sediment_rows/decisions/0"},
                         {"rows.decode.missing_key", "/steps/0/extra/sediment_rows/decisions/0"},
                         {"rows.decode.missing_key", "/steps/0/extra/sediment_rows/decisions/0"},
                         {"rows.decode.missing_key", "/steps/0/extra/sediment_rows/decisions/0"}});
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "user", "message": "a", "extra": {"sediment_rows": {}}}])")) ==
          std::vector<P>{{"rows.convert.extension", "/steps/0/extra/sediment_rows"}});
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "agent", "message": "a"}])", R"("extra": {"sediment_rows": []},)")) ==
          std::vector<P>{{"rows.decode.type", "/extra/sediment_rows"}});
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "user", "message": "a"}, {"step_id": 2, "source": "agent", "message": "b"}])",
                                  R"("extra": {"sediment_rows": {"input": []}},)")) ==
          std::vector<P>{{"rows.convert.extension", "/extra/sediment_rows/input"}});
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "agent", "message": "a"}, {"step_id": 2, "source": "user", "message": "u"},
        {"step_id": 3, "source": "agent", "message": "b", "extra": {"sediment_rows": {"new_messages": []}}}])")) ==
          std::vector<P>{{"rows.convert.extension", "/steps/2/extra/sediment_rows/new_messages"}});
    // the trajectory's metadata is read under the rollout version it names, which it must name
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "agent", "message": "a"}])",
                                  R"("extra": {"sediment_rows": {"metadata": {"org_id": 1}}},)")) ==
          std::vector<P>{{"rows.decode.missing_key", "/extra/sediment_rows/metadata"}});
    CHECK(ids_and_pointers(errors(R"([{"step_id": 1, "source": "agent", "message": "a"}])",
                                  R"("extra": {"sediment_rows": {"metadata": {"org_id": 1, "schema_id": "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v3.json"}}},)"))
              .at(0) == P{"rows.decode.type", "/extra/sediment_rows/metadata/org_id"});
}

TEST_CASE("convert: a value built in C++ is checked first, as decode() would") {
    NemoGymAtifTrajectory t = atif(R"([{"step_id": 1, "source": "agent", "message": "a"}])");
    t.steps[0].step_id = 2;
    try {
        to_row_parts(t);
        FAIL("no error");
    } catch (const ConvertError& e) {
        CHECK(ids_and_pointers(e.errors()) == std::vector<std::pair<std::string, std::string>>{{"rows.decode.atif_step_id", "/steps/0/step_id"}});
    }
    NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    row.response.turns[0].completion = "\xff";
    try {
        to_atif(row);
        FAIL("no error");
    } catch (const ConvertError& e) {
        CHECK(e.errors().at(0).pointer == "/response/turns/0/completion");
    }
}

TEST_CASE("convert: RowMetadataOf<NemoGymRolloutRowV2> reads the two members of a row beside its parts") {
    const Json row = test::base(test::kRollout);
    RowMetadataOf<NemoGymRolloutRowV2> m;
    std::vector<Error> errors;
    CHECK(decode(encode(Json{{"reward", 0}, {"metadata", row["metadata"]}}), m, errors));
    CHECK(errors.empty());
    CHECK(m.reward == std::optional<Number>(Number(0)));
    CHECK(m.metadata == decode<NemoGymRolloutRowV2>(test::kRow).metadata);
    CHECK(!decode(R"({"reward": 1})", m, errors));
    CHECK(ids_and_pointers(errors) == std::vector<std::pair<std::string, std::string>>{{"rows.decode.missing_key", ""}});
    errors.clear();
    CHECK(!decode(encode(Json{{"metadata", row["metadata"]}, {"response", 1}}), m, errors));
    CHECK(ids_and_pointers(errors) == std::vector<std::pair<std::string, std::string>>{{"rows.decode.unknown_key", ""}});
}
