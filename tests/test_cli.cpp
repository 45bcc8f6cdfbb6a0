// The command-line contract: output formats, exit status, files, standard input.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <tuple>

#include "cli.hpp"

using namespace sediment::rows;
using test::cli;
using test::row_line;
using test::kCli;

TEST_CASE("cli: validate reports each document and the summary") {
    test::TempDir dir;
    const auto file = dir / "rows.jsonl";
    const std::string bad = test::mutate(test::kRollout, {"/metadata/split", "\"test\""});
    test::write_file(file, row_line() + "\n\n" + bad + "\n{\"truncated\": \n" + row_line() + "\n");

    SECTION("text: FILE:LINE: POINTER: message, for invalid documents only") {
        const auto r = cli("validate --schema nemo-gym-rollout.v2 " + test::quote(file.string()));
        CHECK(r.status == 1);
        CHECK(r.out == file.string() + ":3: /metadata/split: 'test' is not one of 'train', 'eval'\n" + file.string() +
                           ":4: /truncated: invalid JSON at byte 14: unexpected end of input; expected '[', '{', or a "
                           "literal: the text ends inside the document (a truncated line?)\n");
        CHECK(r.err == "2 valid, 2 invalid\n");
    }
    SECTION("jsonl: one line per document") {
        const auto r = cli("validate --schema nemo-gym-rollout.v2 --format jsonl " + test::quote(file.string()));
        CHECK(r.status == 1);
        const std::string f = Json(file.string()).dump();
        CHECK(r.out == "{\"file\": " + f + ", \"line\": 1, \"valid\": true, \"errors\": []}\n" +
                           "{\"file\": " + f +
                           ", \"line\": 3, \"valid\": false, \"errors\": [{\"pointer\": \"/metadata/split\", "
                           "\"message\": \"'test' is not one of 'train', 'eval'\"}]}\n" +
                           "{\"file\": " + f +
                           ", \"line\": 4, \"valid\": false, \"errors\": [{\"pointer\": \"/truncated\", \"message\": "
                           "\"invalid JSON at byte 14: unexpected end of input; expected '[', '{', or a literal: the text ends inside "
                           "the document (a truncated line?)\"}]}\n" +
                           "{\"file\": " + f + ", \"line\": 5, \"valid\": true, \"errors\": []}\n" +
                           test::summary_record(file.string(), 2, 2));
    }
    SECTION("the schema engine gives the same verdicts") {
        const auto r = cli("validate --schema nemo-gym-rollout.v2 --engine schema --format jsonl " + test::quote(file.string()));
        CHECK(r.status == 1);
        CHECK(r.err == "2 valid, 2 invalid\n");
    }
}

TEST_CASE("cli: exit status 0 when all are valid, standard input as -") {
    const auto r = test::run("printf '%s\\n' " + test::quote(row_line()) + " | " + test::quote(kCli) +
                             " validate --schema nemo-gym-rollout.v2 -");
    CHECK(r.status == 0);
    CHECK(r.out.empty());
    CHECK(r.err == "1 valid, 0 invalid\n");
}

TEST_CASE("cli: a .json file holds one pretty-printed document") {
    test::TempDir dir;
    test::write_file(dir / "outcome.json", test::base(SchemaId::ci_outcome_v1).dump(2));
    const auto r = cli("validate --schema ci-outcome.v1 --format jsonl " + test::quote((dir / "outcome.json").string()));
    CHECK(r.status == 0);
    CHECK(r.out.find("\"line\": 1, \"valid\": true") != std::string::npos);
}

TEST_CASE("cli: usage and I/O errors exit 2") {
    test::TempDir dir;
    test::write_file(dir / "ok.jsonl", row_line() + "\n");
    CHECK(cli("").status == 2);
    CHECK(cli("frobnicate").status == 2);
    CHECK(cli("validate " + test::quote((dir / "ok.jsonl").string())).status == 2);  // no --schema
    const auto unknown = cli("validate --schema nemo-gym-rollout.v9 x");
    CHECK(unknown.status == 2);
    CHECK(unknown.err.find("unknown schema 'nemo-gym-rollout.v9'") != std::string::npos);
    CHECK(cli("validate --schema ci-outcome.v1").status == 2);
    CHECK(cli("validate --schema ci-outcome.v1 --format xml x").status == 2);
    CHECK(cli("validate --schema ci-outcome.v1 --bogus x").status == 2);
    // a missing file is an I/O error, after the files that could be read
    const auto missing = cli("validate --schema nemo-gym-rollout.v2 " + test::quote((dir / "ok.jsonl").string()) + " " +
                             test::quote((dir / "missing.jsonl").string()));
    CHECK(missing.status == 2);
    CHECK(missing.err.find("cannot open") != std::string::npos);
    CHECK(missing.err.find("1 valid, 0 invalid") != std::string::npos);
}

TEST_CASE("cli: format re-encodes strictly, one line per document") {
    test::TempDir dir;
    Json doc = test::base(SchemaId::ci_outcome_v1);
    test::write_file(dir / "in.jsonl", doc.dump(1) + "\n");  // not one document per line: invalid lines
    test::write_file(dir / "one.jsonl", doc.dump() + "\n" + doc.dump() + "\n");

    const auto compact = cli("format --schema ci-outcome.v1 " + test::quote((dir / "one.jsonl").string()));
    CHECK(compact.status == 0);
    CHECK(compact.out == doc.dump() + "\n" + doc.dump() + "\n");

    const auto sediment = cli("format --schema ci-outcome.v1 --style sediment " + test::quote((dir / "one.jsonl").string()));
    CHECK(sediment.status == 0);
    CHECK(sediment.out.rfind("{\"schema_version\": 1, \"outcome_id\": \"out_1\", ", 0) == 0);

    test::write_file(dir / "bad.jsonl", doc.dump() + "\n" + test::mutate(doc, {"/x", "1"}) + "\n" + doc.dump() + "\n");
    const auto bad = cli("format --schema ci-outcome.v1 " + test::quote((dir / "bad.jsonl").string()));
    CHECK(bad.status == 1);
    CHECK(bad.out == doc.dump() + "\n" + doc.dump() + "\n");
    CHECK(bad.err == (dir / "bad.jsonl").string() + ":2: (root): unknown key 'x'\n2 formatted, 1 invalid\n");
}

TEST_CASE("cli: format without --in-place leaves a file with blank or unterminated lines as it was") {
    // A blank line and an unterminated last line make format --in-place rewrite a file; plain format
    // writes to standard output only (it used to commit an empty replacement over the file)
    test::TempDir dir;
    const std::string doc = test::base(SchemaId::ci_outcome_v1).dump();
    for (const std::string& text : {doc + "\n\n" + doc, doc + "\n" + doc, "\n" + doc + "\n"}) {
        const auto file = dir / "rows.jsonl";
        test::write_file(file, text);
        const auto r = cli("format --schema ci-outcome.v1 " + test::quote(file.string()));
        CHECK(r.status == 0);
        CHECK(r.out.find(doc + "\n") == 0);
        CHECK(test::read_file(file) == text);
        const auto piped = test::run("printf '%s' " + test::quote(text) + " | " + test::quote(test::kCli) + " format --schema ci-outcome.v1 -");
        CHECK(piped.status == 0);
        CHECK(piped.out == r.out);
        CHECK(piped.err == r.err);
    }
}

TEST_CASE("cli: schema list and schema show") {
    const auto list = cli("schema list");
    CHECK(list.status == 0);
    // by name, "any" first; each name without a version, and what it stands for, just before its versions
    const std::string any = "\tany version, each document read as the version it names: ";
    CHECK(list.out.rfind("any\ta row of any family and version: each document read as the family and version its schema_id names\n"
                         "atif\turn:sediment-rows:schemas:atif\n"
                         "atif-v1.7\turn:sediment-rows:schemas:atif-v1.7-subset\n"
                         "ci-outcome.v1\thttps://sediment.so/schemas/facts/ci-outcome/v1.json\n",
                         0) == 0);
    for (const std::string lines : {"diff-sft-metadata.v3\thttps://sediment.so/schemas/training-rows/diff-sft-metadata/v3.json\n"
                                    "diff-sft-sample" + any + "diff-sft-sample.v1 diff-sft-sample.v2 diff-sft-sample.v3\n"
                                    "diff-sft-sample.v1\thttps://sediment.so/schemas/training-rows/diff-sft-sample/v1.json\n",
                                    "sft-metadata.v3\thttps://sediment.so/schemas/training-rows/sft-metadata/v3.json\n"
                                    "sft-profile-evidence\turn:sediment-rows:schemas:sft-profile-evidence\n"
                                    "sft-sample" + any + "sft-sample.v1 sft-sample.v2 sft-sample.v3\n"
                                    "sft-sample.v1\thttps://sediment.so/schemas/training-rows/sft-sample/v1.json\n",
                                    "nemo-gym-rollout" + any + "nemo-gym-rollout.v1 nemo-gym-rollout.v2 nemo-gym-rollout.v3 nemo-gym-rollout.v4\n",
                                    "dpo-pair" + any + "dpo-pair.v1 dpo-pair.v2 dpo-pair.v3 dpo-pair.v4\n",
                                    "recovery-row" + any + "recovery-row.v1 recovery-row.v2 recovery-row.v3\n",
                                    "sediment-rlvr-rollout" + any +
                                        "sediment-rlvr-rollout.v1 sediment-rlvr-rollout.v2 sediment-rlvr-rollout.v3 sediment-rlvr-rollout.v4\n",
                                    "sediment-rlvr-task" + any + "sediment-rlvr-task.v1 sediment-rlvr-task.v2 sediment-rlvr-task.v3\n",
                                    "swe-bench-task" + any + "swe-bench-task.v1 swe-bench-task.v2 swe-bench-task.v3\n"})
        CHECK(list.out.find("\n" + lines) != std::string::npos);
    for (const char* line : {"nemo-gym-rollout.v4\thttps://sediment.so/schemas/training-rows/nemo-gym-rollout/v4.json\n",
                             "sft-sample.v3\thttps://sediment.so/schemas/training-rows/sft-sample/v3.json\n",
                             "trainer-messages.tool-call.v1\thttps://sediment.so/schemas/trainer-messages/tool-call/v1.json\n"})
        CHECK(list.out.find(line) != std::string::npos);
    CHECK(std::count(list.out.begin(), list.out.end(), '\n') == 9 + 81);  // 8 names without a version, any, 81 schemas
    // every bundled schema byte for byte (the text `schema show` prints), and the CLI's own output for
    // the first and last of them and each family's first version (a process each: 68 were 8 s under ASan)
    for (const SchemaInfo& s : kSchemas) {
        INFO(s.name);
        const std::string bundled = test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/schemas/" + std::string(s.name) + ".schema.json");
        CHECK(schema_document(s.name) == bundled);
        if (&s == &kSchemas[0] || &s == &kSchemas[std::size(kSchemas) - 1] || s.version == 1) {
            const auto show = cli("schema show " + std::string(s.name));
            CHECK(show.status == 0);
            CHECK(show.out == bundled);
        }
    }
    const auto typo = cli("schema show sft-sampel");
    CHECK(typo.status == 2);
    CHECK(typo.err.rfind("sediment-rows: unknown schema 'sft-sampel'; did you mean 'sft-sample'?", 0) == 0);
    // a name without a version, and any: a schema whose anyOf takes each version, each embedded as bundled
    for (const std::string name : {"nemo-gym-rollout", "sft-sample", "any"}) {
        INFO(name);
        const auto shown = cli("schema show " + name);
        REQUIRE(shown.status == 0);
        const Json doc = Json::parse(shown.out);
        CHECK(doc["$schema"] == "https://json-schema.org/draft/2020-12/schema");
        CHECK(doc["$id"] == "urn:sediment-rows:schemas:" + name);
        const std::vector<SchemaId> ids = schemas_named(name);
        REQUIRE(doc["anyOf"].size() == ids.size());
        REQUIRE(doc["$defs"].size() == ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const SchemaInfo& s = schema_info(ids[i]);
            CHECK(doc["anyOf"][i] == Json{{"$ref", std::string(s.uri)}});
            std::string bytes = test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/schemas/" + std::string(s.name) + ".schema.json");
            while (!bytes.empty() && (bytes.back() == '\n' || bytes.back() == ' ')) bytes.pop_back();
            CHECK(shown.out.find("\"" + std::string(s.name) + "\": " + bytes) != std::string::npos);  // byte for byte
        }
        CHECK(shown.out == schema_document(name));
    }
    CHECK(schemas_named("any").size() == 27);
    const auto parts = cli("schema show nemo-gym-response");  // its documents do not name their version
    CHECK(parts.status == 2);
    CHECK(parts.err.find("name one of nemo-gym-response.v1, nemo-gym-response.v2 or nemo-gym-response.v3") != std::string::npos);
    CHECK(cli("--help").status == 0);
}

TEST_CASE("cli: validate --schema atif-v1.7 reads a pretty-printed .json trajectory as one document") {
    test::TempDir dir;
    test::write_file(dir / "trajectory.json", test::kTrajectory);  // written over many lines
    const auto ok = cli("validate --schema atif-v1.7 --format jsonl " + test::quote((dir / "trajectory.json").string()));
    CHECK(ok.status == 0);
    CHECK(ok.out == "{\"file\": " + Json((dir / "trajectory.json").string()).dump() + ", \"line\": 1, \"valid\": true, \"errors\": []}\n" +
                    test::summary_record((dir / "trajectory.json").string(), 1, 0));
    test::write_file(dir / "bad.json", test::mutate(test::kAtif, {"/steps/0/step_id", "2"}));
    const auto bad = cli("validate --schema atif-v1.7 " + test::quote((dir / "bad.json").string()));
    CHECK(bad.status == 1);
    CHECK(bad.out == (dir / "bad.json").string() + ":1: /steps/0/step_id: expected step_id 1 (the step's position), got 2\n");
}

TEST_CASE("cli: convert rows to ATIF and back, byte for byte") {
    test::TempDir dir;
    // today's rows, and a file of several versions: each row comes back as the version it was
    for (const char* file : {"rows.jsonl", "mixed-versions.jsonl"}) {
        INFO(file);
        const std::string rows = std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/" + file;
        const auto to = cli("convert --from nemo-gym-rollout --to atif-v1.7 " + test::quote(rows));
        REQUIRE(to.status == 0);
        CHECK(to.err == "3 converted, 0 failed\n");
        test::write_file(dir / "atif.jsonl", to.out);
        const auto valid = cli("validate --schema atif-v1.7 " + test::quote((dir / "atif.jsonl").string()));
        CHECK(valid.status == 0);
        const auto back = cli("convert --from atif-v1.7 --to nemo-gym-rollout --style sediment " + test::quote((dir / "atif.jsonl").string()));
        CHECK(back.status == 0);
        CHECK(back.out == test::read_file(rows));
    }
}

TEST_CASE("cli: convert ATIF to rows: losses fail the document unless --lossy, which lists them") {
    test::TempDir dir;
    const auto file = (dir / "t.json").string();
    test::write_file(file, test::kTrajectory);

    SECTION("strict: every loss as FILE:LINE: POINTER: message, nothing written") {
        const auto r = cli("convert --from atif-v1.7 --to nemo-gym-response.v2 " + test::quote(file));
        CHECK(r.status == 1);
        CHECK(r.out.empty());
        CHECK(r.err.find(file + ":1: /steps/0/timestamp: a row has no timestamps\n") != std::string::npos);
        CHECK(r.err.find(file + ":1: /steps/2/observation/results/1: a result without source_call_id answers no tool call\n") != std::string::npos);
        std::map<std::string, int> kinds;  // what the lossy conversion drops, by kind
        for (const Error& e : to_row_parts(decode<NemoGymAtifTrajectory>(test::kTrajectory), ConvertOptions{true}).losses) ++kinds[loss_kind(e)];
        std::string counts;
        for (const auto& [kind, n] : kinds) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
        CHECK(r.err.substr(r.err.rfind("0 converted")) == "0 converted, 1 failed; 1 would convert with --lossy, which drops from 1 document: " + counts + "\n");
    }
    SECTION("lossy: the part is written and the dropped values listed") {
        const auto r = cli("convert --lossy --from atif-v1.7 --to nemo-gym-response.v2 " + test::quote(file));
        CHECK(r.status == 0);
        const auto lossy = to_row_parts(decode<NemoGymAtifTrajectory>(test::kTrajectory), ConvertOptions{true});
        CHECK(r.out == encode(lossy.value.response) + "\n");
        std::string expected;
        std::map<std::string, int> kinds;  // the summary counts them by kind, the id's last part
        for (const Error& e : lossy.losses) {
            expected += file + ":1: " + e.pointer + ": dropped: " + e.message + "\n";
            ++kinds[e.id.substr(e.id.rfind('.') + 1)];
        }
        std::string counts;
        for (const auto& [kind, n] : kinds) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
        CHECK(kinds.size() >= 5);
        CHECK(r.err == expected + "1 converted, 0 failed; dropped from 1 document: " + counts + "\n");
    }
    SECTION("lossy, --format jsonl: the document's report lists the dropped values, and nothing else does") {
        const auto r = cli("convert --lossy --format jsonl --from atif-v1.7 --to nemo-gym-response.v2 " + test::quote(file));
        CHECK(r.status == 0);
        const auto lossy = to_row_parts(decode<NemoGymAtifTrajectory>(test::kTrajectory), ConvertOptions{true});
        const std::string report = r.err.substr(0, r.err.find('\n'));
        const Json parsed = Json::parse(report);
        REQUIRE(parsed.at("dropped").size() == lossy.losses.size());
        for (std::size_t i = 0; i < lossy.losses.size(); ++i) {
            CHECK(parsed.at("dropped")[i].at("pointer") == lossy.losses[i].pointer);
            CHECK(parsed.at("dropped")[i].at("message") == lossy.losses[i].message);
        }
        CHECK(parsed.at("valid") == true);
        CHECK(r.err.find(": dropped: ") == std::string::npos);  // no text lines beside the JSON one
    }
    SECTION("the create-params part") {
        const auto r = cli("convert --lossy --from atif-v1.7 --to nemo-gym-responses-create-params.v2 --style sediment " + test::quote(file));
        CHECK(r.status == 0);
        CHECK(r.out == R"({"input": [{"role": "system", "parts": [{"type": "text", "content": "You are a careful engineer."}]}, )"
                       R"({"role": "user", "parts": [{"type": "text", "content": "Fix the test."}]}]})" "\n");
    }
    SECTION("a rollout row needs metadata") {
        const auto r = cli("convert --lossy --from atif-v1.7 --to nemo-gym-rollout.v2 " + test::quote(file));
        CHECK(r.status == 1);
        CHECK(r.err.find(file + ":1: (root): a rollout row needs Sediment's metadata: pass a metadata document (docs/convert.md), "
                                "or convert to nemo-gym-response.vN for the row's trainer parts\n") != std::string::npos);
    }
    SECTION("--metadata gives it, line by line; a missing line is an I/O error") {
        const Json row = test::base(test::kRollout);
        const auto metadata = (dir / "m.jsonl").string();
        test::write_file(metadata, encode(Json{{"metadata", row["metadata"]}}) + "\n");
        const auto r = cli("convert --lossy --from atif-v1.7 --to nemo-gym-rollout.v2 --metadata " + test::quote(metadata) + " " +
                           test::quote(file) + " " + test::quote(file));
        CHECK(r.status == 2);
        const auto first = decode<NemoGymRolloutRowV2>(r.out);
        CHECK(first.metadata == decode<NemoGymRolloutRowV2>(test::kRow).metadata);
        CHECK(!first.reward);
        CHECK(r.err.find(metadata + ": no metadata line left for the next document\n") != std::string::npos);
    }
    SECTION("an invalid trajectory: its decode errors") {
        test::write_file(file, test::mutate(SchemaId::atif_v1_7, {"/steps/0/step_id", "7"}));
        const auto r = cli("convert --from atif-v1.7 --to nemo-gym-response.v2 " + test::quote(file));
        CHECK(r.status == 1);
        CHECK(r.err == file + ":1: /steps/0/step_id: expected step_id 1 (the step's position), got 7\n0 converted, 1 failed\n");
    }
}

TEST_CASE("cli: convert usage errors exit 2") {
    const auto missing = cli("convert --from atif-v1.7 x.json");
    CHECK(missing.status == 2);
    CHECK(missing.err.find("convert needs --from NAME and --to NAME") != std::string::npos);
    const auto pair = cli("convert --from atif-v1.7 --to ci-outcome.v1 x.json");
    CHECK(pair.status == 2);
    CHECK(pair.err.find("convert goes from atif or atif-v1.7 to") != std::string::npos);
    const auto metadata = cli("convert --from atif-v1.7 --to nemo-gym-response.v2 --metadata m.jsonl x.json");
    CHECK(metadata.status == 2);
    CHECK(metadata.err.find("--metadata goes with --to nemo-gym-rollout[.vN]") != std::string::npos);
    const auto no_metadata = cli("convert --from atif-v1.7 --to nemo-gym-rollout.v2 --metadata /nonexistent/m.jsonl x.json");
    CHECK(no_metadata.status == 2);
    CHECK(no_metadata.err == "sediment-rows: cannot open /nonexistent/m.jsonl: No such file or directory\n");
    const auto lossy = cli("validate --lossy --schema atif-v1.7 x.json");
    CHECK(lossy.status == 2);
}

TEST_CASE("cli: --jobs runs batches in parallel and keeps the output in input order") {
    test::TempDir dir;
    const auto file = dir / "many.jsonl";
    // 4,500 documents of about 3 KB: four batches (a batch is at most 4 MiB), every seventh invalid, so
    // that order shows in the output
    std::string text;
    const std::string good = row_line();
    const std::string bad = test::mutate(test::kRollout, {"/metadata/split", "\"test\""});
    for (int i = 0; i < 4500; ++i) text += (i % 7 == 3 ? bad : good) + "\n";
    REQUIRE(text.size() > 3 * (4u << 20));  // more than three batches' bytes
    test::write_file(file, text);
    const std::string f = test::quote(file.string());
    const auto one = cli("validate --schema nemo-gym-rollout.v2 --format jsonl -j 1 " + f);
    const auto two = cli("validate --schema nemo-gym-rollout.v2 --format jsonl --jobs 2 " + f);
    const auto four = cli("validate --schema nemo-gym-rollout.v2 --format jsonl -j 4 " + f);
    CHECK(one.status == 1);
    CHECK(one.err == "3857 valid, 643 invalid\n");
    CHECK(two.out == one.out);
    CHECK(four.out == one.out);
    CHECK(two.err == one.err);
    CHECK(one.out.find("\"line\": 4500,") != std::string::npos);
    const auto formatted = cli("format --schema nemo-gym-rollout.v2 --style sediment -j 2 " + f);
    const std::string formatted_good = encode(decode<NemoGymRolloutRowV2>(good), Style::sediment) + "\n";
    std::string expected;
    for (int i = 0; i < 4500; ++i)
        if (i % 7 != 3) expected += formatted_good;
    CHECK(formatted.out == expected);
    CHECK(cli("validate --schema nemo-gym-rollout.v2 -j 0 " + f).status == 2);
    CHECK(cli("validate --schema nemo-gym-rollout.v2 --jobs x " + f).status == 2);
}

TEST_CASE("cli: on a terminal, a progress line that never lands inside the output") {
    test::TempDir dir;
    const auto file = dir / "rows.jsonl";
    const std::string bad = test::mutate(test::kRollout, {"/metadata/split", "\"test\""});
    std::string text;
    const std::string row = row_line();
    for (int i = 0; i < 6000; ++i) text += (i % 50 == 7 ? bad : row) + "\n";
    test::write_file(file, text);
    // script(1) runs the command on a pseudo-terminal; SEDIMENT_ROWS_PROGRESS_MS=0 draws the line after
    // every batch (6000 rows make several), however fast the machine
    const auto r = test::run("SEDIMENT_ROWS_PROGRESS_MS=0 script -qec " +
                             test::quote(test::quote(kCli) + " validate -j 1 --schema nemo-gym-rollout.v2 " + test::quote(file.string())) +
                             " /dev/null");
    REQUIRE(r.status == 1);
    const std::regex draw("\r\x1b\\[K\\d+ documents, \\d+\\.\\d MB/s"), clear("\r\x1b\\[K");
    CHECK(std::regex_search(r.out, draw));
    // each draw and the clear after it sit between whole lines: none at a place other than a line's start
    const std::string cleared = std::regex_replace(r.out, draw, "");
    CHECK(!std::regex_search(cleared, std::regex("[^\n]\r\x1b\\[K")));
    const std::vector<Error> errors = validate(SchemaId::nemo_gym_rollout_v2, bad).errors;
    std::string expected;
    for (int i = 0; i < 6000; ++i)
        if (i % 50 == 7)
            for (const Error& e : errors)
                expected += file.string() + ":" + std::to_string(i + 1) + ": " + (e.pointer.empty() ? "(root)" : e.pointer) + ": " +
                            e.message + "\r\n";
    CHECK(std::regex_replace(cleared, clear, "") == expected + "5880 valid, 120 invalid\r\n");
}

TEST_CASE("cli: no progress line when standard error is not a terminal") {
    const auto r = cli("validate --schema nemo-gym-rollout.v4 " + test::quote(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/rows.jsonl"));
    CHECK(r.status == 0);
    CHECK(r.err == "3 valid, 0 invalid\n");
}

#if defined(__SANITIZE_ADDRESS__)
#define SEDIMENT_ROWS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEDIMENT_ROWS_TEST_ASAN 1
#endif
#endif

/// The peak resident MiB that `validate -v` reports.
double reported_peak(const test::Run& r) {
    std::smatch m;
    REQUIRE(std::regex_search(r.err, m, std::regex(R"(, peak ([0-9.]+) MiB resident\))")));
    return std::stod(m[1]);
}

TEST_CASE("cli: validating one 64 MiB document holds it twice at most: the line and simdjson's strings") {
#ifdef SEDIMENT_ROWS_TEST_ASAN
    SUCCEED("skipped: AddressSanitizer's shadow memory and quarantine are not the program's");
#else
    test::TempDir dir;
    const std::size_t big = 64u << 20;
    Json row = Json::parse(test::kRow);
    row["responses_create_params"]["input"][0]["parts"][0]["content"] = std::string(big, 'a');
    Json trajectory = parse(test::read_file(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/trajectory.json"));
    trajectory["steps"][1]["message"] = std::string(big, 'a');
    const std::string limits = " --max-string-bytes " + std::to_string(2 * big) + " --max-document-bytes " + std::to_string(2 * big) + " ";
    for (const auto& [name, doc, schema] : {std::tuple{"rows.jsonl", encode(row), "nemo-gym-rollout.v2"},
                                            std::tuple{"trajectory.json", encode(trajectory), "atif-v1.7"}}) {
        const auto file = dir / name;
        test::write_file(file, doc + "\n");
        const auto r = cli("validate -v --schema " + std::string(schema) + limits + test::quote(file.string()));
        INFO(r.err);
        REQUIRE(r.status == 0);
        const double size_mib = static_cast<double>(doc.size()) / (1 << 20);
        CHECK(reported_peak(r) < 2.5 * size_mib);  // 4.05x before validate() built nothing and parsed in place
    }
#endif
}

TEST_CASE("cli: the limits on one document can be changed, and an error names the one exceeded") {
    const std::string rows = test::quote(std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/examples/rows.jsonl");
    const auto depth = cli("validate --schema nemo-gym-rollout.v4 --max-depth 3 " + rows);
    CHECK(depth.status == 1);
    CHECK(depth.out.find(":1: /responses_create_params/input/0: nesting deeper than 3 levels (limit max_depth)\n") != std::string::npos);
    const auto strings = cli("validate --schema nemo-gym-rollout.v4 --max-string-bytes 20 " + rows);
    CHECK(strings.status == 1);
    CHECK(strings.out.find("(limit max_string_bytes)") != std::string::npos);
    const auto size = cli("format --schema nemo-gym-rollout.v4 --max-document-bytes 100 " + rows);
    CHECK(size.status == 1);
    CHECK(size.err.find("(limit max_document_bytes)") != std::string::npos);
    CHECK(cli("validate --schema nemo-gym-rollout.v4 --max-depth 1000 " + rows).status == 0);
    CHECK(cli("validate --schema nemo-gym-rollout.v4 --max-depth 0 " + rows).status == 2);
    CHECK(cli("validate --schema nemo-gym-rollout.v4 --max-string-bytes x " + rows).status == 2);
}

TEST_CASE("cli: validate --schema atif, and --check-media-files (images and audio)") {
    test::TempDir dir;
    Json t = test::base(test::kHarbor);
    // step 2's message names shot.png (relative); add a result image, a result audio clip, an absolute
    // image and URLs
    t["steps"][2]["observation"]["results"][0]["content"] = Json::parse(
        R"([{"type": "image", "source": {"media_type": "image/png", "path": "out/plot.png"}},
            {"type": "image", "source": {"media_type": "image/png", "path": "https://example.com/x.png"}},
            {"type": "audio", "source": {"media_type": "audio/mp3", "path": "out/talk.mp3", "duration_sec": 2}},
            {"type": "audio", "source": {"media_type": "audio/wav", "path": "https://example.com/x.wav"}}])");
    t["steps"][0]["message"] = Json::array({Json::parse(R"({"type": "image", "source": {"media_type": "image/gif", "path": "/nonexistent/abs.gif"}})")});
    test::write_file(dir / "t.json", encode(t));
    const std::string file = test::quote((dir / "t.json").string());
    CHECK(cli("validate --schema atif " + file).status == 0);
    CHECK(cli("validate --schema atif-v1.7 " + file).status == 1);  // the label
    const auto missing = cli("validate --schema atif --check-media-files " + file);
    CHECK(missing.status == 1);
    const std::string at = (dir / "t.json").string() + ":1: ";
    CHECK(missing.out == at + "/steps/0/message/0/source/path: image file '/nonexistent/abs.gif' does not exist (relative to the trajectory's folder)\n" +
                             at + "/steps/1/message/1/source/path: image file 'shot.png' does not exist (relative to the trajectory's folder)\n" +
                             at + "/steps/2/observation/results/0/content/0/source/path: image file 'out/plot.png' does not exist (relative to the trajectory's folder)\n" +
                             at + "/steps/2/observation/results/0/content/2/source/path: audio file 'out/talk.mp3' does not exist (relative to the trajectory's folder)\n");
    test::write_file(dir / "shot.png", "png");
    std::filesystem::create_directories(dir / "out");
    test::write_file(dir / "out" / "plot.png", "png");
    test::write_file(dir / "out" / "talk.mp3", "mp3");
    const auto one = cli("validate --schema atif --check-image-files " + file);  // the former name
    CHECK(one.status == 1);
    CHECK(one.out == at + "/steps/0/message/0/source/path: image file '/nonexistent/abs.gif' does not exist (relative to the trajectory's folder)\n");
    t["steps"][0]["message"] = "fine";
    test::write_file(dir / "t.json", encode(t));
    CHECK(cli("validate --schema atif --check-media-files " + file).status == 0);
    CHECK(cli("validate --schema atif --engine schema --check-media-files " + file).status == 0);
    std::filesystem::remove(dir / "shot.png");
    for (const char* engine : {"typed", "schema"}) {
        INFO(engine);
        const auto gone = cli(std::string("validate --schema atif --engine ") + engine + " --check-media-files " + file);
        CHECK(gone.status == 1);
        CHECK(gone.out == at + "/steps/1/message/1/source/path: image file 'shot.png' does not exist (relative to the trajectory's folder)\n");
    }
    // an invalid trajectory gets its verdict from either engine, and no image check
    t["steps"][0]["x"] = 1;
    test::write_file(dir / "t.json", encode(t));
    for (const char* engine : {"typed", "schema"}) {
        INFO(engine);
        const auto invalid = cli(std::string("validate --schema atif --engine ") + engine + " --check-media-files " + file);
        CHECK(invalid.status == 1);
        CHECK(invalid.out.find(at + "/steps/0") == 0);
        CHECK(invalid.out.find("image file") == std::string::npos);
    }
    // only for ATIF
    const auto usage = cli("validate --schema ci-outcome.v1 --check-media-files " + file);
    CHECK(usage.status == 2);
    CHECK(usage.err.find("--check-media-files goes with --schema atif or atif-v1.7") != std::string::npos);
}
