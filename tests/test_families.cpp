// Sediment's other families: the trainer messages' union (selected by keys, in their order), the array
// that must stay empty, names without a version and `any`, and upgrades within each family.
#include <catch2/catch.hpp>

#include <sstream>

#include "sediment/rows.hpp"
#include "process.hpp"
#include "support.hpp"

using namespace sediment::rows;

namespace {

/// The base SFT sample (v3) with `completion` as given, as JSON text.
std::string sft_with_completion(const std::string& completion) {
    return test::mutate(SchemaId::sft_sample_v3, {"/completion", completion});
}

}  // namespace

TEST_CASE("families: an assistant message is read as the shape whose keys and order it has") {
    struct Case {
        const char* message;
        std::size_t shape;  // 0 content, 1 thinking, 2 tool calls (the anyOf's order)
    };
    const Case cases[] = {
        {R"({"role": "assistant", "content": "c"})", 0},
        {R"({"role": "assistant", "content": "c", "thinking": "t"})", 0},
        {R"({"role": "assistant", "thinking": "t", "content": "c"})", 1},
        {R"({"role": "assistant", "thinking": "t"})", 1},
        {R"({"role": "assistant", "thinking": "t", "content": "c", "tool_calls": []})", 1},
        {R"({"role": "assistant", "tool_calls": [], "content": "c"})", 2},
        {R"({"role": "assistant", "tool_calls": [], "thinking": "t", "content": "c"})", 2},
    };
    for (const Case& c : cases) {
        INFO(c.message);
        const std::string text = sft_with_completion(std::string("[") + c.message + "]");
        const SFTSample row = decode<SFTSample>(text);
        CHECK(row.completion.at(0).index() == c.shape);
        CHECK(encode(row) == encode(parse(text)));  // each shape's own order comes back, byte for byte
    }
    // An order no shape has is read as the first shape that takes its keys, and written in that shape's order.
    const SFTSample row = decode<SFTSample>(sft_with_completion(R"([{"role": "assistant", "thinking": "t", "tool_calls": [], "content": "c"}])"));
    REQUIRE(row.completion.at(0).index() == 0);
    CHECK(encode(std::get<TrainerAssistantContentMessage>(row.completion[0])) ==
          R"({"role":"assistant","content":"c","thinking":"t","tool_calls":[]})");
    // the prompt's union holds the text, assistant and tool messages, told apart by role
    const SFTSample prompt = decode<SFTSample>(test::mutate(
        SchemaId::sft_sample_v3, {"/prompt", R"([{"role": "user", "content": "u"}, {"role": "assistant", "thinking": "t"}, )"
                                             R"({"role": "tool", "name": "Read", "tool_call_id": "c1", "content": "x"}])"}));
    CHECK(std::get<TrainerTextMessage>(prompt.prompt.at(0)).role == Role::user);
    CHECK(std::holds_alternative<TrainerAssistantThinkingMessage>(prompt.prompt.at(1)));
    CHECK(std::get<TrainerToolMessage>(prompt.prompt.at(2)).tool_call_id == "c1");
}

TEST_CASE("families: tools must stay empty, read or written") {
    SFTSample row = decode<SFTSample>(encode(test::base(SchemaId::sft_sample_v3)));
    CHECK(row.tools.empty());
    row.tools.push_back(Nothing{});
    try {
        encode(row);
        FAIL("no exception");
    } catch (const EncodeError& e) {
        CHECK(e.error().id == "rows.encode.no_items");
        CHECK(e.error().pointer == "/tools/0");
    }
}

TEST_CASE("families: a name without a version reads each row as its own version, and any reads every family") {
    for (const SchemaId id : {SchemaId::sft_sample_v1, SchemaId::dpo_pair_v2, SchemaId::recovery_row_v3, SchemaId::swe_bench_task_v1,
                              SchemaId::sediment_rlvr_rollout_v2, SchemaId::sediment_rlvr_task_v3, SchemaId::diff_sft_sample_v2}) {
        const SchemaInfo& info = schema_info(id);
        INFO(info.name);
        const std::string text = encode(test::base(id));
        CHECK(validate(info.base, text).schema == id);
        CHECK(validate(info.base, text).errors.empty());
        CHECK(validate("any", text).schema == id);
        CHECK(validate("any", text, Engine::schema).schema == id);
        std::string out;
        CHECK(format(info.base, text, Style::compact, out).valid());
        CHECK(out == text);
    }
    // a row of one version under another: first that it is another version, at its schema_id
    const auto errors = validate(SchemaId::sft_sample_v1, encode(test::base(SchemaId::sft_sample_v3))).errors;
    REQUIRE_FALSE(errors.empty());
    CHECK(errors.front().id == "rows.decode.other_version");
    CHECK(errors.front().pointer == "/metadata/schema_id");
    const auto rlvr = validate(SchemaId::sediment_rlvr_task_v3, encode(test::base(SchemaId::sediment_rlvr_task_v1))).errors;
    REQUIRE_FALSE(rlvr.empty());
    CHECK(rlvr.front().pointer == "/schema_id");  // Sediment's RLVR rows name their version at the root
    // a document of no family
    const Validated none = validate("any", R"({"schema_id": "https://example.test/v1.json"})");
    REQUIRE(none.errors.size() == 1);
    CHECK(none.errors[0].id == "rows.decode.version");
    CHECK(none.errors[0].pointer == "");
    CHECK_FALSE(none.schema);
    CHECK_THROWS_AS(validate("sft-metadata", "{}"), std::invalid_argument);  // a part does not name its version
}

TEST_CASE("families: upgrades derive what can be derived and fail at each field that cannot") {
    const auto upgraded = [](SchemaId from, SchemaId to, const Json& doc, std::vector<Error>& errors) {
        Upgraded out;
        const bool ok = upgrade(encode(doc), schema_info(from).base, to, out, errors);
        return ok ? parse(out.text) : Json();
    };
    std::vector<Error> errors;
    // RLVR rollout v1 -> v2: nothing to add
    const Json v1 = test::base(SchemaId::sediment_rlvr_rollout_v1);
    Json v2 = upgraded(SchemaId::sediment_rlvr_rollout_v1, SchemaId::sediment_rlvr_rollout_v2, v1, errors);
    REQUIRE(errors.empty());
    CHECK(v2["schema_id"] == "https://sediment.so/schemas/training-rows/sediment-rlvr-rollout/v2.json");
    CHECK(v2["schema_version"] == 2);
    CHECK(v2["turns"] == v1["turns"]);
    // v2 -> v3: observation ids are [] only without CI resolutions
    upgraded(SchemaId::sediment_rlvr_rollout_v2, SchemaId::sediment_rlvr_rollout_v3, v2, errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].id == "rows.upgrade.underivable");
    CHECK(errors[0].pointer == "/session_commit_observation_ids");
    errors.clear();
    v2.erase("ci_resolution");
    v2["ci_resolutions"] = Json::array();
    const Json v3 = upgraded(SchemaId::sediment_rlvr_rollout_v2, SchemaId::sediment_rlvr_rollout_v3, v2, errors);
    REQUIRE(errors.empty());
    CHECK(v3["session_commit_observation_ids"] == Json::array());
    // SWE-bench v2 -> v3: a resolution whose sources are all among verifier_results is a legacy repository's
    Json swe = test::base(SchemaId::swe_bench_task_v2);
    const Json swe3 = upgraded(SchemaId::swe_bench_task_v2, SchemaId::swe_bench_task_v3, swe, errors);
    REQUIRE(errors.empty());
    CHECK(swe3["metadata"]["repository_identity"].is_null());
    CHECK(swe3["metadata"]["ci_resolution"]["repository_identity"].is_null());
    CHECK(swe3["metadata"]["verifier_results"][0]["repository_host"].is_null());
    CHECK(swe3["metadata"]["schema_id"] == "https://sediment.so/schemas/training-rows/swe-bench-task/v3.json");
    swe["metadata"]["ci_resolution"]["source_outcome_ids"] = {"elsewhere"};
    upgraded(SchemaId::swe_bench_task_v2, SchemaId::swe_bench_task_v3, swe, errors);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].pointer == "/metadata/ci_resolution/repository_identity");
    errors.clear();
    // what an older version never held is never invented
    const std::pair<SchemaId, const char*> underivable[] = {
        {SchemaId::sft_sample_v2, "/metadata/repository_identity"},
        {SchemaId::sft_sample_v1, "/metadata/attribution_source"},
        {SchemaId::dpo_pair_v3, "/metadata/recipe_version"},
        {SchemaId::dpo_pair_v2, "/metadata/chosen_repository_identity"},
        {SchemaId::diff_sft_sample_v1, "/metadata/attribution_sources"},
        {SchemaId::recovery_row_v1, "/failed_attribution_evidence"},
        {SchemaId::sediment_rlvr_task_v1, "/session_commit_observation_ids"},
    };
    for (const auto& [from, pointer] : underivable) {
        INFO(schema_info(from).name);
        const SchemaId to = versions_of(schema_info(from).base).back();
        upgraded(from, to, test::base(from), errors);
        REQUIRE_FALSE(errors.empty());
        CHECK(errors[0].id == "rows.upgrade.underivable");
        CHECK(errors[0].pointer == pointer);
        errors.clear();
    }
}

TEST_CASE("families: examples/families.jsonl holds today's SFT sample and DPO pair, in Sediment's bytes") {
    std::istringstream lines(test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/families.jsonl"));
    std::vector<SchemaId> read_as;
    for (std::string line; std::getline(lines, line);) {
        const Validated v = validate("any", line);
        CHECK(v.errors.empty());
        read_as.push_back(*v.schema);
        std::string out;
        REQUIRE(format("any", line, Style::sediment, out).valid());
        CHECK(out == line);
    }
    CHECK(read_as == std::vector<SchemaId>{SchemaId::sft_sample_v3, SchemaId::dpo_pair_v4});
}
