// repair() (docs/atif.md, "Repairing a trajectory"): each repair before and after, with its id, its
// pointer and whether it is lossy; the refusals; valid documents byte for byte. The expected outputs
// are written out by hand.
#include <catch2/catch.hpp>

#include <sstream>

#include "cli.hpp"

using namespace sediment::rows;
using test::cli;

namespace {

/// A trajectory of `steps` (JSON text of the array's items), with `head` before the agent and `tail`
/// after the steps.
std::string doc(const std::string& steps, const std::string& tail = "", const std::string& head = R"("schema_version":"ATIF-v1.7",)") {
    return "{" + head + R"("agent":{"name":"a","version":"1"},"steps":[)" + steps + "]" + tail + "}";
}

const std::string kUser = R"({"step_id":1,"source":"user","message":"hi"})";

/// An agent step 1 with `calls` (the tool_calls array's items) and `results` (the observation's).
std::string agent_step(const std::string& calls, const std::string& results, const std::string& more = "") {
    return R"({"step_id":1,"source":"agent","message":"ok","tool_calls":[)" + calls + R"(],"observation":{"results":[)" + results + "]}" + more + "}";
}

struct Expected {
    std::string id, pointer;
    bool lossy;
};

std::vector<std::string> listed(const std::vector<Repair>& repairs) {
    std::vector<std::string> out;
    for (const Repair& r : repairs) out.push_back(r.id + " " + r.pointer + (r.lossy ? " lossy" : ""));
    return out;
}
std::vector<std::string> listed(const std::vector<Expected>& expected) {
    std::vector<std::string> out;
    for (const Expected& e : expected) out.push_back(e.id + " " + e.pointer + (e.lossy ? " lossy" : ""));
    return out;
}

/// `in` repairs to `out` with exactly the repairs `expected`: without lossy mode too when none is
/// lossy, else it is refused there, each lossy repair an error at its place. The output is valid, and
/// repairing it again changes nothing.
void check(const std::string& in, const std::string& out, const std::vector<Expected>& expected, SchemaId schema = SchemaId::atif) {
    INFO(in);
    CHECK_FALSE(validate(schema, in).errors.empty());
    const Repaired lossy = repair(in, schema, RepairOptions{true});
    REQUIRE(lossy.errors == std::vector<Error>{});
    CHECK(lossy.text == out);
    CHECK(listed(lossy.repairs) == listed(expected));
    CHECK(validate(schema, lossy.text).errors == std::vector<Error>{});
    const Repaired strict = repair(in, schema);
    std::vector<std::string> needed;
    for (const Expected& e : expected)
        if (e.lossy) needed.push_back(e.id + " " + e.pointer);
    if (needed.empty()) {
        CHECK(strict.text == out);
        CHECK(strict.repairs == lossy.repairs);
    } else {
        CHECK_FALSE(strict.ok());
        CHECK(strict.text.empty());
        CHECK(strict.repairs.empty());
        std::vector<std::string> errors;
        for (const Error& e : strict.errors) {
            errors.push_back(e.id + " " + e.pointer);
            CHECK(e.message.rfind("needs --lossy: ", 0) == 0);
        }
        CHECK(errors == needed);
    }
    const Repaired again = repair(lossy.text, schema);
    CHECK(again.text == lossy.text);
    CHECK(again.repairs.empty());
}

/// `in` is refused with one error at `pointer` whose message holds `why`, in either mode.
void refused(const std::string& in, const std::string& pointer, const std::string& why) {
    INFO(in);
    for (const bool lossy : {false, true}) {
        const Repaired r = repair(in, SchemaId::atif, RepairOptions{lossy});
        CHECK_FALSE(r.ok());
        CHECK(r.text.empty());
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].id == "rows.repair.refused");
        CHECK(r.errors[0].pointer == pointer);
        CHECK_THAT(r.errors[0].message, Catch::Contains(why));
    }
}

}  // namespace

TEST_CASE("repair: a valid document comes back byte for byte, with no repair") {
    const std::string valid = "{ \"schema_version\" : \"ATIF-v1.6\",\n  \"agent\": {\"name\": \"a\", \"version\": \"1\", \"extra\": {\"x\": 1.50, \"y\": 1E5}},\n"
                              "  \"steps\": [{\"step_id\": 1, \"source\": \"user\", \"message\": \"\\u00e9\"}]}\n";
    REQUIRE(validate(SchemaId::atif, valid).errors.empty());
    for (const bool lossy : {false, true}) {
        const Repaired r = repair(valid, SchemaId::atif, RepairOptions{lossy, Style::sediment});
        CHECK(r.ok());
        CHECK(r.text == valid);
        CHECK(r.repairs.empty());
        CHECK_FALSE(r.changed());
    }
}

TEST_CASE("repair: an unknown key moves into its object's extra, or goes where there is none") {
    check(doc(kUser, R"(,"debug":{"a":1.50})"), doc(kUser, R"(,"extra":{"debug":{"a":1.50}})"), {{"rows.repair.unknown_key", "/debug", false}});
    check(doc(kUser, R"(,"extra":{"debug":1},"debug":2)"), doc(kUser, R"(,"extra":{"debug":1,"debug__2":2})"),
          {{"rows.repair.unknown_key", "/debug", false}});
    check(R"({"agent":{"name":"a","version":"1","tools":[]},"steps":[)" + kUser + "]}",
          R"({"agent":{"name":"a","version":"1","extra":{"tools":[]}},"steps":[)" + kUser + "]}", {{"rows.repair.unknown_key", "/agent/tools", false}});
    check(doc(R"({"step_id":1,"source":"user","message":"hi","role":"user"})"), doc(R"({"step_id":1,"source":"user","message":"hi","extra":{"role":"user"}})"),
          {{"rows.repair.unknown_key", "/steps/0/role", false}});
    check(doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{},"type":"function"})", R"({"source_call_id":"c","is_error":false})")),
          doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{},"extra":{"type":"function"}})", R"({"source_call_id":"c","extra":{"is_error":false}})")),
          {{"rows.repair.unknown_key", "/steps/0/tool_calls/0/type", false}, {"rows.repair.unknown_key", "/steps/0/observation/results/0/is_error", false}});
    check(doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"prompt_tokens":1,"latency_ms":5}})", R"(,"final_metrics":{"total_steps":1,"wall":2})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"prompt_tokens":1,"extra":{"latency_ms":5}}})", R"(,"final_metrics":{"total_steps":1,"extra":{"wall":2}})"),
          {{"rows.repair.unknown_key", "/steps/0/metrics/latency_ms", false}, {"rows.repair.unknown_key", "/final_metrics/wall", false}});
    // an observation has no extra: lossy
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[],"status":"ok"}})"),
          doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[]}})"), {{"rows.repair.unknown_key", "/steps/0/observation/status", true}});
    // an extra that is not an object keeps its value as _raw, whatever else moves into it
    check(doc(kUser, R"(,"extra":"note","debug":1)"), doc(kUser, R"(,"extra":{"_raw":"note","debug":1})"),
          {{"rows.repair.extra", "/extra", false}, {"rows.repair.unknown_key", "/debug", false}});
    check(doc(R"({"step_id":1,"source":"user","message":"m","extra":[1,2]})"), doc(R"({"step_id":1,"source":"user","message":"m","extra":{"_raw":[1,2]}})"),
          {{"rows.repair.extra", "/steps/0/extra", false}});
}

TEST_CASE("repair: step ids renumbered 1..n, the written one kept") {
    check(doc(R"({"step_id":3,"source":"user","message":"a"},{"step_id":2,"source":"user","message":"b"},{"source":"user","message":"c"})"),
          doc(R"({"step_id":1,"source":"user","message":"a","extra":{"step_id":3}},{"step_id":2,"source":"user","message":"b"},{"source":"user","message":"c","step_id":3})"),
          {{"rows.repair.step_id", "/steps/0/step_id", false}, {"rows.repair.step_id", "/steps/2/step_id", false}});
    check(doc(R"({"step_id":"1","source":"user","message":"a"})"), doc(kUser.substr(0, 12) + R"(,"source":"user","message":"a"})"),
          {{"rows.repair.type", "/steps/0/step_id", false}});
}

TEST_CASE("repair: tool call ids, names and arguments") {
    SECTION("a missing id is invented (lossy); a repeated one renamed, the written one kept") {
        check(doc(agent_step(R"({"function_name":"f","arguments":{}},{"tool_call_id":null,"function_name":"g","arguments":{}})", "")),
              doc(agent_step(R"({"function_name":"f","arguments":{},"tool_call_id":"call_1_1"},{"tool_call_id":"call_1_2","function_name":"g","arguments":{}})", "")),
              {{"rows.repair.tool_call_id", "/steps/0/tool_calls/0/tool_call_id", true}, {"rows.repair.tool_call_id", "/steps/0/tool_calls/1/tool_call_id", true}});
        check(doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{}},{"tool_call_id":"c","function_name":"g","arguments":{}})", R"({"source_call_id":"c"})")),
              doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{}},{"tool_call_id":"c__2","function_name":"g","arguments":{},"extra":{"tool_call_id":"c"}})",
                             R"({"source_call_id":"c"})")),
              {{"rows.repair.tool_call_id", "/steps/0/tool_calls/1/tool_call_id", false}});
        check(doc(agent_step(R"({"tool_call_id":7,"function_name":"f","arguments":{}})", R"({"source_call_id":"7"})")),
              doc(agent_step(R"({"tool_call_id":"7","function_name":"f","arguments":{}})", R"({"source_call_id":"7"})")),
              {{"rows.repair.type", "/steps/0/tool_calls/0/tool_call_id", false}});
    }
    SECTION("a result naming no call of its step keeps the name in its extra") {
        check(doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{}})", R"({"source_call_id":"other","content":"x"})")),
              doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{}})", R"({"content":"x","extra":{"source_call_id":"other"}})")),
              {{"rows.repair.source_call_id", "/steps/0/observation/results/0/source_call_id", false}});
    }
    SECTION("a missing function name is unknown_tool (lossy)") {
        check(doc(agent_step(R"({"tool_call_id":"c","arguments":{}})", "")), doc(agent_step(R"({"tool_call_id":"c","arguments":{},"function_name":"unknown_tool"})", "")),
              {{"rows.repair.function_name", "/steps/0/tool_calls/0/function_name", true}});
    }
    SECTION("arguments") {
        const auto call = [](const std::string& arguments) { return doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":)" + arguments + "}", "")); };
        check(call("null"), call("{}"), {{"rows.repair.arguments", "/steps/0/tool_calls/0/arguments", true}});
        check(doc(agent_step(R"({"tool_call_id":"c","function_name":"f"})", "")), call("{}"),
              {{"rows.repair.arguments", "/steps/0/tool_calls/0/arguments", true}});
        check(call(R"("{\"cmd\": \"ls\", \"n\": 1.50}")"), call(R"({"cmd":"ls","n":1.50})"), {{"rows.repair.arguments", "/steps/0/tool_calls/0/arguments", false}});
        check(call(R"("ls -la")"), call(R"({"_raw":"ls -la"})"), {{"rows.repair.arguments", "/steps/0/tool_calls/0/arguments", false}});
        check(call(R"("[1]")"), call(R"({"_raw":"[1]"})"), {{"rows.repair.arguments", "/steps/0/tool_calls/0/arguments", false}});
        check(call("[1,2]"), call(R"({"_raw":[1,2]})"), {{"rows.repair.arguments", "/steps/0/tool_calls/0/arguments", false}});
    }
}

TEST_CASE("repair: agent-only fields, llm_call_count 0, timestamps") {
    check(doc(R"({"step_id":1,"source":"system","message":"s","model_name":"m","tool_calls":[],"metrics":null})"),
          doc(R"({"step_id":1,"source":"system","message":"s","metrics":null,"extra":{"model_name":"m","tool_calls":[]}})"),
          {{"rows.repair.agent_only", "/steps/0/model_name", false}, {"rows.repair.agent_only", "/steps/0/tool_calls", false}});
    check(doc(R"({"step_id":1,"source":"agent","message":"m","llm_call_count":0,"reasoning_content":"r","metrics":{},"reasoning_effort":"low"})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","llm_call_count":0,"reasoning_effort":"low","extra":{"reasoning_content":"r","metrics":{}}})"),
          {{"rows.repair.llm_call_count", "/steps/0/reasoning_content", false}, {"rows.repair.llm_call_count", "/steps/0/metrics", false}});
    check(doc(R"({"step_id":1,"source":"user","message":"m","timestamp":"yesterday"})"), doc(R"({"step_id":1,"source":"user","message":"m","extra":{"timestamp":"yesterday"}})"),
          {{"rows.repair.timestamp", "/steps/0/timestamp", false}});
    // re-cased sources; an assistant is the agent (lossy: the value changes); others cannot be told
    check(doc(R"({"step_id":1,"source":" User","message":"m"},{"step_id":2,"source":"assistant","message":"m"})"),
          doc(R"({"step_id":1,"source":"user","message":"m"},{"step_id":2,"source":"agent","message":"m"})"),
          {{"rows.repair.source", "/steps/0/source", false}, {"rows.repair.source", "/steps/1/source", true}});
}

TEST_CASE("repair: final_metrics.total_steps recomputed where the schema refuses it") {
    check(doc(kUser, R"(,"final_metrics":{"total_steps":-1})"), doc(kUser, R"(,"final_metrics":{"total_steps":1,"extra":{"total_steps":-1}})"),
          {{"rows.repair.total_steps", "/final_metrics/total_steps", false}});
    check(doc(kUser, R"(,"final_metrics":{"total_steps":"2"})"), doc(kUser, R"(,"final_metrics":{"total_steps":2})"),
          {{"rows.repair.type", "/final_metrics/total_steps", false}});
    // Harbor does not compare it with the steps; the subset does
    const std::string five = doc(kUser, R"(,"final_metrics":{"total_steps":5})");
    CHECK(validate(SchemaId::atif, five).errors.empty());
    check(five, doc(kUser, R"(,"final_metrics":{"total_steps":1,"extra":{"total_steps":5}})"), {{"rows.repair.total_steps", "/final_metrics/total_steps", false}},
          SchemaId::atif_v1_7);
}

TEST_CASE("repair: schema_version labels") {
    const std::string tail = R"("agent":{"name":"a","version":"1"},"steps":[)" + kUser + "]}";
    for (const char* loose : {R"("atif-v1.7")", R"("1.7")", "1.7", R"("ATIF_V1.7")", R"(" v1.7 ")"})
        check(std::string(R"({"schema_version":)") + loose + "," + tail, R"({"schema_version":"ATIF-v1.7",)" + tail,
              {{"rows.repair.schema_version", "/schema_version", false}});
    check(R"({"schema_version":null,)" + tail, "{" + tail, {{"rows.repair.schema_version", "/schema_version", false}});
    check(R"({"schema_version":"2.0",)" + tail, "{" + tail, {{"rows.repair.schema_version", "/schema_version", true}});
}

TEST_CASE("repair: content parts") {
    const auto message = [](const std::string& parts, const char* label = "ATIF-v1.7") {
        return doc(R"({"step_id":1,"source":"user","message":)" + parts + "}", "", std::string(R"("schema_version":")") + label + "\",");
    };
    check(message(R"({"type":"text","text":"t"})"), message(R"([{"type":"text","text":"t"}])"), {{"rows.repair.list", "/steps/0/message", false}});
    check(message(R"([{"text":"t"},"u",{"source":{"media_type":"image/png","path":"a.png"}}])"),
          message(R"([{"text":"t","type":"text"},{"type":"text","text":"u"},{"source":{"media_type":"image/png","path":"a.png"},"type":"image"}])"),
          {{"rows.repair.part_type", "/steps/0/message/0/type", false}, {"rows.repair.part_type", "/steps/0/message/1", false},
           {"rows.repair.part_type", "/steps/0/message/2/type", false}});
    check(message(R"([{"type":"Text","text":"t"}])"), message(R"([{"type":"text","text":"t"}])"), {{"rows.repair.part_type", "/steps/0/message/0/type", false}});
    check(message(R"([{"type":"text","text":"t","source":{"media_type":"image/png","path":"a"}},{"type":"image","text":"x","source":{"media_type":"image/png","path":"a"}},{"type":"text"}])"),
          message(R"([{"type":"text","text":"t"},{"type":"image","source":{"media_type":"image/png","path":"a"}},{"type":"text","text":""}])"),
          {{"rows.repair.part_stray", "/steps/0/message/0/source", true}, {"rows.repair.part_stray", "/steps/0/message/1/text", true},
           {"rows.repair.part_text", "/steps/0/message/2/text", true}});
    check(message(R"([{"type":"video","url":"v"},{"type":"text","text":"t"},{"role":"user","content":"c"}])"), message(R"([{"type":"text","text":"t"}])"),
          {{"rows.repair.part_dropped", "/steps/0/message/0", true}, {"rows.repair.part_dropped", "/steps/0/message/2", true}});
    // audio: Harbor's spellings of a media type, and the label audio needs
    check(message(R"([{"type":"audio","source":{"media_type":" Audio/MP3","path":"a.mp3"}}])", "ATIF-v1.8"),
          message(R"([{"type":"audio","source":{"media_type":"audio/mpeg","path":"a.mp3"}}])", "ATIF-v1.8"),
          {{"rows.repair.media_type", "/steps/0/message/0/source/media_type", false}});
    check(message(R"([{"type":"audio","source":{"media_type":"audio/mp3","path":"a.mp3","duration_sec":"1.5"}}])", "ATIF-v1.6"),
          message(R"([{"type":"audio","source":{"media_type":"audio/mp3","path":"a.mp3","duration_sec":1.5}}])", "ATIF-v1.8"),
          {{"rows.repair.type", "/steps/0/message/0/source/duration_sec", false}, {"rows.repair.audio_label", "/schema_version", false}});
    // an observation result's content too
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[{"content":{"text":"r"}}]}})"),
          doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[{"content":[{"text":"r","type":"text"}]}]}})"),
          {{"rows.repair.list", "/steps/0/observation/results/0/content", false}, {"rows.repair.part_type", "/steps/0/observation/results/0/content/0/type", false}});
}

TEST_CASE("repair: observations, references and embedded subagents") {
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":{}})"), doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[]}})"),
          {{"rows.repair.results", "/steps/0/observation/results", false}});
    const std::string sub = R"({"trajectory_id":"s1","agent":{"name":"b","version":"1"},"steps":[)" + kUser + "]}";
    const std::string subs = R"(,"subagent_trajectories":[)" + sub + "]";
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[{"subagent_trajectory_ref":[{"trajectory_id":"s1"},{"trajectory_id":"nope"},{"session_id":"x"}]}]}})", subs),
          doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[{"subagent_trajectory_ref":[{"trajectory_id":"s1"}],"extra":{"subagent_trajectory_ref":[{"trajectory_id":"nope"},{"session_id":"x"}]}}]}})", subs),
          {{"rows.repair.subagent_ref", "/steps/0/observation/results/0/subagent_trajectory_ref/1", false},
           {"rows.repair.subagent_ref", "/steps/0/observation/results/0/subagent_trajectory_ref/2", false}});
    const std::string unnamed = R"({"agent":{"name":"b","version":"1"},"steps":[)" + kUser + "]}";
    check(doc(kUser, R"(,"subagent_trajectories":[)" + sub + "," + sub + "," + unnamed + "]"),
          doc(kUser, R"(,"subagent_trajectories":[)" + sub + "," + R"({"trajectory_id":"s1__2","agent":{"name":"b","version":"1"},"steps":[)" + kUser +
                         R"(],"extra":{"trajectory_id":"s1"}},{"agent":{"name":"b","version":"1"},"steps":[)" + kUser + R"(],"trajectory_id":"subagent_3"})" + "]"),
          {{"rows.repair.trajectory_id", "/subagent_trajectories/1/trajectory_id", false}, {"rows.repair.trajectory_id", "/subagent_trajectories/2/trajectory_id", true}});
    // an embedded subagent is repaired as a trajectory, its pointers under its place
    check(doc(kUser, R"(,"subagent_trajectories":[{"trajectory_id":"s","agent":{"name":"b","version":"1"},"steps":[{"step_id":9,"source":"user","message":"m"}]}])"),
          doc(kUser, R"(,"subagent_trajectories":[{"trajectory_id":"s","agent":{"name":"b","version":"1"},"steps":[{"step_id":1,"source":"user","message":"m","extra":{"step_id":9}}]}])"),
          {{"rows.repair.step_id", "/subagent_trajectories/0/steps/0/step_id", false}});
}

TEST_CASE("repair: values Harbor's model coerces are written in their type") {
    check(doc(R"({"step_id":1,"source":"agent","message":"m","llm_call_count":"2","is_copied_context":"yes","metrics":{"prompt_tokens":64.0,"completion_tokens":true,"cached_tokens":" +1_0 ","cost_usd":"0.25","logprobs":["-0.5",1]}})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","llm_call_count":2,"is_copied_context":true,"metrics":{"prompt_tokens":64,"completion_tokens":1,"cached_tokens":10,"cost_usd":0.25,"logprobs":[-0.5,1]}})"),
          {{"rows.repair.type", "/steps/0/llm_call_count", false}, {"rows.repair.type", "/steps/0/is_copied_context", false},
           {"rows.repair.type", "/steps/0/metrics/prompt_tokens", false}, {"rows.repair.type", "/steps/0/metrics/completion_tokens", false},
           {"rows.repair.type", "/steps/0/metrics/cached_tokens", false}, {"rows.repair.type", "/steps/0/metrics/cost_usd", false},
           {"rows.repair.type", "/steps/0/metrics/logprobs/0", false}});
    check(doc(R"({"step_id":1,"source":"agent","message":"m","is_copied_context":1,"metrics":{"cost_usd":".5","prompt_tokens":"2.00"}})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","is_copied_context":true,"metrics":{"cost_usd":0.5,"prompt_tokens":2}})"),
          {{"rows.repair.type", "/steps/0/is_copied_context", false}, {"rows.repair.type", "/steps/0/metrics/cost_usd", false},
           {"rows.repair.type", "/steps/0/metrics/prompt_tokens", false}});
    // what pydantic refuses too stays wrong: moved into extra
    check(doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"prompt_tokens":"2.5","extra":{}}})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"extra":{"prompt_tokens":"2.5"}}})"),
          {{"rows.repair.invalid_value", "/steps/0/metrics/prompt_tokens", false}});
}

TEST_CASE("repair: required values Harbor's model needs, and items that are not objects") {
    check(R"({"agent":{"name":"a"},"steps":[)" + kUser + "]}", R"({"agent":{"name":"a","version":"unknown"},"steps":[)" + kUser + "]}",
          {{"rows.repair.agent_version", "/agent/version", true}});
    check(R"({"agent":{"name":"a","version":{"major":1}},"steps":[)" + kUser + "]}",
          R"({"agent":{"name":"a","version":"unknown","extra":{"version":{"major":1}}},"steps":[)" + kUser + "]}",
          {{"rows.repair.agent_version", "/agent/version", true}});
    check(doc(R"({"step_id":1,"source":"user"},{"step_id":2,"source":"user","message":null})"),
          doc(R"({"step_id":1,"source":"user","message":""},{"step_id":2,"source":"user","message":""})"),
          {{"rows.repair.message", "/steps/0/message", true}, {"rows.repair.message", "/steps/1/message", true}});
    check(doc(R"({"step_id":1,"source":"user","message":42})"), doc(R"({"step_id":1,"source":"user","message":"42"})"),
          {{"rows.repair.type", "/steps/0/message", false}});
    check(doc(agent_step(R"("ls",{"tool_call_id":"c","function_name":"f","arguments":{}})", R"(1,{"source_call_id":"c"})")),
          doc(agent_step(R"({"tool_call_id":"c","function_name":"f","arguments":{}})", R"({"source_call_id":"c"})")),
          {{"rows.repair.tool_call_dropped", "/steps/0/tool_calls/0", true}, {"rows.repair.result_dropped", "/steps/0/observation/results/0", true}});
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":"none"}})"),
          doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[]}})"), {{"rows.repair.results", "/steps/0/observation/results", true}});
    check(R"({"agent":{"name":"a","version":"1","tool_definitions":[{"name":"f"},"g"]},"steps":[)" + kUser + "]}",
          R"({"agent":{"name":"a","version":"1","extra":{"tool_definitions":[{"name":"f"},"g"]}},"steps":[)" + kUser + "]}",
          {{"rows.repair.invalid_value", "/agent/tool_definitions", false}});
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[{"subagent_trajectory_ref":"sub-1"}]}})", R"(,"subagent_trajectories":7)"),
          doc(R"({"step_id":1,"source":"user","message":"m","observation":{"results":[{"extra":{"subagent_trajectory_ref":"sub-1"}}]}})", R"(,"extra":{"subagent_trajectories":7})"),
          {{"rows.repair.invalid_value", "/subagent_trajectories", false},
           {"rows.repair.invalid_value", "/steps/0/observation/results/0/subagent_trajectory_ref", false}});
    check(doc(R"({"step_id":1,"source":"user","message":"m","observation":"none"})"),
          doc(R"({"step_id":1,"source":"user","message":"m","extra":{"observation":"none"}})"), {{"rows.repair.invalid_value", "/steps/0/observation", false}});
}

TEST_CASE("repair: what Python's json reads and strict JSON does not") {
    const std::string step = R"({"step_id":1,"source":"user","message":"m"})";
    check(doc(step, R"(,"notes":"a","notes":"a")"), doc(step, R"(,"notes":"a")"), {{"rows.repair.duplicate_key", "/notes", false}});
    check(doc(step, R"(,"notes":"a","notes":"b")"), doc(step, R"(,"notes":"b")"), {{"rows.repair.duplicate_key", "/notes", true}});
    check(doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"cost_usd":NaN,"logprobs":[-Infinity]}})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"cost_usd":null,"extra":{"logprobs":[null]}}})"),
          {{"rows.repair.non_finite", "/steps/0/metrics/cost_usd", true}, {"rows.repair.non_finite", "/steps/0/metrics/logprobs/0", true},
           {"rows.repair.invalid_value", "/steps/0/metrics/logprobs", false}});
    check(doc(R"({"step_id":1,"source":"user","message":"a\udc00b"})"), doc("{\"step_id\":1,\"source\":\"user\",\"message\":\"a\xEF\xBF\xBD" "b\"}"),
          {{"rows.repair.lone_surrogate", "/steps/0/message", true}});
}

TEST_CASE("repair: NeMo Gym's subset") {
    const std::string step = R"({"step_id":1,"source":"agent","message":"m","llm_call_count":0,"reasoning_effort":"low","metrics":null})";
    check(doc(step, "", R"("schema_version":"ATIF-v1.6",)"), doc(R"({"step_id":1,"source":"agent","message":"m","llm_call_count":0,"metrics":null,"extra":{"reasoning_effort":"low"}})"),
          {{"rows.repair.llm_call_count", "/steps/0/reasoning_effort", false}, {"rows.repair.schema_version", "/schema_version", false}}, SchemaId::atif_v1_7);
    check(doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"prompt_tokens":-3,"cost_usd":0.10000000000000001}})"),
          doc(R"({"step_id":1,"source":"agent","message":"m","metrics":{"cost_usd":0.1,"extra":{"prompt_tokens":-3}}})"),
          {{"rows.repair.decimal", "/steps/0/metrics/cost_usd", false}, {"rows.repair.invalid_value", "/steps/0/metrics/prompt_tokens", false}}, SchemaId::atif_v1_7);
    // an audio part has no v1.7 form: dropped (lossy), as upgrade --lossy drops it
    check(doc(R"({"step_id":1,"source":"user","message":[{"type":"audio","source":{"media_type":"audio/wav","path":"a.wav"}}]})", "", R"("schema_version":"ATIF-v1.8",)"),
          doc(R"({"step_id":1,"source":"user","message":[]})"),
          {{"rows.repair.schema_version", "/schema_version", false}, {"rows.repair.part_dropped", "/steps/0/message/0", true}}, SchemaId::atif_v1_7);
}

TEST_CASE("repair: the refusals") {
    refused("{\"agent\": ", "", "not JSON");
    refused("[{}]", "", "the root is an array");
    refused(R"({"agent":{"name":"a","version":"1"}})", "/steps", "no steps");
    refused(R"({"agent":{"name":"a","version":"1"},"steps":[]})", "/steps", "no steps (an empty array)");
    refused(R"({"steps":[{"step_id":1,"source":"user","message":"m"}]})", "/agent", "no agent");
    refused(R"({"agent":{"version":"1"},"steps":[{"step_id":1,"source":"user","message":"m"}]})", "/agent/name", "no agent name");
    refused(R"({"agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"message":"m"}]})", "/steps/0/source", "a step without a source");
    refused(R"({"agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"source":"tool","message":"m"}]})", "/steps/0/source", "is not system, user or agent");
    CHECK_THROWS_AS(repair("{}", SchemaId::nemo_gym_rollout_v4), std::invalid_argument);
}

TEST_CASE("repair: the layout of a repaired document follows the style, every token as written") {
    const Repaired r = repair(R"({"agent":{"name":"é","version":"1","x":1.50E+2},"steps":[{"step_id":1,"source":"user","message":"\u00e9"}]})", SchemaId::atif,
                              RepairOptions{false, Style::sediment});
    REQUIRE(r.ok());
    CHECK(r.text == R"({"agent": {"name": "\u00e9", "version": "1", "extra": {"x": 1.50E+2}}, "steps": [{"step_id": 1, "source": "user", "message": "\u00e9"}]})");
}

TEST_CASE("cli: repair writes each document repaired, lists each change, and sums up") {
    test::TempDir dir;
    const std::string valid = doc(kUser);
    const std::string broken = doc(R"({"step_id":4,"source":"user","message":"hi"})", R"(,"debug":1)");
    const std::string lossy = doc(R"({"step_id":1,"source":"user","message":null})");
    const std::string file = (dir / "t.jsonl").string();
    test::write_file(file, valid + "\n" + broken + "\n" + lossy + "\n[1]\n");
    const auto r = cli("repair --schema atif " + test::quote(file));
    CHECK(r.status == 1);
    const std::string fixed = doc(R"({"step_id":1,"source":"user","message":"hi","extra":{"step_id":4}})", R"(,"extra":{"debug":1})");
    CHECK(r.out == valid + "\n" + fixed + "\n");
    CHECK(r.err == file + ":2: /debug: unknown key 'debug': moved into extra [rows.repair.unknown_key]\n" +
                       file + ":2: /steps/0/step_id: 4 renumbered 1, the step's position (the written id kept in extra) [rows.repair.step_id]\n" +
                       file + ":3: /steps/0/message: needs --lossy: null: set to \"\" [rows.repair.message]\n" +
                       file + ":4: (root): the root is an array, not a trajectory object (the line is a JSON array: JSONL holds one document per "
                       "line, so write its items one per line, or read the file as one document with --document) [rows.repair.refused]\n" +
                       "1 repaired, 2 refused, 1 unchanged\n");

    const auto with_lossy = cli("repair --schema atif --lossy " + test::quote(file));
    CHECK(with_lossy.status == 1);
    CHECK(with_lossy.out == valid + "\n" + fixed + "\n" +
                                doc(R"({"step_id":1,"source":"user","message":""})") + "\n");
    CHECK_THAT(with_lossy.err, Catch::Contains(file + ":3: /steps/0/message: null: set to \"\" [rows.repair.message]\n"));
    CHECK_THAT(with_lossy.err, Catch::EndsWith("2 repaired, 1 refused, 1 unchanged\n"));

    const auto jsonl = cli("repair --schema atif --format jsonl " + test::quote(file));
    std::vector<std::string> records;
    std::istringstream err(jsonl.err);
    for (std::string line; std::getline(err, line);) records.push_back(line);
    REQUIRE(records.size() == 6);  // four documents, the file's summary, the counts
    const Json second = Json::parse(records[1]);
    CHECK(second["repaired"] == true);
    CHECK(second["valid"] == true);
    CHECK(second["repairs"][1] == Json::parse(R"J({"id": "rows.repair.step_id", "pointer": "/steps/0/step_id", "message": "4 renumbered 1, the step's position (the written id kept in extra)", "lossy": false})J"));
    const Json third = Json::parse(records[2]);
    CHECK(third["valid"] == false);
    CHECK(third["repairs"] == Json::array());
    CHECK(third["errors"][0]["pointer"] == "/steps/0/message");
    CHECK(Json::parse(records[0])["repaired"] == false);
}

TEST_CASE("cli: repair -i rewrites a file whose documents all come out valid, and leaves the others") {
    test::TempDir dir;
    const std::string good = (dir / "good.jsonl").string(), bad = (dir / "bad.jsonl").string(), whole = (dir / "t.json").string();
    const std::string broken = doc(kUser, R"(,"debug":1)"), fixed = doc(kUser, R"(,"extra":{"debug":1})");
    test::write_file(good, doc(kUser) + "\n\n" + broken + "\n");
    test::write_file(bad, broken + "\n{\n");
    const std::string pretty = "{\n  \"agent\": {\"name\": \"a\", \"version\": \"1\"},\n  \"steps\": [" + kUser + "]\n}\n";
    test::write_file(whole, pretty);
    const auto r = cli("repair --schema atif -i -v " + test::quote(good) + " " + test::quote(bad) + " " + test::quote(whole));
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(test::read_file(good) == doc(kUser) + "\n\n" + fixed + "\n");
    CHECK(test::read_file(bad) == broken + "\n{\n");
    CHECK(test::read_file(whole) == pretty);  // valid: not touched
    CHECK_THAT(r.err, Catch::Contains(good + ": repaired\n"));
    CHECK_THAT(r.err, Catch::Contains(bad + ": left as it was (a document in it is refused)\n"));
    CHECK_THAT(r.err, Catch::Contains(whole + ": unchanged\n"));
    // a whole .json file repaired: the document and a newline
    test::write_file(whole, "{\"agent\": {\"name\": \"a\", \"version\": 1},\n \"steps\": [" + kUser + "]}\n");
    CHECK(cli("repair --schema atif -i " + test::quote(whole)).status == 0);
    CHECK(test::read_file(whole) == R"({"agent":{"name":"a","version":"1"},"steps":[)" + kUser + "]}\n");
}

TEST_CASE("cli: repair's usage errors, and its output converts as any valid trajectory does") {
    CHECK(cli("repair --schema nemo-gym-rollout.v4 -").status == 2);
    CHECK(cli("repair -").status == 2);
    CHECK(cli("repair --schema atif -i -").status == 2);
    test::TempDir dir;
    const std::string file = (dir / "t.jsonl").string();
    test::write_file(file, doc(R"({"step_id":5,"source":"User","message":"hi"},{"step_id":6,"source":"agent","message":"ok"})") + "\n");
    CHECK(cli("convert --from atif --to nemo-gym-response.v3 " + test::quote(file)).status == 1);
    const auto piped = test::run(test::quote(test::kCli) + " repair --schema atif -q " + test::quote(file) + " | " + test::quote(test::kCli) +
                                 " convert --lossy --from atif --to nemo-gym-response.v3 -");
    CHECK(piped.status == 0);
    CHECK(Json::parse(piped.out)["turns"][0]["completion"] == "ok");
}
