// Exact encoding: schema key order, absent vs null, the two styles, numbers, refusals.
#include <cmath>
#include <functional>
#include <cstdlib>

#include <catch2/catch.hpp>

#include <sediment/rows/encode.hpp>
#include "support.hpp"

using namespace sediment::rows;

TEST_CASE("encode: compact output is the input document, keys in schema order") {
    const auto row = decode<NemoGymRolloutRowV2>(test::kRow);
    // nlohmann's own dump of the (schema-ordered) input is an independent oracle here.
    CHECK(encode(row) == parse(test::kRow).dump());
    CHECK(encode(row, Style::compact) == encode(row));
}

TEST_CASE("encode: keys come out in schema property order at every level") {
    // Reverse every object's keys (free-form ones too), then expect the schema's order back; free-form
    // objects keep the order they were given.
    std::function<Json(const Json&)> reversed = [&](const Json& j) -> Json {
        if (j.is_array()) {
            Json out = Json::array();
            for (const Json& x : j) out.push_back(reversed(x));
            return out;
        }
        if (!j.is_object()) return j;
        Json out = Json::object();
        const auto& members = j.get_ref<const Json::object_t&>();
        for (auto it = members.rbegin(); it != members.rend(); ++it) out[it->first] = reversed(it->second);
        return out;
    };
    // Free-form values keep the order they were given: make them one-key objects, so that only the
    // schema's objects are reordered.
    Json original = parse(test::kRow);
    original["response"]["turns"][0]["tool_calls"][0]["arguments"] = Json::parse(R"({"command": "ls"})");
    original["response"]["turns"][1]["new_messages"][0]["parts"][2]["arguments"] = Json::parse(R"({"command": "ls"})");
    original["response"]["turns"][1]["new_messages"][1]["parts"][0]["result"] = Json::parse(R"({"stdout": "x"})");
    original["metadata"]["verifier_results"][0]["raw"] = Json::object();
    const Json shuffled = reversed(original);
    CHECK(shuffled.dump() != original.dump());
    CHECK(encode(decode<NemoGymRolloutRowV2>(shuffled.dump())) == original.dump());
}

TEST_CASE("encode: absent stays absent, null stays null") {
    Json doc = parse(test::kRow);
    doc.erase("reward");
    doc["metadata"].erase("verification");
    doc["metadata"]["verifier_results"][0]["workflow_id"] = nullptr;
    const std::string out = encode(decode<NemoGymRolloutRowV2>(doc.dump()));
    CHECK(out.find("\"reward\"") == std::string::npos);
    CHECK(out.find("\"verification\"") == std::string::npos);
    CHECK(out.find("\"workflow_id\":null") != std::string::npos);
    CHECK(out.find("\"workflow_path\":null") != std::string::npos);
    CHECK(out == doc.dump());

    NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    row.reward.reset();
    row.metadata.verifier_results[0].run_attempt = nullptr;
    const Json back = parse(encode(row));
    CHECK_FALSE(back.contains("reward"));
    CHECK(back["metadata"]["verifier_results"][0].contains("run_attempt"));
    CHECK(back["metadata"]["verifier_results"][0]["run_attempt"].is_null());
}

TEST_CASE("encode: sediment style is Python's json.dumps with ensure_ascii") {
    TextPart part;
    part.content = "\xC3\xA9\xF0\x9F\x98\x80\x7F\x01\t\"\\/\xE2\x80\xA8";
    // json.dumps({"type": "text", "content": "é😀\x7f\x01\t\"\\/\u2028"})
    CHECK(encode(part, Style::sediment) ==
          R"({"type": "text", "content": "\u00e9\ud83d\ude00\u007f\u0001\t\"\\/\u2028"})");
    // compact keeps UTF-8 and DEL as they are
    CHECK(encode(part) == "{\"type\":\"text\",\"content\":\"\xC3\xA9\xF0\x9F\x98\x80\x7F\\u0001\\t\\\"\\\\/\xE2\x80\xA8\"}");
}

namespace {

/// A string as JSON text, one code point at a time: what each style writes, spelled out.
std::string reference_literal(const std::u32string& code_points, bool ascii) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto unit = [](std::string& out, unsigned u) {
        out += "\\u";
        for (int k = 12; k >= 0; k -= 4) out += kHex[(u >> k) & 15];
    };
    std::string out = "\"";
    for (const char32_t c : code_points) {
        switch (c) {
            case '"': out += "\\\""; continue;
            case '\\': out += "\\\\"; continue;
            case '\n': out += "\\n"; continue;
            case '\r': out += "\\r"; continue;
            case '\t': out += "\\t"; continue;
            case '\b': out += "\\b"; continue;
            case '\f': out += "\\f"; continue;
            default: break;
        }
        if (c < 0x20 || (ascii && c == 0x7F)) {
            unit(out, c);
        } else if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (ascii && c >= 0x10000) {
            unit(out, 0xD800 + ((c - 0x10000) >> 10));
            unit(out, 0xDC00 + ((c - 0x10000) & 0x3FF));
        } else if (ascii) {
            unit(out, c);
        } else {
            std::string utf8;
            if (c < 0x800) utf8 = {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
            else if (c < 0x10000) utf8 = {char(0xE0 | (c >> 12)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
            else utf8 = {char(0xF0 | (c >> 18)), char(0x80 | ((c >> 12) & 0x3F)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
            out += utf8;
        }
    }
    return out + "\"";
}

}  // namespace

TEST_CASE("encode: long strings with every kind of character at every offset, in both styles") {
    // Pieces placed at random (a fixed seed) in strings longer than the writer's blocks and chunks.
    const std::vector<std::pair<std::string, std::u32string>> pieces = {
        {"a", U"a"}, {"plain text, ", U"plain text, "}, {"\xC3\xA9", U"\u00e9"}, {"\xE2\x80\xA8", U"\u2028"},
        {"\xF0\x9F\x98\x80", U"\U0001F600"}, {"\x7F", U"\x7F"}, {std::string(1, '\0'), std::u32string(1, 0)},
        {"\x01", U"\x01"}, {"\x1F", U"\x1F"}, {"\t", U"\t"}, {"\n", U"\n"}, {"\"", U"\""}, {"\\", U"\\"}, {"/", U"/"}};
    std::srand(16);
    for (const std::size_t size : {std::size_t{15}, std::size_t{17}, std::size_t{4095}, std::size_t{4097}, std::size_t{9000}}) {
        std::string text;
        std::u32string code_points;
        while (text.size() < size) {
            const auto& piece = pieces[static_cast<std::size_t>(std::rand()) % pieces.size()];
            text += piece.first;
            code_points += piece.second;
        }
        TextPart part;
        part.content = text;
        for (const Style style : {Style::compact, Style::sediment}) {
            INFO(text.size() << " bytes, style " << static_cast<int>(style));
            const std::string sep = style == Style::sediment ? ": " : ":";
            const std::string comma = style == Style::sediment ? ", " : ",";
            CHECK(encode(part, style) ==
                  "{\"type\"" + sep + "\"text\"" + comma + "\"content\"" + sep + reference_literal(code_points, style == Style::sediment) + "}");
        }
    }
    // an ill-formed byte at the edges of a block and of a chunk
    for (const std::size_t at : {std::size_t{0}, std::size_t{15}, std::size_t{16}, std::size_t{4095}, std::size_t{4096}, std::size_t{5000}}) {
        TextPart part;
        part.content = std::string(5001, 'x');
        part.content[at] = '\xC3';  // a lead byte without its continuation
        for (const Style style : {Style::compact, Style::sediment}) {
            try {
                encode(part, style);
                FAIL("no exception");
            } catch (const EncodeError& e) {
                CHECK(to_string(e.error()) == "[rows.encode.utf8] (/content) invalid UTF-8 at byte " + std::to_string(at) + " of a string");
            }
        }
    }
}

TEST_CASE("encode: numbers in Python's shortest round-trip layout") {
    const std::pair<double, const char*> cases[] = {
        {1.0, "1.0"},         {0.0001, "0.0001"},         {1e-07, "1e-07"},
        {1e16, "1e+16"},      {1.5e300, "1.5e+300"},      {493.7306827337068, "493.7306827337068"},
        {1e-05, "1e-05"},     {123456789012345.6, "123456789012345.6"}, {1e15, "1000000000000000.0"},
        {-0.0, "-0.0"},       {5e-324, "5e-324"},         {0.1, "0.1"},
        {100.0, "100.0"},     {1.7976931348623157e308, "1.7976931348623157e+308"},
        {2.5e-5, "2.5e-05"},  {12345.678, "12345.678"},   {9007199254740993.0, "9007199254740992.0"},
    };
    for (const auto& [value, expected] : cases) {
        std::string out;
        detail::append_double(out, value);
        CHECK(out == expected);
    }
}

TEST_CASE("encode: every double round-trips") {
    for (const auto& [v, out] : test::random_doubles(7, 20000)) {
        INFO(out);
        CHECK(std::strtod(out.c_str(), nullptr) == v);
        CHECK(Json::parse(out).is_number_float());
    }
}

TEST_CASE("encode: integers and floats keep their kind") {
    NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::mutate(test::kRollout, {"/reward", "0"}));
    CHECK(row.reward->is_integer());
    CHECK(*row.reward == Number(0));
    CHECK(parse(encode(row, Style::sediment))["reward"].is_number_integer());
    row.reward = 0.0;
    CHECK(encode(row, Style::sediment).find("\"reward\": 0.0,") != std::string::npos);
    row.reward = std::int64_t{-1};
    CHECK(encode(row, Style::sediment).find("\"reward\": -1,") != std::string::npos);
    // an integral float written as an integer constant comes back as the integer the schema means
    const auto same = decode<NemoGymRolloutRowV2>(test::mutate(test::kRollout, {"/metadata/recipe_version", "1.0"}));
    CHECK(encode(same).find("\"recipe_version\":1,") != std::string::npos);
}

TEST_CASE("encode: NaN and infinity are refused with the pointer, never written as null") {
    NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    row.reward = std::nan("");
    try {
        encode(row);
        FAIL("no exception");
    } catch (const EncodeError& e) {
        CHECK(to_string(e.error()) == "[rows.encode.number] (/reward) NaN and infinity cannot be written as JSON");
    }
    row.reward = 1.0;
    row.metadata.ci_resolution->workflow_resolutions[0].reliability = -std::numeric_limits<double>::infinity();
    try {
        encode(row, Style::sediment);
        FAIL("no exception");
    } catch (const EncodeError& e) {
        CHECK(e.error().pointer == "/metadata/ci_resolution/workflow_resolutions/0/reliability");
    }
    row = decode<NemoGymRolloutRowV2>(test::kRow);
    row.metadata.verifier_results[0].raw["list"] = {1, 2, std::numeric_limits<double>::quiet_NaN()};
    try {
        encode(row);
        FAIL("no exception");
    } catch (const EncodeError& e) {
        CHECK(e.error().pointer == "/metadata/verifier_results/0/raw/list/2");
    }
}

TEST_CASE("encode: invalid UTF-8 is refused with the pointer") {
    NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    row.metadata.session_id = "ok\xC3";
    for (const Style style : {Style::compact, Style::sediment}) {
        try {
            encode(row, style);
            FAIL("no exception");
        } catch (const EncodeError& e) {
            CHECK(to_string(e.error()) == "[rows.encode.utf8] (/metadata/session_id) invalid UTF-8 at byte 2 of a string");
        }
    }
}

TEST_CASE("encode: an enum value outside its enum is refused") {
    NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(test::kRow);
    row.metadata.split = static_cast<Split>(9);
    CHECK_THROWS_AS(encode(row), EncodeError);
}

TEST_CASE("encode: to_json (nlohmann ADL) holds what encode writes") {
    const auto row = decode<NemoGymRolloutRowV2>(test::kRow);
    const Json j = row;
    CHECK(j.dump() == encode(row));
    CHECK(j.get<NemoGymRolloutRowV2>() == row);
}

TEST_CASE("encode: a model built in code encodes to a valid document") {
    CIOutcomeV1 o;
    o.outcome_id = "out_9";
    o.org_id = "org";
    o.provider = Provider::jenkins;
    o.run_id = "1";
    o.result = Result::timed_out;
    o.captured_at = "2026-11-30T00:00:00Z";
    const std::string text = encode(o, Style::sediment);
    CHECK(text.rfind(R"({"schema_version": 1, "outcome_id": "out_9", "org_id": "org", "provider": "jenkins", "run_id": "1", "run_attempt": null,)", 0) == 0);
    CHECK(validate(SchemaId::ci_outcome_v1, text).errors.empty());
    CHECK(validate(SchemaId::ci_outcome_v1, text, Engine::schema).errors.empty());
}
