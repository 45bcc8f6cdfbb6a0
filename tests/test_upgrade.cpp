// Upgrades (docs/upgrade.md): every field a newer version adds, derived where the document gives it,
// and every case where it does not failing with the field named, or (lossy) dropping exactly the CI
// resolution it belongs to.
#include <catch2/catch.hpp>

#include "process.hpp"
#include "support.hpp"

using namespace sediment::rows;

namespace {

const char* const kIdentity = R"({"provider": "github", "host": "github.com", "repository_id": "101"})";

SchemaId rollout(int version) { return versions_of("nemo-gym-rollout").at(static_cast<std::size_t>(version - 1)); }

// The errors of an upgrade that must fail.
std::vector<Error> failure(const std::string& text, const char* from, SchemaId to, bool lossy = false) {
    Upgraded out;
    std::vector<Error> errors;
    CHECK_FALSE(upgrade(text, from, to, out, errors, Style::compact, ConvertOptions{lossy}));
    CHECK(out.text.empty());
    return errors;
}

std::vector<std::string> pointers(const std::vector<Error>& errors) {
    std::vector<std::string> out;
    for (const Error& e : errors) out.push_back(e.pointer);
    return out;
}

}  // namespace

TEST_CASE("upgrade: v1 -> v2 changes the version and nothing else") {
    const std::string v1 = test::edited_row(1, {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    const Upgraded up = upgrade(v1, "nemo-gym-rollout", rollout(2));
    CHECK(up.from == rollout(1));
    CHECK(up.losses.empty());
    Json expected = parse(v1);
    expected["metadata"]["schema_id"] = "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v2.json";
    expected["metadata"]["schema_version"] = 2;
    CHECK(up.text == encode(expected));
    // a resolution is no obstacle before version 3
    CHECK(parse(upgrade(test::edited_row(1), "nemo-gym-rollout.v1", rollout(2)).text) == parse(test::edited_row(2)));
}

TEST_CASE("upgrade: v2 -> v3 derives [] observation ids without a CI resolution, and cannot beside one") {
    const std::string plain = test::edited_row(2, {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    const Json v3 = parse(upgrade(plain, "nemo-gym-rollout", rollout(3)).text);
    CHECK(v3["metadata"]["session_commit_observation_ids"] == Json::array());
    CHECK(v3["metadata"]["schema_version"] == 3);
    CHECK(validate(rollout(3), encode(v3)).errors.empty());

    const auto errors = failure(test::edited_row(2), "nemo-gym-rollout", rollout(3));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].id == "rows.upgrade.underivable");
    CHECK(errors[0].pointer == "/metadata/session_commit_observation_ids");
    CHECK(errors[0].message.find("ci_resolution") != std::string::npos);
    CHECK(lossy_would_drop(errors[0]));  // --lossy drops the resolution instead
    CHECK_FALSE(lossy_would_drop(failure(test::edited_row(2, {{"/reward", "\"high\""}}), "nemo-gym-rollout", rollout(3)).at(0)));  // not a row
    // through to v4 too, and from v1
    CHECK(pointers(failure(test::edited_row(2), "nemo-gym-rollout", rollout(4))) == std::vector<std::string>{"/metadata/session_commit_observation_ids"});
    CHECK(pointers(failure(test::edited_row(1), "nemo-gym-rollout.v1", rollout(3))) == std::vector<std::string>{"/metadata/session_commit_observation_ids"});
    CHECK_THROWS_AS(upgrade(test::edited_row(2), "nemo-gym-rollout", rollout(3)), ConvertError);
}

TEST_CASE("upgrade: lossy drops the resolution, its reward and reward source, and lists them in document order") {
    const Upgraded up = upgrade(test::edited_row(2), "nemo-gym-rollout", rollout(4), Style::compact, ConvertOptions{true});
    CHECK(pointers(up.losses) == std::vector<std::string>{"/reward", "/metadata/reward_source", "/metadata/ci_resolution"});
    for (const Error& e : up.losses) CHECK(e.id == "rows.upgrade.loss");
    const Json v4 = parse(up.text);
    CHECK(validate(rollout(4), up.text).errors.empty());
    CHECK_FALSE(v4.contains("reward"));
    CHECK_FALSE(v4["metadata"].contains("ci_resolution"));
    CHECK_FALSE(v4["metadata"].contains("reward_source"));
    CHECK(v4["metadata"]["session_commit_observation_ids"] == Json::array());
    CHECK(v4["metadata"]["repository_identity"].is_null());
    // everything else is kept
    Json rest = parse(test::edited_row(2));
    rest.erase("reward");
    CHECK(v4["response"] == rest["response"]);
    CHECK(v4["metadata"]["verifier_results"].size() == rest["metadata"]["verifier_results"].size());
    // lossy with nothing to drop drops nothing
    const std::string plain = test::edited_row(2, {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    CHECK(upgrade(plain, "nemo-gym-rollout", rollout(3), Style::compact, ConvertOptions{true}).losses.empty());
}

TEST_CASE("upgrade: into a reused Upgraded, each call leaves only its own document, and keeps the memory") {
    const ConvertOptions lossy{true};
    const std::string dropping = test::edited_row(2);  // lossy drops its resolution
    const std::string plain = test::edited_row(2, {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    const std::string v1 = test::edited_row(1, {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    Upgraded out;
    std::vector<Error> errors;
    REQUIRE(upgrade(dropping, "nemo-gym-rollout", rollout(4), out, errors, Style::compact, lossy));
    CHECK(out.losses.size() == 3);
    const std::size_t capacity = out.text.capacity();
    // a row of another version, with nothing to drop: the first one's text, losses and version are gone
    REQUIRE(upgrade(v1, "nemo-gym-rollout", rollout(4), out, errors, Style::compact, lossy));
    CHECK(out.text == upgrade(v1, "nemo-gym-rollout", rollout(4), Style::compact, lossy).text);
    CHECK(out.losses.empty());
    CHECK(out.from == rollout(1));
    // a failure leaves it empty, its memory kept
    CHECK_FALSE(upgrade(plain.substr(1), "nemo-gym-rollout", rollout(4), out, errors, Style::compact, lossy));
    CHECK(out.text.empty());
    CHECK(out.losses.empty());
    CHECK_FALSE(out.from);
    CHECK_FALSE(errors.empty());
    CHECK(out.text.capacity() >= capacity);
}

TEST_CASE("upgrade: v3 -> v4 gives version-1 CI outcomes no identity, and so their resolution") {
    const Upgraded up = upgrade(test::edited_row(3), "nemo-gym-rollout", rollout(4), Style::sediment);
    CHECK(up.losses.empty());
    const Json v4 = parse(up.text);
    const Json& outcome = v4["metadata"]["verifier_results"][0];
    CHECK(outcome["schema_version"] == 1);
    CHECK(outcome["repository_provider"].is_null());
    CHECK(outcome["repository_host"].is_null());
    CHECK(outcome["repository_id"].is_null());
    CHECK(v4["metadata"]["ci_resolution"]["repository_identity"].is_null());
    CHECK(v4["metadata"]["repository_identity"].is_null());
    CHECK(v4["metadata"]["session_commit_observation_ids"] == parse(test::edited_row(3))["metadata"]["session_commit_observation_ids"]);
    CHECK(up.text == encode(v4, Style::sediment));  // in the style asked for, keys in v4's order
    CHECK(encode(v4).find("\"schema_version\":1,\"repository_provider\":null,\"repository_host\":null,\"repository_id\":null,\"outcome_id\"") != std::string::npos);

    // without a resolution
    const Json plain = parse(upgrade(test::edited_row(3, {{"/metadata/ci_resolution", ""}}), "nemo-gym-rollout", rollout(4)).text);
    CHECK(plain["metadata"]["repository_identity"].is_null());
}

TEST_CASE("upgrade: v3 -> v4 cannot say a resolution's identity when a source outcome is not in the row") {
    const std::string text = test::edited_row(3, {{"/metadata/ci_resolution/source_outcome_ids/0", "\"out_elsewhere\""}});
    const auto errors = failure(text, "nemo-gym-rollout", rollout(4));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].id == "rows.upgrade.underivable");
    CHECK(errors[0].pointer == "/metadata/ci_resolution/repository_identity");
    CHECK(errors[0].message.find("'out_elsewhere' is not among verifier_results") != std::string::npos);
    // lossy: the resolution goes, with the observation ids that matched it
    const Upgraded up = upgrade(text, "nemo-gym-rollout", rollout(4), Style::compact, ConvertOptions{true});
    CHECK(pointers(up.losses) ==
          std::vector<std::string>{"/reward", "/metadata/reward_source", "/metadata/ci_resolution", "/metadata/session_commit_observation_ids"});
    CHECK(parse(up.text)["metadata"]["session_commit_observation_ids"] == Json::array());
    CHECK(validate(rollout(4), up.text).errors.empty());
}

TEST_CASE("upgrade: what the newer version refuses fails at its place, lossy or not") {
    const std::string nul = test::edited_row(2, {{"/metadata/session_id", R"("s\u0000")"}, {"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    CHECK(validate(rollout(2), nul).errors.empty());
    for (const bool lossy : {false, true}) {
        const auto errors = failure(nul, "nemo-gym-rollout", rollout(3), lossy);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == "rows.decode.pattern");
        CHECK(errors[0].pointer == "/metadata/session_id");
    }
}

TEST_CASE("upgrade: the same version, newer documents, invalid documents and wrong names") {
    CHECK(upgrade(test::edited_row(4), "nemo-gym-rollout", rollout(4)).text == test::edited_row(4));
    auto errors = failure(test::edited_row(4), "nemo-gym-rollout", rollout(3));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].id == "rows.upgrade.version");
    CHECK(errors[0].pointer == "/metadata/schema_id");
    // a document is checked under its own version first
    errors = failure(test::edited_row(2, {{"/metadata/split", "\"test\""}}), "nemo-gym-rollout", rollout(4));
    CHECK(pointers(errors) == std::vector<std::string>{"/metadata/split"});
    errors = failure(test::edited_row(2), "nemo-gym-rollout.v1", rollout(4));  // a v2 row read as v1
    CHECK(errors.at(0).pointer == "/metadata/schema_id");
    errors = failure(test::edited_row(2, {{"/metadata/schema_id", "\"x\""}}), "nemo-gym-rollout", rollout(4));
    CHECK(errors.at(0).id == "rows.decode.version");
    CHECK(failure("{", "nemo-gym-rollout", rollout(4)).at(0).id == "rows.parse.syntax");
    CHECK_THROWS_AS(upgrade(test::edited_row(2), "nemo-gym-response.v1", rollout(4)), std::invalid_argument);
    CHECK_THROWS_AS(upgrade(test::edited_row(2), "nemo-gym-rollout", SchemaId::atif_v1_7), std::invalid_argument);
    CHECK_THROWS_AS(upgrade(test::edited_row(2), "nope", rollout(4)), std::invalid_argument);
}

TEST_CASE("upgrade: parts, from the version named") {
    // CI outcome v1 -> v3: the three repository fields, null; schema_version kept
    const std::string outcome = encode(test::base(SchemaId::ci_outcome_v1));
    const Json v3 = parse(upgrade(outcome, "ci-outcome.v1", SchemaId::ci_outcome_v3).text);
    CHECK(v3["schema_version"] == 1);
    CHECK(v3["repository_provider"].is_null());
    CHECK(v3["repository_id"].is_null());
    CHECK(validate(SchemaId::ci_outcome_v3, encode(v3)).errors.empty());
    // response v1 -> v3 keeps everything, and refuses what v3 refuses
    const std::string response = encode(test::base(SchemaId::nemo_gym_response_v1));
    CHECK(upgrade(response, "nemo-gym-response.v1", SchemaId::nemo_gym_response_v3).text == response);
    const std::string nul = test::mutate(SchemaId::nemo_gym_response_v1, {"/turns/0/tool_calls/0/id", R"("call\u0000")"});
    CHECK(pointers(failure(nul, "nemo-gym-response.v1", SchemaId::nemo_gym_response_v3)) == std::vector<std::string>{"/turns/0/tool_calls/0/id"});
    CHECK(upgrade(nul, "nemo-gym-response.v1", SchemaId::nemo_gym_response_v2).text == nul);
    // create-params v1 -> v2
    const std::string params = test::mutate(SchemaId::nemo_gym_responses_create_params_v1,
                                            {"/input/0/parts/0", R"({"type": "tool_call", "id": "\u0000", "name": "bash", "arguments": {}})"});
    CHECK(pointers(failure(params, "nemo-gym-responses-create-params.v1", SchemaId::nemo_gym_responses_create_params_v2)) ==
          std::vector<std::string>{"/input/0/parts/0/id"});
}

TEST_CASE("upgrade: a decoded row of any version") {
    const Converted<AnyRolloutRow> up = upgrade(decode<AnyRolloutRow>(test::edited_row(3)), rollout(4));
    REQUIRE(std::holds_alternative<NemoGymRolloutRowV4>(up.value));
    const NemoGymRolloutRowV4& v4 = std::get<NemoGymRolloutRowV4>(up.value);
    CHECK(v4.metadata.repository_identity.is_null());
    CHECK(v4.metadata.ci_resolution->repository_identity.is_null());
    CHECK(v4.metadata.verifier_results.at(0).schema_version == 1);
    CHECK_THROWS_AS(upgrade(decode<AnyRolloutRow>(test::edited_row(2)), rollout(3)), ConvertError);
    CHECK(upgrade(decode<AnyRolloutRow>(test::edited_row(2)), rollout(3), ConvertOptions{true}).losses.size() == 3);
}

TEST_CASE("cli: upgrade") {
    test::TempDir dir;
    const std::string plain2 = test::edited_row(2, {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}});
    test::write_file(dir / "rows.jsonl", test::edited_row(1) + "\n" + test::edited_row(3) + "\n" + test::edited_row(2) + "\n" + plain2 + "\n");
    const std::string file = test::quote((dir / "rows.jsonl").string());
    const std::string name = Json((dir / "rows.jsonl").string()).dump();
    const std::string cli = std::string(SEDIMENT_ROWS_CLI) + " upgrade ";
    auto r = test::run(cli + "--to nemo-gym-rollout.v4 --style sediment " + file);
    CHECK(r.status == 1);
    // rows 1 and 3 have a resolution they cannot carry to v3; rows 2 and 4 become v4
    CHECK(r.out == upgrade(test::edited_row(3), "nemo-gym-rollout", rollout(4), Style::sediment).text + "\n" +
                       upgrade(plain2, "nemo-gym-rollout", rollout(4), Style::sediment).text + "\n");
    // each reason names the row's own version, and the version that adds the field
    CHECK(r.err.find("rows.jsonl:1: /metadata/session_commit_observation_ids: a nemo-gym-rollout.v1 row has no path to "
                     "nemo-gym-rollout.v4: nemo-gym-rollout.v3 adds the ids") != std::string::npos);
    CHECK(r.err.find("rows.jsonl:3: /metadata/session_commit_observation_ids: a nemo-gym-rollout.v2 row has no path to "
                     "nemo-gym-rollout.v4: nemo-gym-rollout.v3 adds the ids") != std::string::npos);
    CHECK(r.err.find("2 upgraded, 2 failed (read as nemo-gym-rollout.v1: 1, nemo-gym-rollout.v2: 2, nemo-gym-rollout.v3: 1); 2 would "
                     "upgrade with --lossy, which drops from 2 documents: 2 ci_resolution, 2 reward, 2 reward_source\n") != std::string::npos);
    r = test::run(cli + "--to nemo-gym-rollout.v4 --lossy --format jsonl -j 1 " + file);
    CHECK(r.status == 0);
    CHECK(r.err.substr(r.err.rfind("4 upgraded")) == "4 upgraded, 0 failed (read as nemo-gym-rollout.v1: 1, nemo-gym-rollout.v2: 2, "
                                                     "nemo-gym-rollout.v3: 1); dropped from 2 documents: 2 ci_resolution, 2 reward, "
                                                     "2 reward_source\n");
    CHECK(r.err.rfind("{\"file\": " + name + ", \"line\": 1, \"valid\": true, \"schema\": \"nemo-gym-rollout.v1\", \"dropped\": "
                      "[{\"pointer\": \"/reward\", ", 0) == 0);
    test::write_file(dir / "v4.jsonl", r.out);
    CHECK(test::run(std::string(SEDIMENT_ROWS_CLI) + " validate -q --schema nemo-gym-rollout.v4 " + test::quote((dir / "v4.jsonl").string())).status == 0);
    // usage
    CHECK(test::run(cli + file).status == 2);                                                       // no --to
    CHECK(test::run(cli + "--to nemo-gym-response.v3 " + file).status == 2);                        // no --from
    CHECK(test::run(cli + "--from nemo-gym-rollout.v4 --to nemo-gym-rollout.v3 " + file).status == 2);  // backwards
    CHECK(test::run(cli + "--from nemo-gym-response.v1 --to nemo-gym-rollout.v4 " + file).status == 2);
    CHECK(test::run(std::string(SEDIMENT_ROWS_CLI) + " upgrade --help").out.find("--lossy") != std::string::npos);
}

// ----- ATIF: Harbor's model, any version -> NeMo Gym's v1.7 subset ---------------------------------

namespace {

// The Harbor base trajectory labelled `label` ("" for none), with the changes (JSON text, "" removes).
std::string harbor(const char* label, const std::vector<test::Change>& edits = {}) {
    Json doc = test::base(test::kHarbor);
    if (*label) doc["schema_version"] = label;
    else doc.erase("schema_version");
    std::string text = encode(doc);
    for (const test::Change& e : edits) {
        text = test::mutate(doc, e);  // as written: 0.10000000000000001 stays
        doc = parse(text);
    }
    return text;
}

std::string atif_upgrade(const std::string& text, Style style = Style::compact) {
    return upgrade(text, "atif", SchemaId::atif_v1_7, style).text;
}

}  // namespace

TEST_CASE("upgrade atif: the label changes and every other byte stays") {
    // written as a producer would: its own key order, spaces, decimals and escapes
    const std::string text =
        "{ \"agent\" : {\"version\": \"2\", \"name\": \"a\"},\n  \"schema_version\": \"ATIF-v1.2\",\n"
        "  \"steps\": [{\"source\": \"user\", \"step_id\": 1, \"message\": \"caf\\u00e9 \xc3\xa9\"}],\n"
        "  \"extra\": {\"cost\": 1.50, \"big\": 123456789012345678901234567890, \"z\": 2.5e-3}}";
    REQUIRE(validate(SchemaId::atif, text).errors.empty());
    CHECK(atif_upgrade(text) ==
          "{\"agent\":{\"version\":\"2\",\"name\":\"a\"},\"schema_version\":\"ATIF-v1.7\",\"steps\":[{\"source\":\"user\","
          "\"step_id\":1,\"message\":\"caf\\u00e9 \xc3\xa9\"}],\"extra\":{\"cost\":1.50,\"big\":123456789012345678901234567890,\"z\":2.5e-3}}");
    CHECK(atif_upgrade(text, Style::sediment) ==
          "{\"agent\": {\"version\": \"2\", \"name\": \"a\"}, \"schema_version\": \"ATIF-v1.7\", \"steps\": [{\"source\": \"user\", "
          "\"step_id\": 1, \"message\": \"caf\\u00e9 \\u00e9\"}], \"extra\": {\"cost\": 1.50, \"big\": 123456789012345678901234567890, \"z\": 2.5e-3}}");
    // no label: ATIF-v1.7 is added first; a label written with an escape is still the label
    CHECK(atif_upgrade("{\"agent\": {\"name\": \"a\", \"version\": \"1\"}, \"steps\": [{\"step_id\": 1, \"source\": \"user\", \"message\": \"\"}]}") ==
          "{\"schema_version\":\"ATIF-v1.7\",\"agent\":{\"name\":\"a\",\"version\":\"1\"},\"steps\":[{\"step_id\":1,\"source\":\"user\",\"message\":\"\"}]}");
    CHECK(atif_upgrade("{\"schema\\u005fversion\": \"ATIF-v1.0\", \"agent\": {\"name\": \"a\", \"version\": \"1\"}, \"steps\": [{\"step_id\": 1, \"source\": \"user\", \"message\": \"\"}]}") ==
          "{\"schema\\u005fversion\":\"ATIF-v1.7\",\"agent\":{\"name\":\"a\",\"version\":\"1\"},\"steps\":[{\"step_id\":1,\"source\":\"user\",\"message\":\"\"}]}");
    // escaped quotes and backslashes end no string early, in either style
    const std::string quotes = "{\"agent\": {\"name\": \"a \\\" , b\", \"version\": \"1 \\\\\"}, \"steps\": [{\"step_id\": 1, \"source\": \"user\", \"message\": \"\\\\\\\" x\"}]}";
    REQUIRE(validate(SchemaId::atif, quotes).errors.empty());
    CHECK(atif_upgrade(quotes) == "{\"schema_version\":\"ATIF-v1.7\",\"agent\":{\"name\":\"a \\\" , b\",\"version\":\"1 \\\\\"},\"steps\":[{\"step_id\":1,\"source\":\"user\",\"message\":\"\\\\\\\" x\"}]}");
    CHECK(atif_upgrade(quotes, Style::sediment) == "{\"schema_version\": \"ATIF-v1.7\", " + quotes.substr(1));
    // an emoji in sediment style: a surrogate pair, as Python writes it
    CHECK(atif_upgrade("{\"agent\": {\"name\": \"\xf0\x9f\x98\x80\", \"version\": \"1\"}, \"steps\": [{\"step_id\": 1, \"source\": \"user\", \"message\": \"\"}]}", Style::sediment) ==
          "{\"schema_version\": \"ATIF-v1.7\", \"agent\": {\"name\": \"\\ud83d\\ude00\", \"version\": \"1\"}, \"steps\": [{\"step_id\": 1, \"source\": \"user\", \"message\": \"\"}]}");

    for (const char* label : {"ATIF-v1.0", "ATIF-v1.5", "ATIF-v1.7", ""}) {
        INFO(label);
        const std::string up = atif_upgrade(harbor(label));
        CHECK(validate(SchemaId::atif_v1_7, up).errors.empty());
        Json expected = parse(harbor(label));
        expected["schema_version"] = "ATIF-v1.7";
        CHECK(nlohmann::json(parse(up)) == nlohmann::json(expected));
    }
}

TEST_CASE("upgrade atif: what the subset refuses fails at its place, with its reason, and nothing is repaired") {
    struct Case {
        const char* what;
        const char* label;
        test::Change change;
        const char* id;
        const char* pointer;
    };
    const Case cases[] = {
        {"an audio part (v1.7 has none)", "ATIF-v1.8", {"/steps/1/message/1", "{\"type\": \"audio\", \"source\": {\"media_type\": \"audio/mp3\", \"path\": \"a.mp3\"}}"}, "rows.convert.loss.audio", "/steps/1/message/1"},
        {"negative token counts", "ATIF-v1.4", {"/steps/2/metrics/cached_tokens", "-1"}, "rows.decode.range", "/steps/2/metrics/cached_tokens"},
        {"a negative cost", "ATIF-v1.4", {"/steps/2/metrics/cost_usd", "-0.5"}, "rows.decode.range", "/steps/2/metrics/cost_usd"},
        {"negative token ids", "ATIF-v1.4", {"/steps/2/metrics/completion_token_ids", "[-3]"}, "rows.decode.range", "/steps/2/metrics/completion_token_ids/0"},
        {"total_steps other than the step count", "ATIF-v1.2", {"/final_metrics/total_steps", "9"}, "rows.decode.atif_total_steps", "/final_metrics/total_steps"},
        {"reasoning_effort without a model call", "", {"/steps/3/reasoning_effort", "\"low\""}, "rows.decode.atif_step", "/steps/3/reasoning_effort"},
        {"a decimal that is not exactly a double", "ATIF-v1.5", {"/steps/2/metrics/logprobs/0", "0.10000000000000001"}, "rows.parse.inexact_decimal", "/steps/2/metrics/logprobs/0"},
        {"invalid under its own label", "ATIF-v1.3", {"/steps/0/step_id", "2"}, "rows.decode.atif_step_id", "/steps/0/step_id"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        const std::string text = harbor(c.label, {c.change});
        const auto errors = failure(text, "atif", SchemaId::atif_v1_7);
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == c.id);
        CHECK(errors[0].pointer == c.pointer);
        // the typed upgrade throws the same
        if (std::string(c.id).rfind("rows.decode.", 0) == 0 && std::string(c.id) != "rows.decode.atif_step_id") {
            try {
                upgrade(decode<HarborAtifTrajectory>(text));
                FAIL("no ConvertError");
            } catch (const ConvertError& e) {
                CHECK(e.errors().at(0).pointer == c.pointer);
            }
        }
    }
    // only from atif to atif-v1.7
    Upgraded out;
    std::vector<Error> errors;
    CHECK_THROWS_AS(upgrade(harbor(""), "atif-v1.7", SchemaId::atif, out, errors), std::invalid_argument);
    CHECK_THROWS_AS(upgrade(harbor(""), "atif", SchemaId::nemo_gym_rollout_v4, out, errors), std::invalid_argument);
}

TEST_CASE("upgrade atif: an audio part has no v1.7 form: strict fails at it, lossy drops it and lists it") {
    const std::string audio = R"({"type": "audio", "source": {"media_type": "audio/x-wav", "path": "a.wav", "duration_sec": 1.5}})";
    // audio first, in the middle and last of a message, alone in a result's content, and in a subagent
    // (whose trajectory the subset holds as a free-form value: it stays)
    const std::string text = harbor("ATIF-v1.8", {{"/steps/1/message", "[" + audio + ", {\"type\": \"text\", \"text\": \"x\"}, " + audio + ", {\"type\": \"text\", \"text\": \"y\"}, " + audio + "]"},
                                                  {"/steps/2/observation/results/0/content", "[" + audio + "]"},
                                                  {"/subagent_trajectories/0/schema_version", "\"ATIF-v1.8\""},
                                                  {"/subagent_trajectories/0/steps/0/message", "[" + audio + "]"}});
    REQUIRE(validate(SchemaId::atif, text).errors.empty());
    const std::vector<std::string> parts = {"/steps/1/message/0", "/steps/1/message/2", "/steps/1/message/4", "/steps/2/observation/results/0/content/0"};
    const auto errors = failure(text, "atif", SchemaId::atif_v1_7);
    CHECK(pointers(errors) == parts);
    for (const Error& e : errors) CHECK(e.id == "rows.convert.loss.audio");
    CHECK(lossy_would_drop(errors[0]));

    Upgraded out;
    std::vector<Error> none;
    REQUIRE(upgrade(text, "atif", SchemaId::atif_v1_7, out, none, Style::compact, ConvertOptions{true}));
    CHECK(pointers(out.losses) == parts);
    for (const Error& e : out.losses) CHECK(loss_kind(e) == "audio");
    CHECK(validate(SchemaId::atif_v1_7, out.text).errors.empty());
    // the rest of the document as it was: only the parts (and a comma beside each) are gone
    Json expected = parse(text);
    expected["schema_version"] = "ATIF-v1.7";
    expected["steps"][1]["message"] = Json::parse(R"([{"type": "text", "text": "x"}, {"type": "text", "text": "y"}])");
    expected["steps"][2]["observation"]["results"][0]["content"] = Json::array();  // left empty: valid in the subset
    CHECK(nlohmann::json(parse(out.text)) == nlohmann::json(expected));
    // the typed upgrade the same
    const auto trajectory = decode<HarborAtifTrajectory>(text);
    CHECK_THROWS_AS(upgrade(trajectory), ConvertError);
    const Converted<NemoGymAtifTrajectory> typed = upgrade(trajectory, ConvertOptions{true});
    CHECK(pointers(typed.losses) == parts);
    const auto& message = std::get<std::vector<AtifContentPart>>(typed.value.steps[1].message);
    REQUIRE(message.size() == 2);
    CHECK(**message[1].text == "y");
    CHECK(std::get<std::vector<AtifContentPart>>(**(*typed.value.steps[2].observation)->results[0].content).empty());
}

TEST_CASE("upgrade atif: the CLI, with the default --from, and convert --from atif") {
    test::TempDir dir;
    test::write_file(dir / "old.json", harbor("ATIF-v1.5"));
    test::write_file(dir / "bad.jsonl", harbor("ATIF-v1.5") + "\n" + harbor("ATIF-v1.6", {{"/steps/2/metrics/cached_tokens", "-1"}}) + "\n");
    const auto up = test::run(test::quote(SEDIMENT_ROWS_CLI) + " upgrade --to atif-v1.7 " + test::quote((dir / "old.json").string()));
    CHECK(up.status == 0);
    CHECK(up.out == atif_upgrade(harbor("ATIF-v1.5")) + "\n");
    const auto bad = test::run(test::quote(SEDIMENT_ROWS_CLI) + " upgrade --to atif-v1.7 " + test::quote((dir / "bad.jsonl").string()));
    CHECK(bad.status == 1);
    CHECK(bad.out == atif_upgrade(harbor("ATIF-v1.5")) + "\n");
    CHECK(bad.err.find("bad.jsonl:2: /steps/2/metrics/cached_tokens: -1 is less than the minimum 0") != std::string::npos);
    const auto convert = test::run(test::quote(SEDIMENT_ROWS_CLI) + " convert --from atif --to nemo-gym-response.v2 --lossy -q " +
                                   test::quote((dir / "old.json").string()));
    CHECK(convert.status == 0);
    CHECK(convert.out == encode(to_row_parts(decode<NemoGymAtifTrajectory>(atif_upgrade(harbor("ATIF-v1.5"))), ConvertOptions{true}).value.response) + "\n");
    const auto strict = test::run(test::quote(SEDIMENT_ROWS_CLI) + " convert --from atif --to nemo-gym-response.v2 " + test::quote((dir / "old.json").string()));
    CHECK(strict.status == 1);
    CHECK(strict.err.find("/subagent_trajectories/0: a row has no subagent trajectories") != std::string::npos);
}
