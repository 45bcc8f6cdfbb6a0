// convert() by name (what the CLI and Python call): a trajectory read once as a view converts exactly
// as its model does; a row's trajectory text is its model's; metadata faults; raised limits.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace sediment::rows;

namespace {

/// What a conversion gives: its text, what lossy mode dropped, or the errors.
struct Outcome {
    std::string text;
    std::vector<Error> losses;
    std::vector<Error> errors;
};

Outcome by_name(const std::string& text, const std::string& from, const std::string& to, const ConvertOptions& options,
                Style style = Style::compact, std::optional<std::string> metadata = std::nullopt, const Limits& limits = {}) {
    Outcome o;
    // One ConvertedText for every call, as a caller converting many documents keeps one: what an
    // earlier document left in it (text, losses, a metadata fault) must not show.
    static ConvertedText out;
    if (!convert(text, from, to, out, o.errors, style, options, metadata, limits)) {
        CHECK(out.text.empty());
        // strict, and failing only on what lossy mode drops: every value a lossy conversion drops
        ConvertedText lossy;
        std::vector<Error> ignored;
        const bool would = !options.lossy && std::all_of(o.errors.begin(), o.errors.end(), lossy_would_drop) &&
                           convert(text, from, to, lossy, ignored, style, ConvertOptions{true}, metadata, limits);
        CHECK(out.losses == (would ? lossy.losses : std::vector<Error>{}));
        return o;
    }
    CHECK_FALSE(out.metadata_fault);
    o.text = out.text;
    o.losses = out.losses;
    return o;
}

/// The same conversion through the models: decode(), the public conversion, encode().
Outcome by_model(const std::string& text, const std::string& to, const ConvertOptions& options,
                 std::optional<std::string> metadata = std::nullopt) {
    Outcome o;
    const auto done = [&](const auto& converted) {
        o.text = encode(converted.value);
        o.losses = converted.losses;
    };
    try {
        const NemoGymAtifTrajectory t = decode<NemoGymAtifTrajectory>(text);
        if (to == "nemo-gym-response.v2" || to == "nemo-gym-responses-create-params.v2") {
            const auto parts = to_row_parts(t, options);
            o.text = to == "nemo-gym-response.v2" ? encode(parts.value.response) : encode(parts.value.responses_create_params);
            o.losses = parts.losses;
        } else if (to == "nemo-gym-rollout") {
            const auto row = to_any_rollout_row(t, options);
            o.text = std::visit([](const auto& r) { return encode(r); }, row.value);
            o.losses = row.losses;
        } else if (to == "nemo-gym-rollout.v4") {
            done(to_rollout_row<NemoGymRolloutRowV4>(t, std::nullopt, options));
        } else {
            REQUIRE(to == "nemo-gym-rollout.v2");
            std::optional<RowMetadataOf<NemoGymRolloutRowV2>> given;
            if (metadata) REQUIRE(decode(*metadata, given.emplace(), o.errors));
            done(to_rollout_row<NemoGymRolloutRowV2>(t, given, options));
        }
    } catch (const DecodeError& e) {
        o.errors = e.errors();
    } catch (const ConvertError& e) {
        o.errors = e.errors();
    }
    return o;
}

}  // namespace

TEST_CASE("convert: by name, a trajectory read once as a view converts exactly as its model does") {
    // Trajectories to_atif() wrote (ids, outputs and metadata in the extension: the view maps them), the
    // same edited (no id: the model seeds the ids; an unknown or invalid extension value: the model
    // says what is wrong; values a row cannot hold), and one written by hand.
    std::vector<Json> trajectories;
    for (int version = 1; version <= 4; ++version) {
        AnyRolloutRow row;
        std::vector<Error> errors;
        REQUIRE(decode(encode(test::row_of_version(version)), row, errors));
        trajectories.push_back(parse(encode(to_atif(row))));
    }
    const Json t2 = trajectories[1];
    const auto edited = [&](const std::function<void(Json&)>& edit) {
        Json t = t2;
        edit(t);
        trajectories.push_back(t);
    };
    edited([](Json& t) { t["steps"][3]["extra"]["sediment_rows"].erase("inference_call_id"); });
    edited([](Json& t) { t["steps"][2]["extra"]["sediment_rows"]["id"] = "x"; });
    edited([](Json& t) { t["steps"][2]["extra"]["sediment_rows"]["decisions"][0]["accepted"] = 1; });
    edited([](Json& t) {  // wider than the fast readers take: the exact reader's
        Json wide = Json::object();
        for (int k = 0; k < 70; ++k) wide["k" + std::to_string(k)] = k;
        t["steps"][2]["extra"]["sediment_rows"]["tool_calls"] = Json::array({Json{{"id", "c"}, {"name", "n"}, {"arguments", wide}}});
    });
    edited([](Json& t) { t["steps"][2]["extra"]["note"] = "kept?"; });
    edited([](Json& t) { t["extra"]["sediment_rows"]["metadata"]["schema_id"] = "https://example.com/v9.json"; });
    edited([](Json& t) { t["extra"]["sediment_rows"].erase("metadata"); });
    edited([](Json& t) { t["extra"]["sediment_rows"]["metadata"]["org_id"] = 1; });
    edited([](Json& t) { t["agent"]["model_name"] = "m"; t["steps"][2]["timestamp"] = "2026-01-01T00:00:00Z"; });
    edited([](Json& t) {
        Json& result = t["steps"][2]["observation"]["results"][0];
        result["content"] = parse(R"([{"type": "text", "text": "out"}, {"type": "text", "text": null},
            {"type": "image", "source": {"media_type": "image/png", "path": "a.png"}}])");
    });
    edited([](Json& t) { t["steps"][2]["observation"]["results"][0]["extra"]["tool_result"] = "plain"; });
    edited([](Json& t) { t["steps"][2]["observation"]["results"][0]["extra"]["other"] = 1; });
    edited([](Json& t) { t["steps"][2]["tool_calls"][0]["arguments"] = parse(R"({"b": [1, 2.5, -3, 18446744073709551615], "a": "z"})"); });
    edited([](Json& t) { t["steps"][2]["message"] = parse(R"([{"type": "text", "text": "one"}, {"type": "text", "text": "two"}])"); });
    trajectories.push_back(parse(test::kTrajectory));

    const std::string metadata = encode(Json{{"metadata", test::row_of_version(2)["metadata"]}, {"reward", 0.5}});
    for (std::size_t i = 0; i < trajectories.size(); ++i) {
        for (const std::string& text : {encode(trajectories[i]), trajectories[i].dump(2)}) {
            for (const bool lossy : {false, true}) {
                for (const std::string to : {"nemo-gym-response.v2", "nemo-gym-responses-create-params.v2", "nemo-gym-rollout",
                                             "nemo-gym-rollout.v4", "nemo-gym-rollout.v2"}) {
                    INFO("trajectory " << i << " to " << to << (lossy ? ", lossy" : "") << ": " << text.substr(0, 200));
                    const Outcome expected = by_model(text, to, {lossy});
                    const Outcome got = by_name(text, "atif-v1.7", to, {lossy});
                    CHECK(got.text == expected.text);
                    CHECK(got.losses == expected.losses);
                    CHECK(got.errors == expected.errors);
                    if (to == "nemo-gym-rollout.v2") {  // the metadata given
                        const Outcome e2 = by_model(text, to, {lossy}, metadata);
                        const Outcome g2 = by_name(text, "atif-v1.7", to, {lossy}, Style::compact, metadata);
                        CHECK(g2.text == e2.text);
                        CHECK(g2.losses == e2.losses);
                        CHECK(g2.errors == e2.errors);
                        // the row of the version the metadata document names; limits of its own, under which
                        // the thread's parser is set up anew for each document the conversion reads besides
                        Limits deeper;
                        deeper.max_depth = 200;
                        const Outcome g3 = by_name(text, "atif-v1.7", "nemo-gym-rollout", {lossy}, Style::compact, metadata, deeper);
                        CHECK(g3.text == e2.text);
                        CHECK(g3.losses == e2.losses);
                        CHECK(g3.errors == e2.errors);
                    }
                }
            }
        }
    }
}

TEST_CASE("convert: by name, a row's trajectory text is its model's, in every style") {
    for (int version = 1; version <= 4; ++version) {
        const std::string text = encode(test::row_of_version(version));
        AnyRolloutRow row;
        std::vector<Error> errors;
        REQUIRE(decode(text, row, errors));
        const NemoGymAtifTrajectory t = to_atif(row);
        for (const Style style : {Style::compact, Style::sediment}) {
            INFO("version " << version << ", style " << static_cast<int>(style));
            const Outcome got = by_name(text, "nemo-gym-rollout", "atif-v1.7", {}, style);
            CHECK(got.errors.empty());
            CHECK(got.text == encode(t, style));
        }
    }
}

TEST_CASE("convert: by name, a metadata document that is not one is the fault, and leaves nothing for the next document") {
    AnyRolloutRow row;
    std::vector<Error> errors;
    REQUIRE(decode(encode(test::row_of_version(2)), row, errors));
    const std::string text = encode(to_atif(row));
    ConvertedText out;
    CHECK_FALSE(convert(text, "atif-v1.7", "nemo-gym-rollout.v2", out, errors, Style::compact, {}, std::string(R"({"reward": 1})")));
    CHECK(out.metadata_fault);
    CHECK(out.text.empty());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].id == "rows.decode.missing_key");
    CHECK(errors[0].pointer == "");
    errors.clear();
    REQUIRE(convert(text, "atif-v1.7", "nemo-gym-rollout.v2", out, errors));
    CHECK_FALSE(out.metadata_fault);
    CHECK(out.text == by_model(text, "nemo-gym-rollout.v2", {}).text);
}

TEST_CASE("convert: by name, a row read under raised limits converts both ways under them") {
    // The texts a conversion writes and checks are read under no size limit, and at least the depth
    // the caller allows: a trajectory nests a little deeper than its row, and holds the same strings.
    Json deep = "leaf";
    for (int i = 0; i < 995; ++i) deep = Json{{"a", deep}};
    Json row = test::row_of_version(2);
    row["response"]["turns"][0]["tool_calls"][0]["arguments"]["deep"] = deep;  // past the default depth of 1000
    Json wide = test::row_of_version(4);
    wide["response"]["turns"][1]["completion"] = std::string((64u << 20) + 1, 'x');  // past the default max_string_bytes
    Limits deeper;
    deeper.max_depth = 1200;
    Limits longer;
    longer.max_string_bytes = 65u << 20;
    struct Case {
        const Json& doc;
        Limits limits;
        const char* refused_by_default;
        bool every_way;  // also through Harbor's model and to a part: the deep row shows that those ways
                         // pass the caller's limits on (the wide row's 64 MiB copies cost 15 s under ASan)
    };
    for (const Case& c : {Case{row, deeper, "rows.parse.depth", true}, Case{wide, longer, "rows.parse.size", false}}) {
        INFO(c.refused_by_default);
        const std::string text = encode(c.doc);
        std::vector<Error> errors;
        ConvertedText refused, trajectory, back;
        CHECK_FALSE(convert(text, "nemo-gym-rollout", "atif-v1.7", refused, errors));
        REQUIRE(errors.size() == 1);
        CHECK(errors[0].id == c.refused_by_default);
        errors.clear();
        REQUIRE(convert(text, "nemo-gym-rollout", "atif-v1.7", trajectory, errors, Style::compact, {}, std::nullopt, c.limits));
        REQUIRE(convert(trajectory.text, "atif-v1.7", "nemo-gym-rollout", back, errors, Style::compact, {}, std::nullopt, c.limits));
        CHECK(back.text == text);
        CHECK(errors.empty());
        if (!c.every_way) continue;
        // Harbor's model, upgraded first, and a part
        REQUIRE(convert(trajectory.text, "atif", "nemo-gym-rollout", back, errors, Style::compact, {}, std::nullopt, c.limits));
        CHECK(back.text == text);
        REQUIRE(convert(trajectory.text, "atif-v1.7", "nemo-gym-response.v3", back, errors, Style::compact, {}, std::nullopt, c.limits));
        CHECK(back.text == encode(c.doc["response"]));
    }
}
