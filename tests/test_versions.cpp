// Every published version: the C++ names of each version's types, rows of any version read as the
// version they name, the verdicts by schema name (with or without a version), and the CLI's
// --schema without a version. (The rules that differ between versions are cases of rules.hpp.)
#include <catch2/catch.hpp>

#include <type_traits>

#include "cli.hpp"

using namespace sediment::rows;

namespace {

std::string row_text(int version) { return encode(test::row_of_version(version)); }

std::string with(int version, const test::Change& change) { return test::mutate(test::row_of_version(version), change); }

using test::cli;

}  // namespace

TEST_CASE("versions: a type per shape, named for its schema's own version, and today's unversioned names") {
    // a type whose shape differs between versions is one C++ type per shape, named for the first
    // version of its own schema that has it (docs/naming.md)
    static_assert(!std::is_same_v<NemoGymRolloutRowV1, NemoGymRolloutRowV2>);  // schema_id and schema_version
    static_assert(!std::is_same_v<NemoGymMetadataV3, NemoGymMetadataV4>);     // repository_identity
    static_assert(!std::is_same_v<CIOutcomeV1, CIOutcomeV3>);                  // ci-outcome v3's fields
    // the suffix is the CI outcome's own version, whatever rollout embeds it (rollout v3 holds ci-outcome v2)
    static_assert(std::is_same_v<decltype(NemoGymRolloutRowV3{}.metadata.verifier_results)::value_type, CIOutcomeV1>);
    static_assert(std::is_same_v<decltype(NemoGymRolloutRowV4{}.metadata.verifier_results)::value_type, CIOutcomeV3>);
    static_assert(std::is_same_v<decltype(NemoGymRolloutRowV1{}.response), NemoGymResponseV1>);  // response v1 to v3: rules only
    static_assert(std::is_same_v<decltype(NemoGymMetadataV4{}.repository_identity), Nullable<RepositoryIdentityV3>>);
    static_assert(std::is_same_v<decltype(NemoGymMetadataV3{}.session_commit_observation_ids), std::vector<std::string>>);
    static_assert(NemoGymMetadataV1::schema_version == 1 && NemoGymMetadataV4::schema_version == 4);
    // the unversioned names are the version Sediment writes today
    static_assert(std::is_same_v<NemoGymRolloutRow, NemoGymRolloutRowV4>);
    static_assert(std::is_same_v<NemoGymMetadata, NemoGymMetadataV4>);
    static_assert(std::is_same_v<CIOutcome, CIOutcomeV3>);
    static_assert(std::is_same_v<CIResolution, CIResolutionV3>);
    static_assert(std::is_same_v<NemoGymResponse, NemoGymResponseV1>);
    static_assert(std::is_same_v<RowMetadata, RowMetadataOf<NemoGymRolloutRowV4>>);
    static_assert(std::is_same_v<decltype(to_rollout_row(NemoGymAtifTrajectory{}).value), NemoGymRolloutRowV4>);
    // a type read on its own takes the newest version of its schema with its shape: today's for an unversioned name
    static_assert(document_traits<NemoGymRolloutRow>::schema == SchemaId::nemo_gym_rollout_v4);
    static_assert(document_traits<NemoGymResponse>::schema == SchemaId::nemo_gym_response_v3);
    static_assert(document_traits<NemoGymResponsesCreateParams>::schema == SchemaId::nemo_gym_responses_create_params_v2);
    static_assert(document_traits<CIOutcome>::schema == SchemaId::ci_outcome_v3);
    static_assert(document_traits<CIOutcomeV1>::schema == SchemaId::ci_outcome_v2);
    static_assert(document_traits<TextPart>::schema == SchemaId::rlvr_inference_message_v2);  // the smallest schema that holds it
    CHECK(document_traits<CIOutcomeV3>::name == "CIOutcomeV3");
    CHECK(schema_info(SchemaId::nemo_gym_rollout_v3).root_type == "NemoGymRolloutRowV3");
    CHECK(schema_info(SchemaId::ci_outcome_v2).root_type == "CIOutcomeV1");
    CHECK(CIOutcomeV3{}.schema_version == 1);  // an integer enum starts at its first value
    // SchemaId sorts by family, then version
    for (std::size_t i = 1; i < std::size(kSchemas); ++i) {
        const SchemaInfo& a = kSchemas[i - 1];
        const SchemaInfo& b = kSchemas[i];
        INFO(a.name << " then " << b.name);
        CHECK((a.base < b.base || (a.base == b.base && a.version < b.version)));
    }

    const auto row = decode<NemoGymRolloutRowV4>(row_text(4));
    CHECK(row.metadata.repository_identity->repository_id == "101");
    CHECK(row.metadata.verifier_results.at(0).repository_provider == Nullable<std::string>("github"));
    CHECK(row.metadata.session_commit_observation_ids.size() == 2);
    CHECK(encode(row) == row_text(4));
}

TEST_CASE("versions: names with and without a version") {
    CHECK(versions_of("nemo-gym-rollout") == std::vector<SchemaId>{SchemaId::nemo_gym_rollout_v1, SchemaId::nemo_gym_rollout_v2,
                                                                    SchemaId::nemo_gym_rollout_v3, SchemaId::nemo_gym_rollout_v4});
    CHECK(versions_of("ci-outcome") == std::vector<SchemaId>{SchemaId::ci_outcome_v1, SchemaId::ci_outcome_v2, SchemaId::ci_outcome_v3});
    CHECK(versions_of("nope").empty());
    CHECK(schemas_named("nemo-gym-rollout") == versions_of("nemo-gym-rollout"));
    CHECK(schemas_named("nemo-gym-response.v3") == std::vector<SchemaId>{SchemaId::nemo_gym_response_v3});
    CHECK(schemas_named("nemo-gym-response").empty());  // a response does not say its version
    CHECK(schemas_named("atif-v1.7") == std::vector<SchemaId>{SchemaId::atif_v1_7});
    CHECK(schema_info(SchemaId::nemo_gym_rollout_v4).version_pointer == "/metadata/schema_id");
    CHECK(schema_info(SchemaId::nemo_gym_response_v3).version_pointer.empty());
    CHECK_THROWS_AS(validate("nemo-gym-response", "{}"), std::invalid_argument);
    CHECK_THROWS_AS(validate("nope", "{}", Engine::schema), std::invalid_argument);
}

TEST_CASE("versions: a row of any version is read as the version its schema_id names") {
    AnyRolloutRow row;
    std::vector<Error> errors;
    for (int version = 1; version <= 4; ++version) {
        INFO("v" << version);
        REQUIRE(decode(row_text(version), row, errors));
        CHECK(row.index() == static_cast<std::size_t>(version - 1));
        CHECK(schema_info(schema_of(row)).version == version);
        CHECK(std::visit([](const auto& r) { return encode(r); }, row) == row_text(version));
        // the exact reader, for a row the fast path does not take (3.0 as an integer), agrees
        const std::string exact = with(version, {"/metadata/segment_index", "0.0"});
        REQUIRE(decode(exact, row, errors));
        CHECK(schema_info(schema_of(row)).version == version);
        const Validated c = validate("nemo-gym-rollout", row_text(version));
        CHECK(c.errors.empty());
        CHECK(c.schema == versions_of("nemo-gym-rollout").at(static_cast<std::size_t>(version - 1)));
        const Validated v = validate("nemo-gym-rollout", row_text(version), Engine::schema);
        CHECK(v.errors.empty());
        CHECK(v.schema == c.schema);
    }
    CHECK(errors.empty());
    CHECK(decode<AnyRolloutRow>(row_text(3)).index() == 2);
}

TEST_CASE("versions: a row read as its version gets that version's errors, in both engines") {
    // a v3 schema_id on a v2 row: read as v3, which misses the observation ids
    const std::string text = with(2, {"/metadata/schema_id", "\"https://sediment.so/schemas/training-rows/nemo-gym-rollout/v3.json\""});
    for (const Validated& c : {validate("nemo-gym-rollout", text), validate("nemo-gym-rollout", text, Engine::schema)}) {
        CHECK(c.schema == SchemaId::nemo_gym_rollout_v3);
        REQUIRE_FALSE(c.errors.empty());
    }
    const Validated typed = validate("nemo-gym-rollout", text);
    CHECK(typed.errors.at(0).pointer == "/metadata/schema_version");  // 2 where v3 says 3
    CHECK(typed.errors.at(1).id == "rows.decode.missing_key");
    CHECK(typed.errors.at(1).message == "missing key 'session_commit_observation_ids'");
    // v1 rows list v1's harnesses
    const auto v1 = validate(SchemaId::nemo_gym_rollout_v1, with(1, {"/response/turns/0/decisions/0/agent_harness", "\"cursor\""})).errors;
    REQUIRE(v1.size() == 1);
    CHECK(v1[0].message == "'cursor' is not one of 'claude-code', 'copilot', 'codex', 'pi'");
    const auto v4 = validate(SchemaId::nemo_gym_rollout_v4, with(4, {"/metadata/verifier_results/0/schema_version", "3"})).errors;
    REQUIRE(v4.size() == 1);
    CHECK(v4[0].message == "3 is not one of 1, 2");
}

TEST_CASE("versions: a row that names no published version gets one clear error, never a guess") {
    const struct {
        const char* what;
        std::string text;
        const char* id;
        const char* pointer;
        const char* message;
    } cases[] = {
        {"unknown schema_id", with(4, {"/metadata/schema_id", "\"https://sediment.so/schemas/training-rows/nemo-gym-rollout/v5.json\""}),
         "rows.decode.version", "/metadata/schema_id",
         "'https://sediment.so/schemas/training-rows/nemo-gym-rollout/v5.json' is not the $id of a published nemo-gym-rollout "
         "version (nemo-gym-rollout.v1, nemo-gym-rollout.v2, nemo-gym-rollout.v3, nemo-gym-rollout.v4)"},
        {"another schema's $id", with(2, {"/metadata/schema_id", "\"https://sediment.so/schemas/training-rows/nemo-gym-response/v2.json\""}),
         "rows.decode.version", "/metadata/schema_id", nullptr},
        {"schema_id not a string", with(2, {"/metadata/schema_id", "2"}), "rows.decode.type", "/metadata/schema_id",
         "expected a string, got an integer"},
        {"no schema_id", with(2, {"/metadata/schema_id", ""}), "rows.decode.missing_key", "/metadata",
         "missing key 'schema_id': a nemo-gym-rollout document names its version at /metadata/schema_id"},
        {"metadata not an object", with(2, {"/metadata", "[]"}), "rows.decode.type", "/metadata", "expected an object, got an array"},
        {"no metadata", with(2, {"/metadata", ""}), "rows.decode.missing_key", "", nullptr},
        {"not an object", "[1]", "rows.decode.type", "", "expected an object, got an array"},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        for (const Validated& r : {validate("nemo-gym-rollout", c.text), validate("nemo-gym-rollout", c.text, Engine::schema)}) {
            CHECK_FALSE(r.schema);
            REQUIRE(r.errors.size() == 1);
            CHECK(r.errors[0].id == c.id);
            CHECK(r.errors[0].pointer == c.pointer);
            if (c.message) CHECK(r.errors[0].message == c.message);
        }
        AnyRolloutRow row;
        std::vector<Error> errors;
        CHECK_FALSE(decode(c.text, row, errors));
        CHECK_THROWS_AS(decode<AnyRolloutRow>(c.text), DecodeError);
    }
    // not JSON: the strict reader's error, from both engines
    const Validated bad = validate("nemo-gym-rollout", "{\"metadata\": ");
    CHECK_FALSE(bad.schema);
    CHECK(bad.errors.at(0).id == "rows.parse.syntax");
}

TEST_CASE("versions: decoding into one AnyRolloutRow reuses it, and leaves nothing of another version") {
    AnyRolloutRow row;
    std::vector<Error> errors;
    for (const int version : {4, 4, 1, 3, 3, 2, 4}) {
        const std::string text = version == 3 ? with(3, {"/reward", ""}) : row_text(version);
        REQUIRE(decode(text, row, errors));
        CHECK(std::visit([](const auto& r) { return encode(r); }, row) == text);
    }
}

TEST_CASE("versions: format by name keeps each version's bytes") {
    for (int version = 1; version <= 4; ++version) {
        const std::string sediment = encode(test::row_of_version(version), Style::sediment);
        std::string out;
        const Validated c = format("nemo-gym-rollout", row_text(version), Style::sediment, out);
        CHECK(c.errors.empty());
        CHECK(out == sediment);
        out.clear();
        CHECK(format("nemo-gym-rollout.v" + std::to_string(version), row_text(version), Style::sediment, out).errors.empty());
        CHECK(out == sediment);
    }
    std::string out = "kept";
    CHECK_FALSE(format("nemo-gym-rollout.v1", row_text(2), Style::compact, out).errors.empty());
    CHECK(out == "kept");
}

TEST_CASE("versions: parts are read under the version asked for") {
    const std::string response = encode(test::base(SchemaId::nemo_gym_response_v3));
    const std::string nul = test::mutate(SchemaId::nemo_gym_response_v3, {"/turns/0/tool_calls/0/id", R"("call\u0000")"});
    CHECK(validate(SchemaId::nemo_gym_response_v2, nul).errors.empty());
    CHECK(validate(SchemaId::nemo_gym_response_v3, nul).errors.at(0).pointer == "/turns/0/tool_calls/0/id");
    NemoGymResponse value;
    std::vector<Error> errors;
    CHECK(decode(nul, value, errors, SchemaId::nemo_gym_response_v2));
    CHECK_FALSE(decode(nul, value, errors));  // NemoGymResponse is read as today's nemo-gym-response.v3
    CHECK(errors.at(0).id == "rows.decode.pattern");
    errors.clear();
    CHECK_FALSE(decode(nul, value, errors, SchemaId::nemo_gym_response_v3));
    CHECK(errors.at(0).id == "rows.decode.pattern");
    CHECK_THROWS_AS(decode<NemoGymResponse>(nul, SchemaId::nemo_gym_response_v3), DecodeError);
    CHECK(decode<NemoGymResponse>(response, SchemaId::nemo_gym_response_v3) == decode<NemoGymResponse>(response));
}

TEST_CASE("cli: --schema without a version reads each row as its own, and says which") {
    test::TempDir dir;
    const std::string unknown = with(4, {"/metadata/schema_id", "\"https://example.com/v9.json\""});
    test::write_file(dir / "mixed.jsonl", row_text(1) + "\n" + row_text(4) + "\n" + unknown + "\n" + row_text(3) + "\n");
    const std::string file = test::quote((dir / "mixed.jsonl").string());
    const std::string name = Json((dir / "mixed.jsonl").string()).dump();
    for (const char* engine : {"typed", "schema"}) {
        INFO(engine);
        const auto r = cli(std::string("validate --schema nemo-gym-rollout --format jsonl --engine ") + engine + " " + file);
        CHECK(r.status == 1);
        CHECK(r.out == "{\"file\": " + name + ", \"line\": 1, \"valid\": true, \"schema\": \"nemo-gym-rollout.v1\", \"errors\": []}\n"
                       "{\"file\": " + name + ", \"line\": 2, \"valid\": true, \"schema\": \"nemo-gym-rollout.v4\", \"errors\": []}\n"
                       "{\"file\": " + name + ", \"line\": 3, \"valid\": false, \"schema\": null, \"errors\": [{\"pointer\": "
                       "\"/metadata/schema_id\", \"message\": \"'https://example.com/v9.json' is not the $id of a published "
                       "nemo-gym-rollout version (nemo-gym-rollout.v1, nemo-gym-rollout.v2, nemo-gym-rollout.v3, nemo-gym-rollout.v4)\"}]}\n"
                       "{\"file\": " + name + ", \"line\": 4, \"valid\": true, \"schema\": \"nemo-gym-rollout.v3\", \"errors\": []}\n" +
                       test::summary_record((dir / "mixed.jsonl").string(), 3, 1,
                                            "\"nemo-gym-rollout.v1\": 1, \"nemo-gym-rollout.v3\": 1, \"nemo-gym-rollout.v4\": 1, \"no version\": 1"));
        CHECK(r.err == "3 valid, 1 invalid (read as nemo-gym-rollout.v1: 1, nemo-gym-rollout.v3: 1, nemo-gym-rollout.v4: 1, no version: 1)\n");
    }
    const auto verbose = cli("validate -v -j 1 --schema nemo-gym-rollout " + file);
    CHECK(verbose.out.find(":1: valid (nemo-gym-rollout.v1)\n") != std::string::npos);
    CHECK(verbose.out.find(":3: /metadata/schema_id: 'https://example.com/v9.json' is not") != std::string::npos);
    // a versioned name reports no "schema": the name says it
    const auto one = cli("validate --schema nemo-gym-rollout.v1 --format jsonl " + file);
    CHECK(one.out.find("\"schema\"") == std::string::npos);
    // format: each row as its own version
    test::write_file(dir / "ok.jsonl", row_text(1) + "\n" + row_text(4) + "\n");
    const auto format = cli("format --style sediment --schema nemo-gym-rollout " + test::quote((dir / "ok.jsonl").string()));
    CHECK(format.status == 0);
    CHECK(format.out == encode(test::row_of_version(1), Style::sediment) + "\n" + encode(test::row_of_version(4), Style::sediment) + "\n");
}

TEST_CASE("cli: a name without a version where documents do not say theirs is a usage error") {
    const auto r = cli("validate --schema nemo-gym-response -");
    CHECK(r.status == 2);
    CHECK(r.err.rfind("sediment-rows: nemo-gym-response documents do not name their version: name one of nemo-gym-response.v1, "
                      "nemo-gym-response.v2 or nemo-gym-response.v3 (see 'sediment-rows schema list')\n", 0) == 0);
    CHECK(cli("validate --schema ci-outcome -").status == 2);
    CHECK(cli("convert --from nemo-gym-response --to atif-v1.7 -").status == 2);
    CHECK(cli("convert --from atif-v1.7 --to nemo-gym-response -").status == 2);
}

TEST_CASE("versions: rows of every version convert to ATIF and back exactly") {
    for (int version = 1; version <= 4; ++version) {
        INFO("v" << version);
        const AnyRolloutRow row = decode<AnyRolloutRow>(row_text(version));
        const NemoGymAtifTrajectory t = to_atif(row);
        CHECK(validate(SchemaId::atif_v1_7, encode(t)).errors.empty());
        const Converted<AnyRolloutRow> back = to_any_rollout_row(t, schema_of(row));
        CHECK(back.losses.empty());
        CHECK(back.value == row);
        CHECK(to_any_rollout_row(t).value == row);  // the version its own metadata names
    }
    const auto v4 = decode<NemoGymRolloutRowV4>(row_text(4));
    const NemoGymAtifTrajectory t = to_atif(AnyRolloutRow(v4));
    CHECK(to_rollout_row<NemoGymRolloutRowV4>(t).value == v4);
    // the trajectory's metadata is v4's: read as v3's, its place in the trajectory is named
    try {
        to_rollout_row<NemoGymRolloutRowV3>(t);
        FAIL("a v4 metadata read as v3");
    } catch (const ConvertError& e) {
        CHECK(e.errors().at(0).pointer.rfind("/extra/sediment_rows/metadata/", 0) == 0);
    }
    // a trajectory whose metadata names no version, or that has none
    NemoGymAtifTrajectory unnamed = t;
    (**unnamed.extra)["sediment_rows"]["metadata"]["schema_id"] = "x";
    try {
        to_any_rollout_row(unnamed);
        FAIL("a metadata that names no version");
    } catch (const ConvertError& e) {
        CHECK(e.errors().at(0).id == "rows.decode.version");
        CHECK(e.errors().at(0).pointer == "/extra/sediment_rows/metadata/schema_id");
    }
    try {
        to_any_rollout_row(to_atif(RowParts{v4.responses_create_params, v4.response}));
        FAIL("no metadata");
    } catch (const ConvertError& e) {
        CHECK(e.errors().at(0).id == "rows.convert.metadata");
    }
    // metadata given for the version asked for
    const RowMetadataOf<NemoGymRolloutRowV4> metadata{v4.metadata, v4.reward};
    CHECK(to_rollout_row<NemoGymRolloutRowV4>(to_atif(RowParts{v4.responses_create_params, v4.response}), metadata).value == v4);
    RowMetadataOf<NemoGymRolloutRowV3> read;
    std::vector<Error> errors;
    CHECK_FALSE(decode(R"({"metadata": )" + encode(test::row_of_version(4)["metadata"]) + "}", read, errors));
    // first, that the metadata is of another version; then where v4's differs (2, where v3 says 1)
    CHECK(errors.at(0) == Error{"rows.decode.other_version", "/metadata/schema_id",
                                "the metadata is nemo-gym-rollout.v4's, not nemo-gym-rollout.v3's: convert to nemo-gym-rollout (a row of "
                                "the version its metadata names); a conversion does not go back to an older version"});
    CHECK(errors.at(1).pointer == "/metadata/verifier_results/0/schema_version");
    errors.clear();
    CHECK(decode(R"({"metadata": )" + encode(test::row_of_version(3)["metadata"]) + R"(, "reward": 1.0})", read, errors));
    CHECK(read.metadata.session_commit_observation_ids.size() == 2);
}

TEST_CASE("versions: a row made from ATIF is checked under its version") {
    // a U+0000 in a tool-call id: a v2 row holds it, a v3 row does not
    const std::string nul = with(3, {"/response/turns/0/tool_calls/0/id", R"("call\u0000")"});
    const auto v2 = decode<NemoGymRolloutRowV2>(with(2, {"/response/turns/0/tool_calls/0/id", R"("call\u0000")"}));
    const NemoGymAtifTrajectory t = to_atif(RowParts{v2.responses_create_params, v2.response});
    const RowMetadataOf<NemoGymRolloutRowV3> metadata{decode<NemoGymRolloutRowV3>(row_text(3)).metadata, std::nullopt};
    try {
        to_rollout_row<NemoGymRolloutRowV3>(t, metadata);
        FAIL("a U+0000 in a v3 id");
    } catch (const ConvertError& e) {
        CHECK(e.errors().at(0).id == "rows.decode.pattern");
        CHECK(e.errors().at(0).pointer == "/response/turns/0/tool_calls/0/id");
    }
    CHECK(validate(SchemaId::nemo_gym_rollout_v3, nul).errors.at(0).id == "rows.decode.pattern");
}

TEST_CASE("cli: convert rows of every version to ATIF and back, each as its own version") {
    test::TempDir dir;
    std::string rows;
    for (int version = 1; version <= 4; ++version) rows += encode(test::row_of_version(version), Style::sediment) + "\n";
    test::write_file(dir / "rows.jsonl", rows);
    const auto atif = cli("convert --from nemo-gym-rollout --to atif-v1.7 " + test::quote((dir / "rows.jsonl").string()));
    CHECK(atif.status == 0);
    test::write_file(dir / "atif.jsonl", atif.out);
    const auto back = cli("convert --from atif-v1.7 --to nemo-gym-rollout --style sediment " + test::quote((dir / "atif.jsonl").string()));
    CHECK(back.status == 0);
    CHECK(back.out == rows);
    // a version asked for: the others' metadata fails, at its place in the trajectory
    const auto v4 = cli("convert --from atif-v1.7 --to nemo-gym-rollout.v4 " + test::quote((dir / "atif.jsonl").string()));
    CHECK(v4.status == 1);
    CHECK(v4.err.find(":1: /extra/sediment_rows/metadata/verifier_results/0: missing key 'repository_provider'") != std::string::npos);
    CHECK(v4.err.find("1 converted, 3 failed") != std::string::npos);
    // --metadata lines of the version asked for
    test::write_file(dir / "meta.jsonl", "{\"metadata\": " + encode(test::row_of_version(3)["metadata"]) + "}\n");
    test::write_file(dir / "one.jsonl", atif.out.substr(0, atif.out.find('\n') + 1));
    const auto given = cli("convert --from atif-v1.7 --to nemo-gym-rollout --metadata " + test::quote((dir / "meta.jsonl").string()) +
                           " --lossy " + test::quote((dir / "one.jsonl").string()));
    CHECK(given.status == 0);
    CHECK(parse(given.out)["metadata"]["schema_version"] == 3);
    CHECK(cli("convert --from atif-v1.7 --to nemo-gym-response.v3 " + test::quote((dir / "atif.jsonl").string())).status == 0);
}
