// The conformance suite's ATIF part: the public trajectories' verdicts under NeMo Gym's subset and
// Harbor's model, generated rows to trajectories and back, and every fixture converted.
#include "conformance.hpp"

using namespace conformance;

namespace {

/// The rows of a fixtures' TSV file (EXPECTED-harbor.tsv), each as its cells; blank and '#' lines skipped.
std::vector<std::vector<std::string>> tsv_rows(const std::string& path) {
    std::istringstream in(test::read_file(path));
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string>& cells = rows.emplace_back();
        for (std::size_t from = 0;;) {
            const std::size_t tab = line.find('\t', from);
            cells.push_back(line.substr(from, tab - from));
            if (tab == std::string::npos) break;
            from = tab + 1;
        }
    }
    return rows;
}

}  // namespace

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
    const std::size_t n = sample(1000);
    const auto lines = rowgen("rows " + std::to_string(n) + " --seed 4 --sediment");
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
    CHECK(steps > 5 * n);
    CHECK(extensions > 5 * n);

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
        CHECK(back.err == std::to_string(n) + " converted, 0 failed\n");
        CHECK(back.out == test::read_file(dir / "rows.jsonl"));
    }
    SECTION("format --check --style sediment passes Sediment's bytes as they are, plain and gzip-compressed") {
        std::string all;
        for (const auto& l : lines) all += l + "\n";
        test::write_file(dir / "rows.jsonl", all);
        const std::string cli = test::quote(SEDIMENT_ROWS_CLI) + " format --check --style sediment --schema nemo-gym-rollout.v2 ";
        const auto plain = test::run(cli + test::quote((dir / "rows.jsonl").string()));
        CHECK(plain.status == 0);
        CHECK(plain.err == std::to_string(n) + " formatted, 0 invalid; 0 of 1 files would be reformatted\n");
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
    const auto r = test::run(test::kPython + " " + test::quote(kSource + "/tests/reference/atif_losses.py") + " < " +
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
    std::vector<std::pair<std::string, std::string>> upgraded;  // name, the v1.7 text
    std::size_t fixtures = 0, older = 0;
    const auto cli = std::string(SEDIMENT_ROWS_CLI);
    for (const std::vector<std::string>& columns : tsv_rows(dir + "EXPECTED-harbor.tsv")) {
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

TEST_CASE("conformance: repair leaves every fixture Harbor accepts as it is, and repairs or refuses the others") {
    const std::string dir = kShared + "/fixtures/atif/";
    std::size_t unchanged = 0, relabelled = 0;
    for (const std::vector<std::string>& cells : tsv_rows(dir + "EXPECTED-harbor.tsv")) {
        const std::string& file = cells.at(0);
        const std::string text = test::read_file(dir + file);
        INFO(file);
        const Repaired harbor = repair(text, SchemaId::atif), harbor_lossy = repair(text, SchemaId::atif, RepairOptions{true});
        if (cells.at(2) == "valid") {
            ++unchanged;
            CHECK(harbor.text == text);
            CHECK(harbor.repairs.empty());
            CHECK(harbor_lossy.text == text);
            // for the subset: what upgrade writes (the label alone changes), or the fixture itself
            const Repaired subset = repair(text, SchemaId::atif_v1_7);
            REQUIRE(subset.ok() == (cells.at(3) == "valid"));
            if (validate(SchemaId::atif_v1_7, text).errors.empty()) {
                CHECK(subset.text == text);
                CHECK(subset.repairs.empty());
            } else {
                ++relabelled;
                CHECK(subset.text == upgrade(text, "atif", SchemaId::atif_v1_7).text);
                REQUIRE(subset.repairs.size() == 1);
                CHECK(subset.repairs[0].id == "rows.repair.schema_version");
            }
            continue;
        }
        if (file.find("WRAPPER") != std::string::npos) {  // {"parent": ..., "child": ...}: no trajectory at the root
            REQUIRE(harbor.errors.size() == 1);
            CHECK(harbor.errors[0] == Error{"rows.repair.refused", "/agent", "no agent: a trajectory names its agent"});
            CHECK(harbor_lossy.errors == harbor.errors);
            continue;
        }
        // relay's: chat messages and requests where content parts go, null messages: lossy repairs only
        REQUIRE_FALSE(harbor.ok());
        for (const Error& e : harbor.errors) {
            CHECK((e.id == "rows.repair.part_dropped" || e.id == "rows.repair.message"));
            CHECK(e.message.rfind("needs --lossy: ", 0) == 0);
        }
        REQUIRE(harbor_lossy.ok());
        CHECK(validate(SchemaId::atif, harbor_lossy.text).errors.empty());
        CHECK(harbor_lossy.repairs.size() >= harbor.errors.size());
    }
    CHECK(unchanged == 50);
    CHECK(relabelled == 33);
}
