// Strict decoding: every rule of the schemas, with the verdict and the error's JSON Pointer.
#include <catch2/catch.hpp>

#include "detail/decode.hpp"  // exact_decode()
#include "process.hpp"
#include "rules.hpp"

using namespace sediment::rows;
using test::kRow;

namespace {
std::string first_error(const std::vector<Error>& errors) { return errors.empty() ? "" : to_string(errors.front()); }
}  // namespace

TEST_CASE("decode: every schema rule gives its verdict and pointer") {
    for (const test::RuleCase& c : test::rule_cases()) {
        DYNAMIC_SECTION(c.rule) {
            const std::string text = test::mutate(c.schema, c.change);
            const std::vector<Error> errors = validate(c.schema, text).errors;
            INFO(first_error(errors));
            if (*c.id == '\0') {
                CHECK(errors.empty());
            } else {
                REQUIRE_FALSE(errors.empty());
                CHECK(errors.front().id == c.id);
                CHECK(errors.front().pointer == c.pointer);
            }
        }
    }
}

TEST_CASE("decode: the base documents are valid") {
    for (const SchemaInfo& s : kSchemas) {
        INFO(s.name);
        CHECK(validate(s.id, encode(test::base(s.id))).errors.empty());
    }
}

TEST_CASE("decode: messages name what is wrong") {
    const auto error_of = [](SchemaId schema, const test::Change& change) {
        const auto errors = validate(schema, test::mutate(schema, change)).errors;
        REQUIRE(errors.size() == 1);
        return to_string(errors.front());
    };
    CHECK(error_of(test::kRollout, {"/metadata/debug", "1"}) == "[rows.decode.unknown_key] (/metadata) unknown key 'debug'");
    CHECK(error_of(test::kRollout, {"/metadata/org_id", ""}) == "[rows.decode.missing_key] (/metadata) missing key 'org_id'");
    CHECK(error_of(test::kRollout, {"/metadata/segment_index", "3.5"}) ==
          "[rows.decode.integer] (/metadata/segment_index) expected an integer, got 3.5");
    CHECK(error_of(test::kOutcome, {"/run_attempt", "9223372036854775808"}) ==
          "[rows.decode.range] (/run_attempt) 9223372036854775808 is outside the 64-bit signed integer range");
    CHECK(error_of(test::kOutcome, {"/run_attempt", "0"}) == "[rows.decode.range] (/run_attempt) 0 is less than the minimum 1");
    CHECK(error_of(test::kOutcome, {"/workflow_name", "null"}) ==
          "[rows.decode.type] (/workflow_name) expected a string, got null");
    CHECK(error_of(test::kOutcome, {"/provider", "\"travis\""}) ==
          "[rows.decode.enum] (/provider) 'travis' is not one of 'github_actions', 'jenkins', 'gitlab_ci', 'circleci', "
          "'buildkite', 'other'");
    CHECK(error_of(test::kOutcome, {"/schema_version", "2"}) == "[rows.decode.const] (/schema_version) expected 1, got 2");
    CHECK(error_of(test::kRollout, {"/metadata/recipe_id", "\"x\""}) ==
          "[rows.decode.const] (/metadata/recipe_id) expected 'rlvr_ci', got 'x'");
    CHECK(error_of(test::kOutcome, {"/captured_at", "\"2026-02-29T00:00:00Z\""}) ==
          "[rows.decode.format] (/captured_at) '2026-02-29T00:00:00Z' is not an RFC 3339 date-time");
    CHECK(error_of(test::kOutcome, {"/reason", "\"" + std::string(4097, 'a') + "\""}) ==
          "[rows.decode.max_length] (/reason) string of 4097 code points is longer than the maximum 4096");
    CHECK(error_of(test::kRollout, {"/response/turns/0/new_messages/0/parts/0/type", "\"image\""}) ==
          "[rows.decode.const] (/response/turns/0/new_messages/0/parts/0/type) 'image' is not one of 'text', "
          "'reasoning', 'tool_call', 'tool_call_response'");
}

TEST_CASE("decode: a bad part reports the errors of the branch its type names, once") {
    // A text part relabelled tool_call: ToolCallPart's errors only, no error per anyOf branch.
    const auto errors = validate(test::kRollout, test::mutate(test::kRollout, {"/responses_create_params/input/0/parts/0/type", "\"tool_call\""})).errors;
    std::vector<std::string> seen;
    for (const Error& e : errors) seen.push_back(to_string(e));
    const std::string at = "/responses_create_params/input/0/parts/0";
    CHECK(seen == std::vector<std::string>{
                      "[rows.decode.unknown_key] (" + at + ") unknown key 'content'",
                      "[rows.decode.missing_key] (" + at + ") missing key 'id'",
                      "[rows.decode.missing_key] (" + at + ") missing key 'name'",
                      "[rows.decode.missing_key] (" + at + ") missing key 'arguments'",
                  });
}

TEST_CASE("decode: every error of a document is reported, up to the limit") {
    std::string text = test::mutate(test::kOutcome, {"/x", "1"});
    text = test::mutate(parse(text), {"/y", "2"});
    text = test::mutate(parse(text), {"/run_attempt", "0"});
    CHECK(validate(test::kOutcome, text).errors.size() == 3);
    Limits limits;
    limits.max_errors = 2;
    CHECK(validate(test::kOutcome, text, limits).errors.size() == 2);
}

TEST_CASE("decode: values land in the typed members") {
    const auto row = decode<NemoGymRolloutRowV2>(kRow);
    SECTION("strings, integers, enums") {
        CHECK(row.metadata.instance_id == "org_a-sess_b-seg0");
        CHECK(row.metadata.segment_index == 0);
        CHECK(row.metadata.split == Split::train);
        CHECK(row.metadata.attribution_source == AttributionSource::git_notes);
        CHECK(row.response.turns.at(0).decisions.at(0).agent_harness == AgentHarness::claude_code);
        CHECK(row.responses_create_params.input.at(1).parts.size() == 1);
        CHECK(std::get<TextPart>(row.responses_create_params.input.at(1).parts[0]).content ==
              "Fix the failing test in parser.cpp \xC3\xA9\xF0\x9F\x98\x80");
    }
    SECTION("optional, never null: absent or a value") {
        REQUIRE(row.reward.has_value());
        CHECK(row.reward->value() == 1.0);
        CHECK_FALSE(row.reward->is_integer());
        CHECK(row.metadata.reward_source == RewardSource::resolved_ci_pass);
        CHECK_FALSE(row.response.turns[0].new_messages[0].finish_reason.has_value());
        CHECK(row.response.turns[1].new_messages[0].finish_reason == "tool_calls");
    }
    SECTION("required and nullable: a value or null") {
        const CIOutcomeV1& o = row.metadata.verifier_results.at(0);
        CHECK(o.workflow_id == "42");
        CHECK(o.workflow_path.is_null());
        CHECK(o.run_attempt == std::int64_t{1});
        CHECK(o.pr_number.value() == 7);
        CHECK(row.metadata.ci_resolution->verdict == Verdict::passed);
        CHECK(row.metadata.provenance.policy_digest == nullptr);
    }
    SECTION("parts are a variant of the four part types") {
        const auto& parts = row.response.turns.at(1).new_messages.at(0).parts;
        REQUIRE(parts.size() == 3);
        CHECK(std::get<ReasoningPart>(parts[0]).content == "The listing will show the parser.");
        CHECK(std::holds_alternative<TextPart>(parts[1]));
        const auto& call = std::get<ToolCallPart>(parts[2]);
        CHECK(call.id == "call_1");
        CHECK(call.arguments == Json::parse(R"({"command": "ls src", "timeout": 30})"));
    }
    SECTION("any-JSON and free-form values keep content, order and integers") {
        const auto& result = std::get<ToolCallResponsePart>(row.response.turns[1].new_messages[1].parts[0]).result;
        CHECK(result.dump() == R"({"exit_code":0,"stdout":"parser.cpp\n","big":18446744073709551615,"ratio":0.1})");
        CHECK(row.metadata.verifier_results[0].raw.dump() == R"({"z":1,"a":[true,null,"x"]})");
    }
}

TEST_CASE("decode: from nlohmann::json and nlohmann::ordered_json") {
    const Json ordered = parse(kRow);
    const nlohmann::json sorted = nlohmann::json::parse(kRow);
    CHECK(decode<NemoGymRolloutRowV2>(ordered) == decode<NemoGymRolloutRowV2>(kRow));
    const auto from_sorted = decode<NemoGymRolloutRowV2>(sorted);
    CHECK(from_sorted.metadata.session_id == "sess_b");

    SECTION("through nlohmann's get<T>() (ADL from_json), strictly") {
        CHECK(ordered.get<NemoGymRolloutRowV2>() == decode<NemoGymRolloutRowV2>(kRow));
        nlohmann::json bad = sorted;
        bad["metadata"]["debug"] = true;
        CHECK_THROWS_AS(bad.get<NemoGymRolloutRowV2>(), DecodeError);
    }
    SECTION("a DOM built in memory is held to JSON's rules too") {
        nlohmann::json bad = sorted;
        bad["metadata"]["session_id"] = std::string("\xFF");
        std::vector<Error> errors;
        NemoGymRolloutRowV2 row;
        CHECK_FALSE(decode(bad, row, errors));
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == "rows.decode.utf8");
        CHECK(errors[0].pointer == "/metadata/session_id");

        bad = sorted;
        bad["reward"] = std::nan("");
        errors.clear();
        CHECK_FALSE(decode(bad, row, errors));
        CHECK(errors.at(0).pointer == "/reward");

        bad = sorted;
        bad["metadata"]["verifier_results"][0]["raw"]["deep"] = {1, std::numeric_limits<double>::infinity()};
        errors.clear();
        CHECK_FALSE(decode(bad, row, errors));
        CHECK(errors.at(0).pointer == "/metadata/verifier_results/0/raw/deep/1");
    }
}

TEST_CASE("decode: a part type decoded on its own follows the newest version of its owner") {
    // ToolCallPart belongs to rlvr-inference-message (the smallest schema that holds it), whose v2 has the id pattern.
    CHECK(document_traits<ToolCallPart>::schema == SchemaId::rlvr_inference_message_v2);
    CHECK(document_traits<NemoGymResponsesCreateParams>::schema == SchemaId::nemo_gym_responses_create_params_v2);
    CHECK(document_traits<NemoGymResponse>::schema == SchemaId::nemo_gym_response_v3);
    CHECK(document_traits<CIOutcomeV1>::schema == SchemaId::ci_outcome_v2);
    const std::string nul_id = R"({"type": "tool_call", "id": "a\u0000", "name": "n", "arguments": {}})";
    CHECK_THROWS_AS(decode<ToolCallPart>(nul_id), DecodeError);
    CHECK_NOTHROW(decode<ToolCallPart>(nul_id, SchemaId::nemo_gym_response_v2));  // no pattern there
    CHECK_NOTHROW(decode<NemoGymResponsesCreateParams>(
        R"({"input": [{"role": "x", "parts": [{"type": "tool_call", "id": "a\u0000", "name": "n", "arguments": {}}]}]})",
        SchemaId::nemo_gym_responses_create_params_v1));
    CHECK_THROWS_AS(decode<NemoGymResponsesCreateParams>(
                        R"({"input": [{"role": "x", "parts": [{"type": "tool_call", "id": "a\u0000", "name": "n", "arguments": {}}]}]})"),
                    DecodeError);
}

TEST_CASE("decode: DecodeError carries every error") {
    try {
        decode<CIOutcomeV1>("{}");
        FAIL("no exception");
    } catch (const DecodeError& e) {
        CHECK(e.errors().size() == 23);
        CHECK(std::string(e.what()) == "[rows.decode.missing_key] () missing key 'schema_version' (and 22 more)");
    }
}

TEST_CASE("decode: enums convert to and from their exact spelling") {
    CHECK(to_string(AgentHarness::claude_code) == "claude-code");
    CHECK(to_string(InteractionMode::inline_) == "inline");
    AgentHarness h = AgentHarness::pi;
    CHECK(from_string("codex", h));
    CHECK(h == AgentHarness::codex);
    CHECK_FALSE(from_string("Codex", h));
    CHECK_FALSE(from_string("claude_code", h));
    CHECK(h == AgentHarness::codex);
    CHECK(to_string(static_cast<Split>(7)).empty());
}

namespace {
// The pointer of every object member in `j`, at any depth.
void member_pointers(const Json& j, const std::string& at, std::vector<std::string>& out) {
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            out.push_back(at + "/" + key);
            member_pointers(value, at + "/" + key, out);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) member_pointers(j[i], at + "/" + std::to_string(i), out);
    }
}
/// Each way of decoding `later` into a model of type T that holds `full` first: whether it succeeded,
/// and whether it gave what a fresh model gets. (Only this part depends on T, so that the checks are
/// compiled once rather than once per model type.)
struct Reuse {
    bool fast, fast_same, exact, exact_same, dom, dom_same, get_to_same, no_errors;
};

template <class T>
Reuse reuse(const std::string& full, const std::string& later, SchemaId schema) {
    Reuse r{};
    const T fresh = decode<T>(later, schema);
    std::vector<Error> errors;
    T reused = decode<T>(full, schema);
    r.fast = decode(later, reused, errors, schema);  // fast path first
    r.fast_same = reused == fresh;
    reused = decode<T>(full, schema);
    r.exact = detail::exact_decode(later, reused, errors, {}, schema);
    r.exact_same = reused == fresh;
    reused = decode<T>(full, schema);
    r.dom = decode(parse(later), reused, errors, schema);
    r.dom_same = reused == fresh;
    reused = decode<T>(full, schema);
    if (schema == document_traits<T>::schema) parse(later).get_to(reused);  // T's own schema
    else reused = fresh;
    r.get_to_same = reused == fresh;
    r.no_errors = errors.empty();
    return r;
}

}  // namespace

TEST_CASE("decode: into a model holding an earlier document, nothing of that document is left behind") {
    // The earlier document is the full base document; the later one lacks one member that may be absent.
    // Every way of decoding into an existing model must give what a fresh model gets.
    std::size_t optional_members = 0;
    for (const SchemaInfo& info : kSchemas) {
        const SchemaId schema = info.id;
        const std::string full = encode(test::base_of(schema));
        std::vector<std::string> pointers;
        member_pointers(test::base_of(schema), "", pointers);
        for (const std::string& pointer : pointers) {
            const std::string later = test::mutate(schema, {pointer, ""});
            if (!validate(schema, later).errors.empty()) continue;  // a required member
            ++optional_members;
            INFO(info.name << " without " << pointer);
            Reuse r{};
            visit_schema(schema, [&](auto tag) { r = reuse<typename decltype(tag)::type>(full, later, schema); });
            CHECK(r.fast);
            CHECK(r.fast_same);
            CHECK(r.exact);
            CHECK(r.exact_same);
            CHECK(r.dom);
            CHECK(r.dom_same);
            CHECK(r.get_to_same);
            CHECK(r.no_errors);
        }
    }
    CHECK(optional_members >= 20);
}

TEST_CASE("decode: one verb per job, one result type, one exception base") {
    const std::string rows = test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/rows.jsonl");
    const std::string row = rows.substr(0, rows.find('\n'));  // today's version, in Sediment's bytes
    // validate() by type, by SchemaId (either engine), by name, of a parsed document: one Validated
    const Validated by_type = validate<NemoGymRolloutRow>(row);
    CHECK((by_type.valid() && by_type.schema == SchemaId::nemo_gym_rollout_v4));
    CHECK(validate(SchemaId::nemo_gym_rollout_v4, row).valid());
    CHECK(validate(SchemaId::nemo_gym_rollout_v4, row, Engine::schema).valid());
    CHECK(validate("nemo-gym-rollout", row).schema == SchemaId::nemo_gym_rollout_v4);
    CHECK(validate(SchemaId::nemo_gym_rollout_v4, parse(row), Engine::typed).valid());
    CHECK(validate(SchemaId::nemo_gym_rollout_v4, parse(row), Engine::schema).valid());
    const Validated v2 = validate(SchemaId::nemo_gym_rollout_v2, row);
    CHECK_FALSE(v2.valid());
    CHECK(v2.schema == SchemaId::nemo_gym_rollout_v2);
    CHECK(v2.errors.at(0).id == "rows.decode.other_version");
    // format() appends the encoding, or leaves `out` as it was
    std::string out = "x";
    CHECK(format(SchemaId::nemo_gym_rollout_v4, row, Style::sediment, out).valid());
    CHECK(out == "x" + row);
    CHECK_FALSE(format(SchemaId::nemo_gym_rollout_v2, row, Style::sediment, out).valid());
    CHECK(out == "x" + row);
    // every exception that carries errors is a DocumentError
    const auto errors_of = [](const auto& call) -> std::vector<Error> {
        try {
            call();
        } catch (const DocumentError& e) {
            return e.errors();
        }
        return {};
    };
    CHECK(errors_of([] { decode<CIOutcome>("{}"); }).at(0).id == "rows.decode.missing_key");
    CHECK(errors_of([] { encode(Json(std::nan(""))); }).at(0).id == "rows.encode.number");
    CHECK(errors_of([&] { to_atif(NemoGymRolloutRow{}); }).size() >= 1);
}
