// The Catch2 helpers users put in their own tests (<sediment/rows/testing/catch2.hpp>): each matcher's
// verdict, the text a failed assertion shows, and the printers.
#include <sediment/rows/testing/catch2.hpp>

#include <sstream>

#include "support.hpp"

using namespace sediment::rows;
using namespace sediment::rows::catch2;

namespace {
const std::string kValid = test::kRow;
const std::string kBadReward = test::mutate(test::kRollout, {"/reward", "\"high\""});
const std::string kNoMetadata = test::mutate(test::kRollout, {"/metadata", ""});
}  // namespace

TEST_CASE("catch2 helpers: IsValid passes valid text, and a failure names the model and the first errors") {
    REQUIRE_THAT(kValid, IsValid<NemoGymRolloutRowV2>());
    REQUIRE_THAT(encode(test::base(test::kOutcome)), IsValid<CIOutcomeV1>());

    const auto matcher = IsValid<NemoGymRolloutRowV2>();
    CHECK_FALSE(matcher.match(kBadReward));
    CHECK(matcher.describe() ==
          "is a valid NemoGymRolloutRowV2 (nemo-gym-rollout.v2); errors: [rows.decode.type] (/reward) expected a number, got a string");
    CHECK(matcher.match(kValid));
    CHECK(matcher.describe() == "is a valid NemoGymRolloutRowV2 (nemo-gym-rollout.v2)");
    CHECK_THAT(kBadReward, !IsValid<NemoGymRolloutRowV2>());

    SECTION("limits apply") {
        Limits tight;
        tight.max_depth = 3;
        const auto limited = IsValid<NemoGymRolloutRowV2>(tight);
        CHECK_FALSE(limited.match(kValid));
        CHECK_THAT(limited.describe(), Catch::Contains("limit max_depth"));
    }
    SECTION("more than three errors are counted, not listed") {
        Json doc = test::base(test::kRollout);
        for (const char* key : {"a", "b", "c", "d", "e"}) doc[key] = 1;
        CHECK_FALSE(matcher.match(encode(doc)));
        CHECK_THAT(matcher.describe(), Catch::EndsWith("; and 2 more"));
    }
}

TEST_CASE("catch2 helpers: HasError matches an error at exactly the pointer, by id or message") {
    std::vector<Error> errors;
    NemoGymRolloutRowV2 row;
    REQUIRE_FALSE(decode(kNoMetadata, row, errors));
    REQUIRE_THAT(errors, HasError("", "rows.decode.missing_key"));
    REQUIRE_THAT(errors, HasError("", "missing key 'metadata'"));
    CHECK_THAT(errors, !HasError("/metadata", "rows.decode.missing_key"));  // the pointer is exact
    CHECK_THAT(errors, !HasError("", "rows.decode.type"));
    CHECK(HasError("/reward", "a number").describe() == "has an error at \"/reward\" containing \"a number\"");

    REQUIRE_THAT(kBadReward, HasError<NemoGymRolloutRowV2>("/reward", "expected a number"));
    const auto matcher = HasError<NemoGymRolloutRowV2>("/metadata", "missing");
    CHECK_FALSE(matcher.match(kBadReward));
    CHECK(matcher.describe() == "as NemoGymRolloutRowV2, has an error at \"/metadata\" containing \"missing\"; errors: "
                                "[rows.decode.type] (/reward) expected a number, got a string");
    CHECK_FALSE(matcher.match(kValid));
    CHECK_THAT(matcher.describe(), Catch::EndsWith("errors: none, it is valid"));
}

TEST_CASE("catch2 helpers: models print as their JSON, cut at 2,000 bytes on a character boundary") {
    const NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(kValid);
    const TextPart part{"short"};
    CHECK(Catch::Detail::stringify(part) == R"({"type":"text","content":"short"})");
    std::ostringstream os;
    os << row;
    CHECK(os.str() == encode(row));  // operator<< prints all of it
    REQUIRE(encode(row).size() > 2000);
    CHECK(Catch::Detail::stringify(row) == encode(row).substr(0, 2000) + "... (" + std::to_string(encode(row).size()) + " bytes)");

    NemoGymRolloutRowV2 big = row;
    // the session id's é starts at byte 1999 of the JSON, so a cut at 2,000 would split it
    const std::size_t value_at = encode(row).find("\"session_id\":\"") + 14;
    big.metadata.session_id = std::string(1999 - value_at, 'x') + "\xC3\xA9" + std::string(3000, 'y');
    const std::string shown = Catch::Detail::stringify(big);
    CHECK(shown.substr(0, 1999) == encode(big).substr(0, 1999));
    CHECK(shown.size() < 2040);
    CHECK_THAT(shown, Catch::EndsWith("xx... (" + std::to_string(encode(big).size()) + " bytes)"));  // é not split

    big.reward = std::nan("");
    CHECK(Catch::Detail::stringify(big) ==
          "<NemoGymRolloutRowV2 that cannot be encoded: [rows.encode.number] (/reward) NaN and infinity cannot be written as JSON>");

    std::ostringstream error_text, enum_text;
    error_text << Error{"rows.decode.type", "/reward", "expected a number"};
    CHECK(error_text.str() == "[rows.decode.type] (/reward) expected a number");
    enum_text << Split::eval << " " << static_cast<Split>(9);
    CHECK(enum_text.str() == "eval <invalid>");
}

TEST_CASE("catch2 helpers: every version, by type, by schema, and rows of any version") {
    const std::string v4 = encode(test::row_of_version(4));
    REQUIRE_THAT(v4, IsValid<NemoGymRolloutRowV4>());
    REQUIRE_THAT(v4, !IsValid<NemoGymRolloutRowV2>());
    REQUIRE_THAT(v4, IsValid<AnyRolloutRow>());
    REQUIRE_THAT(encode(test::row_of_version(1)), IsValid<AnyRolloutRow>());
    const auto any = IsValid<AnyRolloutRow>();
    CHECK_FALSE(any.match(test::mutate(test::row_of_version(4), {"/metadata/schema_id", "\"x\""})));
    CHECK_THAT(any.describe(), Catch::StartsWith("is a valid AnyRolloutRow (nemo-gym-rollout, of the version it names); errors: "
                                                 "[rows.decode.version] (/metadata/schema_id) 'x' is not"));
    REQUIRE_THAT(v4, HasError<NemoGymRolloutRowV3>("/metadata/verifier_results/0/schema_version", "expected 1"));
    // a part under the version asked for
    const std::string nul = test::mutate(SchemaId::nemo_gym_response_v3, {"/turns/0/inference_call_id", R"("\u0000")"});
    REQUIRE_THAT(nul, IsValid<NemoGymResponse>(SchemaId::nemo_gym_response_v2));
    REQUIRE_THAT(nul, !IsValid<NemoGymResponse>());  // today's version, v3
    REQUIRE_THAT(nul, !IsValid<NemoGymResponse>(SchemaId::nemo_gym_response_v3));
    CHECK(IsValid<NemoGymResponse>(SchemaId::nemo_gym_response_v3).describe() == "is a valid NemoGymResponseV1 (nemo-gym-response.v3)");
    REQUIRE_THAT(nul, HasError<NemoGymResponse>(SchemaId::nemo_gym_response_v3, "/turns/0/inference_call_id", "rows.decode.pattern"));
}
