// What a new user trips on, and what the CLI says then: an input with no document, what a lossy run
// dropped, a document of another version than the one asked for, a misspelt schema name, a JSON array
// or a pretty-printed document where JSONL is expected, and --document.
#include <catch2/catch.hpp>
#include <map>

#include "cli.hpp"

using namespace sediment::rows;
using test::cli;
using test::quote;

namespace {

std::string v4_row() { return test::row_of_version(4).dump(); }

/// The first line of `text`.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

TEST_CASE("guidance: an input with no document says so, and --require-documents fails on it") {
    test::TempDir dir;
    const std::string empty = (dir / "empty.jsonl").string(), blank = (dir / "blank.jsonl").string();
    const std::string rows = (dir / "rows.jsonl").string();
    test::write_file(empty, "");
    test::write_file(blank, "\n  \r\n\n");
    test::write_file(rows, v4_row() + "\n");

    const auto r = cli("validate --schema nemo-gym-rollout " + quote(empty));
    CHECK(r.status == 0);
    CHECK(r.err == "sediment-rows: no documents in " + empty + "\n0 valid, 0 invalid\n");
    // blank lines are no documents; standard input is named as it is reported
    CHECK(cli("validate --schema nemo-gym-rollout " + quote(blank)).err.find("no documents in " + blank + "\n") != std::string::npos);
    CHECK(cli("validate --schema nemo-gym-rollout - < /dev/null").err.find("no documents in <stdin>\n") != std::string::npos);
    // only the file without documents is named
    const auto two = cli("validate --schema nemo-gym-rollout " + quote(rows) + " " + quote(empty));
    CHECK(two.status == 0);
    CHECK(two.err == "sediment-rows: no documents in " + empty + "\n  " + rows + ": 1 valid, 0 invalid (read as nemo-gym-rollout.v4: 1)\n  " +
                     empty + ": 0 valid, 0 invalid\n1 valid, 0 invalid (read as nemo-gym-rollout.v4: 1)\n");
    // -q keeps quiet about it, unless it fails the run
    CHECK(cli("validate -q --schema nemo-gym-rollout " + quote(empty)).err.empty());
    // a file that cannot be read is an I/O error, not an empty one
    const auto missing = cli("validate --schema nemo-gym-rollout " + quote((dir / "missing.jsonl").string()));
    CHECK(missing.status == 2);
    CHECK(missing.err.find("no documents") == std::string::npos);

    // --require-documents: every document command exits 1 on a file with none, and 0 on files with some
    const std::vector<std::string> commands = {"validate --schema nemo-gym-rollout", "format --schema nemo-gym-rollout",
                                               "convert --from nemo-gym-rollout --to atif-v1.7", "upgrade --to nemo-gym-rollout.v4",
                                               "lint --schema nemo-gym-rollout"};
    for (const std::string& command : commands) {
        INFO(command);
        const auto failed = cli(command + " -q --require-documents " + quote(rows) + " " + quote(empty));
        CHECK(failed.status == 1);
        CHECK(failed.err.find("sediment-rows: no documents in " + empty + " (--require-documents)\n") != std::string::npos);
        CHECK(cli(command + " --require-documents " + quote(rows)).status == 0);
        CHECK(cli(command + " " + quote(rows) + " " + quote(empty)).status == 0);
    }
    CHECK(cli("validate --require-documents=yes --schema nemo-gym-rollout " + quote(rows)).status == 2);
}

TEST_CASE("guidance: lossy upgrades and conversions count what they dropped, by kind") {
    test::TempDir dir;
    // two v2 rows with a CI resolution (whose v3 observation ids cannot be derived) and one without
    const Json with = test::row_of_version(2);
    Json without = with;
    without["metadata"].erase("ci_resolution");
    without["metadata"].erase("reward_source");
    without.erase("reward");
    const std::string file = (dir / "v2.jsonl").string();
    test::write_file(file, with.dump() + "\n" + without.dump() + "\n" + with.dump() + "\n");

    const auto r = cli("upgrade --lossy --to nemo-gym-rollout.v4 " + quote(file));
    CHECK(r.status == 0);
    CHECK(r.err.substr(r.err.rfind("3 upgraded")) ==
          "3 upgraded, 0 failed (read as nemo-gym-rollout.v2: 3); dropped from 2 documents: 2 ci_resolution, 2 reward, 2 reward_source\n");
    // the dropped values are listed too, and -q drops the summary with them
    CHECK(r.err.find(file + ":1: /metadata/ci_resolution: dropped: ") != std::string::npos);
    CHECK(cli("upgrade -q --lossy --to nemo-gym-rollout.v4 " + quote(file)).err.empty());
    // nothing dropped, nothing said
    CHECK(cli("upgrade --lossy --to nemo-gym-rollout.v2 " + quote(file)).err == "3 upgraded, 0 failed (read as nemo-gym-rollout.v2: 3)\n");
    // strict: the reason, what --lossy would drop, each at its place, and the lossy run's counts
    const auto strict = cli("upgrade --to nemo-gym-rollout.v4 " + quote(file));
    CHECK(strict.status == 1);
    CHECK(strict.err.substr(strict.err.rfind("1 upgraded")) ==
          "1 upgraded, 2 failed (read as nemo-gym-rollout.v2: 3); 2 would upgrade with --lossy, which drops from 2 documents: "
          "2 ci_resolution, 2 reward, 2 reward_source\n");
    CHECK(strict.err.find(file + ":1: /metadata/session_commit_observation_ids: a nemo-gym-rollout.v2 row has no path to "
                                 "nemo-gym-rollout.v4: nemo-gym-rollout.v3 adds the ids of the session's commit observations that "
                                 "match its ci_resolution, which it does not hold ([] would say none matches)\n") != std::string::npos);
    for (const char* at : {"/reward", "/metadata/reward_source", "/metadata/ci_resolution"})
        CHECK(strict.err.find(file + ":3: " + at + ": --lossy would drop: ") != std::string::npos);

    // a conversion's kinds: a trajectory's timestamps, metrics, ...
    const std::string trajectory = (dir / "t.json").string();
    test::write_file(trajectory, test::kTrajectory);
    const auto c = cli("convert --lossy --from atif-v1.7 --to nemo-gym-response.v3 " + quote(trajectory));
    CHECK(c.status == 0);
    std::map<std::string, int> kinds;  // the losses of the same conversion, by the last part of their id
    for (const Error& e : to_row_parts(decode<NemoGymAtifTrajectory>(test::kTrajectory), ConvertOptions{true}).losses)
        ++kinds[e.id.substr(e.id.rfind('.') + 1)];
    CHECK(kinds["timestamp"] == 2);  // steps 1 and 3 have one
    std::string counts;
    for (const auto& [kind, n] : kinds) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
    CHECK(c.err.substr(c.err.rfind("1 converted")) == "1 converted, 0 failed; dropped from 1 document: " + counts + "\n");
    const auto strict_convert = cli("convert --from atif-v1.7 --to nemo-gym-response.v3 " + quote(trajectory) + " " + quote(trajectory));
    CHECK(strict_convert.status == 1);
    std::string twice;
    for (const auto& [kind, n] : kinds) twice += (twice.empty() ? "" : ", ") + std::to_string(2 * n) + " " + kind;
    CHECK(strict_convert.err.substr(strict_convert.err.rfind("0 converted")) ==
          "0 converted, 2 failed; 2 would convert with --lossy, which drops from 2 documents: " + twice + "\n");
    CHECK(strict_convert.err.find("would drop") == std::string::npos);  // the errors are the values it would drop
    // a failure --lossy does not mend is not counted: a row needs metadata
    const auto no_metadata = cli("convert --lossy --from atif-v1.7 --to nemo-gym-rollout.v4 " + quote(trajectory));
    CHECK(no_metadata.err.substr(no_metadata.err.rfind("0 converted")) == "0 converted, 1 failed\n");
}

TEST_CASE("guidance: a strict conversion of an ATIF-v1.8 trajectory lists all --lossy would drop, past its audio") {
    test::TempDir dir;
    Json t = Json::parse(test::read_file(test::kSourceDir + "/examples/trajectory.json"));  // valid under both models
    t["schema_version"] = "ATIF-v1.8";
    REQUIRE(t["steps"][1]["source"] == "user");
    t["steps"][1]["message"] = Json::parse(R"([{"type": "text", "text": "Fix it."},
        {"type": "audio", "source": {"media_type": "audio/wav", "path": "a.wav"}}])");
    const std::string file = (dir / "t18.json").string();
    test::write_file(file, t.dump());
    const auto lossy = cli("convert --lossy --from atif --to nemo-gym-response.v3 " + quote(file));
    REQUIRE(lossy.status == 0);
    const std::string dropped = lossy.err.substr(lossy.err.rfind("; dropped from 1 document: ") + 27);
    CHECK(dropped.find(", 1 audio, ") != std::string::npos);
    const auto strict = cli("convert --from atif --to nemo-gym-response.v3 " + quote(file));
    CHECK(strict.status == 1);
    // the audio part fails the upgrade to the subset, the conversion's losses after it are listed too
    CHECK(strict.err.find(file + ":1: /steps/1/message/1: an audio part: ATIF-v1.7 has no audio\n") != std::string::npos);
    CHECK(strict.err.find(file + ":1: /agent/name: --lossy would drop: a row does not name its agent\n") != std::string::npos);
    CHECK(strict.err.substr(strict.err.rfind("0 converted")) == "0 converted, 1 failed; 1 would convert with --lossy, which drops from 1 document: " + dropped);
    // the same in Python's terms: every value, in the lossy run's order
    std::vector<Error> errors;
    ConvertedText out;
    CHECK_FALSE(convert(t.dump(), "atif", "nemo-gym-response.v3", out, errors));
    ConvertedText lossy_out;
    REQUIRE(convert(t.dump(), "atif", "nemo-gym-response.v3", lossy_out, errors, Style::compact, ConvertOptions{true}));
    CHECK(out.losses == lossy_out.losses);
    CHECK(out.losses.size() > errors.size());
}

TEST_CASE("guidance: upgrade refuses --lossy where it has nothing to drop, and its reasons name versions") {
    test::TempDir dir;
    const Json dpo = test::base(SchemaId::dpo_pair_v2);
    const std::string file = (dir / "dpo.jsonl").string();
    test::write_file(file, dpo.dump() + "\n");
    for (const char* to : {"dpo-pair.v4", "sft-sample.v3 --from sft-sample.v1", "ci-outcome.v3 --from ci-outcome.v1"}) {
        const auto r = cli(std::string("upgrade --lossy --to ") + to + " " + quote(file));
        CHECK(r.status == 2);
        const std::string target = std::string(to).substr(0, std::string(to).find(' '));
        CHECK(r.err.rfind("sediment-rows: --lossy: lossy mode has nothing to drop in an upgrade to " + target +
                              ": each field it adds is derived, or the document fails and says why",
                          0) == 0);
    }
    CHECK_THROWS_AS(upgrade(dpo.dump(), "dpo-pair.v2", SchemaId::dpo_pair_v4, Style::compact, ConvertOptions{true}), std::invalid_argument);
    const auto strict = cli("upgrade --to dpo-pair.v4 " + quote(file));
    CHECK(strict.status == 1);
    CHECK(strict.err.find(file + ":1: /metadata/chosen_repository_identity: a dpo-pair.v2 row has no path to dpo-pair.v4: dpo-pair.v3 "
                                 "adds the chosen member's repository identity, which it does not hold (null would say it is an "
                                 "unambiguous legacy repository)\n") != std::string::npos);
    CHECK(strict.err.find(file + ":1: /metadata/recipe_version: a dpo-pair.v2 row has no path to dpo-pair.v4: it was made by recipe "
                                 "version 1, and dpo-pair.v4 pairs are recipe version 2's, whose semantics changed\n") != std::string::npos);
    CHECK(strict.err.find("would upgrade with --lossy") == std::string::npos);  // --lossy mends nothing here
    // a rollout row's and a trajectory's upgrades keep --lossy
    test::write_file(dir / "v2.jsonl", test::row_of_version(2).dump() + "\n");
    CHECK(cli("upgrade --lossy --to nemo-gym-rollout.v4 " + quote((dir / "v2.jsonl").string())).status == 0);
}

TEST_CASE("guidance: a document of another version says so first, and names the schema to read it with") {
    test::TempDir dir;
    const std::string file = (dir / "v1.jsonl").string();
    test::write_file(file, test::row_of_version(1).dump() + "\n");
    for (const char* engine : {"typed", "schema"}) {
        INFO(engine);
        const auto r = cli(std::string("validate --engine ") + engine + " --schema nemo-gym-rollout.v4 " + quote(file));
        CHECK(r.status == 1);
        CHECK(first_line(r.out) == file + ":1: /metadata/schema_id: the row is nemo-gym-rollout.v1, not nemo-gym-rollout.v4: read it as "
                                          "nemo-gym-rollout (each row as the version it names), or upgrade it to nemo-gym-rollout.v4");
    }
    // the name it gives reads the row
    CHECK(cli("validate --schema nemo-gym-rollout " + quote(file)).status == 0);
    // a newer row under an older version: it does not go back
    test::write_file(file, v4_row() + "\n");
    CHECK(first_line(cli("validate --schema nemo-gym-rollout.v2 " + quote(file)).out) ==
          file + ":1: /metadata/schema_id: the row is nemo-gym-rollout.v4, not nemo-gym-rollout.v2: read it as nemo-gym-rollout (each "
                 "row as the version it names); a row does not go back to an older version");
    // an ATIF trajectory of another version under NeMo Gym's subset
    std::string trajectory = test::kTrajectory;
    trajectory.replace(trajectory.find("ATIF-v1.7"), 9, "ATIF-v1.5");
    const std::string dangling = "{\"trajectory_id\": \"t-2\"}";  // Harbor's rule 9: no such embedded subagent, so a file
    trajectory.replace(trajectory.find(dangling), dangling.size(), "{\"trajectory_id\": \"t-2\", \"trajectory_path\": \"t-2.json\"}");
    test::write_file(dir / "t.json", trajectory);
    CHECK(first_line(cli("validate --schema atif-v1.7 " + quote((dir / "t.json").string())).out) ==
          (dir / "t.json").string() + ":1: /schema_version: the trajectory is ATIF-v1.5, not ATIF-v1.7: read it as atif (Harbor's model, "
                                      "every ATIF version), or upgrade it to atif-v1.7");
    CHECK(cli("validate --schema atif " + quote((dir / "t.json").string())).status == 0);

    // a trajectory made from a v4 row cannot become a v2 row: the conversion says it does not go back
    const auto atif = cli("convert --from nemo-gym-rollout --to atif-v1.7 " + quote(file));
    REQUIRE(atif.status == 0);
    test::write_file(dir / "t4.jsonl", atif.out);
    const auto back = cli("convert --from atif-v1.7 --to nemo-gym-rollout.v2 " + quote((dir / "t4.jsonl").string()));
    CHECK(back.status == 1);
    CHECK(first_line(back.err) == (dir / "t4.jsonl").string() +
                                      ":1: /extra/sediment_rows/metadata/schema_id: the metadata is nemo-gym-rollout.v4's, not "
                                      "nemo-gym-rollout.v2's: convert to nemo-gym-rollout (a row of the version its metadata names); a "
                                      "conversion does not go back to an older version");
    CHECK(cli("convert --from atif-v1.7 --to nemo-gym-rollout " + quote((dir / "t4.jsonl").string())).out == v4_row() + "\n");
    // and a metadata document of another version, the same
    test::write_file(dir / "m.jsonl", Json{{"metadata", test::row_of_version(1)["metadata"]}}.dump() + "\n");
    const auto given = cli("convert --from atif-v1.7 --to nemo-gym-rollout.v4 --metadata " + quote((dir / "m.jsonl").string()) + " " +
                           quote((dir / "t4.jsonl").string()));
    CHECK(given.status == 1);
    CHECK(first_line(given.err) == (dir / "m.jsonl").string() +
                                       ":1: /metadata/schema_id: the metadata is nemo-gym-rollout.v1's, not nemo-gym-rollout.v4's: "
                                       "convert to nemo-gym-rollout (a row of the version its metadata names), then upgrade it to "
                                       "nemo-gym-rollout.v4");
}

TEST_CASE("guidance: an unknown schema name gets the nearest names") {
    CHECK(similar_schema_names("nemo-gym-rolout") == std::vector<std::string_view>{"nemo-gym-rollout"});
    CHECK(similar_schema_names("NEMO-GYM-ROLLOUT.V4").front() == "nemo-gym-rollout.v4");    // case aside
    CHECK(similar_schema_names("nemo-gym-rollout-v4").front() == "nemo-gym-rollout.v4");    // a dash for the dot
    CHECK(similar_schema_names("rollout").front() == "nemo-gym-rollout");                   // a part of a name
    CHECK(similar_schema_names("atif-1.7").front() == "atif-v1.7");
    CHECK(similar_schema_names("ci-outcome.v3") == std::vector<std::string_view>{"ci-outcome.v1", "ci-outcome.v2"});  // not itself
    CHECK(similar_schema_names("frobnicate").empty());
    CHECK(similar_schema_names("nemo-gym-rollout.v", 2).size() == 2);

    const auto r = cli("validate --schema nemo-gym-rolout -");
    CHECK(r.status == 2);
    CHECK(first_line(r.err) == "sediment-rows: unknown schema 'nemo-gym-rolout'; did you mean 'nemo-gym-rollout'? (see 'sediment-rows "
                               "schema list')");
    CHECK(first_line(cli("convert --from atif --to nemo-gym-respons.v3 -").err) ==
          "sediment-rows: unknown schema 'nemo-gym-respons.v3'; did you mean 'nemo-gym-response.v3'? (see 'sediment-rows schema list')");
    CHECK(first_line(cli("validate --schema frobnicate -").err) == "sediment-rows: unknown schema 'frobnicate' (see 'sediment-rows schema list')");
    CHECK(first_line(cli("schema show atif-v17").err).find("did you mean 'atif-v1.7'") != std::string::npos);
    // the C++ API says the same
    try {
        validate("nemo-gym-rolout", "{}");
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()) == "unknown schema 'nemo-gym-rolout'; did you mean 'nemo-gym-rollout'?");
    }
}

TEST_CASE("guidance: a JSON array or a pretty-printed document where JSONL is expected gets a hint, and --document reads it whole") {
    test::TempDir dir;
    const std::string array = (dir / "array.jsonl").string(), pretty = (dir / "pretty.txt").string();
    test::write_file(array, "[" + v4_row() + ", " + v4_row() + "]\n");
    test::write_file(pretty, test::row_of_version(4).dump(2) + "\n");

    const auto a = cli("validate --schema nemo-gym-rollout " + quote(array));
    CHECK(a.status == 1);
    CHECK(a.out == array + ":1: (root): expected an object, got an array (the line is a JSON array: JSONL holds one document per line, "
                           "so write its items one per line, or read the file as one document with --document)\n");
    const auto p = cli("validate --schema nemo-gym-rollout " + quote(pretty));
    CHECK(p.status == 1);
    CHECK(first_line(p.out).find(pretty + ":1: ") == 0);
    CHECK(first_line(p.out).find("(the line opens a document that goes on over the next lines: read the file as one document with "
                                 "--document)") != std::string::npos);
    CHECK(p.out.find(pretty + ":2: ") != std::string::npos);  // the other lines get their own errors, without the hint
    CHECK(p.out.find("--document", p.out.find('\n')) == std::string::npos);

    // --document: the whole file (standard input too) is one document, whatever its name and layout
    CHECK(cli("validate --document --schema nemo-gym-rollout " + quote(pretty)).err == "1 valid, 0 invalid (read as nemo-gym-rollout.v4: 1)\n");
    const auto stdin_pretty = cli("validate --document --schema nemo-gym-rollout.v4 - < " + quote(pretty));
    CHECK(stdin_pretty.status == 0);
    CHECK(stdin_pretty.err == "1 valid, 0 invalid\n");
    const auto whole_array = cli("validate --document --format jsonl --schema nemo-gym-rollout.v4 " + quote(array));
    CHECK(whole_array.status == 1);
    CHECK(whole_array.out == "{\"file\": " + Json(array).dump() + ", \"line\": 1, \"valid\": false, \"errors\": "
                             "[{\"pointer\": \"\", \"message\": \"expected an object, got an array\"}]}\n" +
                             test::summary_record(array, 0, 1));
    CHECK(cli("format --document --schema nemo-gym-rollout " + quote(pretty)).out == v4_row() + "\n");
    CHECK(cli("validate --document=1 --schema nemo-gym-rollout " + quote(pretty)).status == 2);
}
