// Lint of Sediment's other families: faithful rows of every family and version give no finding, each
// rule's single fault is found with its id and pointer, and the rules across rows and files hold.
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>

#include "cli.hpp"
#include "sediment/rows/lint.hpp"

using namespace sediment::rows;

namespace {

/// The first session id "sess-K" whose split (eval fraction 0.1) is `split`.
std::string session_in(Split split) {
    for (int k = 0;; ++k)
        if (const std::string id = "sess-" + std::to_string(k); split_of(id) == split) return id;
}

std::string padded(int k) { return (k < 10 ? "0" : "") + std::to_string(k); }

/// Row k of `schema`, made as Sediment's exporter makes it: every rule of docs/lint.md holds.
Json faithful(SchemaId schema, int k, Split split = Split::train) {
    Json row = test::base(schema);
    const std::string family(schema_info(schema).base), side = split == Split::eval ? "eval" : "train";
    const Json prompt = Json::array({Json{{"role", "user"}, {"content", "Task " + padded(k) + ": fix the build"}}});
    const auto answer = [](const std::string& text) { return Json::array({Json{{"role", "assistant"}, {"content", text}}}); };
    if (family == "sft-sample") {
        Json& m = row["metadata"];
        m["completion_id"] = "call-" + padded(k), m["recipe_id"] = "sft_curated", m["eligibility_source"] = "explicit_accept";
        m["label_confidence"] = 0.9, m["split"] = side;
        row["prompt"] = prompt, row["completion"] = answer("Done " + padded(k));
    } else if (family == "dpo-pair") {
        Json& m = row["metadata"];
        m["chosen_completion_id"] = "good-" + padded(k), m["rejected_completion_id"] = "bad-" + padded(k), m["recipe_id"] = "dpo_human";
        m["chosen_label_source"] = "explicit_accept", m["rejected_label_source"] = "explicit_reject";
        m["label_confidence"] = 0.7, m["confidence_margin"] = 0.3, m["split"] = side;
        row["prompt"] = prompt, row["chosen"] = answer("Good " + padded(k)), row["rejected"] = answer("Bad " + padded(k));
    } else if (family == "diff-sft-sample") {
        Json& m = row["metadata"];
        m["session_id"] = session_in(split), m["completion_id"] = "call-" + padded(k), m["commit_sha"] = "c" + padded(k), m["split"] = side;
        row["prompt"] = prompt;
    } else if (family == "recovery-row") {
        row["failed_commit_sha"] = "f" + padded(k), row["fixed_commit_sha"] = "g" + padded(k), row["split"] = side;
    } else if (family == "sediment-rlvr-rollout") {
        row["org_id"] = "org", row["session_id"] = session_in(split), row["segment_index"] = k;
        row["instance_id"] = "org-" + session_in(split) + "-seg" + std::to_string(k), row["split"] = side;
    } else if (family == "sediment-rlvr-task") {
        row["instance_id"] = "task-" + padded(k), row["split"] = side;
    } else if (family == "swe-bench-task") {
        row["instance_id"] = "task-" + padded(k), row["problem_statement"] = "Problem " + padded(k), row["metadata"]["split"] = side;
    }
    return row;
}

const char* const kFamilies[] = {"sft-sample", "dpo-pair", "diff-sft-sample", "recovery-row", "sediment-rlvr-rollout",
                                 "sediment-rlvr-task", "swe-bench-task"};

/// Lints `rows` of `name` as the files `files` (row i in files[i]), rules within and across rows.
std::vector<std::pair<std::size_t, Error>> lint_all(const std::string& name, const std::vector<std::string>& rows,
                                                    const std::vector<std::string>& files = {}, const LintOptions& options = {}) {
    Linter linter(options);
    std::vector<std::pair<std::size_t, Error>> out;  // (row index, finding)
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!files.empty() && (i == 0 || files[i] != files[i - 1])) linter.begin_file(files[i]);
        std::vector<Error> findings;
        SessionFacts facts;
        facts.line = i + 1;  // (each file's lines counted as the rows' indexes: names are what matter here)
        const auto schema = lint(name, rows[i], findings, facts, options);
        INFO(rows[i]);
        REQUIRE(schema);
        linter.add(std::move(facts), findings);
        for (Error& e : findings) out.emplace_back(i, std::move(e));
    }
    for (LintFinding& f : linter.finish()) out.emplace_back(f.line - 1, std::move(f.error));
    return out;
}

/// "ROW ID POINTER" of each finding, a line each.
std::string ids(const std::vector<std::pair<std::size_t, Error>>& found) {
    std::string out;
    for (const auto& [row, e] : found) out += std::to_string(row) + " " + e.id + " " + e.pointer + "\n";
    return out;
}

}  // namespace

TEST_CASE("lint families: faithful rows of every family and version give no finding, in Sediment's layout") {
    for (const char* family : kFamilies) {
        for (const SchemaId schema : schemas_named(family)) {
            const std::string name(schema_info(schema).name);
            INFO(name);
            std::vector<std::string> rows, files;
            for (int k = 0; k < 5; ++k) {
                const Split split = k < 3 ? Split::train : Split::eval;
                rows.push_back(encode(faithful(schema, k, split)));
                files.push_back(std::string(family) + (split == Split::eval ? ".eval.jsonl" : ".train.jsonl.gz"));
            }
            const auto found = lint_all(name, rows, files);
            for (const auto& [row, e] : found) FAIL_CHECK("row " << row << ": [" << e.id << "] " << e.pointer << ": " << e.message);
            CHECK(found.empty());
            CHECK(lint_all("any", rows, files).empty());  // each as the family and version it names
        }
    }
}

TEST_CASE("lint families: each rule within a row finds its single fault, with its id and pointer") {
    struct Fault {
        const char* family;
        std::function<void(Json&)> edit;
        const char* id;
        const char* pointer;
    };
    const std::vector<Fault> faults = {
        {"sft-sample", [](Json& r) { r["metadata"]["eligibility_source"] = "resolved_ci_pass"; }, "rows.lint.sft.eligibility_source", "/metadata/eligibility_source"},
        {"sft-sample", [](Json& r) { r["metadata"]["recipe_id"] = "sft_verified"; r["metadata"]["ci_reliability"] = 1.0; },
         "rows.lint.sft.eligibility_source", "/metadata/eligibility_source"},
        {"sft-sample", [](Json& r) { r["metadata"]["recipe_id"] = "sft_verified"; r["metadata"]["eligibility_source"] = "resolved_ci_pass";
                                     r["metadata"]["ci_reliability"] = nullptr; }, "rows.lint.sft.ci_reliability", "/metadata/ci_reliability"},
        {"sft-sample", [](Json& r) { r["metadata"]["label_confidence"] = 0.59; }, "rows.lint.sft.min_confidence", "/metadata/label_confidence"},
        {"dpo-pair", [](Json& r) { r["metadata"]["chosen_label_source"] = "resolved_ci_pass"; }, "rows.lint.dpo.label_source", "/metadata/chosen_label_source"},
        {"dpo-pair", [](Json& r) { r["metadata"]["recipe_id"] = "dpo_outcome"; r["metadata"]["chosen_label_source"] = "resolved_ci_pass";
                                   r["metadata"]["ci_reliability"] = 1.0; }, "rows.lint.dpo.label_source", "/metadata/rejected_label_source"},
        {"dpo-pair", [](Json& r) { r["metadata"]["recipe_id"] = "dpo_outcome"; r["metadata"]["chosen_label_source"] = "resolved_ci_pass";
                                   r["metadata"]["rejected_label_source"] = "resolved_ci_fail"; r["metadata"]["ci_reliability"] = nullptr; },
         "rows.lint.dpo.ci_reliability", "/metadata/ci_reliability"},
        {"dpo-pair", [](Json& r) { r["metadata"]["rejected_completion_id"] = r["metadata"]["chosen_completion_id"]; }, "rows.lint.dpo.self_pair", "/metadata/rejected_completion_id"},
        {"dpo-pair", [](Json& r) { r["metadata"]["confidence_margin"] = 0.31; }, "rows.lint.dpo.confidence_margin", "/metadata/confidence_margin"},
        {"dpo-pair", [](Json& r) { r["metadata"]["confidence_margin"] = -0.31; }, "rows.lint.dpo.confidence_margin", "/metadata/confidence_margin"},
        {"dpo-pair", [](Json& r) { r["rejected"] = r["chosen"]; }, "rows.lint.dpo.identical_responses", "/rejected"},
        {"diff-sft-sample", [](Json& r) { r["metadata"]["split"] = "eval"; }, "rows.lint.split", "/metadata/split"},
        {"recovery-row", [](Json& r) { r["fixed_commit_sha"] = r["failed_commit_sha"]; }, "rows.lint.recovery.commits", "/fixed_commit_sha"},
        {"sediment-rlvr-rollout", [](Json& r) { r["instance_id"] = "org-other-seg0"; }, "rows.lint.rlvr.instance_id", "/instance_id"},
        {"sediment-rlvr-rollout", [](Json& r) { r["split"] = "eval"; }, "rows.lint.split", "/split"},
    };
    for (const Fault& fault : faults) {
        for (const SchemaId schema : schemas_named(fault.family)) {
            INFO(schema_info(schema).name << ": " << fault.id << " at " << fault.pointer);
            Json row = faithful(schema, 1);
            fault.edit(row);
            const Validated v = lint(schema_info(schema).name, encode(row));
            REQUIRE(v.schema);
            REQUIRE(v.errors.size() == 1);
            CHECK(v.errors[0].id == fault.id);
            CHECK(v.errors[0].pointer == fault.pointer);
        }
    }
    // a confidence floor of the caller's; a margin that leaves both confidences in [0, 1] at the edge
    LintOptions strict;
    strict.min_confidence = 0.95;
    CHECK(lint("sft-sample", encode(faithful(SchemaId::sft_sample_v3, 1)), strict).errors.size() == 1);
    Json edge = faithful(SchemaId::dpo_pair_v4, 1);
    edge["metadata"]["label_confidence"] = 0.6, edge["metadata"]["confidence_margin"] = -0.4;
    CHECK(lint("dpo-pair", encode(edge)).errors.empty());
    // a response that differs only in a number's type (1 against 1.0) is not identical
    Json typed = faithful(SchemaId::dpo_pair_v4, 1);
    typed["chosen"] = Json::array({Json{{"role", "assistant"}, {"tool_calls", Json::array({Json{{"id", "t"}, {"type", "function"},
                                    {"function", Json{{"name", "f"}, {"arguments", Json{{"n", 1}}}}}}})}}});
    typed["rejected"] = typed["chosen"];
    typed["rejected"][0]["tool_calls"][0]["function"]["arguments"]["n"] = 1.0;
    CHECK(lint("dpo-pair.v4", encode(typed)).errors.empty());
}

TEST_CASE("lint families: a row twice, a prompt in train and eval, a split against its file, order and buckets") {
    const std::string a = encode(faithful(SchemaId::sft_sample_v3, 1)), b = encode(faithful(SchemaId::sft_sample_v3, 2));
    // the same completion in two files: at the later copy, naming the first
    auto found = lint_all("sft-sample", {a, b, a}, {"x/sft.train.jsonl", "x/sft.train.jsonl", "y/sft.train.jsonl"});
    CHECK(ids(found) == "2 rows.lint.duplicate /metadata/completion_id\n");
    CHECK(found[0].second.message == "expected one sft-sample row of \"call-01\", got a second copy of x/sft.train.jsonl:1");
    // an exact prompt in both splits: at the eval row, even when its file comes first
    Json eval = faithful(SchemaId::sft_sample_v3, 7, Split::eval);
    eval["prompt"] = faithful(SchemaId::sft_sample_v3, 2)["prompt"];
    found = lint_all("sft-sample", {encode(eval), a, b}, {"sft.eval.jsonl", "sft.train.jsonl", "sft.train.jsonl"});
    CHECK(ids(found) == "0 rows.lint.prompt.train_and_eval /prompt\n");
    CHECK(found[0].second.message.find("the prompt of sft.train.jsonl:3 (prompt_sha256 " + prompt_sha256(eval["prompt"]) + ")") != std::string::npos);
    // a split its file's name does not give; rows out of completion_id order
    found = lint_all("sft-sample", {b, a}, {"sft.eval.jsonl.gz", "sft.eval.jsonl.gz"});
    CHECK(ids(found) == "0 rows.lint.split.file /metadata/split\n1 rows.lint.split.file /metadata/split\n1 rows.lint.sft.order /metadata/completion_id\n");
    // DPO: at most three pairs per org, model and prompt (or the caller's number)
    std::vector<std::string> pairs;
    for (int k = 0; k < 5; ++k) {
        Json pair = faithful(SchemaId::dpo_pair_v4, k);
        pair["prompt"] = faithful(SchemaId::dpo_pair_v4, 0)["prompt"];
        pairs.push_back(encode(pair));
    }
    CHECK(ids(lint_all("dpo-pair", pairs)) == "3 rows.lint.dpo.bucket /prompt\n4 rows.lint.dpo.bucket /prompt\n");
    LintOptions five;
    five.max_pairs_per_bucket = 5;
    CHECK(lint_all("dpo-pair", pairs, {}, five).empty());
    // RLVR tasks and SWE-bench tasks: an instance id twice; SWE-bench's prompt is its problem statement
    const std::string task = encode(faithful(SchemaId::swe_bench_task_v3, 1));
    Json eval_task = faithful(SchemaId::swe_bench_task_v3, 2, Split::eval);
    eval_task["problem_statement"] = "Problem 01";
    CHECK(ids(lint_all("swe-bench-task", {task, task, encode(eval_task)})) ==
          "1 rows.lint.duplicate /instance_id\n2 rows.lint.prompt.train_and_eval /problem_statement\n");
}

TEST_CASE("lint families: prompt_sha256 is Sediment's digest form, as Python's json.dumps and hashlib give it") {
    // arguments whose numbers simdjson's DOM reads (lint's fast reading): integers beyond 64 bits too (the
    // fast path's markers), -0 alone (Python's integer 0) or -0 decimals alone (its float -0.0), beside
    // strings and exponents that spell the other kind; and both kinds of -0, which only the exact reader
    // tells apart
    for (const char* numbers : {R"({"z": 1.0, "a": [1e-07, 1.5e+300, 0.1, 100, 1E2, -7, 18446744073709551615], "b": {"y": true, "x": null}})",
                                R"({"a": [12345678901234567890123, -98765432109876543210, 1], "b": 1e-05})",
                                R"({"a": [-0, 3, 1e-0], "b": "-0.0"})", R"({"a": [-0.0, -0e3, 1E-0], "b": "-0"})",
                                R"({"z": 1.0, "a": [-0, -0.0, 12345678901234567890123, 3]})", R"({"a": [-0.0], "b": "x -0 y"})"}) {
        INFO(numbers);
        const std::string prompt_text = std::string(R"([{"role": "user", "content": "é \u0001 \"q\" \\ \n\t \u2028 😀 \u007f"},
            {"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": )") + numbers + R"(}, "type": "function", "id": "t"}]}])";
        test::TempDir dir;
        test::write_file(dir / "prompt.json", prompt_text);
        const auto python = test::run(test::kPython + " -c " + test::quote(
            "import hashlib, json, sys; p = json.load(open(sys.argv[1], encoding=\"utf-8\")); "
            "print(hashlib.sha256(json.dumps({\"prompt\": p}, ensure_ascii=False, allow_nan=False, sort_keys=True, "
            "separators=(\",\", \":\")).encode(\"utf-8\")).hexdigest())") + " " + test::quote((dir / "prompt.json").string()));
        REQUIRE(python.status == 0);
        CHECK(prompt_sha256(parse(prompt_text)) + "\n" == python.out);
        // lint's digest of an eval row with that prompt (the row a finding names it at), the prompt written
        // as Python's json writes it
        std::string row = encode(faithful(SchemaId::sft_sample_v3, 1, Split::eval));
        const std::string marker = encode(faithful(SchemaId::sft_sample_v3, 1, Split::eval)["prompt"]);
        row.replace(row.find(marker), marker.size(), prompt_text);
        std::vector<Error> findings;
        SessionFacts facts;
        REQUIRE(lint("sft-sample", row, findings, facts));
        CHECK(findings.empty());
        CHECK(facts.prompt_sha256 + "\n" == python.out);
    }
}

TEST_CASE("lint families: a prompt in train and eval is found where prompt_sha256 is the same, and only there") {
    // The rule keeps a key of each prompt (two digests of its JSON value), not its SHA-256: the same key
    // for every spelling of one prompt_sha256 (key order, spacing, escapes, 1E2 and 100.0), on the DOM
    // or, where a -0 is not told apart there, on the exact reader's value; another key for another one.
    const auto call = [](const std::string& arguments) {
        return R"({"role": "assistant", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": )" + arguments + "}}]}";
    };
    const auto tool = [&](const std::string& arguments) { return R"([{"role": "user", "content": "fix it"}, )" + call(arguments) + "]"; };
    struct Case {
        std::string train, eval;
        const char* completion;  // the eval row's completion arguments: "-0" here makes its -0.0 the exact reader's
        bool same;
    };
    const Case cases[] = {
        {tool(R"({"a": 1E2, "b": "é"})"), tool(R"({"b":"é","a":100.0})"), "1", true},
        {tool(R"({"a": 1})"), tool(R"({"a": 1.0})"), "1", false},
        {tool(R"({"a": [-0, 2]})"), tool(R"({"a": [0, 2]})"), "1", true},
        {tool(R"({"a": [-0.0, 2]})"), tool(R"({"a": [0.0, 2]})"), "1", false},
        {tool(R"({"a": [-0.0, 123456789012345678901234]})"), tool(R"({"a": [-0.0, 123456789012345678901234]})"), "-0", true},
        {tool(R"({"a": [-0.0, 123456789012345678901234]})"), tool(R"({"a": [-0.0, 123456789012345678901235]})"), "-0", false},
    };
    for (const Case& c : cases) {
        INFO(c.train << "\n" << c.eval);
        std::vector<std::string> rows;
        for (const auto& [prompt, split] : {std::pair{c.train, Split::train}, std::pair{c.eval, Split::eval}}) {
            Json row = faithful(SchemaId::sft_sample_v3, static_cast<int>(rows.size()), split);
            row["prompt"] = "PROMPT";
            if (split == Split::eval) row["completion"] = "COMPLETION";
            std::string text = encode(row);
            text.replace(text.find("\"PROMPT\""), 8, prompt);
            if (split == Split::eval) text.replace(text.find("\"COMPLETION\""), 12, "[" + call(std::string(R"({"n": )") + c.completion + "}") + "]");
            rows.push_back(text);
        }
        CHECK(ids(lint_all("sft-sample", rows)) == (c.same ? "1 rows.lint.prompt.train_and_eval /prompt\n" : ""));
    }
}

TEST_CASE("lint families: under any, a rollout row is linted as one, and a row that only names one as its family's") {
    const auto same = [](const std::vector<Error>& a, const std::vector<Error>& b) {
        std::string x, y;
        for (const Error& e : a) x += e.id + " " + e.pointer + "\n";
        for (const Error& e : b) y += e.id + " " + e.pointer + "\n";
        return x == y;
    };
    for (int version = 1; version <= 4; ++version) {
        INFO("version " << version);
        Json faulty = test::row_of_version(version);
        faulty["reward"] = 7;  // a finding of its own, besides whatever the row has
        for (const std::string& row : {encode(test::row_of_version(version)), encode(faulty)}) {
            std::vector<Error> under_any, under_rollouts;
            SessionFacts a, b;
            const auto read_any = lint("any", row, under_any, a), read_rollout = lint("nemo-gym-rollout", row, under_rollouts, b);
            REQUIRE(read_any);
            CHECK(read_any == read_rollout);
            CHECK(same(under_any, under_rollouts));
            CHECK((a.session_id == b.session_id && a.instance_id == b.instance_id && a.digests == b.digests && a.family.empty()));
        }
        // not valid: the errors validate() gives under any
        const std::string invalid = test::mutate(test::row_of_version(version), {"/metadata/session_id", "5"});
        std::vector<Error> errors;
        SessionFacts facts;
        CHECK_FALSE(lint("any", invalid, errors, facts));
        CHECK(same(errors, validate("any", invalid).errors));
    }
    // an SFT row whose prompt names a rollout schema: read as the SFT row it is
    Json sft = faithful(SchemaId::sft_sample_v3, 1);
    sft["prompt"][0]["content"] = "see https://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json";
    std::vector<Error> findings;
    SessionFacts facts;
    CHECK(lint("any", encode(sft), findings, facts) == SchemaId::sft_sample_v3);
    CHECK(findings.empty());
    CHECK(facts.family == "sft-sample");
}

TEST_CASE("lint families: a DPO pair's responses are the same when their digest forms are") {
    // project_dpo() compares json.dumps(sort_keys=True) of the two: members in any order, an integer and a
    // decimal apart, a -0 as Python reads it (an integer 0, or the float -0.0)
    struct Case {
        const char* chosen;
        const char* rejected;
        bool same;
    };
    const Case cases[] = {
        {R"({"role": "assistant", "content": "x"})", R"({"content": "x", "role": "assistant"})", true},
        {R"({"role": "assistant", "content": "x"})", R"({"role": "assistant", "content": "y"})", false},
        {R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 1}}}]})",
         R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 1.0}}}]})", false},
        {R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 123456789012345678901234}}}]})",
         R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 123456789012345678901234}}}]})", true},
        {R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 123456789012345678901234}}}]})",
         R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 123456789012345678901235}}}]})", false},
        {R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": -0}}}]})",
         R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 0}}}]})", true},
        {R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": -0.0}}}]})",
         R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": 0.0}}}]})", false},
        {R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"n": -0.0, "m": -0}}}]})",
         R"({"role": "assistant", "content": "x", "tool_calls": [{"id": "t", "type": "function", "function": {"name": "f", "arguments": {"m": 0, "n": -0.0}}}]})", true},
    };
    for (const Case& c : cases) {
        INFO(c.chosen << "\n" << c.rejected);
        Json pair = faithful(SchemaId::dpo_pair_v4, 1);
        pair["chosen"] = "CHOSEN", pair["rejected"] = "REJECTED";  // (placeholders for the texts, as written)
        std::string row = encode(pair);
        for (const auto& [placeholder, text] : {std::pair{"\"CHOSEN\"", c.chosen}, std::pair{"\"REJECTED\"", c.rejected}})
            row.replace(row.find(placeholder), std::string_view(placeholder).size(), "[" + std::string(text) + "]");
        std::vector<Error> findings;
        SessionFacts facts;
        REQUIRE(lint("dpo-pair", row, findings, facts));
        CHECK(findings.size() == (c.same ? 1u : 0u));
        if (c.same && !findings.empty()) {
            CHECK(findings[0].id == "rows.lint.dpo.identical_responses");
            CHECK(findings[0].pointer == "/rejected");
        }
    }
}

TEST_CASE("lint CLI: an export folder of every family, and names lint does not read") {
    test::TempDir dir;
    const auto root = dir / "export";
    std::filesystem::create_directories(root);
    std::string all;
    for (const char* family : kFamilies) {
        const SchemaId newest = schemas_named(family).back();
        std::string train, eval;
        for (int k = 0; k < 3; ++k) train += encode(faithful(newest, k)) + "\n";
        eval += encode(faithful(newest, 3, Split::eval)) + "\n";
        test::write_file(root / (std::string(family) + ".train.jsonl"), train);
        test::write_file(root / (std::string(family) + ".eval.jsonl"), eval);
    }
    auto r = test::cli("lint --schema any " + test::quote(root.string()));
    CHECK(r.status == 0);
    CHECK(r.out == "");
    CHECK(r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1).rfind("28 rows: 0 findings, 0 not schema-valid", 0) == 0);
    // one fault in each of two files: only they are reported, each at its file, line and pointer
    Json bad_sft = faithful(SchemaId::sft_sample_v3, 1);
    bad_sft["metadata"]["label_confidence"] = 0.5;
    Json bad_task = faithful(SchemaId::sediment_rlvr_task_v3, 3, Split::eval);
    bad_task["split"] = "train";
    test::write_file(root / "sft-sample.train.jsonl", encode(faithful(SchemaId::sft_sample_v3, 0)) + "\n" + encode(bad_sft) + "\n");
    test::write_file(root / "sediment-rlvr-task.eval.jsonl", encode(bad_task) + "\n");
    r = test::cli("lint --schema any -q " + test::quote(root.string()));
    CHECK(r.status == 1);
    CHECK(r.out == root.string() + "/sediment-rlvr-task.eval.jsonl:1: /split: expected \"eval\", the split the file's name gives (" + root.string() +
                       "/sediment-rlvr-task.eval.jsonl), got \"train\" [rows.lint.split.file]\n" + root.string() +
                       "/sft-sample.train.jsonl:2: /metadata/label_confidence: expected at least the SFT policy's minimum confidence 0.6 "
                       "(--min-confidence), got 0.5 [rows.lint.sft.min_confidence]\n");
    CHECK(test::cli("lint --schema any -q --min-confidence 0.5 " + test::quote((root / "sft-sample.train.jsonl").string())).status == 0);
    // a name lint does not read, and bad policy values, are usage errors
    r = test::cli("lint --schema ci-outcome.v3 " + test::quote(root.string()));
    CHECK(r.status == 2);
    CHECK(r.err.rfind("sediment-rows: lint reads Sediment's rows: --schema nemo-gym-rollout, sft-sample,", 0) == 0);
    CHECK(test::cli("lint --schema any --min-confidence 1.5 " + test::quote(root.string())).status == 2);
    CHECK(test::cli("lint --schema any --max-pairs-per-bucket 0 " + test::quote(root.string())).status == 2);
    // five pairs of one org, model and prompt: the 4th and 5th past the default 3, the 5th past 4
    std::string pairs;
    for (int k = 0; k < 5; ++k) {
        Json pair = faithful(SchemaId::dpo_pair_v4, k);
        pair["prompt"] = faithful(SchemaId::dpo_pair_v4, 0)["prompt"];
        pairs += encode(pair) + "\n";
    }
    test::write_file(dir / "pairs.jsonl", pairs);
    const auto lines_of = [](const std::string& out) {
        std::string lines;
        for (std::size_t at = out.find(".jsonl:"); at != std::string::npos; at = out.find(".jsonl:", at + 1))
            lines += out.substr(at + 7, out.find(':', at + 7) - at - 7) + " ";
        return lines;
    };
    r = test::cli("lint --schema dpo-pair -q " + test::quote((dir / "pairs.jsonl").string()));
    CHECK(r.status == 1);
    CHECK(lines_of(r.out) == "4 5 ");
    CHECK(r.out.find("[rows.lint.dpo.bucket]") != std::string::npos);
    CHECK(lines_of(test::cli("lint --schema dpo-pair -q --max-pairs-per-bucket 4 " + test::quote((dir / "pairs.jsonl").string())).out) == "5 ");
}
