// The schema engine (valijson) on every bundled schema, and the differential test: the typed decoder
// and valijson give the same verdict on every test document, and point at the same place.
#include <catch2/catch.hpp>

#include <regex>

#include "process.hpp"
#include "rules.hpp"

using namespace sediment::rows;


TEST_CASE("validate: the bundled schemas are embedded byte for byte") {
    for (const SchemaInfo& s : kSchemas) {
        const Json schema = Json::parse(schema_text(s.id));
        CHECK(schema["$id"] == s.uri);
        // the type's name: the title, and the first version of the schema with its shape (docs/naming.md)
        const std::string title = schema["title"];
        const std::string root(s.root_type);
        if (s.version == 0) {
            CHECK(root == title);
        } else {
            REQUIRE(root.rfind(title + "V", 0) == 0);
            const int first = std::stoi(root.substr(title.size() + 1));
            CHECK((first >= 1 && first <= s.version));
        }
        CHECK(schema_text(s.id) == test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/schemas/" + std::string(s.name) + ".schema.json"));
    }
    CHECK(find_schema("nemo-gym-rollout.v2")->id == SchemaId::nemo_gym_rollout_v2);
    CHECK(find_schema("ci-outcome.v1")->id == SchemaId::ci_outcome_v1);
    CHECK(find_schema("atif-v1.7")->id == SchemaId::atif_v1_7);
    CHECK(find_schema("atif-v1.6") == nullptr);
}

TEST_CASE("validate: valijson answers for every bundled schema") {
    for (const SchemaInfo& s : kSchemas) {
        INFO(s.name);
        CHECK(validate(s.id, encode(test::base(s.id)), Engine::schema).errors.empty());
        // (a consumer config's keys all have defaults: {} is Sediment's config without tasks)
        CHECK(validate(s.id, "{}", Engine::schema).errors.empty() == (s.id == SchemaId::consumer_config));
    }
}

TEST_CASE("validate: the create-params pattern runs (std::regex cannot compile it)") {
    const std::string bad = test::mutate(test::kParams, {"/input/0/parts/0", R"({"type": "tool_call", "id": "a\u0000b", "name": "n", "arguments": {}})"});
    const std::string good = test::mutate(test::kParams, {"/input/0/parts/0", R"({"type": "tool_call", "id": "a\u00e9b", "name": "n", "arguments": {}})"});
    std::vector<Error> errors;
    REQUIRE_NOTHROW(errors = validate(test::kParams, bad, Engine::schema).errors);
    REQUIRE_FALSE(errors.empty());
    CHECK(test::same_place("/input/0/parts/0/id", errors));
    bool named = false;
    for (const Error& e : errors) named = named || e.message == "does not match the pattern ^[^\\u0000\\uD800-\\uDFFF]*$";
    CHECK(named);
    CHECK(validate(test::kParams, good, Engine::schema).errors.empty());
    // the rollout schema's copy of the same types has no pattern
    CHECK(validate(test::kRollout, test::mutate(test::kRollout, {"/responses_create_params/input/0/parts/0", R"({"type": "tool_call", "id": "a\u0000b", "name": "n", "arguments": {}})"}), Engine::schema).errors.empty());
}

TEST_CASE("validate: valijson's inexact keywords are corrected") {
    SECTION("3.0 is an integer (2020-12); valijson alone rejects it") {
        CHECK(validate(test::kOutcome, test::mutate(test::kOutcome, {"/pr_number", "3.0"}), Engine::schema).errors.empty());
    }
    SECTION("integers above 2^63-1 fail maximum; valijson alone lets them pass") {
        CHECK_FALSE(validate(test::kOutcome, test::mutate(test::kOutcome, {"/pr_number", "9223372036854775808"}), Engine::schema).errors.empty());
    }
    SECTION("date-time is a real calendar date-time; valijson alone takes Feb 29 2026 and 5-digit years") {
        CHECK_FALSE(validate(test::kOutcome, test::mutate(test::kOutcome, {"/captured_at", "\"2026-02-29T00:00:00Z\""}), Engine::schema).errors.empty());
        CHECK_FALSE(validate(test::kOutcome, test::mutate(test::kOutcome, {"/captured_at", "\"12026-01-01T00:00:00Z\""}), Engine::schema).errors.empty());
        CHECK(validate(test::kOutcome, test::mutate(test::kOutcome, {"/captured_at", "\"2024-02-29T00:00:00+01:00\""}), Engine::schema).errors.empty());
    }
    SECTION("a property named like a keyword is not taken for one") {
        // "format" and "pattern" as free-form keys stay data
        CHECK(validate(test::kOutcome, test::mutate(test::kOutcome, {"/raw/format", "\"x\""}), Engine::schema).errors.empty());
    }
}

TEST_CASE("differential: typed decoder and valijson agree on every rule case") {
    for (const test::RuleCase& c : test::rule_cases()) {
        DYNAMIC_SECTION(c.rule) {
            const std::string text = test::mutate(c.schema, c.change);
            const auto typed = validate(c.schema, text).errors;
            const auto schema = validate(c.schema, text, Engine::schema).errors;
            INFO("typed: " << (typed.empty() ? "valid" : to_string(typed[0])));
            INFO("valijson: " << (schema.empty() ? "valid" : to_string(schema[0])));
            REQUIRE(typed.empty() == schema.empty());
            if (!typed.empty()) CHECK(test::same_place(typed[0].pointer, schema));
        }
    }
}

TEST_CASE("differential: typed decoder and valijson agree on unreadable documents") {
    const std::string row = Json::parse(test::kRow).dump();
    for (const std::string& text : {row.substr(0, row.size() / 2), row + "x", std::string("NaN"), std::string("{\"a\": 1, \"a\": 2}"),
                                    std::string(5000, '['), std::string("\"\xFF\""), std::string("")}) {
        const auto typed = validate(test::kRollout, text).errors;
        const auto schema = validate(test::kRollout, text, Engine::schema).errors;
        REQUIRE(typed.size() == 1);
        CHECK(schema == typed);  // one strict reader serves both engines
    }
}

TEST_CASE("patterns: a negated class, or a counted class, is read without a regex, with the regex's verdict") {
    // std::wregex over code points is the reference; the bundled schemas' patterns are negated classes
    const auto reference = [](const std::string& pattern, const std::string& text) {
        const std::u32string p = detail::to_code_points(pattern), t = detail::to_code_points(text);
        return std::regex_search(std::wstring(t.begin(), t.end()), std::wregex(std::wstring(p.begin(), p.end()), std::regex::ECMAScript));
    };
    // (the first three are one byte to find in valid UTF-8, which holds no surrogate)
    const std::vector<std::string> patterns = {"^[^\\u0000\\uD800-\\uDFFF]*$", "^[^\\uD800-\\uDBFF\\u0009\\uDC00-\\uDFFF]*$", "^[^z]*$",
                                               "^[^\\u0000\\u00e9]*$", "^[^\\u0000\\uD800-\\uE000]*$", "^[^a-c\\u00e9x]*$", "^[^\\u0041-\\u005a]*$",
                                               "^[0-9a-f]{3}$", "^[xz]{1}$", "^[a-c\\u0041]{2}$",  // a counted class (a SHA-256's)
                                               "^[a-z]+$", "^[^\\d]*$", "^x[^a]*$", "^[\\u00e9]{1}$"};  // the last four take the regex
    const std::vector<std::string> texts = {"", "abc", "call_1", std::string("a\0b", 3), std::string(1, '\0'), "\xC3\xA9", "X",
                                            "\xF0\x9F\x98\x80 ok", "ZZ", "123", "xyz", "x", "d\xC3\xA9",
                                            "a\tb", "\xEE\x80\x80", "z", "0af", "0aF", "0a", "0aff", "aA", "Ab", "ab"};
    for (const std::string& p : patterns)
        for (const std::string& t : texts) {
            INFO(p << " on " << Json(t).dump());
            CHECK(detail::matches_pattern(p.c_str(), t) == reference(p, t));
        }
}
