// The check-only fast path over stage 1's tokens (detail/fast_tokens.hpp), which validate() and the
// CLI try before the DOM: it accepts only what the exact reader accepts (here on its own, not behind
// the DOM path), and it is the path valid documents take, whitespace, escapes and numbers of every
// form included.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>

#include "detail/decode.hpp"
#include "detail/fast_tokens.hpp"
#include "support.hpp"

using namespace sediment::rows;

namespace {

bool exact_valid(SchemaId schema, const std::string& text) {
    return visit_schema(schema, [&](auto tag) {
        typename decltype(tag)::type value;
        std::vector<Error> errors;
        return detail::exact_decode(text, value, errors, Limits{}, schema);
    });
}

bool over_tokens(SchemaId schema, const std::string& text, const Limits& limits = Limits{}) {
    return detail::fast_check_tokens(schema, text, limits);
}

/// The exact reader's value of `text` as a `schema` document, encoded compactly; nothing where it refuses it.
std::optional<std::string> exact_value(SchemaId schema, const std::string& text) {
    return visit_schema(schema, [&](auto tag) -> std::optional<std::string> {
        typename decltype(tag)::type value;
        std::vector<Error> errors;
        if (!detail::exact_decode(text, value, errors, Limits{}, schema)) return std::nullopt;
        return encode(value, Style::compact);
    });
}

const std::string kRow = encode(test::base(SchemaId::nemo_gym_rollout_v4), Style::sediment);

}  // namespace

TEST_CASE("fast path over tokens: every base document but those whose rules read view models") {
    std::set<std::string> over_dom;
    for (const SchemaInfo& info : kSchemas) {
        INFO(info.name);
        const std::string text = encode(test::base(info.id), Style::sediment);
        if (over_tokens(info.id, text)) CHECK(exact_valid(info.id, text));
        else over_dom.insert(std::string(info.name));
    }
    // ATIF (step and trajectory rules, and the subset's exact decimals) and the profiles whose rows have
    // hand-written rules (check_rules() reads a view model over the DOM)
    CHECK(over_dom == std::set<std::string>{"atif", "atif-v1.7", "consumer-config", "fireworks-dpo-v2", "fireworks-sft-v1",
                                            "nemo-gym-profile-evidence", "nemo-gym-rollouts-v1", "profile-manifest",
                                            "swe-bench-tasks-v1", "swe-task-settings"});
}

TEST_CASE("fast path over tokens: valid documents of every form take it") {
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    REQUIRE(over_tokens(v4, kRow));
    REQUIRE(over_tokens(v4, encode(test::base(v4), Style::compact)));
    std::string spaced;  // whitespace of every kind between every token
    bool in_string = false, escaped = false;
    for (const char c : encode(test::base(v4), Style::compact)) {
        spaced += c;
        if (in_string) in_string = escaped || c != '"', escaped = !escaped && c == '\\';
        else if (c == '"') in_string = true;
        else if (c == ',' || c == ':' || c == '{' || c == '[') spaced += " \t\r\n ";
    }
    CHECK(over_tokens(v4, " \n" + spaced + "\r\n\t"));
    const auto args = [&](const std::string& value) {
        return test::mutate(test::base(v4), {"/response/turns/0/tool_calls/0/arguments/x", value});
    };
    for (const char* value : {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u00e9\\u20AC\\ud83d\\ude00\"", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"",
                              "-0", "0", "9223372036854775807", "-9223372036854775808", "18446744073709551615", "1.5",
                              "-0.0", "1e5", "1E+5", "2.5e-3", "1.7976931348623157e308", "1e-307", "2.2250738585072014e-308",
                              "1.5e+300", "0.000123e-250", "0e-999", "0.000E+999", "-12345678901234567.5", "[]", "{}", "[[], {}, null, true, false]",
                              "{\"\": 1, \"a\": {\"a\": [1, \"x\"]}}"}) {
        INFO(value);
        CHECK(over_tokens(v4, args(value)));
        CHECK(exact_valid(v4, args(value)));
    }
    // an escape in a string a rule reads: unescaped first (the pattern refuses U+0000, not "\\u0041")
    const std::string id = test::mutate(test::base(v4), {"/metadata/instance_id", "\"a\\u0041\\n\""});
    CHECK(over_tokens(v4, id));
    CHECK_FALSE(over_tokens(v4, test::mutate(test::base(v4), {"/metadata/instance_id", "\"a\\u0000\""})));
}

TEST_CASE("fast path over tokens: what it leaves to the DOM path and the exact reader") {
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    const auto args = [&](const std::string& value) {
        return test::mutate(test::base(v4), {"/response/turns/0/tool_calls/0/arguments/x", value});
    };
    // valid, but for the exact reader: integers beyond 64 bits, a lone surrogate's verdict, a key
    // with an escape, a decimal beyond a double's range or below its smallest
    for (const char* value : {"18446744073709551616", "-9223372036854775809", "\"\\udc00\"", "\"\\ud800x\"", "{\"\\u0061\": 1}",
                              "1e400", "1e-400", "1e309", "-1.8e308", "0.001e-330"}) {
        INFO(value);
        CHECK_FALSE(over_tokens(v4, args(value)));
    }
    // the depth limit: the arguments' value starts at level 7 of this row
    std::string deep = "1";
    for (int i = 0; i < 993; ++i) deep = "[" + deep + "]";
    CHECK(over_tokens(v4, args(deep)));
    CHECK_FALSE(over_tokens(v4, args("[" + deep + "]")));
    const auto depth = [](const Json& j, const auto& self) -> std::size_t {
        std::size_t deepest = 0;
        if (j.is_structured())
            for (const Json& item : j) deepest = std::max(deepest, self(item, self));
        return j.is_structured() ? deepest + 1 : 0;
    };
    const std::string nested = "[[[[[[[[[[[[[[[[[[[[" + std::string(20, ']'), deeper = "[" + nested + "]", wider = "{\"a\": " + nested + "}";
    Limits shallow;  // exactly as deep as the row with `nested` in its arguments: the deepest value of the row
    shallow.max_depth = depth(Json::parse(args(nested)), depth);
    CHECK(over_tokens(v4, args(nested), shallow));
    CHECK_FALSE(over_tokens(v4, args(deeper), shallow));
    CHECK_FALSE(over_tokens(v4, args(wider), shallow));
    Limits short_strings;
    short_strings.max_string_bytes = 8;
    CHECK_FALSE(over_tokens(v4, args("\"123456789\""), short_strings));
    // invalid JSON and invalid rows, each refused
    for (const std::string& text : {kRow + " {}", kRow + "x", kRow.substr(0, kRow.size() - 1), "{" + kRow, std::string(" "),
                                    std::string(""), args("01"), args("1."), args(".5"), args("-"), args("1e"), args("+1"),
                                    args("tru"), args("nul"), args("truex"), args("\"\\x\""), args("\"\\u12\""), args("[1,]"),
                                    args("{\"a\":1,}"), args("[1 2]"), args("{\"a\" 1}"), args("{\"a\":1 \"b\":2}"), args("{1:2}"),
                                    args("[1}"), args("{\"a\":1]"), args("{\"a\": 1, \"a\": 2}"), args("NaN"), args("'a'")}) {
        INFO(text.substr(0, 80));
        CHECK_FALSE(over_tokens(v4, text));
        CHECK_FALSE(exact_valid(v4, text));
    }
}

TEST_CASE("fast path over tokens: no change of one byte makes it accept what the exact reader refuses") {
    // Every byte of a rollout row replaced by each of the bytes that steer a JSON reader, removed, and
    // doubled: wherever the token path accepts the result, the exact reader does too, and the readers
    // into models read it as the exact reader does; and it accepts some (a string's letters changed),
    // so the loop tests it.
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    const std::string text = encode(test::base(v4), Style::compact);
    const std::string bytes = "\"\\{}[],: \n0-.e1tnu/x";
    std::size_t accepted = 0, cases = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::vector<std::string> changed = {text.substr(0, i) + text.substr(i + 1), text.substr(0, i + 1) + text.substr(i)};
        for (const char b : bytes)
            if (b != text[i]) changed.push_back(text.substr(0, i) + b + text.substr(i + 1));
        for (const std::string& c : changed) {
            ++cases;
            std::string decoded;
            const bool read = detail::fast_decode_tokens(v4, c, decoded);
            if (read && exact_value(v4, c) != decoded) FAIL("read over tokens, not as the exact reader reads it: " << c);
            if (!over_tokens(v4, c)) continue;
            ++accepted;
            if (!read) FAIL("checked over tokens, not read over them: " << c);
            if (!exact_valid(v4, c)) FAIL("accepted over tokens, refused by the exact reader: " << c);
        }
    }
    CHECK(accepted > cases / 20);
}

TEST_CASE("fast path over tokens: the escape scans and the unescaper give nlohmann's verdict") {
    // Strings of the bytes escapes are made of, in runs long enough to cross the scans' blocks; each
    // padded as a document is. The AVX2 scan (where the processor has it), the portable one and
    // unescape_into() (which every string read over tokens goes through) give nlohmann's verdict on
    // the string, and unescape_into() its value.
    std::uint64_t state = 52;
    const auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL, state >> 33; };
    const std::string alphabet = "\\\\\\\\unnn\"/bx0D8dc9A";
    const bool avx2 = __builtin_cpu_supports("avx2");
    std::size_t valid = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string s;
        const std::size_t size = next() % 150;
        for (std::size_t i = 0; i < size; ++i) s += alphabet[next() % alphabet.size()];
        if (round % 3 == 0 && size > 12) s.replace(next() % (size - 12), 12, next() % 2 ? "\\ud83d\\ude00" : "\\udc00\\ud800");
        for (std::size_t i = 0, backslashes = 0; i < s.size(); ++i) {  // a quote no backslash escapes would end the string
            if (s[i] == '"' && backslashes % 2 == 0) s[i] = 'x';
            backslashes = s[i] == '\\' ? backslashes + 1 : 0;
        }
        std::string padded = s + std::string(64, '\\');  // padding that a scan must not read as the text's
        const std::string_view text(padded.data(), s.size());
        const Json reference = Json::parse("\"" + s + "\"", nullptr, false);
        const bool expected = !reference.is_discarded();
        INFO(s);
        std::string unescaped(s.size() + 16, '\0');
        const char* const end = detail::fast::unescape_into(text, unescaped.data());
        CHECK((end != nullptr) == expected);
        if (end && expected) CHECK(std::string_view(unescaped.data(), static_cast<std::size_t>(end - unescaped.data())) == reference.get<std::string>());
        CHECK(detail::fast::escapes_valid_portable(text) == expected);
        if (avx2) CHECK(detail::fast::escapes_valid_avx2(text) == expected);
        valid += expected;
    }
    CHECK(valid > 1000);  // both verdicts are met
    CHECK(valid < 19000);
}

TEST_CASE("fast path over tokens: the version a row names, found over its tokens") {
    // validate --schema nemo-gym-rollout (or any): the version is looked up where the row names it, from
    // the row's last member when that is "metadata" (a step back over its tokens), else from the start
    for (const SchemaId version : {SchemaId::nemo_gym_rollout_v1, SchemaId::nemo_gym_rollout_v2, SchemaId::nemo_gym_rollout_v3,
                                   SchemaId::nemo_gym_rollout_v4}) {
        INFO(schema_info(version).name);
        Json row = test::base(version);
        const std::string text = encode(row, Style::sediment);
        CHECK(detail::fast_check_named("nemo-gym-rollout", text, Limits{}) == version);
        CHECK(detail::fast_check_named("any", text, Limits{}) == version);
        Json reordered;  // metadata first
        reordered["metadata"] = row["metadata"];
        for (auto& [key, value] : row.items())
            if (key != "metadata") reordered[key] = value;
        CHECK(detail::fast_check_named("nemo-gym-rollout", encode(reordered, Style::sediment), Limits{}) == version);
        CHECK_FALSE(detail::fast_check_named("nemo-gym-rollout", text + " {}", Limits{}));
        CHECK_FALSE(detail::fast_check_named("sft-sample", text, Limits{}));
    }
}

TEST_CASE("fast path over tokens: decode() reads every base document into the exact reader's value") {
    // Every schema's base document (of every form the checkers take), and the v4 row with values of
    // every form in a free-form value: read over tokens where the check-only path takes them, into
    // the value the exact reader reads.
    for (const SchemaInfo& info : kSchemas) {
        INFO(info.name);
        const std::string text = encode(test::base(info.id), Style::sediment);
        std::string decoded;
        CHECK(detail::fast_decode_tokens(info.id, text, decoded) == over_tokens(info.id, text));
        if (!decoded.empty()) CHECK(exact_value(info.id, text) == decoded);
    }
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    Json row = test::base(v4);
    Json& arguments = row["response"]["turns"][0]["tool_calls"][0]["arguments"];
    for (const std::string value : {R"({"a": [1, -1, 0, -0, 18446744073709551615, -9223372036854775808, 2.5, -0.0, 1e300, 5e-324]})",
                                    R"("\u00e9\ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t end")", R"([[], {}, [{}], null, true, false, ""])",
                                    R"({"z": {"y": {"x": "deep"}}, "a": 1})"}) {
        INFO(value);
        arguments = Json::object({{"v", parse(value)}});
        const std::string text = encode(row, Style::sediment);
        std::string decoded;
        CHECK(detail::fast_decode_tokens(v4, text, decoded));
        CHECK(exact_value(v4, text) == decoded);
    }
}

TEST_CASE("fast path over tokens: what the readers into models leave to the DOM path, a reused model then read whole") {
    // A row the token readers stop in, its last free-form value holding what they leave to the DOM
    // path: decode() then reads it into the same model, half filled, and it comes out as a fresh one.
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    const std::string text = encode(test::base(v4), Style::sediment);
    for (const std::string left : {"18446744073709551616", "\"\\ud800\"", "1e400"}) {
        INFO(left);
        Json row = test::base(v4);
        row["response"]["turns"][0]["tool_calls"][0]["arguments"] = Json::object({{"early", "a string"}});
        std::string changed = encode(row, Style::sediment);
        const std::string member = "\"early\": \"a string\"";
        const std::size_t at = changed.find(member);
        REQUIRE(at != std::string::npos);
        changed.replace(at, member.size(), "\"early\": " + left);
        std::string decoded;
        CHECK_FALSE(detail::fast_decode_tokens(v4, changed, decoded));
        NemoGymRolloutRowV4 reused;
        std::vector<Error> errors;
        REQUIRE(decode(text, reused, errors, v4));
        const bool valid = decode(changed, reused, errors, v4);
        CHECK(valid == exact_value(v4, changed).has_value());
        if (valid) CHECK(encode(reused, Style::compact) == exact_value(v4, changed));
    }
}

TEST_CASE("fast path: a free-form scalar read where one of another type was, over tokens and over the DOM") {
    // A reused row's free-form number or boolean is set in place when the new one is of its type
    // (nlohmann keeps signed and unsigned integers in one slot, apart only by the value's type): every
    // scalar after every other, in one row, through the readers over tokens, and through the DOM's
    // (a key with an escape elsewhere in the value sends the row there).
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    const std::vector<std::string> values = {"true", "false", "0", "3", "-3", "2.5", "-0.0", "null", R"("s")",
                                             "18446744073709551615", "-9223372036854775808", "{}", "[]"};
    const auto row = [&](const std::string& value, bool escaped_key) {
        Json doc = test::base(v4);
        doc["response"]["turns"][0]["tool_calls"][0]["arguments"] = Json::object({{"v", parse(value)}, {"then", 1}});
        std::string text = encode(doc, Style::sediment);
        if (escaped_key) text.replace(text.find("\"then\""), 6, R"("th\u0065n")");
        return text;
    };
    for (const bool escaped_key : {false, true}) {
        std::vector<std::string> texts;
        for (const std::string& value : values) {
            texts.push_back(row(value, escaped_key));
            std::string decoded;
            CHECK(detail::fast_decode_tokens(v4, texts.back(), decoded) == !escaped_key);
            CHECK(test::read_both<NemoGymRolloutRowV4>(texts.back()).fast);
        }
        NemoGymRolloutRowV4 reused;
        std::vector<Error> errors;
        for (std::size_t a = 0; a < texts.size(); ++a) {
            for (std::size_t b = 0; b < texts.size(); ++b) {
                INFO(values[b] << " after " << values[a] << (escaped_key ? ", over the DOM" : ", over tokens"));
                REQUIRE(decode(texts[a], reused, errors));
                REQUIRE(decode(texts[b], reused, errors));
                const auto fresh = decode<NemoGymRolloutRowV4>(texts[b]);
                CHECK(reused == fresh);
                CHECK(encode(reused) == encode(fresh));
            }
        }
    }
}
