// Decodes a rollout row and validates an ATIF trajectory: what a user's program does first.
#include <iostream>

#include <sediment/rows.hpp>

namespace rows = sediment::rows;

int main() {
    const char* const row_text = R"({"responses_create_params": {"input": [{"role": "user", "parts": [{"type": "text", "content": "Fix it."}]}]}, "response": {"turns": []}, "reward": 1.0, "metadata": {"instance_id": "i", "recipe_id": "rlvr_ci", "recipe_version": 1, "org_id": "o", "session_id": "s", "segment_index": 0, "verifier_results": [], "attribution_source": "git_notes", "split": "train", "provenance": {"policy_version": "1", "quarantine_revision": 0, "policy_digest": null}, "schema_id": "https://sediment.so/schemas/training-rows/nemo-gym-rollout/v2.json", "schema_version": 2}})";
    const char* const trajectory_text = R"({"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a", "version": "1"}, "steps": [{"step_id": 1, "source": "user", "message": "hi"}, {"step_id": 2, "source": "agent", "message": "hello"}]})";

    const auto row = rows::decode<rows::NemoGymRolloutRowV2>(row_text);
    if (rows::encode(row, rows::Style::sediment) != row_text) return 1;
    std::vector<rows::Error> errors;
    rows::NemoGymAtifTrajectory trajectory;
    if (!rows::decode(trajectory_text, trajectory, errors) || trajectory.steps.size() != 2) return 1;
    std::string broken = trajectory_text;
    broken.replace(broken.find("\"step_id\": 2"), 12, "\"step_id\": 3");
    if (rows::decode(broken, trajectory, errors) || errors.empty() || errors[0].pointer != "/steps/1/step_id") return 1;
    if (rows::kVersion != rows::library_version()) return 1;
    std::cout << "consumer: sediment-rows " << rows::kVersion << ", row and trajectory as expected\n";
    return 0;
}
