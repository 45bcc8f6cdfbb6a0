// Lint (docs/lint.md): each rule broken in a faithful row gives exactly its finding at its pointer and
// nothing else, and the same row with the rule intact gives none; the resolution algorithm against
// cases computed by hand; the rules across rows; the CLI.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "cli.hpp"
#include "process.hpp"
#include "detail/fast.hpp"
#include "features/lint/split.hpp"
#include "support.hpp"

using namespace sediment::rows;

namespace {

std::string ids(const std::vector<Error>& errors) {
    std::string out;
    for (const Error& e : errors) out += to_string(e) + "\n";
    return out;
}

/// Whether lint() of `text` reads it as a view (the fast path), not as a model.
bool viewed(const std::string& text) {
    thread_local detail::fast::AnyRolloutRowView view;
    simdjson::dom::element root;
    return detail::fast::view_row(text, false, Limits(), std::nullopt, view, root);
}

/// The lint findings of a schema-valid row's text, which lint() reads as a view: the same as those of
/// its model (lint_row), which the rules also read.
std::vector<Error> findings(const std::string& text, const LintOptions& options = {}) {
    const Validated c = lint("nemo-gym-rollout", text, options);
    REQUIRE(c.schema);  // schema-valid: only lint findings
    CHECK(viewed(text));
    AnyRolloutRow row;
    std::vector<Error> errors, of_model;
    REQUIRE(decode(text, row, errors));
    lint_row(row, of_model, options);
    CHECK(ids(of_model) == ids(c.errors));
    return c.errors;
}

// A second CI outcome, of another commit and run: it changes no resolution of the row's commit.
const char* const kOtherOutcome = R"({"schema_version": 1, "outcome_id": "out_2", "org_id": "org_a", "provider": "jenkins",
  "run_id": "777", "run_attempt": null, "repo": "o/r", "commit_sha": "fedcba9876543210fedcba9876543210fedcba98",
  "branch": "main", "result": "error", "workflow_name": "CI", "workflow_id": null, "workflow_path": null,
  "run_url": null, "provider_result": null, "error_type": null, "reason": null, "source_event_type": null,
  "source_spec_version": null, "source_event_id": null, "pr_number": null, "captured_at": "2026-11-02T10:00:00Z", "raw": {}})";

std::string other_outcome(int version, const std::string& id, const std::string& repository = "") {
    Json o = parse(kOtherOutcome);
    o["outcome_id"] = id;
    if (version >= 4) {
        o["schema_version"] = 2;
        o = test::insert_after(o, "schema_version", parse(repository.empty() ? R"({"repository_provider": "github",
            "repository_host": "github.com", "repository_id": "101"})" : repository));
    }
    return encode(o);
}

struct Rule {
    const char* id;
    int version;
    std::vector<test::Change> broken, intact;  // intact: the same row with the rule kept ({}: the base row)
    const char* pointer;
    const char* message;  // "": not checked
};

// The edits that take away the row's CI resolution, and with it its reward (the row has a verdict
// left in its outcomes unless `result` changes the outcome's result too).
std::vector<test::Change> without_resolution(std::vector<test::Change> more = {}) {
    std::vector<test::Change> edits = {{"/metadata/ci_resolution", ""}, {"/reward", ""}, {"/metadata/reward_source", ""}};
    edits.insert(edits.end(), more.begin(), more.end());
    return edits;
}

const std::vector<Rule>& rules() {
    static const std::vector<Rule> r = {
        {"rows.lint.reward", 2, {{"/reward", "0.0"}}, {}, "/reward", R"(expected 1.0 for verdict "passed", got 0.0)"},
        {"rows.lint.reward", 2, {{"/reward", "1"}}, {{"/reward", "1.0"}}, "/reward", R"(expected 1.0 for verdict "passed", got 1)"},
        {"rows.lint.reward", 2, {{"/reward", ""}}, {}, "", R"(expected reward 1.0 for verdict "passed", got none)"},
        {"rows.lint.reward", 2,
         {{"/metadata/verifier_results/0/result", "\"failed\""}, {"/metadata/ci_resolution/verdict", "\"failed\""},
          {"/metadata/ci_resolution/workflow_resolutions/0/verdict", "\"failed\""}, {"/metadata/reward_source", "\"resolved_ci_fail\""}},
         {{"/metadata/verifier_results/0/result", "\"failed\""}, {"/metadata/ci_resolution/verdict", "\"failed\""},
          {"/metadata/ci_resolution/workflow_resolutions/0/verdict", "\"failed\""}, {"/metadata/reward_source", "\"resolved_ci_fail\""},
          {"/reward", "0.0"}},
         "/reward", R"(expected 0.0 for verdict "failed", got 1.0)"},
        {"rows.lint.reward", 3,
         without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}, {"/metadata/session_commit_observation_ids", "[]"},
                             {"/reward", "0.0"}}),
         without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}, {"/metadata/session_commit_observation_ids", "[]"}}),
         "/reward", "expected no reward without a ci_resolution, got 0.0"},
        {"rows.lint.reward_source", 2, {{"/metadata/reward_source", "\"resolved_ci_fail\""}}, {}, "/metadata/reward_source",
         R"(expected "resolved_ci_pass" for verdict "passed", got "resolved_ci_fail")"},
        {"rows.lint.reward_source", 2, {{"/metadata/reward_source", ""}}, {}, "/metadata", ""},
        {"rows.lint.ci_resolution.verdict", 2,
         {{"/reward", ""}, {"/metadata/reward_source", ""}, {"/metadata/verifier_results/0/result", "\"error\""},
          {"/metadata/ci_resolution/verdict", "null"}, {"/metadata/ci_resolution/verdict_outcome_ids", "[]"},
          {"/metadata/ci_resolution/non_verdict_outcome_ids", "[\"out_1\"]"}, {"/metadata/ci_resolution/reliability", "null"},
          {"/metadata/ci_resolution/workflow_resolutions/0/verdict", "null"},
          {"/metadata/ci_resolution/workflow_resolutions/0/verdict_outcome_id", "null"},
          {"/metadata/ci_resolution/workflow_resolutions/0/non_verdict_outcome_ids", "[\"out_1\"]"}},
         {}, "/metadata/ci_resolution/verdict",
         R"(expected "passed" or "failed": a row carries a ci_resolution only with a directional verdict, got null)"},
        {"rows.lint.ci_resolution.missing", 2, without_resolution(), without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}}),
         "/metadata", ""},
        {"rows.lint.ci_resolution.org", 2, {{"/metadata/ci_resolution/org_id", "\"org_b\""}}, {}, "/metadata/ci_resolution/org_id",
         R"(expected the row's org "org_a", got "org_b")"},
        {"rows.lint.ci_resolution.quarantine", 2, {{"/metadata/ci_resolution/provenance/quarantine_revision", "13"}}, {},
         "/metadata/ci_resolution/provenance/quarantine_revision", "expected the row's quarantine revision 12, got 13"},
        {"rows.lint.ci_resolution.outcomes", 2, {{"/metadata/ci_resolution/commit_sha", "\"fedcba9876543210fedcba9876543210fedcba98\""}}, {},
         "/metadata/ci_resolution/commit_sha", ""},
        {"rows.lint.ci_resolution", 2, {{"/metadata/ci_resolution/reliability", "0.5"}}, {}, "/metadata/ci_resolution/reliability",
         "expected 1.0, got 0.5"},
        {"rows.lint.ci_resolution", 2, {{"/metadata/ci_resolution/suspected_flake", "true"}}, {}, "/metadata/ci_resolution/suspected_flake",
         "expected false, got true"},
        {"rows.lint.ci_resolution", 2, {{"/metadata/ci_resolution/workflow_resolutions/0/branch", "\"dev\""}}, {},
         "/metadata/ci_resolution/workflow_resolutions/0/branch", R"(expected "main", got "dev")"},
        {"rows.lint.ci_resolution", 2, {{"/metadata/ci_resolution/workflow_resolutions/0/workflow_id", "null"}}, {},
         "/metadata/ci_resolution/workflow_resolutions/0/workflow_id", R"(expected "42", got null)"},
        {"rows.lint.ci_resolution", 2, {{"/metadata/ci_resolution/source_outcome_ids/-", "\"out_2\""}}, {},
         "/metadata/ci_resolution/source_outcome_ids", R"(expected ["out_1"], got ["out_1", "out_2"])"},
        {"rows.lint.ci_resolution", 2, {{"/metadata/ci_resolution/workflow_resolutions/-", R"({"provider": "jenkins", "run_id": "9",
           "workflow_id": null, "workflow_name": "CI", "workflow_path": null, "branch": "main", "verdict": null, "reliability": null,
           "suspected_flake": false, "source_outcome_ids": [], "verdict_outcome_id": null, "non_verdict_outcome_ids": []})"}}, {},
         "/metadata/ci_resolution/workflow_resolutions", "expected 1 workflow resolutions (one per CI run of the commit), got 2"},
        {"rows.lint.ci_resolution.repo", 4, {{"/metadata/ci_resolution/repo", "\"z/z\""}}, {{"/metadata/ci_resolution/repo", "\"a/a\""}},
         "/metadata/ci_resolution/repo", ""},
        {"rows.lint.instance_id", 2, {{"/metadata/instance_id", "\"org_a-sess_b-seg1\""}}, {}, "/metadata/instance_id",
         R"(expected "org_a-sess_b-seg0" (org_id-session_id-segN), got "org_a-sess_b-seg1")"},
        {"rows.lint.split", 2, {{"/metadata/split", "\"eval\""}}, {}, "/metadata/split",
         R"(expected "train" (score 0.5292499966066606 >= eval fraction 0.1), got "eval")"},
        {"rows.lint.verifier_results.order", 2, {{"/metadata/verifier_results/-", other_outcome(2, "out_0")}},
         {{"/metadata/verifier_results/-", other_outcome(2, "out_2")}}, "/metadata/verifier_results/1/outcome_id",
         R"(expected an outcome_id after "out_1" (sorted, each once), got "out_0")"},
        {"rows.lint.verifier_results.order", 2, {{"/metadata/verifier_results/-", other_outcome(2, "out_1")}}, {},
         "/metadata/verifier_results/1/outcome_id", ""},
        {"rows.lint.verifier_results.org", 2, {{"/metadata/verifier_results/0/org_id", "\"org_b\""}}, {},
         "/metadata/verifier_results/0/org_id", R"(expected the row's org "org_a", got "org_b")"},
        {"rows.lint.verifier_results.run", 2,
         {{"/metadata/verifier_results/-", other_outcome(2, "out_2")}, {"/metadata/verifier_results/1/provider", "\"github_actions\""},
          {"/metadata/verifier_results/1/run_id", "\"123\""}, {"/metadata/verifier_results/1/branch", "\"dev\""}},
         {{"/metadata/verifier_results/-", other_outcome(2, "out_2")}, {"/metadata/verifier_results/1/provider", "\"github_actions\""},
          {"/metadata/verifier_results/1/run_id", "\"123\""}},
         "/metadata/verifier_results/1/branch", ""},
        {"rows.lint.turns.input", 2, {{"/response/turns/0/new_messages/1/parts/0/content", "\"Fix it\""}}, {},
         "/response/turns/0/new_messages/1", "expected message 1 of responses_create_params.input: turn 0's new_messages is the input"},
        {"rows.lint.turns.input", 2, {{"/response/turns/0/new_messages",
                                                   R"([{"role": "system", "parts": [{"type": "text", "content": "You are a careful engineer."}]}])"}}, {}, "/response/turns/0/new_messages",
         "expected the 2 messages of responses_create_params.input, got 1"},
        {"rows.lint.turns.echo", 2, {{"/response/turns/1/new_messages/0/role", "\"user\""}}, {},
         "/response/turns/1/new_messages/0/role",
         R"(expected the echo of turn 0's output (an assistant message) first, got "user")"},
        {"rows.lint.turns.tool_calls", 2, {{"/response/turns/0/tool_calls/0/arguments/timeout", "31"}}, {},
         "/response/turns/0/tool_calls/0",
         R"(expected tool call "call_1" (the tool-call parts of its output, echoed in turn 1), got "call_1" with other name or arguments)"},
        {"rows.lint.turns.tool_calls", 2, {{"/response/turns/0/tool_calls", "[]"}}, {}, "/response/turns/0/tool_calls",
         "expected 1 tool calls (the tool-call parts of its output, echoed in turn 1), got 0"},
        {"rows.lint.turns.tool_result", 2, {{"/response/turns/1/new_messages/1/parts/0/id", "\"call_9\""}}, {},
         "/response/turns/1/new_messages/1/parts/0/id",
         R"(expected the id of a call of turn 0 (the turn this one follows), got "call_9")"},
        {"rows.lint.turns.completion", 2, {{"/response/turns/0/completion", "\"Let me look.\""}}, {}, "/response/turns/0/completion",
         R"(expected "Let me look.\nls src" (the scoring text of its output, echoed in turn 1), got "Let me look.")"},
        {"rows.lint.turns.completion", 2,
         {{"/response/turns/1/new_messages/0/parts/1/content", "\"\""}, {"/response/turns/0/completion", "\"\\nls src\""}},
         {{"/response/turns/1/new_messages/0/parts/1/content", "\"\""}, {"/response/turns/0/completion", "\"ls src\""}},
         "/response/turns/0/completion", ""},  // empty items are skipped, not joined
        {"rows.lint.observation_ids.order", 3,
         {{"/metadata/session_commit_observation_ids", R"(["a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "5f0c6a3e-2b1d-4c8e-9f7a-1d2e3f405162"])"}},
         {}, "/metadata/session_commit_observation_ids/1", ""},
        {"rows.lint.observation_ids.order", 4,
         {{"/metadata/session_commit_observation_ids", R"(["5f0c6a3e-2b1d-4c8e-9f7a-1d2e3f405162", "5f0c6a3e-2b1d-4c8e-9f7a-1d2e3f405162"])"}},
         {{"/metadata/session_commit_observation_ids", R"(["5f0c6a3e-2b1d-4c8e-9f7a-1d2e3f405162"])"}},
         "/metadata/session_commit_observation_ids/1", ""},
        {"rows.lint.observation_ids.without_resolution", 3, without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}}),
         without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}, {"/metadata/session_commit_observation_ids", "[]"}}),
         "/metadata/session_commit_observation_ids", ""},
        {"rows.lint.repository_identity", 4,
         {{"/metadata/repository_identity", R"({"provider": "github", "host": "ghe.example", "repository_id": "101"})"}}, {},
         "/metadata/repository_identity", ""},
        {"rows.lint.repository_identity", 4,
         without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}, {"/metadata/session_commit_observation_ids", "[]"}}),
         without_resolution({{"/metadata/verifier_results/0/result", "\"error\""}, {"/metadata/session_commit_observation_ids", "[]"},
                             {"/metadata/repository_identity", "null"}}),
         "/metadata/repository_identity", ""},
        {"rows.lint.ci_outcome.repository", 4,
         {{"/metadata/verifier_results/-", other_outcome(4, "out_2", R"({"repository_provider": "github", "repository_host": null, "repository_id": "101"})")}},
         {{"/metadata/verifier_results/-", other_outcome(4, "out_2", R"({"repository_provider": null, "repository_host": null, "repository_id": null})")}},
         "/metadata/verifier_results/1",
         "expected repository_provider, repository_host and repository_id all set or all null, got 2 of 3 set"},
        {"rows.lint.ci_outcome.payload_version", 4,
         {{"/metadata/verifier_results/-", other_outcome(4, "out_2")}, {"/metadata/verifier_results/1/schema_version", "1"}},
         {{"/metadata/verifier_results/-", other_outcome(4, "out_2")}}, "/metadata/verifier_results/1/repository_provider", ""},
    };
    return r;
}

}  // namespace

TEST_CASE("lint: the base row of every version is faithful") {
    for (int version = 1; version <= 4; ++version) {
        INFO("version " << version);
        CHECK(ids(findings(test::edited_row(version))) == "");
    }
}

TEST_CASE("lint: each rule broken gives exactly its finding at its pointer, and kept gives none") {
    for (const Rule& r : rules()) {
        INFO(r.id << " (v" << r.version << ") at " << r.pointer);
        const std::vector<Error> intact = findings(test::edited_row(r.version, r.intact));
        CHECK(ids(intact) == "");
        const std::vector<Error> broken = findings(test::edited_row(r.version, r.broken));
        INFO(ids(broken));
        REQUIRE(broken.size() == 1);
        CHECK(broken[0].id == r.id);
        CHECK(broken[0].pointer == r.pointer);
        if (*r.message) CHECK(broken[0].message == r.message);
    }
}

TEST_CASE("lint: a view compares free-form values as the model does: members in order, numbers by value") {
    const std::string echo = "/response/turns/1/new_messages/0/parts/2/arguments", call = "/response/turns/0/tool_calls/0/arguments";
    // the echo's arguments with their members in another order are other arguments
    const std::vector<Error> reordered = findings(test::edited_row(2, {{echo, R"({"timeout": 30, "command": "ls src"})"}}));
    REQUIRE(reordered.size() == 1);
    CHECK(reordered[0].id == "rows.lint.turns.tool_calls");
    CHECK(reordered[0].pointer == "/response/turns/0/tool_calls/0");
    // 30 and 30.0, and an integer read as signed or unsigned, are the same number
    CHECK(ids(findings(test::edited_row(2, {{echo, R"({"command": "ls src", "timeout": 30.0})"}}))) == "");
    CHECK(ids(findings(test::edited_row(2, {{echo, R"({"command": "ls src", "timeout": 30, "n": [-1, 18446744073709551615]})"},
                               {call, R"({"command": "ls src", "timeout": 30, "n": [-1.0, 18446744073709551615]})"}}))) == "");
    const std::vector<Error> other = findings(test::edited_row(2, {{echo, R"({"command": "ls src", "timeout": 31})"}}));
    REQUIRE(other.size() == 1);
    CHECK(other[0].id == "rows.lint.turns.tool_calls");
}

TEST_CASE("lint: a turn of many tool calls: each result answers one of them, found in any order") {
    // turn 0 calls call_1..call_40 (past the 16 a turn's ids are searched in order before they are
    // sorted); turn 1 echoes them and answers each, last one first
    const auto many = [](const std::string& wrong_id) {
        Json doc = test::row_of_version(2);
        Json& turns = doc["response"]["turns"];
        Json calls = Json::array(), results = Json::array();
        std::string completion = "Let me look.";
        for (int i = 1; i <= 40; ++i) {
            const std::string id = "call_" + std::to_string(i);
            calls.push_back({{"type", "tool_call"}, {"id", id}, {"name", "bash"}, {"arguments", {{"command", "ls " + std::to_string(i)}}}});
            results.insert(results.begin(), Json{{"type", "tool_call_response"}, {"id", i == 7 && !wrong_id.empty() ? wrong_id : id},
                                                 {"result", {{"exit_code", 0}}}});
            completion += "\nls " + std::to_string(i);
        }
        turns[0]["tool_calls"] = calls;
        turns[0]["completion"] = completion;
        Json& echo = turns[1]["new_messages"][0]["parts"];
        echo.erase(2);
        for (const Json& c : calls) echo.push_back(c);
        turns[1]["new_messages"][1]["parts"] = results;
        return encode(doc);
    };
    CHECK(ids(findings(many(""))) == "");
    for (const char* wrong : {"call_0", "call_41", "call_", "call_99"}) {
        INFO(wrong);
        const std::vector<Error> f = findings(many(wrong));
        REQUIRE(f.size() == 1);
        CHECK(f[0].id == "rows.lint.turns.tool_result");
        CHECK(f[0].pointer == "/response/turns/1/new_messages/1/parts/33/id");  // call_7, answered 34th
    }
}

TEST_CASE("lint: a completion is compared with the scoring text whole: no piece more, less or joined otherwise") {
    const std::string completion = "/response/turns/0/completion";
    for (const char* text : {"\"Let me look.\\nls src\\n\"", "\"Let me look.\\nls sr\"", "\"Let me look.ls src\"", "\"Let me look.\\n\\nls src\"",
                             "\"Let me look.\\nls src.\"", "\"\"", "\"ls src\""}) {
        INFO(text);
        const std::vector<Error> f = findings(test::edited_row(2, {{completion, text}}));
        REQUIRE(f.size() == 1);
        CHECK(f[0].id == "rows.lint.turns.completion");
        CHECK(f[0].message.find(R"(expected "Let me look.\nls src")") == 0);
    }
    CHECK(ids(findings(test::edited_row(2, {{completion, "\"Let me look.\\nls src\""}}))) == "");
}

TEST_CASE("lint: every rule id of docs/lint.md has a test here, and every id tested is documented") {
    const std::string doc = test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/docs/lint.md");
    std::set<std::string> tested;
    for (const Rule& r : rules()) tested.insert(r.id);
    for (const char* id : {"rows.lint.session.verifier_results", "rows.lint.session.ci_resolution", "rows.lint.session.reward",
                           "rows.lint.session.split", "rows.lint.session.attribution_source", "rows.lint.session.verification",
                           "rows.lint.session.provenance", "rows.lint.session.session_commit_observation_ids",
                           "rows.lint.session.repository_identity", "rows.lint.session.segment_index",
                           "rows.lint.session.instance_id", "rows.lint.session.incomplete",
                           // the other families' rules (test_lint_family.cpp)
                           "rows.lint.sft.eligibility_source", "rows.lint.sft.ci_reliability", "rows.lint.sft.min_confidence",
                           "rows.lint.sft.order", "rows.lint.dpo.label_source", "rows.lint.dpo.ci_reliability", "rows.lint.dpo.self_pair",
                           "rows.lint.dpo.confidence_margin", "rows.lint.dpo.identical_responses", "rows.lint.dpo.bucket",
                           "rows.lint.recovery.commits", "rows.lint.rlvr.instance_id", "rows.lint.split.file", "rows.lint.duplicate",
                           "rows.lint.prompt.train_and_eval"})
        tested.insert(id);  // the rules across rows, tested below
    std::set<std::string> documented;
    for (std::size_t at = doc.find("`rows.lint."); at != std::string::npos; at = doc.find("`rows.lint.", at + 1))
        documented.insert(doc.substr(at + 1, doc.find('`', at + 1) - at - 1));
    CHECK(tested == documented);
}

TEST_CASE("lint: the split of the spec's vectors, and SHA-256's own") {
    CHECK(split_score("sess-0") == 0.05546080712629702);
    CHECK(split_score("sess-1") == 0.6714813680486961);
    CHECK(split_score("abc") == 0.7283949105904022);
    CHECK(split_of("sess-0") == Split::eval);
    CHECK(split_of("sess-1") == Split::train);
    CHECK(split_of("sess-0", 0.0) == Split::train);
    CHECK(split_of("sess-1", 0.5) == Split::train);
    const auto hex = [](const std::array<unsigned char, 32>& d) {
        std::string s;
        for (unsigned char c : d) s += "0123456789abcdef"[c >> 4], s += "0123456789abcdef"[c & 15];
        return s;
    };
    // FIPS 180-4 examples, and lengths at the padding's edges (55, 56, 64 bytes), against sha256sum
    CHECK(hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    for (const std::size_t n : {55, 56, 63, 64, 65, 119, 120, 1000}) {
        INFO(n << " bytes");
        std::string text;
        for (std::size_t i = 0; i < n; ++i) text += static_cast<char>('a' + i * 7 % 26);
        const auto r = test::run("printf '%s' " + text + " | sha256sum");
        CHECK(hex(sha256(text)) == r.out.substr(0, 64));
        // the portable code and the processor's SHA extensions (where it has them) agree
        CHECK(hex(detail::sha256(text, false)) == r.out.substr(0, 64));
        CHECK(hex(detail::sha256(text, true)) == r.out.substr(0, 64));
        // two at once, beside any other length
        for (const std::size_t other : {0, 1, 64, 200, 5000}) {
            const std::string b(other, 'q');
            std::array<unsigned char, 32> da{}, db{};
            detail::sha256_two(text, b, da, db);
            CHECK(hex(da) == r.out.substr(0, 64));
            CHECK(da == sha256(text));
            CHECK(db == sha256(b));
        }
        // given a piece at a time (a file as it is written), pieces of every size across the blocks
        for (const std::size_t piece : {1, 7, 63, 64, 65, 200}) {
            detail::Sha256 h;
            for (std::size_t at = 0; at < n; at += piece) h.update(std::string_view(text).substr(at, piece));
            CHECK(hex(h.finish()) == r.out.substr(0, 64));
        }
    }
    // the score is a correctly rounded division, as Python's int / 2 ** 64
    CHECK(split_score("abc") < 1.0);
}

TEST_CASE("lint: eval fractions outside 0.0-0.5 are refused") {
    CHECK_THROWS_AS(Linter(LintOptions{0.51}), std::invalid_argument);
    CHECK_THROWS_AS(Linter(LintOptions{-0.1}), std::invalid_argument);
    CHECK_THROWS_AS(Linter(LintOptions{std::nan("")}), std::invalid_argument);
    CHECK_NOTHROW(Linter(LintOptions{0.0}));
    CHECK_NOTHROW(Linter(LintOptions{0.5}));
    // sess_b scores 0.529...: train under every allowed fraction
    CHECK(ids(findings(test::edited_row(2), LintOptions{0.5})) == "");
}

// ----- the resolution algorithm against cases computed by hand -----------------------------------

namespace {

AnyRolloutRow decoded(const std::string& text) {
    AnyRolloutRow r;
    std::vector<Error> errors;
    REQUIRE(decode(text, r, errors));
    return r;
}

// segment `k` of the base row's session, with `edits`
std::string segment(int version, int k, const std::vector<test::Change>& edits = {}) {
    std::vector<test::Change> all = {{"/metadata/segment_index", std::to_string(k)},
                                     {"/metadata/instance_id", "\"org_a-sess_b-seg" + std::to_string(k) + "\""}};
    all.insert(all.end(), edits.begin(), edits.end());
    return test::edited_row(version, all);
}

}  // namespace

TEST_CASE("lint: a session's rows agree on everything but their turns") {
    Linter linter;
    std::vector<Error> f;
    linter.add(decoded(segment(4, 0)), f);
    linter.add(decoded(segment(4, 1, {{"/response/turns/1/completion", "\"Other.\""}})), f);  // turns are the segment's
    CHECK(ids(f) == "");
    // a CI outcome's raw payload breaks no rule of the row, but the session's rows repeat it
    linter.add(decoded(segment(4, 2, {{"/metadata/verifier_results/0/raw/z", "2"}})), f);
    CHECK(ids(f) == "");  // the session's majority is known at its end
    const std::vector<LintFinding> end = linter.finish();
    REQUIRE(end.size() == 1);
    CHECK(end[0].line == 3);
    CHECK(end[0].error.id == "rows.lint.session.verifier_results");
    CHECK(end[0].error.pointer == "/metadata/verifier_results");
    CHECK(end[0].error.message ==
          "expected the verifier_results that 2 of the session's 3 rows hold (the first at row 1): every segment of a session repeats it, got another value");
    // each value of the session, through its facts
    const SessionFacts base = session_facts(decoded(segment(4, 0)));
    const char* const pointers[] = {"/metadata/verifier_results", "/metadata/ci_resolution", "/reward", "/metadata/split",
                                    "/metadata/attribution_source", "/metadata/verification", "/metadata/provenance",
                                    "/metadata/session_commit_observation_ids", "/metadata/repository_identity"};
    const char* const names[] = {"verifier_results", "ci_resolution", "reward", "split", "attribution_source", "verification",
                                 "provenance", "session_commit_observation_ids", "repository_identity"};
    for (int field = 0; field < SessionFacts::kFields; ++field) {
        INFO(names[field]);
        Linter l;
        std::vector<Error> out;
        l.add(base, out);
        SessionFacts other = base;
        other.segment_index = 1, other.instance_id = "org_a-sess_b-seg1";
        other.digests[field] ^= 0x10;
        l.add(other, out);
        CHECK(out.empty());
        const std::vector<LintFinding> end = l.finish();
        REQUIRE(end.size() == 1);  // a tie: the later row is the one that differs
        CHECK(end[0].line == 2);
        CHECK(end[0].error.id == "rows.lint.session." + std::string(names[field]));
        CHECK(end[0].error.pointer == pointers[field]);
        CHECK(end[0].error.message == "expected the " + std::string(field == SessionFacts::reward ? "reward and reward_source" : names[field]) +
                                          " of the session's first row (row 1): every segment of a session repeats it, got another value");
    }
    // the real values: an absent verification
    Linter l;
    std::vector<Error> out;
    l.add(decoded(segment(2, 0)), out);
    l.add(decoded(segment(2, 1, {{"/metadata/verification", ""}})), out);
    CHECK(out.empty());
    const std::vector<LintFinding> absent = l.finish();
    REQUIRE(absent.size() == 1);
    CHECK(absent[0].error.id == "rows.lint.session.verification");
}

TEST_CASE("lint: where a session's rows disagree, the rows that differ from most of them get the finding") {
    // the first of four rows edited: one finding, at it, whatever its place
    for (std::size_t edited = 0; edited < 4; ++edited) {
        INFO("edited row " << edited + 1);
        Linter linter;
        linter.begin_file("rows.jsonl");
        std::vector<Error> f;
        for (std::size_t k = 0; k < 4; ++k)
            linter.add(decoded(segment(4, static_cast<int>(k), k == edited ? std::vector<test::Change>{{"/metadata/split", "\"eval\""}}
                                                                             : std::vector<test::Change>{})), f);
        const std::vector<LintFinding> end = linter.finish();
        REQUIRE(end.size() == 1);
        CHECK(end[0].file == "rows.jsonl");
        CHECK(end[0].line == edited + 1);
        CHECK(end[0].error.id == "rows.lint.session.split");
        CHECK(end[0].error.message == "expected the split that 3 of the session's 4 rows hold (the first at rows.jsonl:" +
                                          std::to_string(edited == 0 ? 2 : 1) + "): every segment of a session repeats it, got another value");
    }
    // two against two: the value that came first holds; three values: the most common one
    Linter tie;
    std::vector<Error> f;
    const std::vector<test::Change> eval{{"/metadata/split", "\"eval\""}};
    for (const auto& [k, edit] : std::vector<std::pair<int, bool>>{{0, true}, {1, false}, {2, true}, {3, false}})
        tie.add(decoded(segment(4, k, edit ? eval : std::vector<test::Change>{})), f);
    std::vector<std::size_t> lines;
    for (const LintFinding& e : tie.finish()) lines.push_back(e.line);
    CHECK(lines == std::vector<std::size_t>{2, 4});
    Linter three;
    const std::vector<test::Change> other{{"/metadata/provenance/policy_version", "\"x\""}};
    three.add(decoded(segment(4, 0, other)), f);
    for (int k = 1; k < 4; ++k) three.add(decoded(segment(4, k)), f);
    three.add(decoded(segment(4, 4, {{"/metadata/provenance/policy_version", "\"y\""}})), f);
    lines.clear();
    for (const LintFinding& e : three.finish()) lines.push_back(e.line);
    CHECK(lines == std::vector<std::size_t>{1, 5});
}

TEST_CASE("lint: a session's digests are of its JSON values: the text's view, its model, any layout and key order") {
    for (int version = 1; version <= 4; ++version) {
        INFO("version " << version);
        const std::string text = segment(version, 0);
        std::vector<Error> f;
        SessionFacts of_view;
        REQUIRE(lint("nemo-gym-rollout", text, f, of_view) == schema_of(decoded(text)));
        CHECK(viewed(text));
        const SessionFacts of_model = session_facts(decoded(text));
        CHECK(of_view.digests == of_model.digests);
        CHECK(of_view.instance_id == of_model.instance_id);
        const int present = version == 4 ? SessionFacts::kFields : version == 3 ? SessionFacts::kFields - 1 : SessionFacts::kFields - 2;
        for (int field = 0; field < SessionFacts::kFields; ++field) CHECK((of_view.digests[field] != 0) == (field < present));
        // the same values in another layout: indented, and every object's members in reverse order
        const auto reversed = [](const Json& v, const auto& self) -> Json {
            if (v.is_array()) {
                Json out = Json::array();
                for (const Json& x : v) out.push_back(self(x, self));
                return out;
            }
            if (!v.is_object()) return v;
            Json out = Json::object();
            const auto& members = v.get_ref<const Json::object_t&>();
            for (auto m = members.rbegin(); m != members.rend(); ++m) out[m->first] = self(m->second, self);
            return out;
        };
        const std::string other = reversed(parse(text), reversed).dump(2);
        REQUIRE(other != text);
        SessionFacts of_other;
        REQUIRE(lint("nemo-gym-rollout", other, f, of_other));
        CHECK(of_other.digests == of_view.digests);
        CHECK(ids(f) == "");
    }
}

TEST_CASE("lint: a row the fast path leaves to the exact reader is linted as its model") {
    // an integer beyond 64 bits in a CI outcome's raw payload: valid, and read by the exact reader only
    const std::string big = segment(4, 0, {{"/metadata/verifier_results/0/raw/n", "1180591620717411303424"}});
    CHECK_FALSE(viewed(big));
    std::vector<Error> f;
    SessionFacts facts;
    REQUIRE(lint("nemo-gym-rollout", big, f, facts) == SchemaId::nemo_gym_rollout_v4);
    CHECK(ids(f) == "");
    CHECK(facts.digests == session_facts(decoded(big)).digests);
    // its findings are the model's
    const std::string tampered = segment(4, 0, {{"/metadata/verifier_results/0/raw/n", "1180591620717411303424"}, {"/reward", "0.0"}});
    REQUIRE(lint("nemo-gym-rollout", tampered, f, facts));
    REQUIRE(f.size() == 1);
    CHECK(f[0].id == "rows.lint.reward");
    // the session's rows repeat the payload, or they do not
    Linter linter;
    std::vector<Error> out;
    for (const std::string& text : {big, segment(4, 1, {{"/metadata/verifier_results/0/raw/n", "1180591620717411303424"}}), segment(4, 2)}) {
        REQUIRE(lint("nemo-gym-rollout", text, out, facts));
        linter.add(facts, out);
    }
    CHECK(out.empty());
    const std::vector<LintFinding> end = linter.finish();
    REQUIRE(end.size() == 1);
    CHECK(end[0].line == 3);
    CHECK(end[0].error.id == "rows.lint.session.verifier_results");
}

TEST_CASE("lint: segment indexes and instance ids are unique") {
    Linter linter;
    linter.begin_file("a.jsonl");
    std::vector<Error> f;
    SessionFacts s = session_facts(decoded(segment(2, 0)));
    s.line = 1;
    linter.add(s, f);
    linter.begin_file("b.jsonl");
    s.line = 4;
    linter.add(s, f);  // the same segment again: one finding, not two
    REQUIRE(f.size() == 1);
    CHECK(f[0].id == "rows.lint.session.segment_index");
    CHECK(f[0].message == "expected a segment index new to the session, got 0, which a.jsonl:1 has");
    f.clear();
    // two sessions that spell "{org_id}-{session_id}" alike: "a-b" + "c" and "a" + "b-c"
    SessionFacts x = s, y = s;
    x.org_id = "a-b", x.session_id = "c", x.instance_id = "a-b-c-seg0", x.line = 5;
    y.org_id = "a", y.session_id = "b-c", y.instance_id = "a-b-c-seg0", y.line = 6;
    linter.add(x, f);
    CHECK(f.empty());
    linter.add(y, f);
    REQUIRE(f.size() == 1);
    CHECK(f[0].id == "rows.lint.session.instance_id");
    CHECK(f[0].message == R"(expected an instance_id no other row has, got "a-b-c-seg0", which line 5 has)");
    f.clear();
    // an id that is not the derived one (its row has rows.lint.instance_id) equal to another row's
    SessionFacts z = s;
    z.session_id = "sess_q", z.instance_id = "org_a-sess_b-seg0", z.line = 7;
    linter.add(z, f);
    REQUIRE(f.size() == 1);
    CHECK(f[0].id == "rows.lint.session.instance_id");
    CHECK(f[0].message == R"(expected an instance_id no other row has, got "org_a-sess_b-seg0", which a.jsonl:1 has)");
    f.clear();
    SessionFacts w = z;
    w.session_id = "sess_r", w.line = 8;
    linter.add(w, f);  // and again: equal to the derived one and to the other
    CHECK(f.size() == 1);
    // distinct ids: nothing
    f.clear();
    SessionFacts v = s;
    v.segment_index = 1, v.instance_id = "org_a-sess_b-seg1", v.line = 9;
    linter.add(v, f);
    CHECK(ids(f) == "");
}

TEST_CASE("lint: with sessions complete, a session's segments are 0..k-1") {
    for (const bool complete : {false, true}) {
        Linter linter(LintOptions{0.1, complete});
        std::vector<Error> f;
        linter.add(decoded(segment(2, 1)), f);
        linter.add(decoded(segment(2, 0)), f);  // any order
        linter.add(decoded(segment(3, 0, {{"/metadata/session_id", "\"sess_c\""}, {"/metadata/instance_id", "\"org_a-sess_c-seg0\""}})), f);
        linter.add(decoded(segment(3, 2, {{"/metadata/session_id", "\"sess_c\""}, {"/metadata/instance_id", "\"org_a-sess_c-seg2\""}})), f);
        CHECK(ids(f) == "");
        const std::vector<LintFinding> end = linter.finish();
        if (!complete) {
            CHECK(end.empty());
            continue;
        }
        REQUIRE(end.size() == 1);
        CHECK(end[0].line == 3);  // the session's first row
        CHECK(end[0].error.id == "rows.lint.session.incomplete");
        CHECK(end[0].error.pointer == "/metadata/segment_index");
        CHECK(end[0].error.message == R"(expected segments 0..1 of session "sess_c" (--sessions-complete), got 2 rows without segment 1)");
    }
}

// ----- the CLI -----------------------------------------------------------------------------------

TEST_CASE("lint CLI: findings with their rule, schema errors without lint, exit codes, formats") {
    test::TempDir dir;
    const auto write = [&](const char* name, const std::string& text) {
        test::write_file(dir / name, text);
        return (dir / name).string();
    };
    const std::string rows_file = write("rows.jsonl", test::edited_row(4) + "\n" + segment(4, 1, {{"/reward", "0.0"}}) + "\n" +
                                                              segment(2, 2, {{"/metadata/bogus", "1"}}) + "\n");
    auto r = test::cli("lint --schema nemo-gym-rollout " + rows_file);
    CHECK(r.status == 1);
    CHECK(r.out == rows_file + ":2: /reward: expected 1.0 for verdict \"passed\", got 0.0 [rows.lint.reward]\n" + rows_file +
                       ":3: /metadata: unknown key 'bogus' [rows.decode.unknown_key]\n" + rows_file +
                       ":2: /reward: expected the reward and reward_source of the session's first row (" + rows_file +
                       ":1): every segment of a session repeats it, got another value [rows.lint.session.reward]\n");
    CHECK(r.err == "3 rows: 2 findings, 1 not schema-valid (read as nemo-gym-rollout.v2: 1, nemo-gym-rollout.v4: 2)\n");
    r = test::cli("lint --schema nemo-gym-rollout.v4 --format jsonl -q " + rows_file);
    CHECK(r.status == 1);
    CHECK(r.out.find(R"("errors": [{"id": "rows.lint.reward", "pointer": "/reward", "message": )") != std::string::npos);
    CHECK(r.err == "");
    r = test::cli("lint --schema nemo-gym-rollout --fail-fast -q " + rows_file);
    CHECK(r.out == rows_file + ":2: /reward: expected 1.0 for verdict \"passed\", got 0.0 [rows.lint.reward]\n");
    const std::string clean = write("clean.jsonl", test::edited_row(3) + "\n" + segment(3, 1) + "\n");
    r = test::cli("lint --schema nemo-gym-rollout --sessions-complete " + clean);
    CHECK(r.status == 0);
    CHECK(r.out == "");
    CHECK(r.err == "2 rows: 0 findings, 0 not schema-valid (read as nemo-gym-rollout.v3: 2)\n");
    const std::string gap = write("gap.jsonl", segment(3, 1) + "\n");
    r = test::cli("lint --schema nemo-gym-rollout.v3 --sessions-complete -q --format github " + gap);
    CHECK(r.status == 1);
    CHECK(r.out == "::error file=" + gap + ",line=1::/metadata/segment_index: expected segments 0..0 of session \"sess_b\" (--sessions-complete), got 1 rows without segment 0 [rows.lint.session.incomplete]\n");
    // the eval fraction: sess_b scores 0.529
    r = test::cli("lint --schema nemo-gym-rollout --eval-fraction 0.5 -q " + clean);
    CHECK(r.status == 0);
    for (const char* bad : {"0.51", "-0.1", "x", "nan", "", "0.1x"}) {
        INFO(bad);
        r = test::cli(std::string("lint --schema nemo-gym-rollout --eval-fraction '") + bad + "' " + clean);
        CHECK(r.status == 2);
        CHECK(r.err.find("--eval-fraction is a number from 0.0 to 0.5") != std::string::npos);
    }
    // the examples are rows as Sediment derives them (a slice: sess_c begins at segment 1)
    const std::string examples = test::quote(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/rows.jsonl");
    r = test::cli("lint --schema nemo-gym-rollout " + examples);
    CHECK(r.status == 0);
    CHECK(r.out == "");
    r = test::cli("lint --schema nemo-gym-rollout.v4 --sessions-complete " + examples);
    CHECK(r.status == 1);
    CHECK(r.out.find(":2: /metadata/segment_index: expected segments 0..0 of session \"sess_c\"") != std::string::npos);
    CHECK(r.err == "3 rows: 1 findings, 0 not schema-valid\n");
    r = test::cli("lint --schema nemo-gym-response.v3 " + clean);
    CHECK(r.status == 2);
    CHECK(r.err.find("lint reads Sediment's rows: --schema nemo-gym-rollout, sft-sample") != std::string::npos);
    r = test::cli("lint --help");
    CHECK(r.status == 0);
    CHECK(r.out.find("--sessions-complete") != std::string::npos);
}
