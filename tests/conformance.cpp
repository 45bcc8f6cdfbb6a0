// Conformance suite over ../shared (public fixtures and the reference row generator, rowgen.py).
// It runs whenever that folder exists and says plainly when it is skipped (exit 77, shown by ctest).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "conformance.hpp"

using namespace sediment::rows;

using namespace conformance;

TEST_CASE("conformance: 1,000 generated rollout rows of every version decode, validate and re-encode byte for byte") {
    for (const SchemaId schema : versions_of("nemo-gym-rollout")) {
        const std::string version = std::to_string(schema_info(schema).version);
        INFO(schema_info(schema).name);
        const std::string rows = "rows " + std::to_string(sample(1000)) + " --seed 1 --version " + version;
        conforms(schema, rowgen(rows + " --sediment"), rowgen(rows));
    }
}

TEST_CASE("conformance: generated parts of every version decode, validate and re-encode byte for byte") {
    const std::pair<const char*, const char*> kinds[] = {
        {"response", "nemo-gym-response"},
        {"create-params", "nemo-gym-responses-create-params"},
        {"ci-outcome", "ci-outcome"},
    };
    for (const auto& [kind, base] : kinds) {
        for (const SchemaId schema : versions_of(base)) {
            INFO(schema_info(schema).name);
            const std::string args = std::string("part ") + kind + " " + std::to_string(sample(1000)) + " --seed 2 --version " + std::to_string(schema_info(schema).version);
            conforms(schema, rowgen(args + " --sediment"), rowgen(args));
        }
    }
}

namespace {

// Where a row of rollout version `from` first stops being one of version `to`, in document order
// (spec/family/README.md): a `cursor` harness (not in v1), a CI outcome of the other shape (v4's
// schema_version 2 or identity fields), a CI resolution with or without an identity, the metadata
// members a version adds, and else the schema_id.
std::string first_difference(const Json& row, int from, int to) {
    if (to == 1) {
        const Json& turns = row["response"]["turns"];
        for (std::size_t t = 0; t < turns.size(); ++t)
            for (std::size_t k = 0; k < turns[t]["decisions"].size(); ++k)
                if (turns[t]["decisions"][k]["agent_harness"] == "cursor")
                    return "/response/turns/" + std::to_string(t) + "/decisions/" + std::to_string(k) + "/agent_harness";
    }
    const Json& m = row["metadata"];
    if ((from == 4) != (to == 4)) {
        if (!m["verifier_results"].empty()) {
            const Json& outcome = m["verifier_results"][0];
            return outcome["schema_version"] == 2 ? "/metadata/verifier_results/0/schema_version" : "/metadata/verifier_results/0";
        }
        if (m.contains("ci_resolution")) return "/metadata/ci_resolution";
    }
    if ((from >= 3 && to < 3) || (from == 4 && to == 3)) return "/metadata";  // an unknown member before schema_id
    return "/metadata/schema_id";
}

}  // namespace

TEST_CASE("conformance: rows of each version are invalid under every other, at the first difference") {
    std::size_t compared = 0;
    std::set<std::string> pointers;
    for (const SchemaId from : versions_of("nemo-gym-rollout")) {
        const int a = schema_info(from).version;
        for (const std::string& line : rowgen("rows 60 --seed 12 --scale 0.2 --version " + std::to_string(a))) {
            const Json row = parse(line);
            for (const SchemaId to : versions_of("nemo-gym-rollout")) {
                const int b = schema_info(to).version;
                if (a == b) continue;
                INFO("v" << a << " row under v" << b << ": " << line.substr(0, 200));
                const std::string expected = first_difference(row, a, b);
                // first, that the row is of another version and how to read it; then, in document
                // order, the first place it differs
                const auto typed = validate(to, line).errors;
                REQUIRE(typed.size() >= 2);
                CHECK(typed.front().id == "rows.decode.other_version");
                CHECK(typed.front().pointer == "/metadata/schema_id");
                CHECK(typed[expected == "/metadata/schema_id" ? 0 : 1].pointer == expected);
                const auto schema = validate(to, line, Engine::schema).errors;
                REQUIRE_FALSE(schema.empty());
                CHECK(schema.front() == typed.front());
                CHECK(test::same_place(expected, schema));
                pointers.insert(expected);
                ++compared;
            }
            // and the row's own version, found from its schema_id, reads it
            const Validated any = validate("nemo-gym-rollout", line);
            CHECK(any.errors.empty());
            CHECK(any.schema == from);
        }
    }
    CHECK(compared == 60 * 4 * 3);
    CHECK(pointers.size() >= 5);  // the differences above all occur
}

TEST_CASE("conformance: a file mixing every version validates with --schema nemo-gym-rollout") {
    test::TempDir dir;
    std::string mixed;
    std::map<std::string, std::size_t> expected;
    for (const SchemaId schema : versions_of("nemo-gym-rollout")) {
        const auto lines = rowgen("rows 25 --seed 13 --sediment --version " + std::to_string(schema_info(schema).version));
        for (const std::string& line : lines) mixed += line + "\n";
        expected[std::string(schema_info(schema).name)] = lines.size();
    }
    test::write_file(dir / "mixed.jsonl", mixed);
    const std::string file = test::quote((dir / "mixed.jsonl").string());
    for (const char* engine : {"typed", "schema"}) {
        INFO(engine);
        const auto r = test::run(std::string(SEDIMENT_ROWS_CLI) + " validate --schema nemo-gym-rollout --format jsonl --engine " + engine + " " + file);
        CHECK(r.status == 0);
        CHECK(r.err == "100 valid, 0 invalid (read as nemo-gym-rollout.v1: 25, nemo-gym-rollout.v2: 25, nemo-gym-rollout.v3: 25, nemo-gym-rollout.v4: 25)\n");
        std::map<std::string, std::size_t> read_as, summed_up;  // by each document's record, and by the file's summary record
        for (const std::string& report : lines_of(r.out)) {
            const Json record = parse(report);
            if (!record.contains("summary")) {
                ++read_as[record["schema"].get<std::string>()];
                continue;
            }
            CHECK(record["summary"]["documents"] == Json(100));
            for (const auto& [name, n] : record["summary"]["read_as"].items()) summed_up[name] = n.get<std::size_t>();
        }
        CHECK(read_as == expected);
        CHECK(summed_up == expected);
    }
    // Sediment's bytes of every version, each as its own version
    const auto format = test::run(std::string(SEDIMENT_ROWS_CLI) + " format --check --style sediment --schema nemo-gym-rollout " + file);
    CHECK(format.status == 0);
    // and under one version, the others fail
    const auto one = test::run(std::string(SEDIMENT_ROWS_CLI) + " validate -q --schema nemo-gym-rollout.v4 " + file);
    CHECK(one.status == 1);
}


TEST_CASE("conformance: upgraded rows are rowgen's rows of the next version, where the next version adds nothing new") {
    // rowgen gives one seed the same rows in every version, apart from what each version adds; where
    // the next version's row holds only what the upgrade derives, the two are the same bytes.
    std::size_t compared[4] = {}, underivable = 0;
    for (int version = 1; version < 4; ++version) {
        const auto older = rowgen("rows 200 --seed 14 --scale 0.2 --sediment --version " + std::to_string(version));
        const auto newer = rowgen("rows 200 --seed 14 --scale 0.2 --sediment --version " + std::to_string(version + 1));
        const SchemaId to = versions_of("nemo-gym-rollout").at(static_cast<std::size_t>(version));
        for (std::size_t i = 0; i < older.size(); ++i) {
            Json next = parse(newer[i]);
            Json& m = next["metadata"];
            bool comparable = true;
            if (version == 1) comparable = newer[i].find("\"agent_harness\": \"cursor\"") == std::string::npos;  // v1 has no cursor
            if (version == 2) comparable = !m.contains("ci_resolution");
            if (version == 3) {
                // identities rowgen drew are not in a v3 row; it draws observation ids anew for each version
                comparable = m["repository_identity"].is_null();
                for (const Json& o : m["verifier_results"]) comparable = comparable && o["schema_version"] == 1;
                m["session_commit_observation_ids"] = parse(older[i])["metadata"]["session_commit_observation_ids"];
            }
            Upgraded up;
            std::vector<Error> errors;
            const bool ok = upgrade(older[i], "nemo-gym-rollout", to, up, errors, Style::sediment);
            INFO("v" << version << " row " << i + 1 << ": " << (errors.empty() ? "" : to_string(errors[0])));
            if (version == 2 && parse(older[i])["metadata"].contains("ci_resolution")) {
                CHECK_FALSE(ok);
                CHECK(errors.at(0).pointer == "/metadata/session_commit_observation_ids");
                ++underivable;
                continue;
            }
            if (!comparable) continue;
            CHECK(ok);
            CHECK(up.text == encode(next, Style::sediment));
            ++compared[version];
        }
    }
    CHECK(compared[1] > 10);  // each step, on rows of every kind
    CHECK(compared[2] > 10);
    CHECK(compared[3] > 10);
    CHECK(underivable > 50);
}

TEST_CASE("conformance: faithful rows of every version upgrade to v4 wherever the fields can be derived") {
    for (const SchemaId from : versions_of("nemo-gym-rollout")) {
        const int version = schema_info(from).version;
        std::size_t upgraded = 0;
        for (const std::string& line : rowgen("rows 150 --seed 15 --scale 0.2 --faithful --sediment --version " + std::to_string(version))) {
            const bool resolved = parse(line)["metadata"].contains("ci_resolution");
            Upgraded up;
            std::vector<Error> errors;
            const bool ok = upgrade(line, "nemo-gym-rollout", SchemaId::nemo_gym_rollout_v4, up, errors, Style::sediment);
            INFO("v" << version << ": " << (errors.empty() ? "" : to_string(errors[0])));
            // v3 rows, and rows without a resolution, derive everything: a faithful row's resolution
            // draws on outcomes it holds
            CHECK(ok == (version >= 3 || !resolved));
            if (!ok) {
                CHECK(errors.size() == 1);
                CHECK(errors.at(0).id == "rows.upgrade.underivable");
                // lossy: the resolution and its reward go, and nothing else
                const Upgraded lossy = upgrade(line, "nemo-gym-rollout", SchemaId::nemo_gym_rollout_v4, Style::sediment, ConvertOptions{true});
                CHECK(lossy.losses.size() == 3);
                CHECK(validate(SchemaId::nemo_gym_rollout_v4, lossy.text).errors.empty());
                continue;
            }
            ++upgraded;
            CHECK(validate(SchemaId::nemo_gym_rollout_v4, up.text).errors.empty());
            CHECK(validate(SchemaId::nemo_gym_rollout_v4, up.text, Engine::schema).errors.empty());
            if (version == 4) CHECK(up.text == line);
        }
        CHECK(upgraded > 20);
    }
}

TEST_CASE("conformance: typed decoder and valijson agree on 2,000 mutated rows") {
    const std::size_t n = sample(200);
    const auto rows = rowgen("rows " + std::to_string(n) + " --seed 3 --scale 0.3");
    const std::vector<std::string> replacements = {"null", "1", "-1", "0", "3.5", "3.0", "\"x\"", "\"\"", "true", "[]", "{}",
                                                   "9223372036854775808", "\"2026-02-30T00:00:00Z\"", "\"2026-03-01T00:00:00Z\"",
                                                   "\"passed\"", "\"tool_call\"", "1e300"};
    std::mt19937 random(11);
    std::size_t invalid = 0, total = 0;
    for (const std::string& line : rows) {
        const Json doc = parse(line);
        for (int k = 0; k < 10; ++k) {
            const std::string text = mutated(doc, random, replacements).dump();
            const auto typed = validate(SchemaId::nemo_gym_rollout_v2, text).errors;
            const auto schema = validate(SchemaId::nemo_gym_rollout_v2, text, Engine::schema).errors;
            INFO(text.substr(0, 400));
            INFO("typed: " << (typed.empty() ? "valid" : to_string(typed[0])));
            INFO("valijson: " << (schema.empty() ? "valid" : to_string(schema[0])));
            CHECK(typed.empty() == schema.empty());
            invalid += !typed.empty();
            ++total;
        }
    }
    CHECK(total == 10 * n);
    CHECK(invalid * 2 > total);  // the mutations mostly break rows, so the agreement is not on valid rows alone
}

TEST_CASE("conformance: the fast path reads generated and mutated rows as the exact reader does") {
    // Also decode() into one model reused from row to row (a trainer's loop): each row must come out
    // as a fresh model gets it, whatever the rows before it held.
    const std::size_t v2 = sample(700);
    std::vector<std::string> lines = rowgen("rows " + std::to_string(v2) + " --seed 8");
    for (const std::string& line : rowgen("rows " + std::to_string(sample(300)) + " --seed 8 --version 4")) lines.push_back(line);  // the same in v4
    NemoGymRolloutRowV2 reused;
    NemoGymRolloutRowV4 reused_v4;
    AnyRolloutRow reused_any;  // and rows of any version into one AnyRolloutRow
    const std::vector<std::string> replacements = {"null", "1", "-1", "3.0", "\"x\"", "\"\"", "true", "[]", "{}",
                                                   "18446744073709551616", "\"2026-02-30T00:00:00Z\"", "1e300"};
    std::mt19937 random(23);
    std::size_t fast = 0, accepted = 0, total = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string text = i % 2 ? lines[i] : encode(mutated(parse(lines[i]), random, replacements));
        INFO(text.substr(0, 300));
        const auto compare = [&](auto& row) {
            using Row = std::decay_t<decltype(row)>;
            const auto both = test::read_both<Row>(text);
            std::vector<Error> errors;
            CHECK(decode(text, row, errors) == both.exact);
            if (both.exact) CHECK(row == both.value);
            // any version: the same verdict, the same value in the version's alternative
            errors.clear();
            CHECK(decode(text, reused_any, errors) == both.exact);
            if (both.exact) CHECK(std::get<Row>(reused_any) == both.value);
            fast += both.fast;
            accepted += both.exact;
            ++total;
        };
        if (i < v2) compare(reused);
        else compare(reused_v4);
    }
    CHECK(fast * 100 >= accepted * 99);  // big integers and 3.0-style integers aside, valid rows go fast
    CHECK(accepted < total);
}

TEST_CASE("conformance: mutated rows that stay valid still come back from ATIF exactly") {
    // Mutations break the segment shape Sediment writes (roles, part order, echoes, completions), so
    // these rows exercise every override of the extension.
    const std::size_t n = sample(100);
    const auto rows = rowgen("rows " + std::to_string(n) + " --seed 6 --scale 0.2");
    const std::vector<std::string> replacements = {"\"\"", "\"x\"", "\"assistant\"", "\"tool\"", "\"user\"", "\"system\"",
                                                   "\"text\"", "[]", "{}", "null", "0", "\"stop\""};
    std::mt19937 random(5);
    std::size_t valid = 0;
    for (const std::string& line : rows) {
        Json doc = parse(line);
        for (int k = 0; k < 30; ++k) {
            doc = mutated(doc, random, replacements);
            const std::string text = encode(doc);
            NemoGymRolloutRowV2 row;
            std::vector<Error> errors;
            if (!decode(text, row, errors)) {
                doc = parse(line);
                continue;
            }
            INFO(text.substr(0, 600));
            ++valid;
            NemoGymAtifTrajectory t;
            try {
                t = to_atif(row);
            } catch (const ConvertError& e) {
                CHECK(e.errors().at(0).id == "rows.convert.empty");
                continue;
            }
            const std::string atif = encode(t);
            CHECK(validate(SchemaId::atif_v1_7, atif).errors.empty());
            CHECK(encode(to_rollout_row<NemoGymRolloutRowV2>(decode<NemoGymAtifTrajectory>(atif)).value, Style::sediment) == encode(row, Style::sediment));
        }
    }
    CHECK(valid > 5 * n);
}

TEST_CASE("conformance: lint finds nothing in rowgen's faithful rows of every version, and finds what its other rows break") {
    for (const SchemaId schema : versions_of("nemo-gym-rollout")) {
        const int version = schema_info(schema).version;
        INFO("v" << version);
        const std::size_t n = sample(1000);
        const auto lines = rowgen("rows " + std::to_string(n) + " --seed 21 --faithful --sediment --version " + std::to_string(version));
        REQUIRE(lines.size() == n);
        Linter linter(LintOptions{0.1, true});
        AnyRolloutRow row;
        std::size_t findings = 0, flakes = 0, several_workflows = 0, later_segments = 0, resolved = 0;
        for (const std::string& line : lines) {
            std::vector<Error> f;
            REQUIRE(lint("nemo-gym-rollout", line, row, f));
            linter.add(session_facts(row), f);
            INFO(line.substr(0, 200));
            for (const Error& e : f) FAIL_CHECK(to_string(e));
            findings += f.size();
            // what the rows exercise: flakes, lineages that disagree, several workflows, several segments
            const Json md = parse(line)["metadata"];
            later_segments += md["segment_index"] != 0;
            if (!md.contains("ci_resolution")) continue;
            ++resolved;
            flakes += md["ci_resolution"]["suspected_flake"] == true;
            several_workflows += md["ci_resolution"]["workflow_resolutions"].size() > 1;
        }
        CHECK(findings == 0);
        CHECK(linter.finish().empty());
        CHECK(resolved > n * 3 / 10);  // (of 1,000: 300, 10, 50 and 500)
        CHECK(flakes > n / 100);
        CHECK(several_workflows > n / 20);
        CHECK(later_segments > n / 2);
        // the CLI agrees, on every core
        test::TempDir dir;
        std::string text;
        for (const std::string& line : lines) text += line + '\n';
        test::write_file(dir / "rows.jsonl", text);
        const auto r = test::run(test::quote(SEDIMENT_ROWS_CLI) + " lint --sessions-complete --schema " +
                                 std::string(schema_info(schema).name) + " " + test::quote((dir / "rows.jsonl").string()));
        CHECK(r.status == 0);
        CHECK(r.out == "");
        CHECK(r.err == std::to_string(n) + " rows: 0 findings, 0 not schema-valid\n");
    }
    // rowgen's other rows draw reward, split, instance id and resolution at random: lint finds them
    std::map<std::string, std::size_t> ids;
    for (const std::string& line : rowgen("rows 300 --seed 22 --version 4")) {
        std::vector<Error> f;
        AnyRolloutRow row;
        REQUIRE(lint("nemo-gym-rollout", line, row, f));
        for (const Error& e : f) ++ids[e.id];
    }
    CHECK(ids["rows.lint.instance_id"] == 300);
    CHECK(ids["rows.lint.split"] > 10);
    CHECK(ids["rows.lint.ci_resolution"] > 100);
    CHECK(ids["rows.lint.reward"] > 10);
    CHECK(ids.count("rows.lint.turns.completion") == 0);  // its segments are built as Sediment builds them
}

int main(int argc, char** argv) {
    // ctest runs each test case on its own (catch_discover_tests lists them first, with or without ../shared)
    const bool listing = argc > 1 && std::string(argv[1]).rfind("--list", 0) == 0;
    if (!listing && !std::filesystem::exists(kShared + "/tools/rowgen.py")) {
        std::cout << "conformance suite skipped: " << kShared << " (../shared) not found\n";
        return 77;
    }
    return Catch::Session().run(argc, argv);
}
