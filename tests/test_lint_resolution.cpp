// Lint's CI resolution algorithm (docs/lint.md, "The resolution algorithm") against cases computed by
// hand: flakes, disagreeing lineages, non-verdict results, attempts, workflows, repository identities.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace sediment::rows;

namespace {

CIOutcomeV1 outcome(const std::string& id, const std::string& run, Nullable<std::int64_t> attempt, Result result,
                  Provider provider = Provider::github_actions) {
    CIOutcomeV1 o;
    o.outcome_id = id, o.org_id = "org_a", o.provider = provider, o.run_id = run, o.run_attempt = attempt;
    o.repo = "o/r", o.commit_sha = std::string(40, 'a'), o.branch = "main", o.result = result, o.workflow_name = "CI";
    o.captured_at = "2026-11-02T10:00:00Z";
    return o;
}

std::vector<std::string> list(std::initializer_list<const char*> ids) { return {ids.begin(), ids.end()}; }

}  // namespace

TEST_CASE("lint: resolution, a flake: a lineage with both verdicts") {
    const CommitResolution r = resolve_commit(std::vector<CIOutcomeV1>{
        outcome("out_b", "1", 2, Result::passed), outcome("out_a", "1", 1, Result::failed)});
    REQUIRE(r.workflow_resolutions.size() == 1);
    const CIWorkflowResolution& w = r.workflow_resolutions[0];
    CHECK(w.verdict == Verdict::passed);  // the last attempt's
    CHECK(w.verdict_outcome_id == std::string("out_b"));
    CHECK(w.suspected_flake);
    CHECK(w.reliability->value() == 0.0);
    CHECK(w.source_outcome_ids == list({"out_a", "out_b"}));
    CHECK(w.non_verdict_outcome_ids.empty());
    CHECK(r.verdict == Verdict::passed);
    CHECK(r.reliability->value() == 0.0);
    CHECK(r.suspected_flake);
    CHECK(r.verdict_outcome_ids == list({"out_b"}));
}

TEST_CASE("lint: resolution, lineages that disagree leave verdict and reliability null") {
    const CommitResolution r = resolve_commit(std::vector<CIOutcomeV1>{
        outcome("out_a", "1", 1, Result::passed), outcome("out_b", "2", 1, Result::failed)});
    REQUIRE(r.workflow_resolutions.size() == 2);
    CHECK(r.workflow_resolutions[0].verdict == Verdict::passed);
    CHECK(r.workflow_resolutions[1].verdict == Verdict::failed);
    CHECK(r.verdict.is_null());
    CHECK(r.reliability.is_null());
    CHECK_FALSE(r.suspected_flake);
    CHECK(r.verdict_outcome_ids == list({"out_a", "out_b"}));
    CHECK(r.source_outcome_ids == list({"out_a", "out_b"}));
}

TEST_CASE("lint: resolution, only non-verdict results") {
    const CommitResolution r = resolve_commit(std::vector<CIOutcomeV1>{
        outcome("out_b", "1", 2, Result::cancelled), outcome("out_a", "1", 1, Result::error)});
    REQUIRE(r.workflow_resolutions.size() == 1);
    const CIWorkflowResolution& w = r.workflow_resolutions[0];
    CHECK(w.verdict.is_null());
    CHECK(w.verdict_outcome_id.is_null());
    CHECK(w.reliability->value() == 1.0);  // non_verdict_reliability
    CHECK_FALSE(w.suspected_flake);
    CHECK(w.non_verdict_outcome_ids == list({"out_a", "out_b"}));
    CHECK(r.verdict.is_null());
    CHECK(r.reliability.is_null());  // no verdict across the commit
    CHECK(r.verdict_outcome_ids.empty());
    CHECK(r.non_verdict_outcome_ids == list({"out_a", "out_b"}));
}

TEST_CASE("lint: resolution, a null run_attempt counts as 0, ties in outcome_id order") {
    // (0, out_z) passed, then (1, out_a) failed: the verdict is out_a's, though out_z sorts later by id
    CommitResolution r = resolve_commit(std::vector<CIOutcomeV1>{
        outcome("out_a", "1", 1, Result::failed), outcome("out_z", "1", nullptr, Result::passed)});
    CHECK(r.workflow_resolutions.at(0).verdict == Verdict::failed);
    CHECK(r.workflow_resolutions.at(0).verdict_outcome_id == std::string("out_a"));
    CHECK(r.verdict == Verdict::failed);
    CHECK(r.reliability->value() == 0.0);
    // two null attempts: (0, out_a) passed, (0, out_b) failed
    r = resolve_commit(std::vector<CIOutcomeV1>{outcome("out_b", "1", nullptr, Result::failed), outcome("out_a", "1", nullptr, Result::passed)});
    CHECK(r.verdict == Verdict::failed);
    CHECK(r.workflow_resolutions.at(0).verdict_outcome_id == std::string("out_b"));
    // a non-verdict attempt after the verdict leaves it, and its reliability
    r = resolve_commit(std::vector<CIOutcomeV1>{outcome("out_a", "1", 1, Result::passed), outcome("out_b", "1", 2, Result::timed_out)});
    CHECK(r.verdict == Verdict::passed);
    CHECK(r.reliability->value() == 1.0);
    CHECK(r.workflow_resolutions.at(0).non_verdict_outcome_ids == list({"out_b"}));
}

TEST_CASE("lint: resolution, several workflows: one value per run, sorted by provider, id, path, name, run") {
    std::vector<CIOutcomeV1> o = {
        outcome("out_1", "500", 1, Result::passed), outcome("out_2", "500", 2, Result::passed),  // workflow "9"
        outcome("out_3", "400", 1, Result::passed),                                              // workflow "10"
        outcome("out_4", "300", nullptr, Result::failed, Provider::jenkins), outcome("out_5", "300", 1, Result::passed, Provider::jenkins),
        outcome("out_6", "200", 1, Result::skipped, Provider::circleci)};
    o[0].workflow_id = nullptr, o[1].workflow_id = "9";  // the run's one non-empty value
    o[0].workflow_path = ".github/workflows/t.yml";
    o[2].workflow_id = "10", o[2].workflow_name = "tests";
    o[5].workflow_name = "";
    const CommitResolution r = resolve_commit(o);
    REQUIRE(r.workflow_resolutions.size() == 4);
    // "circleci" < "github_actions" < "jenkins"; among github_actions, workflow_id "10" < "9" as strings
    CHECK(r.workflow_resolutions[0].run_id == "200");
    CHECK(r.workflow_resolutions[1].run_id == "400");
    CHECK(r.workflow_resolutions[2].run_id == "500");
    CHECK(r.workflow_resolutions[3].run_id == "300");
    CHECK(r.workflow_resolutions[2].workflow_id == std::string("9"));
    CHECK(r.workflow_resolutions[2].workflow_path == std::string(".github/workflows/t.yml"));
    CHECK(r.workflow_resolutions[0].workflow_name == "");
    CHECK(r.workflow_resolutions[0].workflow_id.is_null());
    CHECK(r.workflow_resolutions[0].verdict.is_null());
    CHECK(r.workflow_resolutions[0].reliability->value() == 1.0);
    CHECK(r.workflow_resolutions[3].suspected_flake);  // (0, out_4) failed, (1, out_5) passed
    CHECK(r.workflow_resolutions[3].verdict == Verdict::passed);
    // every verdict is passed; the flake's 0.0 is the minimum
    CHECK(r.verdict == Verdict::passed);
    CHECK(r.reliability->value() == 0.0);
    CHECK(r.suspected_flake);
    CHECK(r.source_outcome_ids == list({"out_1", "out_2", "out_3", "out_4", "out_5", "out_6"}));
    CHECK(r.verdict_outcome_ids == list({"out_2", "out_3", "out_5"}));
    CHECK(r.non_verdict_outcome_ids == list({"out_6"}));
}

TEST_CASE("lint: resolution, an identified and a legacy outcome of one run id are two lineages") {
    CIOutcomeV3 a, b;
    for (CIOutcomeV3* o : {&a, &b}) {
        o->org_id = "org_a", o->run_id = "1", o->run_attempt = 1, o->repo = "o/r", o->commit_sha = std::string(40, 'a');
        o->branch = "main", o->workflow_name = "CI", o->captured_at = "2026-11-02T10:00:00Z";
    }
    a.outcome_id = "out_a", a.result = Result::passed, a.schema_version = 2;
    a.repository_provider = "github", a.repository_host = "github.com", a.repository_id = "101";
    b.outcome_id = "out_b", b.result = Result::failed;
    const CommitResolution r = resolve_commit(std::vector<CIOutcomeV3>{a, b});
    CHECK(r.workflow_resolutions.size() == 2);
    CHECK_FALSE(r.suspected_flake);  // no lineage has both
    CHECK(r.verdict.is_null());      // they disagree
}

// ----- the rules across rows ---------------------------------------------------------------------
