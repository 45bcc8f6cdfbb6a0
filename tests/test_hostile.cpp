// Hostile input: every byte sequence gets a verdict with a place and a reason; nothing crashes or hangs.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace sediment::rows;

namespace {
Error parse_error(std::string_view text, const Limits& limits = {}) {
    Json out;
    std::vector<Error> errors;
    if (parse(text, out, errors, limits)) return Error{"(parsed)", "", ""};
    REQUIRE(errors.size() == 1);
    return errors[0];
}
}  // namespace

TEST_CASE("hostile: truncated lines") {
    const std::string row = Json::parse(test::kRow).dump();
    const std::string kCut = ": the text ends inside the document (a truncated line?)";
    for (std::size_t cut = 0; cut < row.size(); cut += 7) {
        INFO(row.substr(0, cut));
        const auto errors = validate(SchemaId::nemo_gym_rollout_v2, row.substr(0, cut)).errors;
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == "rows.parse.syntax");
        CHECK(errors[0].message.find(kCut) == errors[0].message.size() - kCut.size());
        // a line of a CR LF file, cut: the same error, not one about the CR
        const auto crlf = validate(SchemaId::nemo_gym_rollout_v2, row.substr(0, cut) + "\r").errors;
        REQUIRE(crlf.size() == 1);
        CHECK(crlf[0] == errors[0]);
    }
    CHECK(to_string(parse_error(R"({"a": [1, 2)")) ==
          "[rows.parse.syntax] (/a/2) invalid JSON at byte 11: unexpected end of input; expected ']'" + kCut);
    CHECK(to_string(parse_error(R"({"a": "b)" "\r")) ==
          "[rows.parse.syntax] (/a) invalid JSON at byte 8: invalid string: missing closing quote; last read: '\"b'" + kCut);
    CHECK(validate(SchemaId::nemo_gym_rollout_v2, row + "\r").errors.empty());  // a whole line of a CR LF file
    // a CR inside a string that goes on is still a raw control character
    CHECK(parse_error("{\"a\": \"b\rc\"}").message.find("control character U+000D (CR) must be escaped") != std::string::npos);
    CHECK(to_string(parse_error("[1] x")) ==
          "[rows.parse.syntax] () invalid JSON at byte 4: invalid literal; last read: '1] x'; expected end of input");
    CHECK(parse_error("").id == "rows.parse.syntax");
}

TEST_CASE("hostile: a byte-order mark, at the start or anywhere between tokens") {
    const std::string row = Json::parse(test::kRow).dump();
    const std::string bom = "\xEF\xBB\xBF";
    const std::string hint = ": JSON text never holds one outside a string; save the file as UTF-8 without a BOM";
    const auto only_error = [](const std::string& text) {
        const auto errors = validate(SchemaId::nemo_gym_rollout_v2, text).errors;
        REQUIRE(errors.size() == 1);
        return to_string(errors[0]);
    };
    // both engines, the fast path included, refuse it where nlohmann's lexer would skip it
    CHECK(only_error(bom + row) == "[rows.parse.bom] () a byte-order mark (bytes EF BB BF) at byte 0" + hint);
    CHECK(validate(SchemaId::nemo_gym_rollout_v2, bom + row, Engine::schema).errors.at(0).id == "rows.parse.bom");
    std::vector<Error> errors;
    NemoGymRolloutRowV2 decoded;
    CHECK_FALSE(decode(bom + row, decoded, errors));
    CHECK(to_string(errors.at(0)) == only_error(bom + row));
    CHECK(only_error(" " + bom + row) == "[rows.parse.bom] () a byte-order mark (bytes EF BB BF) at byte 1" + hint);
    CHECK(only_error(row + bom) == "[rows.parse.bom] () a byte-order mark (bytes EF BB BF) at byte " + std::to_string(row.size()) + hint);
    const std::size_t value = row.find("\"metadata\":") + 11;
    CHECK(only_error(row.substr(0, value) + bom + row.substr(value)) ==
          "[rows.parse.bom] (/metadata) a byte-order mark (bytes EF BB BF) at byte " + std::to_string(value) + hint);
    // U+FEFF inside a string is text like any other
    CHECK(parse_error("{\"a\": \"" + bom + "\"}").id == "(parsed)");
    CHECK(validate(SchemaId::nemo_gym_rollout_v2, test::mutate(test::kRollout, {"/metadata/org_id", "\"" + bom + "org\""})).errors.empty());
}

TEST_CASE("hostile: trailing garbage") {
    const std::string row = Json::parse(test::kRow).dump();
    CHECK(validate(SchemaId::nemo_gym_rollout_v2, row + " \n\t").errors.empty());
    for (const std::string tail : {std::string("x"), std::string("}"), std::string("{}"), std::string("\n{}"),
                                   std::string(","), std::string("\0", 1)}) {
        const auto errors = validate(SchemaId::nemo_gym_rollout_v2, row + tail).errors;
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == "rows.parse.syntax");
        CHECK(errors[0].pointer == "");
    }
}

TEST_CASE("hostile: NaN, Infinity and numbers beyond a double or 64 bits") {
    for (const char* literal : {"NaN", "nan", "Infinity", "-Infinity", "inf", "+1", "1.", ".5", "-"}) {
        INFO(literal);
        const Error e = parse_error(std::string(R"({"reward": )") + literal + "}");
        CHECK(e.id == "rows.parse.syntax");
        CHECK(e.pointer == "/reward");
    }
    // a number followed by more characters: the member is read, the object is malformed
    for (const char* literal : {"01", "0x10", "1e5e5"}) {
        INFO(literal);
        const Error e = parse_error(std::string(R"({"reward": )") + literal + "}");
        CHECK(e.id == "rows.parse.syntax");
        CHECK(e.pointer == "");
    }
    CHECK(to_string(parse_error(R"({"x": [1e400]})")) == "[rows.parse.number_range] (/x/0) number '1e400' overflows a double");
    CHECK(parse_error("-1e400").id == "rows.parse.number_range");
    const std::string digits400 = "-" + std::string(400, '7');
    CHECK(to_string(parse_error(R"({"big": )" + digits400 + "}")) ==
          "[rows.parse.number_range] (/big) integer '-777777777777777777777777777777777777777...' has more than 308 digits");
    // the edges of the 64-bit range are kept exactly
    CHECK(parse("18446744073709551615").get<std::uint64_t>() == 18446744073709551615u);
    CHECK(parse("-9223372036854775808").get<std::int64_t>() == INT64_MIN);
    CHECK(parse("1e-400").get<double>() == 0.0);  // underflow rounds to zero, as in Python
}

TEST_CASE("hostile: NUL bytes never end the input early") {
    CHECK(to_string(parse_error(std::string("{\"a\": 1}\0{\"b\": 2}", 16))) ==
          "[rows.parse.syntax] () invalid JSON at byte 8: unexpected NUL byte");
    CHECK(to_string(parse_error(std::string("{\"a\": [1, \0 2]}", 15))) ==
          "[rows.parse.syntax] (/a/1) invalid JSON at byte 10: unexpected NUL byte");
    CHECK(parse_error(std::string("\"a\0\"", 4)).id == "rows.parse.syntax");
    CHECK(parse(R"("a\u0000b")").get<std::string>() == std::string("a\0b", 3));
}

TEST_CASE("hostile: integers of any size survive in free-form values") {
    const Json big = parse("[18446744073709551616, -9223372036854775809, " + std::string(308, '9') + "]");
    CHECK(is_big_integer(big[0]));
    CHECK(big_integer_digits(big[0]) == "18446744073709551616");
    CHECK(big_integer_digits(big[1]) == "-9223372036854775809");
    CHECK(big_integer_digits(big[2]) == std::string(308, '9'));
    CHECK_FALSE(is_big_integer(parse("18446744073709551615")));  // still a uint64
    CHECK(big_integer_digits(parse("1")).empty());

    const std::string two70 = "1180591620717411303424";
    const std::string text = test::mutate(test::kOutcome, {"/raw/counts", "[" + two70 + ",-" + two70 + ",1.5]"});
    const auto outcome = decode<CIOutcomeV1>(text);
    CHECK(encode(outcome) == text);
    CHECK(encode(outcome, Style::sediment).find("\"counts\": [" + two70 + ", -" + two70 + ", 1.5]") != std::string::npos);
    CHECK(decode<CIOutcomeV1>(encode(outcome, Style::sediment)) == outcome);
    CHECK(validate(SchemaId::ci_outcome_v1, text, Engine::schema).errors.empty());
}

TEST_CASE("hostile: invalid UTF-8") {
    for (const char* bad : {"\xFF", "\xC3", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82"}) {
        const Error e = parse_error(std::string(R"({"s": ")") + bad + "\"}");
        CHECK(e.id == "rows.parse.syntax");
        CHECK(e.pointer == "/s");
        CHECK(e.message.find("ill-formed UTF-8") != std::string::npos);
    }
    CHECK(parse_error("{\"\xFF\": 1}").id == "rows.parse.syntax");
    CHECK(parse_error("\"\x01\"").message.find("control character") != std::string::npos);
}

TEST_CASE("hostile: lone surrogate escapes") {
    for (const char* bad : {R"("\ud800")", R"("\udc00")", R"("\ud800\u0041")", R"("\ud83d\ud83d")", R"("\ud83d)"}) {
        INFO(bad);
        CHECK(parse_error(bad).id == "rows.parse.syntax");
    }
    CHECK(parse(R"("\ud83d\ude00")").get<std::string>() == "\xF0\x9F\x98\x80");
}

TEST_CASE("hostile: 100,000-deep nesting stops at the depth limit") {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    const Error e = parse_error(deep);
    CHECK(e.id == "rows.parse.depth");
    CHECK(e.message == "nesting deeper than 1000 levels (limit max_depth)");
    CHECK(e.pointer.size() == 2 * 1000);  // "/0" per level
    CHECK(parse_error(std::string(100000, '{')).id == "rows.parse.syntax");
    CHECK(parse_error(std::string(100000, '[')).id == "rows.parse.depth");

    // inside a free-form value of a row
    Json row = parse(test::kRow);
    const std::string text = test::mutate(row, {"/metadata/verifier_results/0/raw/deep", deep});
    const auto errors = validate(SchemaId::nemo_gym_rollout_v2, text).errors;
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].id == "rows.parse.depth");
    CHECK(errors[0].pointer.rfind("/metadata/verifier_results/0/raw/deep/0/0/", 0) == 0);

    Limits limits;
    limits.max_depth = 5;
    CHECK(parse_error("[[[[[1]]]]]", limits).id == "(parsed)");
    CHECK(parse_error("[[[[[[1]]]]]]", limits).message == "nesting deeper than 5 levels (limit max_depth)");
}

TEST_CASE("hostile: 32 MiB strings") {
    const std::string big(32u << 20, 'x');
    const std::string text = test::mutate(test::kOutcome, {"/raw/blob", "\"" + big + "\""});
    const auto outcome = decode<CIOutcomeV1>(text);
    CHECK(outcome.raw["blob"].get_ref<const std::string&>().size() == big.size());
    CHECK(encode(outcome).size() > big.size());

    Limits limits;
    limits.max_string_bytes = 1u << 20;
    const auto errors = validate(SchemaId::ci_outcome_v1, text, limits).errors;
    REQUIRE(errors.size() == 1);
    CHECK(to_string(errors[0]) == "[rows.parse.size] (/raw/blob) string of 33554432 bytes exceeds 1048576 (limit max_string_bytes)");
    limits.max_document_bytes = 1u << 20;
    CHECK(validate(SchemaId::ci_outcome_v1, text, limits).errors.at(0).message.find("limit max_document_bytes") != std::string::npos);
}

TEST_CASE("hostile: duplicate keys are rejected, never silently resolved") {
    CHECK(to_string(parse_error(R"({"a": 1, "b": {"c": 1, "c": 2}})")) == "[rows.parse.duplicate_key] (/b) duplicate key 'c'");
    // in a row, at the top and inside a free-form value
    std::string row = Json::parse(test::kRow).dump();
    const auto dup_top = validate(SchemaId::nemo_gym_rollout_v2, "{\"reward\": 0.0, " + row.substr(1)).errors;
    REQUIRE(dup_top.size() == 1);
    CHECK(dup_top[0].id == "rows.parse.duplicate_key");
    CHECK(dup_top[0].pointer == "");
    // large objects check with a hash set
    std::string many = "{";
    for (int i = 0; i < 1000; ++i) many += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
    CHECK(parse_error(many + "\"k999\": 0}").message == "duplicate key 'k999'");
    CHECK(parse_error(many + "\"k1000\": 0}").id == "(parsed)");
    // escapes that spell the same key are the same key
    CHECK(parse_error(R"({"a": 1, "\u0061": 2})").id == "rows.parse.duplicate_key");
}

TEST_CASE("hostile: key order survives parsing") {
    const Json j = parse(R"({"z": 1, "a": {"y": 2, "b": 3}, "m": [ {"q": 1, "c": 2} ]})");
    CHECK(j.dump() == R"({"z":1,"a":{"y":2,"b":3},"m":[{"q":1,"c":2}]})");
}
