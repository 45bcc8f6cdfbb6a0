// The fast path (simdjson) against the exact reader: whatever the fast path accepts, the exact reader
// accepts too, with the same value to the byte. decode() tries the fast path first, so every verdict
// test (rules, hostile input) also checks that it accepts nothing invalid.
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "atif_rules.hpp"
#include "detail/fast.hpp"
#include "differential.hpp"
#include "process.hpp"
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

/// The base trajectory of an ATIF schema with a 64-bit token count for its 2^70 (an integer beyond 64
/// bits, which the fast path leaves to the exact reader), after `change`.
std::string atif_text(SchemaId schema, const test::Change& change) {
    Json doc = test::base(schema);
    doc["steps"][2]["metrics"]["prompt_tokens"] = 1180;
    return test::mutate(doc, change);
}

}  // namespace

TEST_CASE("fast path: every rule case gets the exact reader's value, and valid ones take the fast path") {
    std::set<std::string> exact_only;
    for (const test::RuleCase& c : test::rule_cases()) {
        INFO(c.rule);
        const bool fast = same_as_exact(c.schema, test::mutate(c.schema, c.change));
        if (*c.id == '\0' && !fast) exact_only.insert(c.rule);
        if (*c.id != '\0') CHECK_FALSE(fast);
    }
    // The valid documents the fast path leaves to the exact reader, by design (detail/fast.hpp): an
    // integral number written as a float in an integer field.
    CHECK(exact_only == std::set<std::string>{"const: recipe_version 1.0", "integer: 1e18", "integer: 3.0",
                                              "integer: 30e-1", "integer: pr_number 1.0", "integer: pr_number 1e0",
                                              "v4: CI schema_version 2.0", "v4: schema_version 4.0"});
}

TEST_CASE("fast path: every ATIF rule case, under the subset and under Harbor's model") {
    // The valid cases the fast path leaves to the exact reader, by design: integers beyond 64 bits in
    // a typed field (in a free-form value the fast path reads them).
    const std::set<std::string> big_subset = {"tokens: any size"};
    const std::set<std::string> big_harbor = {"bounds: integers of any size"};
    for (const auto& [schema, cases, big] : {std::tuple(SchemaId::atif_v1_7, &test::atif_cases(), &big_subset),
                                             std::tuple(SchemaId::atif, &test::harbor_cases(), &big_harbor)}) {
        std::set<std::string> exact_only;
        for (const test::AtifCase& c : *cases) {
            INFO(c.rule);
            const bool fast = same_as_exact(schema, atif_text(schema, c.change));
            if (*c.id == '\0' && !fast) exact_only.insert(c.rule);
            if (*c.id != '\0') CHECK_FALSE(fast);
        }
        INFO(schema_info(schema).name);
        CHECK(exact_only == *big);
    }
}

TEST_CASE("fast path: the subset's decimals are read again from the text") {
    const SchemaId subset = SchemaId::atif_v1_7;
    const auto cost = [&](const std::string& literal) { return atif_text(subset, {"/steps/2/metrics/cost_usd", literal}); };
    const auto extra = [&](const std::string& value) { return atif_text(subset, {"/steps/2/metrics/extra", value}); };
    // exact: short literals, trailing zeros, exponents, zero, long literals that are a double's shortest form
    for (const char* literal : {"0.5", "0.0", "0.000", "1.50000000000000000000", "12.5e-3", "2E+2", "0.30000000000000004",
                                "1.7976931348623157e308", "2.2250738585072014e-308"})
        CHECK(same_as_exact(subset, cost(literal)));
    CHECK(same_as_exact(subset, extra("{\"k\": [0.25, -1.5e-7, \"0.10000000000000001\", \"\\\"0.10000000000000001\"]}")));
    // not exact: the exact reader refuses each (a digit too many, an underflow, a subnormal's digits)
    for (const char* literal : {"0.10000000000000001", "1e-400", "4e-324", "0.1000000000000000000000001"}) {
        INFO(literal);
        CHECK_FALSE(same_as_exact(subset, cost(literal)));
        CHECK_FALSE(validate(subset, cost(literal)).errors.empty());
        CHECK_FALSE(same_as_exact(subset, extra(std::string("[\"\\\\\", ") + literal + "]")));
    }
    // every decimal is read again, the document's last and those of every kind of field
    for (const test::Change& change : std::vector<test::Change>{{"/extra", "{\"a\": 0.5, \"b\": 0.10000000000000001}"},
                                                                 {"/final_metrics/total_cost_usd", "0.10000000000000001"},
                                                                 {"/steps/2/reasoning_effort", "0.10000000000000001"},
                                                                 {"/steps/2/metrics/logprobs/2", "-0.10000000000000001"}}) {
        INFO(change.pointer);
        CHECK_FALSE(same_as_exact(subset, atif_text(subset, change)));
        CHECK(validate(subset, atif_text(subset, change)).errors.at(0).id == "rows.parse.inexact_decimal");
    }
    // a subnormal that is its shortest form is exact, and the exact reader says so
    CHECK(validate(subset, cost("5e-324")).errors.empty());
    // Harbor reads a decimal as its nearest double, on the fast path too
    CHECK(same_as_exact(SchemaId::atif, atif_text(SchemaId::atif, {"/steps/2/metrics/cost_usd", "0.10000000000000001"})));
}

TEST_CASE("fast path: the base documents, and values the fast path leaves to the exact reader") {
    for (const SchemaInfo& info : kSchemas) {
        INFO(info.name);
        // the ATIF bases hold a token count of 2^70, beyond 64 bits
        const bool atif = info.id == SchemaId::atif || info.id == SchemaId::atif_v1_7;
        CHECK(same_as_exact(info.id, encode(test::base(info.id))) == !atif);
        if (atif) CHECK(same_as_exact(info.id, atif_text(info.id, {"/notes", "\"n\""})));
    }
    // rules that read free-form values read the model's (a view holds an integer beyond 64 bits as a marker):
    // the check-only path gives the fast path's verdict (read_both() checks it), here with such an integer
    // and with a string that starts with NUL, as a marker does (the fuzzer's finding)
    for (const char* value : {"18446744073709551616", "\"\\u0000000001\""}) {
        CAPTURE(value);
        CHECK(same_as_exact(SchemaId::nemo_gym_profile_evidence,
                            test::mutate(test::base(SchemaId::nemo_gym_profile_evidence), {"/native_output_messages/0/0/parts/1/arguments/n", value})));
        Json config = test::base(SchemaId::consumer_config);
        config["tasks"]["acme__widgets-7"]["hints_text"] = "\u0000" "000001";
        test::read_both<ConsumerConfig>(encode(config), SchemaId::consumer_config);
    }
    const auto args = [](const std::string& value) {
        return test::mutate(test::kRollout, {"/response/turns/0/tool_calls/0/arguments/x", value});
    };
    CHECK(same_as_exact(test::kRollout, args("[1, -2, 3.5, -0.0, 1e-7, 18446744073709551615, \"\\u00e9\\ud83d\\ude00\", null, true, {}]")));
    CHECK_FALSE(same_as_exact(test::kRollout, test::mutate(test::kRollout, {"/metadata/segment_index", "18446744073709551616"})));
    CHECK_FALSE(same_as_exact(test::kRollout, test::mutate(test::kRollout, {"/metadata/segment_index", "3.0"})));
    // At the depth limit (1000 levels, the arguments' value starting at level 8) the fast path reads
    // the document; one level more, both readers refuse it.
    std::string deep = "1";
    for (int i = 0; i < 993; ++i) deep = "[" + deep + "]";
    CHECK(same_as_exact(test::kRollout, args(deep)));
    CHECK_FALSE(same_as_exact(test::kRollout, args("[" + deep + "]")));
    CHECK(validate(test::kRollout, args("[" + deep + "]")).errors.at(0).id == "rows.parse.depth");
    std::string wide = "{";
    for (int i = 0; i < 100; ++i) wide += std::string(i ? "," : "") + "\"k" + std::to_string(i) + "\": " + std::to_string(i);
    CHECK_FALSE(same_as_exact(test::kRollout, args(wide + "}")));  // duplicate keys checked by the exact reader
    CHECK_FALSE(same_as_exact(test::kRollout, args("{\"a\": 1, \"a\": 1}")));
}

TEST_CASE("fast path: integers beyond 64 bits in free-form values, read as the exact reader reads them") {
    const auto args = [](const std::string& value) {
        return test::mutate(test::kRollout, {"/response/turns/0/tool_calls/0/arguments/x", value});
    };
    const std::string big = "1180591620717411303424";  // 2^70
    // The smallest beyond each 64-bit range, many of them, nested, beside decimals and at the end of
    // a value, an array and an object.
    for (const std::string& value : std::vector<std::string>{"18446744073709551616", "-9223372036854775809", "[" + big + "," + big + " ,-" + big + "\n]",
                                    "{\"a\": {\"b\": [0.5, " + big + "]}, \"c\": " + big + "}",
                                    "123456789012345678901234567890123456789012345678901234567890"}) {
        INFO(value);
        CHECK(same_as_exact(test::kRollout, args(value)));
        CHECK(validate(test::kRollout, args(value)).errors.empty());
    }
    Json arguments = decode<NemoGymRolloutRowV2>(args("[" + big + ", -" + big + "]")).response.turns[0].tool_calls[0].arguments;
    CHECK(big_integer_digits(arguments["x"][0]) == big);
    CHECK(big_integer_digits(arguments["x"][1]) == "-" + big);
    // The text's own strings are of any content, a marker's too (U+0000 and 12 digits or more): each
    // marker is taken exactly once, and no other reader takes one.
    const std::string zeros(12, '0');
    CHECK(same_as_exact(test::kRollout, args("[" + big + ", \"\\u0000 is text\", \"\\u00001\", \"\\\\u0000" + zeros + "\"]")));
    CHECK(same_as_exact(test::kRollout, test::mutate(parse(args(big)), {"/metadata/session_id", "\"\\u0000" + zeros + "x\""})));
    for (const std::string& text : std::vector<std::string>{args("[" + big + ", \"\\u0000" + zeros + "\"]"),
                                                            args("[\"\\u0000" + zeros + "\", " + big + "]"),
                                                            args("[" + big + ", \"\\u0000" + zeros + "1\"]"),
                                                            test::mutate(parse(args(big)), {"/metadata/session_id", "\"\\u0000" + zeros + "\""})}) {
        CHECK_FALSE(same_as_exact(test::kRollout, text));
        CHECK(validate(test::kRollout, text).errors.empty());
    }
    // Where a typed field holds one, both readers give the verdict of the exact reader.
    for (const auto& [pointer, id] : {std::pair<std::string, std::string>{"/metadata/session_id", "rows.decode.type"},
                                      {"/response/turns/0/inference_call_id", "rows.decode.type"},
                                      {"/metadata/segment_index", "rows.decode.range"}}) {
        INFO(pointer);
        const std::string text = test::mutate(parse(args(big)), {pointer, big});
        CHECK_FALSE(same_as_exact(test::kRollout, text));
        const std::vector<Error> errors = validate(test::kRollout, text).errors;
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == id);
        CHECK(errors[0].pointer == pointer);
    }
    // Malformed numbers stay malformed: the exact reader's syntax error, at the same place.
    for (const std::string& value : std::vector<std::string>{big + "x", "0" + big, big + ".", big + "e", "-" + big + "-1", "1" + big + "]"}) {
        INFO(value);
        CHECK_FALSE(same_as_exact(test::kRollout, args(value)));
        CHECK(validate(test::kRollout, args(value)).errors.at(0).id == "rows.parse.syntax");
    }
    std::string nul = args(big);
    nul.insert(nul.find(big) + big.size(), 1, '\0');
    CHECK_FALSE(same_as_exact(test::kRollout, nul));
    CHECK(validate(test::kRollout, nul).errors.at(0).id == "rows.parse.syntax");
    // A subset trajectory's decimals are counted past the markers.
    const SchemaId subset = SchemaId::atif_v1_7;
    CHECK(same_as_exact(subset, atif_text(subset, {"/extra", "{\"x\": " + big + ", \"y\": 0.25}"})));
    CHECK_FALSE(same_as_exact(subset, atif_text(subset, {"/extra", "{\"x\": " + big + ", \"y\": 0.10000000000000001}"})));
    // parse() reads them on the fast path too
    CHECK(big_integer_digits(parse("[" + big + "]")[0]) == big);
}

TEST_CASE("validate() of a std::string's text: read in place when its capacity leaves the padding, the same verdicts") {
    std::string tight(encode(test::base(test::kRollout)));
    tight.shrink_to_fit();
    std::string roomy = tight;
    roomy.reserve(tight.size() + kTextPadding);
    CHECK(StringText(roomy).padded());
    CHECK(StringText(roomy).text() == tight);
    if (tight.capacity() - tight.size() < kTextPadding) CHECK_FALSE(StringText(tight).padded());
    for (const std::string& text : {tight, roomy}) {
        CHECK(validate(test::kRollout, StringText(text)).errors.empty());
        const Validated any = validate("nemo-gym-rollout", StringText(text));
        CHECK(any.errors.empty());
        CHECK(any.schema == test::kRollout);
    }
    for (const test::RuleCase& c : test::rule_cases()) {
        if (*c.id == '\0') continue;
        std::string text = test::mutate(c.schema, c.change);
        const std::vector<Error> plain = validate(c.schema, text).errors;
        text.reserve(text.size() + kTextPadding);
        const std::vector<Error> in_place = validate(c.schema, StringText(text)).errors;
        INFO(c.rule);
        REQUIRE(in_place.size() == plain.size());
        for (std::size_t i = 0; i < plain.size(); ++i) CHECK(in_place[i] == plain[i]);
        CHECK(validate(schema_info(c.schema).name, StringText(text)).errors == plain);
    }
}

TEST_CASE("decode() of a std::string's text: read in place when its capacity leaves the padding, the same values and errors") {
    const std::string big = "1180591620717411303424";  // 2^70: the fast path's markers, on a copy
    const std::string row_text = encode(test::base(test::kRollout));
    for (const std::string& source : {row_text, atif_text(SchemaId::atif, {"/extra", "{\"x\": " + big + "}"})}) {
        std::string text = source;
        text.reserve(text.size() + kTextPadding);
        REQUIRE(StringText(text).padded());
        std::vector<Error> errors;
        if (source == row_text) {
            NemoGymRolloutRowV2 in_place, copied;
            CHECK(decode(StringText(text), in_place, errors, test::kRollout));
            CHECK(decode(std::string_view(source), copied, errors, test::kRollout));
            CHECK(in_place == copied);
        } else {
            HarborAtifTrajectory in_place, copied;
            CHECK(decode(StringText(text), in_place, errors));
            CHECK(decode(std::string_view(source), copied, errors));
            CHECK(in_place == copied);
            CHECK(big_integer_digits((*in_place.extra)->at("x")) == big);
        }
        CHECK(errors.empty());
        CHECK(text == source);  // read, never written
    }
    // an invalid document: the exact reader's errors, whichever way it is read
    std::string bad = test::mutate(test::kRollout, {"/metadata/debug", "1"});
    const std::vector<Error> expected = validate(test::kRollout, bad).errors;
    REQUIRE_FALSE(expected.empty());
    bad.reserve(bad.size() + kTextPadding);
    NemoGymRolloutRowV2 row;
    std::vector<Error> errors;
    CHECK_FALSE(decode(StringText(bad), row, errors, test::kRollout));
    CHECK(errors == expected);
}

TEST_CASE("fast path: limits are the exact reader's") {
    const std::string text = encode(test::base(test::kRollout));
    NemoGymRolloutRowV2 row;
    Limits small;
    small.max_document_bytes = text.size() - 1;
    CHECK_FALSE(detail::fast_decode(text, row, small, test::kRollout));
    CHECK_FALSE(detail::fast_check(text, type_tag<NemoGymRolloutRowV2>{}, small, test::kRollout));
    small = Limits{};
    small.max_string_bytes = 10;
    CHECK_FALSE(detail::fast_decode(text, row, small, test::kRollout));
    CHECK_FALSE(detail::fast_check(text, type_tag<NemoGymRolloutRowV2>{}, small, test::kRollout));
    CHECK(detail::fast_check(text, type_tag<NemoGymRolloutRowV2>{}, Limits{}, test::kRollout));
    std::vector<Error> errors;
    CHECK_FALSE(decode(text, row, errors, small));
    CHECK(errors.at(0).id == "rows.parse.size");

    // Harbor's trajectories hold trajectories: the typed models nest as deep as the document does
    std::string nested = test::kHarborSubagent;
    for (int i = 0; i < 3; ++i) {
        Json outer = parse(test::kHarborSubagent);
        outer["subagent_trajectories"] = Json::array({parse(nested)});
        nested = encode(outer);
    }
    HarborAtifTrajectory harbor;
    CHECK(detail::fast_decode(nested, harbor, Limits{}, SchemaId::atif));
    CHECK(detail::fast_check(nested, type_tag<HarborAtifTrajectory>{}, Limits{}, SchemaId::atif));
    small = Limits{};
    small.max_depth = 12;
    CHECK_FALSE(detail::fast_decode(nested, harbor, small, SchemaId::atif));
    CHECK_FALSE(detail::fast_check(nested, type_tag<HarborAtifTrajectory>{}, small, SchemaId::atif));
    errors.clear();
    CHECK_FALSE(decode(nested, harbor, errors, SchemaId::atif, small));
    CHECK(errors.at(0).id == "rows.parse.depth");
}

TEST_CASE("fast path: ATIF-v1.8 audio parts in messages, results and a subagent, every media type as written") {
    const std::vector<std::string> types = {"audio/wav", "audio/mpeg", "audio/mp4", "audio/aac", "audio/ogg", "audio/flac", "audio/webm",
                                            "audio/aiff", "audio/mp3", "audio/mpga", "audio/x-mpeg", "audio/x-m4a", "audio/m4a", "audio/x-wav",
                                            "audio/wave", "audio/vnd.wave", "audio/x-aac", "audio/x-flac", "audio/x-aiff"};
    for (const std::string& type : types) {
        INFO(type);
        const std::string part = "{\"type\": \"audio\", \"source\": {\"media_type\": \"" + type + "\", \"path\": \"clip\", \"duration_sec\": 0}}";
        Json doc = test::base(SchemaId::atif);
        doc["steps"][2]["metrics"]["prompt_tokens"] = 1180;  // 64 bits: the fast path reads it
        doc["steps"][1]["message"].push_back(Json::parse(part));
        doc["steps"][2]["observation"]["results"][1]["content"] = Json::parse("[" + part + ", " + part + "]");
        doc["subagent_trajectories"][0]["schema_version"] = "ATIF-v1.8";
        doc["subagent_trajectories"][0]["steps"][0]["message"] = Json::parse("[" + part + "]");
        const std::string text = encode(doc);
        CHECK(same_as_exact(SchemaId::atif, text));
        CHECK(validate(SchemaId::atif, text, Engine::schema).errors.empty());
        // an alias stays that alias
        const auto trajectory = decode<HarborAtifTrajectory>(text);
        const std::string out = encode(trajectory);
        CHECK(out.find("{\"media_type\":\"" + type + "\",\"path\":\"clip\",\"duration_sec\":0}") != std::string::npos);
        CHECK(decode<HarborAtifTrajectory>(out) == trajectory);
        const auto& source = std::get<AtifAudioSource>(**std::get<std::vector<HarborAtifContentPart>>(trajectory.steps[1].message).back().source);
        CHECK(to_string(source.media_type) == type);
    }
    // NeMo Gym's subset has no audio, whatever the label
    Json subset = test::base(SchemaId::atif_v1_7);
    subset["steps"][1]["message"].push_back(Json::parse(R"({"type": "audio", "source": {"media_type": "audio/wav", "path": "a.wav"}})"));
    const auto errors = validate(SchemaId::atif_v1_7, encode(subset)).errors;
    REQUIRE_FALSE(errors.empty());
    CHECK(errors[0].id == "rows.decode.enum");
    CHECK(errors[0].pointer == "/steps/1/message/2/type");
}

TEST_CASE("fast path: row after row into one model, free-form values of other shapes leave nothing behind") {
    // decode() keeps the memory of what a reused model no longer holds (a part of another kind, a
    // free-form value of another type, items past an array's new size) and builds the next values
    // from it: each row must still come out as a fresh model gets it.
    const std::string rows = test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/rows.jsonl");
    const Json first = parse(rows.substr(0, rows.find('\n')));  // today's version: reasoning, text, tool call
    const Json call = first["response"]["turns"][1]["new_messages"][0]["parts"][2];
    const auto with = [&](Json parts, Json arguments, Json result) {
        Json row = first;
        for (Json& part : parts)
            if (part == "call") part = call, part["arguments"] = arguments;
        row["response"]["turns"][1]["new_messages"][0]["parts"] = std::move(parts);
        row["response"]["turns"][1]["new_messages"][1]["parts"][0]["result"] = std::move(result);
        row["response"]["turns"][0]["tool_calls"][0]["arguments"] = arguments;
        return encode(row);
    };
    const Json text = parse(R"({"type": "text", "content": "a text part of more than fifteen bytes"})");
    const Json reasoning = parse(R"({"type": "reasoning", "content": "why, at a length no small string holds"})");
    const Json deep = parse(R"({"command": "a command line longer than a small string", "env": {"A": ["1", {"b": [true, null, 2.5]}]},
                                "argv": ["x", "a string of more than fifteen bytes", [], {}], "n": -3})");
    const std::vector<std::string> shapes = {
        with(Json::array({"call", text}), deep, parse(R"({"stdout": "many bytes of output, more than fifteen", "lines": ["a", "b"]})")),
        with(Json::array({text, reasoning, "call"}), Json::object(), "plain output, longer than fifteen bytes"),
        with(Json::array({"call"}), parse(R"({"argv": {"now": "an object"}, "command": null})"), parse(R"([{"k": 1}, 2.5, "s", []])")),
        with(Json::array({reasoning, "call", text, text}), parse(R"({"env": "a string where an object was"})"), nullptr),
        with(Json::array({"call", "call"}), deep, parse(R"({"lines": {"a": "b"}, "stdout": ["where a string was"]})")),
    };
    for (const std::string& row : shapes) REQUIRE(test::read_both<NemoGymRolloutRow>(row).fast);  // the fast path reads them
    NemoGymRolloutRow reused;
    std::vector<Error> errors;
    for (std::size_t a = 0; a < shapes.size(); ++a) {
        for (std::size_t b = 0; b < shapes.size(); ++b) {  // every shape after every other
            INFO("shape " << b << " after shape " << a);
            REQUIRE(decode(shapes[a], reused, errors));
            REQUIRE(decode(shapes[b], reused, errors));
            CHECK(reused == decode<NemoGymRolloutRow>(shapes[b]));
            CHECK(encode(reused) == shapes[b]);
        }
    }
}

TEST_CASE("fast path: an array of 2^24 - 1 items or more, whose size the DOM does not count, goes to the exact reader") {
    constexpr std::size_t kItems = 0xFFFFFF;  // where simdjson's array::size() saturates
    std::string text = "[";
    text.reserve(2 * kItems + 1);
    for (std::size_t i = 0; i < kItems; ++i) text += "0,";
    text.back() = ']';
    Json out;
    CHECK_FALSE(detail::fast_parse(text, out));  // not read past the size the DOM gave
    CHECK(detail::fast_parse("[0,1,2]", out));
    CHECK(out == Json::array({0, 1, 2}));
    // the same of a typed array (a step's prompt_token_ids, read into a std::vector<Integer>), read
    // as a view: the fast path alone
    const auto trajectory = [](const std::string& ids) {
        return R"({"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a", "version": "1"},
                   "steps": [{"step_id": 1, "source": "agent", "message": "m", "metrics": {"prompt_token_ids": )" + ids + "}}]}";
    };
    detail::view::NemoGymAtifTrajectory view;
    CHECK_FALSE(detail::fast::view_document(trajectory(text), Limits(), view));
    REQUIRE(detail::fast::view_document(trajectory("[0,1,2]"), Limits(), view));
    const auto& metrics = *view.steps.at(0).metrics;  // present, and not null
    CHECK((*metrics->prompt_token_ids)->size() == 3);
}
