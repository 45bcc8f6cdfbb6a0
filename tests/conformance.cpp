// Conformance suite over ../shared (public fixtures and the reference row generator, rowgen.py).
// It runs whenever that folder exists and says plainly when it is skipped (exit 77, shown by ctest).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <random>
#include <sstream>

#include "process.hpp"
#include "sediment/rows.hpp"
#include "differential.hpp"
#include "support.hpp"

using namespace sediment::rows;

namespace {

const std::string kShared = SEDIMENT_ROWS_SHARED_DIR;
const std::string kSource = SEDIMENT_ROWS_SOURCE_DIR;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

/// rowgen.py's output, generated now (never committed).
std::vector<std::string> rowgen(const std::string& args) {
    const auto r = test::run("python3 " + test::quote(kShared + "/tools/rowgen.py") + " " + args);
    REQUIRE(r.status == 0);
    return lines_of(r.out);
}

/// Decodes every line strictly, checks it with valijson, and re-encodes it in the sediment style.
void conforms(SchemaId schema, const std::vector<std::string>& sediment_lines, const std::vector<std::string>& utf8_lines) {
    REQUIRE(sediment_lines.size() == utf8_lines.size());
    std::size_t identical = 0;
    for (std::size_t i = 0; i < sediment_lines.size(); ++i) {
        std::string out;
        INFO("line " << i + 1);
        REQUIRE(format(schema, sediment_lines[i], Style::sediment, out).valid());
        CHECK(validate(schema, sediment_lines[i], Engine::schema).errors.empty());
        identical += out == sediment_lines[i];
        // the same documents written as UTF-8 encode to the same sediment bytes
        out.clear();
        REQUIRE(format(schema, utf8_lines[i], Style::sediment, out).valid());
        CHECK(out == sediment_lines[i]);
        // and the compact style holds the same document: it comes back to the same sediment bytes
        std::string compact, again;
        REQUIRE(format(schema, sediment_lines[i], Style::compact, compact).valid());
        CHECK(compact.size() < sediment_lines[i].size());
        REQUIRE(format(schema, compact, Style::sediment, again).valid());
        CHECK(again == sediment_lines[i]);
    }
    CHECK(identical == sediment_lines.size());
}

// Every place in a document, as JSON Pointers to values and to objects.
void places(const Json& j, const std::string& at, std::vector<std::string>& values, std::vector<std::string>& objects) {
    if (j.is_object()) {
        objects.push_back(at);
        for (const auto& [k, v] : j.get_ref<const Json::object_t&>()) {
            std::string p = at;
            detail::append_pointer_token(p, k);
            values.push_back(p);
            places(v, p, values, objects);
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) {
            values.push_back(at + "/" + std::to_string(i));
            places(j[i], at + "/" + std::to_string(i), values, objects);
        }
    }
}

}  // namespace

TEST_CASE("conformance: 1,000 generated rollout rows of every version decode, validate and re-encode byte for byte") {
    for (const SchemaId schema : versions_of("nemo-gym-rollout")) {
        const std::string version = std::to_string(schema_info(schema).version);
        INFO(schema_info(schema).name);
        conforms(schema, rowgen("rows 1000 --seed 1 --sediment --version " + version), rowgen("rows 1000 --seed 1 --version " + version));
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
            const std::string args = std::string("part ") + kind + " 1000 --seed 2 --version " + std::to_string(schema_info(schema).version);
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
        std::map<std::string, std::size_t> read_as;
        for (const std::string& report : lines_of(r.out)) ++read_as[parse(report)["schema"].get<std::string>()];
        CHECK(read_as == expected);
    }
    // Sediment's bytes of every version, each as its own version
    const auto format = test::run(std::string(SEDIMENT_ROWS_CLI) + " format --check --style sediment --schema nemo-gym-rollout " + file);
    CHECK(format.status == 0);
    // and under one version, the others fail
    const auto one = test::run(std::string(SEDIMENT_ROWS_CLI) + " validate -q --schema nemo-gym-rollout.v4 " + file);
    CHECK(one.status == 1);
}

/// One random change to `doc`: a value replaced by one of `replacements`, a member or element removed,
/// or an unknown key added to an object.
Json mutated(const Json& doc, std::mt19937& random, const std::vector<std::string>& replacements) {
    std::vector<std::string> values, objects;
    places(doc, "", values, objects);
    Json changed = doc;
    const int kind = static_cast<int>(random() % 3);
    if (kind == 0) {
        const std::string& p = values[random() % values.size()];
        changed[Json::json_pointer(p)] = parse(replacements[random() % replacements.size()]);
    } else if (kind == 1) {
        const Json::json_pointer p(values[random() % values.size()]);
        Json& parent = changed[p.parent_pointer()];
        if (parent.is_object()) parent.erase(p.back());
        else parent.erase(static_cast<std::size_t>(std::stoul(p.back())));
    } else {
        changed[Json::json_pointer(objects[random() % objects.size()])]["zz_unknown"] = 1;
    }
    return changed;
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
    const auto rows = rowgen("rows 200 --seed 3 --scale 0.3");
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
    CHECK(total == 2000);
    CHECK(invalid > 1000);  // the mutations mostly break rows, so the agreement is not on valid rows alone
}

TEST_CASE("conformance: the fast path reads generated and mutated rows as the exact reader does") {
    // Also decode() into one model reused from row to row (a trainer's loop): each row must come out
    // as a fresh model gets it, whatever the rows before it held.
    std::vector<std::string> lines = rowgen("rows 700 --seed 8");
    for (const std::string& line : rowgen("rows 300 --seed 8 --version 4")) lines.push_back(line);  // the same in v4
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
        if (i < 700) compare(reused);
        else compare(reused_v4);
    }
    CHECK(fast * 100 >= accepted * 99);  // big integers and 3.0-style integers aside, valid rows go fast
    CHECK(accepted < total);
}

TEST_CASE("conformance: mutated rows that stay valid still come back from ATIF exactly") {
    // Mutations break the segment shape Sediment writes (roles, part order, echoes, completions), so
    // these rows exercise every override of the extension.
    const auto rows = rowgen("rows 100 --seed 6 --scale 0.2");
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
    CHECK(valid > 500);
}

TEST_CASE("conformance: every ATIF fixture gets NeMo Gym's verdict, and valid ones round-trip") {
    const std::string dir = kShared + "/fixtures/atif/";
    std::istringstream expected(test::read_file(dir + "EXPECTED.tsv"));
    std::size_t valid = 0, invalid = 0;
    for (std::string line; std::getline(expected, line);) {
        if (line.empty() || line[0] == '#') continue;
        const std::size_t tab = line.find('\t');
        const std::string file = line.substr(0, tab);
        const std::string rest = line.substr(tab + 1);
        const std::string verdict = rest.substr(0, rest.find('\t'));
        const std::string reason = rest.find('\t') == std::string::npos ? "" : rest.substr(rest.find('\t') + 1);
        const std::string text = test::read_file(dir + file);
        INFO(file);
        const auto typed = validate(SchemaId::atif_v1_7, text).errors;
        const auto schema = validate(SchemaId::atif_v1_7, text, Engine::schema).errors;
        INFO("typed: " << (typed.empty() ? "valid" : to_string(typed[0])));
        CHECK(typed.empty() == (verdict == "valid"));
        CHECK(schema.empty() == typed.empty());
        if (verdict == "valid") {
            ++valid;
            const auto trajectory = decode<NemoGymAtifTrajectory>(text);
            const std::string encoded = encode(trajectory);
            CHECK(decode<NemoGymAtifTrajectory>(encoded) == trajectory);
            // nothing lost or added: the same JSON document, key order aside
            CHECK(nlohmann::json(parse(encoded)) == nlohmann::json(parse(text)));
        } else {
            ++invalid;
            // the reference's first reason ("schema_version Input should be 'ATIF-v1.7'") is among ours
            // (pydantic orders errors by field, the typed decoder by the document's key order)
            const std::string field = reason.substr(0, reason.find(' '));
            const bool missing = reason.find("Field required") != std::string::npos;
            bool found = false;
            for (const Error& e : typed)
                found = found || (missing ? e.pointer.empty() && e.message == "missing key '" + field + "'" : e.pointer == "/" + field);
            CHECK(found);
        }
    }
    CHECK(valid + invalid == 53);
    CHECK(valid > 10);
}

TEST_CASE("conformance: 1,000 generated rows become valid trajectories and come back byte for byte") {
    const auto lines = rowgen("rows 1000 --seed 4 --sediment");
    test::TempDir dir;
    std::string atif_lines, metadata_lines;
    std::size_t steps = 0, extensions = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        INFO("row " << i + 1);
        const auto row = decode<NemoGymRolloutRowV2>(lines[i]);
        const NemoGymAtifTrajectory t = to_atif(row);
        const std::string text = encode(t);
        REQUIRE(validate(SchemaId::atif_v1_7, text).errors.empty());
        // Sediment's rows are what the mapping describes: the steps alone give every turn back, and
        // the extension holds only what ATIF has no field for.
        for (const NemoGymAtifStep& step : t.steps) {
            ++steps;
            if (!step.extra || step.extra->is_null()) continue;
            const Json& e = (**step.extra).at("sediment_rows");
            for (const auto& [key, value] : e.get_ref<const Json::object_t&>()) {
                INFO(key);
                CHECK((key == "inference_call_id" || key == "decisions" || key == "finish_reason"));
                ++extensions;
            }
        }
        CHECK(!(**t.extra).at("sediment_rows").contains("input"));
        CHECK(encode(to_rollout_row<NemoGymRolloutRowV2>(decode<NemoGymAtifTrajectory>(text)).value, Style::sediment) == lines[i]);
        CHECK(encode(to_rollout_row<NemoGymRolloutRowV2>(t, RowMetadataOf<NemoGymRolloutRowV2>{row.metadata, row.reward}).value, Style::sediment) == lines[i]);
        atif_lines += text + "\n";
        const Json j = parse(lines[i]);
        Json m = Json::object();
        if (j.contains("reward")) m["reward"] = j["reward"];
        m["metadata"] = j["metadata"];
        metadata_lines += encode(m) + "\n";
    }
    CHECK(steps > 5000);
    CHECK(extensions > 5000);

    SECTION("through the command line, with the metadata given as a file") {
        test::write_file(dir / "rows.jsonl", [&] {
            std::string all;
            for (const auto& l : lines) all += l + "\n";
            return all;
        }());
        test::write_file(dir / "metadata.jsonl", metadata_lines);
        const std::string cli = test::quote(SEDIMENT_ROWS_CLI);
        const auto to_atif_run = test::run(cli + " convert --from nemo-gym-rollout.v2 --to atif-v1.7 " + test::quote((dir / "rows.jsonl").string()));
        REQUIRE(to_atif_run.status == 0);
        CHECK(to_atif_run.out == atif_lines);
        test::write_file(dir / "atif.jsonl", to_atif_run.out);
        const auto back = test::run(cli + " convert --from atif-v1.7 --to nemo-gym-rollout.v2 --style sediment --metadata " +
                                    test::quote((dir / "metadata.jsonl").string()) + " " + test::quote((dir / "atif.jsonl").string()));
        CHECK(back.status == 0);
        CHECK(back.err == "1000 converted, 0 failed\n");
        CHECK(back.out == test::read_file(dir / "rows.jsonl"));
    }
    SECTION("format --check --style sediment passes Sediment's bytes as they are, plain and gzip-compressed") {
        std::string all;
        for (const auto& l : lines) all += l + "\n";
        test::write_file(dir / "rows.jsonl", all);
        const std::string cli = test::quote(SEDIMENT_ROWS_CLI) + " format --check --style sediment --schema nemo-gym-rollout.v2 ";
        const auto plain = test::run(cli + test::quote((dir / "rows.jsonl").string()));
        CHECK(plain.status == 0);
        CHECK(plain.err == "1000 formatted, 0 invalid; 0 of 1 files would be reformatted\n");
        const auto gz = test::run("gzip -c " + test::quote((dir / "rows.jsonl").string()) + " | " + cli + "-");
        CHECK(gz.status == 0);
        CHECK(gz.err == plain.err);
        const auto compact = test::run(test::quote(SEDIMENT_ROWS_CLI) + " format --check --schema nemo-gym-rollout.v2 " +
                                       test::quote((dir / "rows.jsonl").string()));
        CHECK(compact.status == 1);  // the same rows in the other style would change
    }
}

TEST_CASE("conformance: rows of every version become valid trajectories and come back byte for byte") {
    for (const SchemaId schema : versions_of("nemo-gym-rollout")) {
        const std::string version = std::to_string(schema_info(schema).version);
        INFO(schema_info(schema).name);
        for (const std::string& line : rowgen("rows 150 --seed 16 --scale 0.3 --sediment --faithful --version " + version)) {
            const AnyRolloutRow row = decode<AnyRolloutRow>(line);
            REQUIRE(schema_of(row) == schema);
            const std::string atif = encode(to_atif(row));
            REQUIRE(validate(SchemaId::atif_v1_7, atif).errors.empty());
            const Converted<AnyRolloutRow> back = to_any_rollout_row(decode<NemoGymAtifTrajectory>(atif), schema);
            CHECK(back.losses.empty());
            CHECK(std::visit([](const auto& r) { return encode(r, Style::sediment); }, back.value) == line);
        }
    }
}

/// Converts each (name, text) trajectory of the subset, strict and lossy: strict mode fails with
/// the very list lossy mode reports, each loss is a value of the original, what a row holds comes back
/// whole, and an independent reading (Python) finds nothing else dropped. Returns the number of losses.
std::size_t check_conversions(const std::vector<std::pair<std::string, std::string>>& documents) {
    std::string requests;
    std::size_t losses = 0;
    for (const auto& [name, text] : documents) {
        INFO(name);
        const auto t = decode<NemoGymAtifTrajectory>(text);
        const auto lossy = to_row_parts(t, ConvertOptions{true});
        std::vector<Error> strict;
        try {
            to_row_parts(t);
        } catch (const ConvertError& e) {
            strict = e.errors();
        }
        CHECK(strict == lossy.losses);  // strict mode fails with the very list lossy mode reports
        const Json original = parse(text);
        for (const Error& e : lossy.losses) {
            INFO(e.pointer);
            CHECK(e.id.rfind("rows.convert.loss.", 0) == 0);
            CHECK(original.contains(Json::json_pointer(e.pointer)));
        }
        losses += lossy.losses.size();
        // what a row holds comes back whole: row -> ATIF -> row loses nothing
        const NemoGymAtifTrajectory back = to_atif(lossy.value);
        const std::string back_text = encode(back);
        CHECK(validate(SchemaId::atif_v1_7, back_text).errors.empty());
        CHECK(to_row_parts(back).value == lossy.value);
        Json request = {{"original", original}, {"losses", Json::array()}, {"back", parse(back_text)}};
        for (const Error& e : lossy.losses) request["losses"].push_back(e.pointer);
        requests += encode(request) + "\n";
    }

    // and nothing else is dropped: an independent reading (Python) of the original minus the list
    test::TempDir tmp;
    test::write_file(tmp / "requests.jsonl", requests);
    const auto r = test::run("python3 " + test::quote(kSource + "/tests/reference/atif_losses.py") + " < " +
                             test::quote((tmp / "requests.jsonl").string()));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto verdicts = lines_of(r.out);
    REQUIRE(verdicts.size() == documents.size());
    for (std::size_t i = 0; i < documents.size(); ++i) {
        const Json v = parse(verdicts[i]);
        INFO(documents[i].first << ": " << v["why"].get<std::string>());
        CHECK(v["ok"] == true);
    }
    return losses;
}

TEST_CASE("conformance: every valid ATIF fixture converts, or lists exactly what a row cannot hold") {
    const std::string dir = kShared + "/fixtures/atif/";
    std::istringstream expected(test::read_file(dir + "EXPECTED.tsv"));
    std::vector<std::pair<std::string, std::string>> documents;  // name, text
    for (std::string line; std::getline(expected, line);) {
        const std::size_t tab = line.find('\t');
        if (line.empty() || line[0] == '#' || line.compare(tab + 1, 6, "valid\t") != 0) continue;
        documents.emplace_back(line.substr(0, tab), test::read_file(dir + line.substr(0, tab)));
    }
    documents.emplace_back("tests/support.hpp kTrajectory", test::kTrajectory);
    documents.emplace_back("last turn and trailing steps", R"({"schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "2"},
      "steps": [{"step_id": 1, "source": "user", "message": [{"type": "text", "text": ""}], "is_copied_context": true},
        {"step_id": 2, "source": "agent", "message": [{"type": "text", "text": "one"}], "tool_calls": [{"tool_call_id": "c", "function_name": "f", "arguments": {"k": "v"}}],
         "observation": {"results": [{"source_call_id": "c", "content": [{"type": "text", "text": "r"}]}, {"content": "stray"}]}},
        {"step_id": 3, "source": "user", "message": "next", "observation": {"results": []}},
        {"step_id": 4, "source": "agent", "message": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "reasoning_content": "r",
         "tool_calls": [{"tool_call_id": "d", "function_name": "g", "arguments": {"x": ["y", 1]}}], "observation": {"results": [{"source_call_id": "d", "content": "z"}]}},
        {"step_id": 5, "source": "system", "message": "bye"}]})");
    REQUIRE(documents.size() > 10);
    // and valid mutations of them, which put fields where real trajectories do not
    const std::vector<std::string> replacements = {"null", "\"\"", "\"x\"", "[]", "{}", "0", "1", "2", "true", "false",
                                                   "\"agent\"", "\"user\"", "\"system\"", "[{\"type\": \"text\", \"text\": \"t\"}]"};
    std::mt19937 random(17);
    const std::size_t fixtures = documents.size();
    std::size_t mutants = 0;
    for (std::size_t i = 0; i < fixtures; ++i) {
        const Json doc = parse(documents[i].second);
        for (int k = 0; k < 60; ++k) {
            const std::string text = encode(mutated(doc, random, replacements));
            if (!validate(SchemaId::atif_v1_7, text).errors.empty()) continue;
            documents.emplace_back(documents[i].first + " mutation " + std::to_string(k), text);
            ++mutants;
        }
    }
    CHECK(mutants > 200);

    CHECK(check_conversions(documents) > 100);
}

TEST_CASE("conformance: every ATIF fixture gets Harbor's verdict from both engines, and valid ones upgrade to the subset and convert") {
    const std::string dir = kShared + "/fixtures/atif/";
    std::istringstream expected(test::read_file(dir + "EXPECTED-harbor.tsv"));
    std::vector<std::pair<std::string, std::string>> upgraded;  // name, the v1.7 text
    std::size_t fixtures = 0, older = 0;
    const auto cli = std::string(SEDIMENT_ROWS_CLI);
    for (std::string line; std::getline(expected, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> columns;
        for (std::size_t start = 0;;) {
            const std::size_t tab = line.find('\t', start);
            columns.push_back(line.substr(start, tab - start));
            if (tab == std::string::npos) break;
            start = tab + 1;
        }
        REQUIRE(columns.size() >= 4);
        const std::string& file = columns[0];
        const bool harbor_valid = columns[2] == "valid", subset_valid = columns[3] == "valid";
        const std::string text = test::read_file(dir + file);
        INFO(file);
        ++fixtures;
        const auto typed = validate(SchemaId::atif, text).errors;
        const auto schema = validate(SchemaId::atif, text, Engine::schema).errors;
        INFO("typed: " << (typed.empty() ? "valid" : to_string(typed[0])));
        CHECK(typed.empty() == harbor_valid);
        CHECK(schema.empty() == harbor_valid);
        if (!harbor_valid) {
            CHECK_FALSE(subset_valid);
            continue;
        }
        // the fast path reads it, to the exact reader's value (no public fixture holds an integer
        // beyond 64 bits or a free-form object of more than 64 keys)
        CHECK(test::read_both<HarborAtifTrajectory>(text, SchemaId::atif).fast);
        const auto t = decode<HarborAtifTrajectory>(text);
        CHECK(nlohmann::json(parse(encode(t))) == nlohmann::json(parse(text)));  // nothing lost or added
        if (t.schema_version && *t.schema_version != AtifVersion::ATIF_v1_7) ++older;

        // upgrade: the label changes and nothing else, then the subset gives column 4's verdict
        Upgraded up;
        std::vector<Error> errors;
        const bool ok = upgrade(text, "atif", SchemaId::atif_v1_7, up, errors);
        INFO((errors.empty() ? std::string() : to_string(errors[0])));
        CHECK(ok == subset_valid);
        if (!ok) continue;
        CHECK(validate(SchemaId::atif_v1_7, up.text).errors.empty());
        CHECK(test::read_both<NemoGymAtifTrajectory>(up.text, SchemaId::atif_v1_7).fast);
        Json relabelled = parse(text);
        relabelled["schema_version"] = "ATIF-v1.7";
        CHECK(nlohmann::json(parse(up.text)) == nlohmann::json(relabelled));
        // the typed upgrade agrees (a typed subagent reference is written in schema order, which the
        // subset then holds as a free-form object: the same JSON, key order aside)
        const NemoGymAtifTrajectory typed_up = upgrade(t).value, text_up = decode<NemoGymAtifTrajectory>(up.text);
        CHECK(nlohmann::json(parse(encode(typed_up))) == nlohmann::json(parse(up.text)));
        upgraded.emplace_back(file, up.text);

        // conversion from any version is the upgrade, then the subset's conversion, losses included
        const auto from_harbor = to_row_parts(typed_up, ConvertOptions{true});
        const auto from_subset = to_row_parts(text_up, ConvertOptions{true});
        CHECK(from_harbor.losses == from_subset.losses);
        if (encode(typed_up) == encode(text_up)) CHECK(from_harbor.value == from_subset.value);
    }
    CHECK(fixtures == 53);
    CHECK(upgraded.size() == 50);
    CHECK(older > 30);
    // each converts, or lists exactly what a row cannot hold (see check_conversions)
    CHECK(check_conversions(upgraded) > 100);

    // the CLI gives the same verdicts, upgrades and conversions
    std::string files;
    for (const auto& [name, text] : upgraded) files += " " + test::quote(dir + name);
    const auto validated = test::run(cli + " validate --schema atif -q" + files);
    CHECK(validated.status == 0);
    const auto up = test::run(cli + " upgrade --to atif-v1.7" + files);
    CHECK(up.status == 0);
    const auto up_lines = lines_of(up.out);
    REQUIRE(up_lines.size() == upgraded.size());
    for (std::size_t i = 0; i < upgraded.size(); ++i) CHECK(up_lines[i] == upgraded[i].second);
    const auto converted = test::run(cli + " convert --from atif --to nemo-gym-response.v2 --lossy -q" + files);
    CHECK(converted.status == 0);
    CHECK(lines_of(converted.out).size() == upgraded.size());
}

TEST_CASE("conformance: lint finds nothing in rowgen's faithful rows of every version, and finds what its other rows break") {
    for (const SchemaId schema : versions_of("nemo-gym-rollout")) {
        const int version = schema_info(schema).version;
        INFO("v" << version);
        const auto lines = rowgen("rows 1000 --seed 21 --faithful --sediment --version " + std::to_string(version));
        REQUIRE(lines.size() == 1000);
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
        CHECK(resolved > 300);
        CHECK(flakes > 10);
        CHECK(several_workflows > 50);
        CHECK(later_segments > 500);
        // the CLI agrees, on every core
        test::TempDir dir;
        std::string text;
        for (const std::string& line : lines) text += line + '\n';
        test::write_file(dir / "rows.jsonl", text);
        const auto r = test::run(test::quote(SEDIMENT_ROWS_CLI) + " lint --sessions-complete --schema " +
                                 std::string(schema_info(schema).name) + " " + test::quote((dir / "rows.jsonl").string()));
        CHECK(r.status == 0);
        CHECK(r.out == "");
        CHECK(r.err == "1000 rows: 0 findings, 0 not schema-valid\n");
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
