// The fast path (simdjson) against the exact reader: whatever the fast path accepts, the exact reader
// accepts too, with the same value to the byte. decode() tries the fast path first, so every verdict
// test (rules, hostile input) also checks that it accepts nothing invalid.
#include <catch2/catch.hpp>

#include <set>

#include "differential.hpp"
#include "rules.hpp"

using namespace sediment::rows;

namespace {

/// Runs both readers on `text` (test::read_both); true when the fast path read it.
template <class T>
bool same_as_exact(const std::string& text, SchemaId schema) {
    return test::read_both<T>(text, schema).fast;
}

bool same_as_exact(SchemaId schema, const std::string& text) {
    return visit_schema(schema, [&](auto tag) { return same_as_exact<typename decltype(tag)::type>(text, schema); });
}

}  // namespace

TEST_CASE("fast path: every rule case gets the exact reader's value, and valid ones take the fast path") {
    std::set<std::string> exact_only;
    for (const test::RuleCase& c : test::rule_cases()) {
        if (c.schema == SchemaId::atif_v1_7) continue;  // ATIF's exact decimals need the literals: always exact
        INFO(c.rule);
        const bool fast = same_as_exact(c.schema, test::mutate(c.schema, c.change));
        if (*c.id == '\0' && !fast) exact_only.insert(c.rule);
        if (*c.id != '\0') CHECK_FALSE(fast);
    }
    // The valid documents the fast path leaves to the exact reader, by design (detail/fast.hpp): an
    // integral number written as a float in an integer field, and an integer beyond 64 bits.
    CHECK(exact_only == std::set<std::string>{"const: recipe_version 1.0", "free-form: 2^70", "integer: 1e18", "integer: 3.0",
                                              "integer: 30e-1", "integer: pr_number 1.0", "integer: pr_number 1e0",
                                              "v4: CI schema_version 2.0", "v4: schema_version 4.0"});
}

TEST_CASE("fast path: the base documents, and values the fast path leaves to the exact reader") {
    for (const SchemaInfo& info : kSchemas)
        if (!info.strict_numbers) CHECK(same_as_exact(info.id, dump(test::base(info.id))));
    const auto args = [](const std::string& value) {
        return test::mutate(test::kRollout, {"/response/turns/0/tool_calls/0/arguments/x", value});
    };
    CHECK(same_as_exact(test::kRollout, args("[1, -2, 3.5, -0.0, 1e-7, 18446744073709551615, \"\\u00e9\\ud83d\\ude00\", null, true, {}]")));
    CHECK_FALSE(same_as_exact(test::kRollout, args("18446744073709551616")));  // beyond 64 bits
    CHECK_FALSE(same_as_exact(test::kRollout, test::mutate(test::kRollout, {"/metadata/segment_index", "3.0"})));
    std::string deep = "1";
    for (int i = 0; i < 990; ++i) deep = "[" + deep + "]";
    CHECK_FALSE(same_as_exact(test::kRollout, args(deep)));  // near the depth limit
    std::string wide = "{";
    for (int i = 0; i < 100; ++i) wide += std::string(i ? "," : "") + "\"k" + std::to_string(i) + "\": " + std::to_string(i);
    CHECK_FALSE(same_as_exact(test::kRollout, args(wide + "}")));  // duplicate keys checked by the exact reader
    CHECK_FALSE(same_as_exact(test::kRollout, args("{\"a\": 1, \"a\": 1}")));
}

TEST_CASE("fast path: limits are the exact reader's") {
    const std::string text = dump(test::base(test::kRollout));
    NemoGymRolloutRow row;
    Limits small;
    small.max_document_bytes = text.size() - 1;
    CHECK_FALSE(detail::fast_decode(text, row, small, test::kRollout));
    small = Limits{};
    small.max_string_bytes = 10;
    CHECK_FALSE(detail::fast_decode(text, row, small, test::kRollout));
    std::vector<Error> errors;
    CHECK_FALSE(decode(text, row, errors, small));
    CHECK(errors.at(0).id == "rows.parse.size");
}
