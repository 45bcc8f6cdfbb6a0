// Harbor's ATIF model (the `atif` schema), every version v1.0 to v1.7: each of Harbor's rules with
// its verdict and pointer, the schema engine wherever the schema can say the rule, the typed members
// (recursive subagent trajectories), and the round trip.
#include <catch2/catch.hpp>

#include "atif_rules.hpp"

using namespace sediment::rows;

TEST_CASE("harbor: the base trajectory is valid under both models") {
    const std::string text = encode(test::base(test::kHarbor));
    CHECK(validate(test::kHarbor, text).errors.empty());
    CHECK(validate(test::kHarbor, text, Engine::schema).errors.empty());
    // the subset holds subagent trajectories and references as free-form objects (relabelled: the
    // subset is ATIF-v1.7 only)
    CHECK(validate(test::kAtif, test::mutate(test::kHarbor, {"/schema_version", "\"ATIF-v1.7\""})).errors.empty());
}

TEST_CASE("harbor: every rule gives its verdict and pointer") {
    test::check_verdicts(test::kHarbor, test::harbor_cases());
}

TEST_CASE("harbor: the schema engine agrees wherever the schema can say the rule") {
    test::check_schema_agrees(test::kHarbor, test::harbor_cases());
}

TEST_CASE("harbor: values land in the typed members, subagents as trajectories") {
    const auto t = decode<HarborAtifTrajectory>(encode(test::base(test::kHarbor)));
    REQUIRE(t.schema_version);
    CHECK(*t.schema_version == AtifVersion::ATIF_v1_8);
    REQUIRE(t.subagent_trajectories);
    const auto& subagents = **t.subagent_trajectories;
    REQUIRE(subagents.size() == 1);
    CHECK(*subagents[0].schema_version == AtifVersion::ATIF_v1_6);
    CHECK(**subagents[0].trajectory_id == "sub-1");
    CHECK(subagents[0].agent.name == "helper");
    const auto& refs = **(*t.steps[2].observation)->results[2].subagent_trajectory_ref;
    REQUIRE(refs.size() == 2);
    CHECK(**refs[0].trajectory_id == "sub-1");
    CHECK(refs[0].trajectory_path->is_null());
    CHECK_FALSE(refs[1].trajectory_id.has_value());
    CHECK(**refs[1].trajectory_path == "trajectories/sub-2.json");
    const auto& inner = **(*subagents[0].steps[1].observation)->results[0].subagent_trajectory_ref;
    CHECK(**inner[0].session_id == "s-3");
    // shared with the subset: the same C++ types
    static_assert(std::is_same_v<decltype(t.agent), AtifAgent>);
    static_assert(std::is_same_v<decltype(t.steps[0].message), HarborAtifContent>);  // with audio parts (v1.8)

    const auto unlabelled = decode<HarborAtifTrajectory>(test::mutate(test::kHarbor, {"/schema_version", ""}));
    CHECK_FALSE(unlabelled.schema_version.has_value());
}

TEST_CASE("harbor: encoding gives back the document, absent and null kept apart") {
    for (const char* label : {"", "\"ATIF-v1.0\"", "\"ATIF-v1.6\""}) {
        const std::string text = test::mutate(test::kHarbor, {"/schema_version", label});
        const auto t = decode<HarborAtifTrajectory>(text);
        const std::string out = encode(t);
        CHECK(decode<HarborAtifTrajectory>(out) == t);
        CHECK(nlohmann::json(parse(out)) == nlohmann::json(parse(text)));
        CHECK((out.find("\"schema_version\"") == 0 + 1) == (*label != '\0'));
    }
}

TEST_CASE("harbor: a media type Harbor would normalize is refused, listing the spellings of its kind") {
    for (const char* type : {"AUDIO/WAV", " audio/wav", "Audio/MP3 "}) {
        INFO(type);
        const std::string part = std::string(R"({"type": "audio", "source": {"media_type": ")") + type + R"(", "path": "a.wav"}})";
        const auto errors = validate(test::kHarbor, test::mutate(test::kHarbor, {"/steps/1/message/1", part})).errors;
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == "rows.decode.enum");
        CHECK(errors[0].pointer == "/steps/1/message/1/source/media_type");
        CHECK(errors[0].message.find("'audio/x-aiff'") != std::string::npos);  // the audio spellings, not the image ones
        CHECK(errors[0].message.find("image/") == std::string::npos);
    }
    // and an image type is not normalized either: the image spellings
    const auto image = validate(test::kHarbor, test::mutate(test::kHarbor, {"/steps/1/message/1/source/media_type", "\"IMAGE/PNG\""})).errors;
    REQUIRE(image.size() == 1);
    CHECK(image[0].message.find("'image/webp'") != std::string::npos);
}
