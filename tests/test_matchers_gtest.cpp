// The GoogleTest helpers users put in their own tests (<sediment/rows/testing/gtest.hpp>): each
// matcher's verdict, its description and explanation (the text of a failed expectation), and PrintTo.
#include <sediment/rows/testing/gtest.hpp>

#include <gtest/gtest-spi.h>

#include "support.hpp"

using namespace sediment::rows;
using namespace sediment::rows::gtest;
using ::testing::Not;

namespace {
const std::string kValid = test::kRow;
const std::string kBadReward = test::mutate(test::kRollout, {"/reward", "\"high\""});
const std::string kNoMetadata = test::mutate(test::kRollout, {"/metadata", ""});

/// What gMock writes for a value that does not match: (description, explanation).
template <class M, class V>
std::pair<std::string, std::string> failure_text(const M& matcher, const V& value) {
    const ::testing::Matcher<const V&> m = matcher;
    ::testing::StringMatchResultListener listener;
    EXPECT_FALSE(m.MatchAndExplain(value, &listener));
    std::ostringstream description;
    m.DescribeTo(&description);
    return {description.str(), listener.str()};
}
}  // namespace

TEST(GtestHelpers, IsValidPassesValidTextAndExplainsAFailureWithTheFirstErrors) {
    EXPECT_THAT(kValid, IsValid<NemoGymRolloutRowV2>());
    EXPECT_THAT(kBadReward, Not(IsValid<NemoGymRolloutRowV2>()));
    const auto [description, explanation] = failure_text(IsValid<NemoGymRolloutRowV2>(), kBadReward);
    EXPECT_EQ(description, "is a valid NemoGymRolloutRowV2 (nemo-gym-rollout.v2)");
    EXPECT_EQ(explanation, "errors: [rows.decode.type] (/reward) expected a number, got a string");

    Limits tight;
    tight.max_depth = 3;
    EXPECT_THAT(kValid, Not(IsValid<NemoGymRolloutRowV2>(tight)));
}

TEST(GtestHelpers, EveryVersionByTypeBySchemaAndRowsOfAnyVersion) {
    const std::string v4 = encode(test::row_of_version(4));
    EXPECT_THAT(v4, IsValid<NemoGymRolloutRowV4>());
    EXPECT_THAT(v4, IsValid<AnyRolloutRow>());
    EXPECT_THAT(v4, Not(IsValid<NemoGymRolloutRowV2>()));
    EXPECT_THAT(v4, HasError<NemoGymRolloutRowV3>("/metadata/verifier_results/0/schema_version", "expected 1"));
    const std::string nul = test::mutate(SchemaId::nemo_gym_response_v3, {"/turns/0/inference_call_id", R"("\u0000")"});
    EXPECT_THAT(nul, IsValid<NemoGymResponse>(SchemaId::nemo_gym_response_v2));
    EXPECT_THAT(nul, Not(IsValid<NemoGymResponse>()));  // today's version, v3
    EXPECT_THAT(nul, HasError<NemoGymResponse>(SchemaId::nemo_gym_response_v3, "/turns/0/inference_call_id", "pattern"));
    const auto [description, explanation] = failure_text(IsValid<NemoGymResponse>(SchemaId::nemo_gym_response_v3), nul);
    EXPECT_EQ(description, "is a valid NemoGymResponseV1 (nemo-gym-response.v3)");
    EXPECT_EQ(explanation.rfind("errors: [rows.decode.pattern] (/turns/0/inference_call_id)", 0), 0u);
    const auto any = failure_text(IsValid<AnyRolloutRow>(), std::string("[]"));
    EXPECT_EQ(any.first, "is a valid AnyRolloutRow (nemo-gym-rollout, of the version it names)");
}

TEST(GtestHelpers, AFailedExpectationShowsTheMatcherAndTheErrors) {
    EXPECT_NONFATAL_FAILURE(EXPECT_THAT(kBadReward, IsValid<NemoGymRolloutRowV2>()),
                            "errors: [rows.decode.type] (/reward) expected a number, got a string");
}

TEST(GtestHelpers, HasErrorMatchesAnErrorAtExactlyThePointerByIdOrMessage) {
    std::vector<Error> errors;
    NemoGymRolloutRowV2 row;
    ASSERT_FALSE(decode(kNoMetadata, row, errors));
    EXPECT_THAT(errors, HasError("", "rows.decode.missing_key"));
    EXPECT_THAT(errors, HasError("", "missing key 'metadata'"));
    EXPECT_THAT(errors, Not(HasError("/metadata", "rows.decode.missing_key")));
    EXPECT_EQ(failure_text(HasError("/reward", "a number"), errors).first,
              "has an error at \"/reward\" containing \"a number\"");

    EXPECT_THAT(kBadReward, HasError<NemoGymRolloutRowV2>("/reward", "expected a number"));
    const auto [description, explanation] = failure_text(HasError<NemoGymRolloutRowV2>("/metadata", "missing"), kBadReward);
    EXPECT_EQ(description, "as NemoGymRolloutRowV2, has an error at \"/metadata\" containing \"missing\"");
    EXPECT_EQ(explanation, "errors: [rows.decode.type] (/reward) expected a number, got a string");
    EXPECT_EQ(failure_text(HasError<NemoGymRolloutRowV2>("/metadata", "missing"), kValid).second,
              "it is a valid NemoGymRolloutRowV2");
}

TEST(GtestHelpers, ModelsPrintAsTheirJsonCutAt2000Bytes) {
    EXPECT_EQ(::testing::PrintToString(TextPart{"short"}), R"({"type":"text","content":"short"})");
    const NemoGymRolloutRowV2 row = decode<NemoGymRolloutRowV2>(kValid);
    const std::string text = encode(row);
    ASSERT_GT(text.size(), 2000u);
    EXPECT_EQ(::testing::PrintToString(row), text.substr(0, 2000) + "... (" + std::to_string(text.size()) + " bytes)");
    EXPECT_EQ(::testing::PrintToString(Error{"rows.decode.type", "/reward", "expected a number"}),
              "[rows.decode.type] (/reward) expected a number");
    EXPECT_EQ(::testing::PrintToString(Split::train), "train");
}
