// The ATIF v1.7 subset: every rule of NeMo Gym's strict model, with the verdict and the error's
// JSON Pointer; the schema engine agrees wherever the bundled schema can say the rule.
#include <catch2/catch.hpp>

#include "atif_rules.hpp"

using namespace sediment::rows;

TEST_CASE("atif: every rule gives its verdict and pointer") {
    test::check_verdicts(test::kAtif, test::atif_cases());
}

TEST_CASE("atif: the schema engine agrees wherever the schema can say the rule") {
    test::check_schema_agrees(test::kAtif, test::atif_cases());
}

TEST_CASE("atif: values land in the typed members") {
    const auto t = decode<NemoGymAtifTrajectory>(test::kTrajectory);
    CHECK(NemoGymAtifTrajectory::schema_version == "ATIF-v1.7");
    CHECK(t.agent.name == "coder");
    REQUIRE(t.steps.size() == 4);
    CHECK(std::get<std::string>(t.steps[0].message) == "You are a careful engineer.");
    const auto& parts = std::get<std::vector<AtifContentPart>>(t.steps[1].message);
    CHECK(parts[1].type == AtifContentPartType::image);
    CHECK((**parts[1].source).media_type == AtifImageMediaType::image_png);
    const NemoGymAtifStep& agent = t.steps[2];
    CHECK(std::get<std::string>(**agent.reasoning_effort) == "high");
    CHECK_FALSE((**agent.metrics).prompt_tokens->value().fits_int64());
    CHECK((**agent.metrics).prompt_tokens->value().to_string() == "1180591620717411303424");
    CHECK((**agent.metrics).completion_tokens->value().value() == 7);
    CHECK(t.trajectory_id.has_value());  // present, as null
    CHECK(t.trajectory_id->is_null());
    CHECK_FALSE(t.steps[0].model_name.has_value());  // absent
}

TEST_CASE("atif: encoding keeps absent and null apart and loses nothing") {
    const auto t = decode<NemoGymAtifTrajectory>(test::kTrajectory);
    const std::string text = encode(t);
    CHECK(decode<NemoGymAtifTrajectory>(text) == t);
    // the same document as the input, key order aside
    CHECK(nlohmann::json(parse(text)) == nlohmann::json(parse(test::kTrajectory)));
    CHECK(text.find("\"trajectory_id\":null") != std::string::npos);
    CHECK(text.find("\"prompt_tokens\":1180591620717411303424") != std::string::npos);
}

TEST_CASE("atif: a decimal is exact when it is the double's shortest form, up to notation") {
    using detail::decimal_is_exact;
    CHECK(decimal_is_exact("0.1", 0.1));
    CHECK(decimal_is_exact("1.50", 1.5));
    CHECK(decimal_is_exact("0.00015e1", 0.0015));
    CHECK(decimal_is_exact("1E+2", 100.0));
    CHECK(decimal_is_exact("-0.0", -0.0));
    CHECK(decimal_is_exact("0e7", 0.0));
    CHECK_FALSE(decimal_is_exact("-0.0", 0.0));
    CHECK_FALSE(decimal_is_exact("0.10000000000000001", 0.1));
    CHECK_FALSE(decimal_is_exact("1e-400", 0.0));
    for (const auto& [v, shortest] : test::random_doubles(3, 20000)) {
        INFO(shortest);
        CHECK(decimal_is_exact(shortest, v));
        if (shortest.find('e') == std::string::npos) CHECK_FALSE(decimal_is_exact(shortest + "1", v));  // one digit more
    }
}
