// A unit test of the kind users write, with the Catch2 matchers (<sediment/rows/testing/catch2.hpp>):
// the rows a pipeline writes must be valid, and a broken one must fail where expected.
// Linked with Catch2::Catch2WithMain (Catch2's own main), so it defines no main of its own.
#include <sediment/rows/testing/catch2.hpp>

#include <sediment/rows.hpp>

using namespace sediment::rows;
using namespace sediment::rows::catch2;

namespace {
// What a pipeline under test might produce: the example row with a reward set.
std::string produce_row(const std::string& source, double reward) {
    NemoGymRolloutRow row = decode<NemoGymRolloutRow>(source);
    row.reward = reward;
    return encode(row, Style::sediment);
}

const char* const kSource = R"({"responses_create_params": {"input": [{"role": "user", "parts": [{"type": "text", "content": "Fix it."}]}]}, "response": {"turns": []}, "metadata": {"instance_id": "i", "recipe_id": "rlvr_ci", "recipe_version": 1, "org_id": "o", "session_id": "s", "segment_index": 0, "verifier_results": [], "attribution_source": "git_notes", "split": "train", "provenance": {"policy_version": "1", "quarantine_revision": 0, "policy_digest": null}, "session_commit_observation_ids": [], "repository_identity": null, "schema_id": "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json", "schema_version": 4}})";
}  // namespace

TEST_CASE("the pipeline writes valid rollout rows") {
    REQUIRE_THAT(produce_row(kSource, 1.0), IsValid<NemoGymRolloutRow>());
}

TEST_CASE("a row without its metadata is refused at the root") {
    Json broken = parse(produce_row(kSource, 0.0));
    broken.erase("metadata");
    REQUIRE_THAT(encode(broken), HasError<NemoGymRolloutRow>("", "missing key 'metadata'"));
}
