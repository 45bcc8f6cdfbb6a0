// The CLI's conventions: report formats, -q and -v, --fail-fast and --max-errors, format --check and
// --in-place, compressed input, --help for each command.
#include <sys/stat.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "cli.hpp"

using namespace sediment::rows;
using test::cli;
using test::quote;
using test::row_line;

namespace {

/// `text` gzip-compressed into `path`.
void write_gz(const std::filesystem::path& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "wb");
    REQUIRE(f);
    REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
    REQUIRE(gzclose(f) == Z_OK);
}

const std::string kBadSplit = test::mutate(test::kRollout, {"/metadata/split", "\"test\""});
const std::string kSplitError = "/metadata/split: 'test' is not one of 'train', 'eval'";

/// The line in `style` that format writes for the rollout row `line`.
std::string formatted(const std::string& line, Style style = Style::compact) {
    return encode(decode<NemoGymRolloutRowV2>(line), style);
}

std::vector<std::string> names_in(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

ino_t inode(const std::filesystem::path& p) {
    struct stat st {};
    REQUIRE(stat(p.c_str(), &st) == 0);
    return st.st_ino;
}

}  // namespace

TEST_CASE("cli: --format github writes annotations, escaped, the first 10 errors then a count") {
    test::TempDir dir;
    const auto file = dir / "a,b:c%.jsonl";  // ',' and ':' end a property; '%' starts an escape
    std::string text = test::mutate(test::kRollout, {"/odd%key\nhere", "1"}) + "\n";
    for (int i = 0; i < 11; ++i) text += kBadSplit + "\n";
    test::write_file(file, text);
    const std::string property = (dir.path() / "a%2Cb%3Ac%25.jsonl").string();

    const auto r = cli("validate --schema nemo-gym-rollout.v2 --format github " + quote(file.string()));
    CHECK(r.status == 1);
    std::string expected = "::error file=" + property + ",line=1::(root): unknown key 'odd%25key\\nhere'\n";
    for (int line = 2; line <= 10; ++line)
        expected += "::error file=" + property + ",line=" + std::to_string(line) + "::" + kSplitError + "\n";
    expected += "sediment-rows: 2 more errors not annotated (GitHub shows 10 of each per step); --format text lists them all\n";
    CHECK(r.out == expected);
    CHECK(r.err == "0 valid, 12 invalid\n");

    SECTION("text keeps each error on one line: control characters are escaped") {
        const auto t = cli("validate --schema nemo-gym-rollout.v2 --max-errors 1 " + quote(file.string()));
        CHECK(t.out == file.string() + ":1: (root): unknown key 'odd%key\\nhere'\n");
    }
    SECTION("a conversion's dropped values are warnings") {
        const auto trajectory = dir / "t.json";
        test::write_file(trajectory, test::kTrajectory);
        const auto w = cli("convert --lossy --format github --from atif-v1.7 --to nemo-gym-response.v2 " +
                           quote(trajectory.string()));
        CHECK(w.status == 0);
        CHECK(w.err.find("::warning file=" + trajectory.string() + ",line=1::/steps/0/timestamp: dropped: a row has no "
                         "timestamps\n") != std::string::npos);
        CHECK(w.err.find("::error") == std::string::npos);
        // quiet: errors only
        const auto q = cli("convert -q --lossy --format github --from atif-v1.7 --to nemo-gym-response.v2 " +
                           quote(trajectory.string()));
        CHECK(q.status == 0);
        CHECK(q.err.empty());
    }
}

TEST_CASE("cli: -q prints errors only, -v lists valid documents and times the run") {
    test::TempDir dir;
    const auto file = dir / "rows.jsonl";
    test::write_file(file, row_line() + "\n" + kBadSplit + "\n" + row_line() + "\n");
    const std::string f = file.string();

    const auto quiet = cli("validate -q --schema nemo-gym-rollout.v2 " + quote(f));
    CHECK(quiet.status == 1);
    CHECK(quiet.out == f + ":2: " + kSplitError + "\n");
    CHECK(quiet.err.empty());

    const auto verbose = cli("validate --verbose --schema nemo-gym-rollout.v2 " + quote(f));
    CHECK(verbose.status == 1);
    CHECK(verbose.out == f + ":1: valid\n" + f + ":2: " + kSplitError + "\n" + f + ":3: valid\n");
    CHECK(std::regex_match(verbose.err, std::regex(R"(2 valid, 1 invalid in [0-9]+\.[0-9]{2} s \([0-9]+\.[0-9] MB/s, peak [0-9]+\.[0-9] MiB resident\)\n)")));

    CHECK(cli("validate -q -v --schema nemo-gym-rollout.v2 " + quote(f)).status == 2);
    CHECK(cli("validate -q=1 --schema nemo-gym-rollout.v2 " + quote(f)).status == 2);
}

TEST_CASE("cli: --fail-fast stops at the first document that fails, on any number of threads") {
    test::TempDir dir;
    const auto file = dir / "rows.jsonl";
    std::string text;
    const std::string row = row_line();  // (once: parsing and writing it 9,000 times was most of the test)
    for (int i = 1; i <= 9000; ++i) text += (i == 5000 || i == 7000 ? kBadSplit : row) + "\n";
    test::write_file(file, text);
    const std::string f = file.string();
    for (const char* jobs : {"1", "2"}) {
        const auto r = cli("validate --fail-fast -j " + std::string(jobs) + " --schema nemo-gym-rollout.v2 " + quote(f));
        CHECK(r.status == 1);
        CHECK(r.out == f + ":5000: " + kSplitError + "\n");
        CHECK(r.err == "4999 valid, 1 invalid\nsediment-rows: stopped at the first document that failed (--fail-fast)\n");
    }
    // format --fail-fast writes nothing after the failure
    const auto formatted_out = cli("format --fail-fast -j 2 --schema nemo-gym-rollout.v2 " + quote(f));
    CHECK(formatted_out.status == 1);
    std::string expected;
    const std::string row_formatted = formatted(row);
    for (int i = 1; i < 5000; ++i) expected += row_formatted + "\n";
    CHECK(formatted_out.out == expected);
}

TEST_CASE("cli: --max-errors N stops after N errors, within a document or across documents") {
    test::TempDir dir;
    const auto file = dir / "outcomes.jsonl";
    const std::string broken = R"({"x": 1})";  // an unknown key and every required key missing
    test::write_file(file, broken + "\n" + broken + "\n");
    const std::vector<Error> errors = validate<CIOutcomeV1>(broken).errors;
    REQUIRE(errors.size() > 5);
    const std::string f = file.string();

    const auto r = cli("validate --max-errors 5 --schema ci-outcome.v1 " + quote(f));
    CHECK(r.status == 1);
    std::string expected;
    for (std::size_t i = 0; i < 5; ++i)
        expected += f + ":1: " + (errors[i].pointer.empty() ? "(root)" : errors[i].pointer) + ": " + errors[i].message + "\n";
    CHECK(r.out == expected);
    CHECK(r.err == "0 valid, 1 invalid\nsediment-rows: stopped after 5 errors (--max-errors 5)\n");

    const auto jsonl = cli("validate --max-errors=3 --format jsonl --schema ci-outcome.v1 " + quote(f));
    CHECK(jsonl.status == 1);
    const Json line = Json::parse(jsonl.out);  // one line: the run stopped within the first document
    CHECK(line["valid"] == false);
    CHECK(line["errors"].size() == 3);
    CHECK(line["errors"][2]["message"] == errors[2].message);

    // across documents: one error each
    test::write_file(file, kBadSplit + "\n" + kBadSplit + "\n" + kBadSplit + "\n");
    const auto across = cli("validate --max-errors 2 --schema nemo-gym-rollout.v2 " + quote(f));
    CHECK(across.out == f + ":1: " + kSplitError + "\n" + f + ":2: " + kSplitError + "\n");
    CHECK(across.err == "0 valid, 2 invalid\nsediment-rows: stopped after 2 errors (--max-errors 2)\n");

    CHECK(cli("validate --max-errors 0 --schema nemo-gym-rollout.v2 " + quote(f)).status == 2);
    CHECK(cli("validate --max-errors x --schema nemo-gym-rollout.v2 " + quote(f)).status == 2);
}

TEST_CASE("cli: format --check writes nothing and reports each file that would change, at its first line") {
    test::TempDir dir;
    const std::string row = row_line();
    const std::string compact = formatted(row), sediment = formatted(row, Style::sediment);
    REQUIRE(compact != sediment);
    const auto format_check = [&](const std::string& name, const std::string& text, const std::string& options = "") {
        const auto file = dir / name;
        test::write_file(file, text);
        const auto r = cli("format --check " + options + " --schema nemo-gym-rollout.v2 " + quote(file.string()));
        CHECK(test::read_file(file) == text);  // never written
        CHECK(r.out.empty());
        return r;
    };

    const auto clean = format_check("clean.jsonl", compact + "\n" + compact + "\n");
    CHECK(clean.status == 0);
    CHECK(clean.err == "2 formatted, 0 invalid; 0 of 1 files would be reformatted\n");
    CHECK(format_check("clean-sediment.jsonl", sediment + "\n", "--style sediment").status == 0);

    // each file that would change at its first line that would, and why
    const std::string spacing = "spacing at byte 27: ' ' before '{' where format writes nothing";
    REQUIRE(sediment.substr(0, 29) == "{\"responses_create_params\": {");
    const auto styled = format_check("styled.jsonl", compact + "\n" + sediment + "\n" + sediment + "\n");
    CHECK(styled.status == 1);
    CHECK(styled.err == (dir / "styled.jsonl").string() + ":2: would be reformatted from this line on: " + spacing + "\n"
                        "3 formatted, 0 invalid; 1 of 1 files would be reformatted\n");

    // what format drops or adds changes the file too
    const auto first_line = [&](const std::string& name, const std::string& text, const std::string& options = "") {
        const auto r = format_check(name, text, options);
        CHECK(r.status == 1);
        return r.err.substr(0, r.err.find('\n'));
    };
    const std::string at = dir.path().string() + "/";
    CHECK(first_line("blank.jsonl", compact + "\n\n" + compact + "\n") ==
          at + "blank.jsonl:2: would be reformatted from this line on: a blank line, which format drops");
    CHECK(first_line("unterminated.jsonl", compact + "\n" + compact) ==
          at + "unterminated.jsonl:2: would be reformatted from this line on: the file's last line, which no newline ends");
    CHECK(first_line("crlf.jsonl", compact + "\n" + compact + "\r\n") ==
          at + "crlf.jsonl:2: would be reformatted from this line on: the line ends in CR LF, and format writes LF");
    CHECK(first_line("pretty.json", Json::parse(row).dump(2) + "\n") ==
          at + "pretty.json:1: would be reformatted from this line on: spacing at byte 1: '\\n  ' before "
               "'\"responses_create_params\"' where format writes nothing");
    CHECK(format_check("one.json", compact + "\n").status == 0);
    // escaping, key order and numbers, each where it first differs
    std::string raw = formatted(test::mutate(test::kRollout, {"/metadata/org_id", "\"caf\u00e9\""}), Style::sediment);
    const std::size_t escape = raw.find("caf\\u00e9");  // as Sediment writes it; then the line as UTF-8
    REQUIRE(escape != std::string::npos);
    raw.replace(escape, 9, "caf\u00e9");
    CHECK(first_line("escaped.jsonl", raw + "\n", "--style sediment") ==
          at + "escaped.jsonl:1: would be reformatted from this line on: a string escaped otherwise at byte " +
               std::to_string(escape - 1) + ": '\"caf\u00e9\"' where format writes '\"caf\\u00e9\"'");
    Json reordered = Json::parse(row);
    const Json org = reordered["metadata"]["org_id"];
    reordered["metadata"].erase("org_id");
    reordered["metadata"]["org_id"] = org;  // now the metadata's last key
    REQUIRE(reordered["metadata"].begin().key() == "instance_id");
    CHECK(first_line("reordered.jsonl", reordered.dump() + "\n") ==
          at + "reordered.jsonl:1: would be reformatted from this line on: keys in another order: /metadata has "
               "'session_id' where format writes 'org_id'");
    const std::string number = test::mutate(test::kRollout, {"/reward", "1.50"});
    CHECK(first_line("number.jsonl", number + "\n") ==
          at + "number.jsonl:1: would be reformatted from this line on: a number written otherwise at byte " +
               std::to_string(number.find("1.50")) + ": '1.50' where format writes '1.5'");

    // an invalid document: its errors, and its file counts as not formatted
    const auto invalid = format_check("invalid.jsonl", sediment + "\n" + kBadSplit + "\n");
    CHECK(invalid.status == 1);
    CHECK(invalid.err == at + "invalid.jsonl:2: " + kSplitError + "\n" +
                         "1 formatted, 1 invalid; 1 of 1 files not formatted: 1 holds invalid documents\n");
    const auto both = format_check("crlf-invalid.jsonl", compact + "\r\n" + compact + "\r\n" + compact + "\r\n" + kBadSplit + "\r\n");
    CHECK(both.status == 1);
    CHECK(both.err == at + "crlf-invalid.jsonl:4: " + kSplitError + "\n" +
                      "3 formatted, 1 invalid; 1 of 1 files not formatted: 1 holds invalid documents\n");
    test::write_file(dir / "styled2.jsonl", compact + "\n" + sediment + "\n");
    const auto two = cli("format --check --schema nemo-gym-rollout.v2 " + quote((dir / "styled2.jsonl").string()) + " " +
                         quote((dir / "crlf-invalid.jsonl").string()) + " " + quote((dir / "one.json").string()));
    CHECK(two.status == 1);
    CHECK(two.err.substr(two.err.rfind("; ")) == "; 2 of 3 files not formatted: 1 would be reformatted, 1 holds invalid documents\n");

    // --format jsonl: one record for each line, in order, each saying whether it is formatted and why not
    const auto jsonl = format_check("mixed.jsonl", compact + "\r\n\n" + kBadSplit + "\n" + compact + "\n" + sediment, "--format jsonl");
    CHECK(jsonl.status == 1);
    const std::string f = Json((dir / "mixed.jsonl").string()).dump();
    CHECK(jsonl.err == "{\"file\": " + f + ", \"line\": 1, \"valid\": true, \"formatted\": false, \"reason\": \"the line ends in CR LF, "
                       "and format writes LF\", \"errors\": []}\n"
                       "{\"file\": " + f + ", \"line\": 2, \"valid\": true, \"formatted\": false, \"reason\": \"a blank line, which "
                       "format drops\", \"errors\": []}\n"
                       "{\"file\": " + f + ", \"line\": 3, \"valid\": false, \"formatted\": false, \"errors\": [{\"pointer\": "
                       "\"/metadata/split\", \"message\": \"'test' is not one of 'train', 'eval'\"}]}\n"
                       "{\"file\": " + f + ", \"line\": 4, \"valid\": true, \"formatted\": true, \"errors\": []}\n"
                       "{\"file\": " + f + ", \"line\": 5, \"valid\": true, \"formatted\": false, \"reason\": \"" + spacing + "\", "
                       "\"errors\": []}\n"
                       "{\"file\": " + f + ", \"summary\": {\"documents\": 4, \"valid\": 3, \"invalid\": 1}}\n"
                       "3 formatted, 1 invalid; 1 of 1 files not formatted: 1 holds invalid documents\n");

    // github annotations
    const auto github = format_check("styled.jsonl", compact + "\n" + sediment + "\n", "--format github");
    CHECK(github.err == "::error file=" + (dir / "styled.jsonl").string() + ",line=2::would be reformatted from this line on: " + spacing + "\n"
                        "2 formatted, 0 invalid; 1 of 1 files would be reformatted\n");
}

TEST_CASE("cli: format --in-place replaces each file that changes, atomically, and leaves the others") {
    test::TempDir dir;
    const std::string row = row_line();
    const std::string compact = formatted(row), sediment = formatted(row, Style::sediment);
    const auto styled = dir / "styled.jsonl", clean = dir / "clean.jsonl", invalid = dir / "invalid.jsonl";
    const std::string styled_text = sediment + "\n\n" + row + "\n" + compact;
    const std::string invalid_text = sediment + "\n" + kBadSplit + "\n";
    test::write_file(styled, styled_text);
    test::write_file(clean, compact + "\n");
    test::write_file(invalid, invalid_text);
    REQUIRE(chmod(styled.c_str(), 0640) == 0);
    const ino_t styled_inode = inode(styled), clean_inode = inode(clean);

    const auto r = cli("format -i -v --schema nemo-gym-rollout.v2 " + quote(styled.string()) + " " + quote(clean.string()) +
                       " " + quote(invalid.string()));
    CHECK(r.status == 1);  // the invalid document
    CHECK(r.out.empty());
    CHECK(test::read_file(styled) == compact + "\n" + compact + "\n" + compact + "\n");
    CHECK(test::read_file(invalid) == invalid_text);
    CHECK(inode(styled) != styled_inode);  // a new file renamed into place
    CHECK(inode(clean) == clean_inode);    // not rewritten
    struct stat st {};
    REQUIRE(stat(styled.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);
    const std::string listed = styled.string() + ": reformatted\n" + clean.string() + ": already formatted\n" +
                               invalid.string() + ":2: " + kSplitError + "\n" + invalid.string() +
                               ": left as it was (it holds an invalid document)\n" +
                               "  " + styled.string() + ": 3 formatted, 0 invalid\n  " + clean.string() + ": 1 formatted, 0 invalid\n  " +
                               invalid.string() + ": 1 formatted, 1 invalid\n";
    REQUIRE(r.err.rfind(listed, 0) == 0);
    CHECK(std::regex_match(r.err.substr(listed.size()),
                           std::regex(R"(5 formatted, 1 invalid; 1 of 3 files reformatted in [0-9.]+ s \([0-9.]+ MB/s, peak [0-9.]+ MiB resident\)\n)")));
    CHECK(names_in(dir.path()) == std::vector<std::string>{"clean.jsonl", "invalid.jsonl", "styled.jsonl"});  // no temporary left

    SECTION("a symbolic link keeps pointing at its file, which is rewritten") {
        const auto target = dir / "target.jsonl", link = dir / "link.jsonl";
        test::write_file(target, sediment + "\n");
        std::filesystem::create_symlink(target, link);
        const auto s = cli("format --in-place --style compact --schema nemo-gym-rollout.v2 " + quote(link.string()));
        CHECK(s.status == 0);
        CHECK(std::filesystem::is_symlink(link));
        CHECK(test::read_file(target) == compact + "\n");
    }
    SECTION("--style sediment rewrites to Sediment's bytes; a second run changes nothing") {
        CHECK(cli("format -i --style sediment --schema nemo-gym-rollout.v2 " + quote(styled.string())).status == 0);
        CHECK(test::read_file(styled) == sediment + "\n" + sediment + "\n" + sediment + "\n");
        const ino_t before = inode(styled);
        const auto again = cli("format --check --style sediment --schema nemo-gym-rollout.v2 " + quote(styled.string()));
        CHECK(again.status == 0);
        CHECK(cli("format -i --style sediment --schema nemo-gym-rollout.v2 " + quote(styled.string())).status == 0);
        CHECK(inode(styled) == before);
    }
    SECTION("not standard input, not compressed files, not with --check") {
        CHECK(cli("format -i --schema nemo-gym-rollout.v2 -").status == 2);
        CHECK(cli("format -i --check --schema nemo-gym-rollout.v2 " + quote(styled.string())).status == 2);
        const auto gz = dir / "rows.jsonl.gz";
        write_gz(gz, sediment + "\n");
        const std::string before = test::read_file(gz);
        const auto g = cli("format -i --schema nemo-gym-rollout.v2 " + quote(gz.string()));
        CHECK(g.status == 2);
        CHECK(g.err.find("sediment-rows: " + gz.string() + " is compressed: --in-place rewrites plain files only\n") !=
              std::string::npos);
        CHECK(test::read_file(gz) == before);
    }
}

/// Every file below `dir`, by its path relative to it.
std::vector<std::string> files_below(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (!e.is_directory()) names.push_back(e.path().lexically_relative(dir).generic_string());
    std::sort(names.begin(), names.end());
    return names;
}

TEST_CASE("cli: --out FOLDER writes a file for each input, named by its path below the inputs' folder") {
    test::TempDir dir;
    const auto in = dir / "in", out = dir / "out";
    std::filesystem::create_directories(in / "sub");
    const std::string row = row_line();
    test::write_file(in / "a.jsonl", formatted(row, Style::sediment) + "\n" + row + "\n");
    write_gz(in / "sub" / "b.jsonl.gz", row + "\n" + kBadSplit + "\n");
    const std::string inputs = quote((in / "a.jsonl").string()) + " " + quote((in / "sub" / "b.jsonl.gz").string());

    SECTION("format: each file formatted, an invalid document left out, the subfolder kept, .gz dropped") {
        const auto r = cli("format -v --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " + inputs);
        CHECK(r.status == 1);  // b's invalid document
        CHECK(r.out.empty());
        CHECK(files_below(out) == std::vector<std::string>{"a.jsonl", "sub/b.jsonl"});  // no temporary left
        CHECK(test::read_file(out / "a.jsonl") == formatted(row) + "\n" + formatted(row) + "\n");
        CHECK(test::read_file(out / "sub" / "b.jsonl") == formatted(row) + "\n");
        CHECK(r.err.find((in / "sub" / "b.jsonl.gz").string() + ":2: " + kSplitError + "\n") != std::string::npos);
        CHECK(r.err.find((in / "a.jsonl").string() + " -> " + (out / "a.jsonl").string() + "\n") != std::string::npos);
        // a second run replaces the files it wrote
        test::write_file(out / "a.jsonl", "old\n");
        CHECK(cli("format --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " + inputs).status == 1);
        CHECK(test::read_file(out / "a.jsonl") == formatted(row) + "\n" + formatted(row) + "\n");
    }
    SECTION("upgrade writes what it writes to standard output, a file per input") {
        const auto r = cli("upgrade --lossy --to nemo-gym-rollout.v4 --out " + quote(out.string()) + " " + quote((in / "a.jsonl").string()));
        CHECK(r.status == 0);
        CHECK(r.out.empty());
        const auto piped = cli("upgrade --lossy --to nemo-gym-rollout.v4 " + quote((in / "a.jsonl").string()));
        REQUIRE(piped.status == 0);
        CHECK(test::read_file(out / "a.jsonl") == piped.out);
    }
    SECTION("convert: a whole *.json document becomes a line of *.jsonl") {
        test::write_file(in / "t.json", test::kTrajectory);
        const auto r = cli("convert --lossy --from atif-v1.7 --to nemo-gym-response.v3 --out " + quote(out.string()) + " " +
                           quote((in / "t.json").string()));
        CHECK(r.status == 0);
        const auto piped = cli("convert --lossy --from atif-v1.7 --to nemo-gym-response.v3 " + quote((in / "t.json").string()));
        CHECK(files_below(out) == std::vector<std::string>{"t.jsonl"});
        CHECK(test::read_file(out / "t.jsonl") == piped.out);
    }
    SECTION("an input that cannot be read whole gets no output file; the others do") {
        test::write_file(in / "broken.jsonl.gz", test::read_file(in / "sub" / "b.jsonl.gz").substr(0, 30));  // cut short
        const auto r = cli("format --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " + quote((in / "a.jsonl").string()) +
                           " " + quote((in / "broken.jsonl.gz").string()) + " " + quote((in / "missing.jsonl").string()));
        CHECK(r.status == 2);
        CHECK(files_below(out) == std::vector<std::string>{"a.jsonl"});
    }
    SECTION("refused: overwriting an input, two inputs to one file, standard input, with --check or -i") {
        const auto over = cli("format --schema nemo-gym-rollout.v2 --out " + quote(in.string()) + " " + quote((in / "sub" / "b.jsonl.gz").string()) +
                              " " + quote((in / "b.jsonl").string()));
        CHECK(over.status == 2);
        const auto same_name = cli("format --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " +
                                   quote((in / "sub" / "b.jsonl.gz").string()) + " " + quote((in / "sub" / "b.jsonl").string()));
        CHECK(same_name.status == 2);
        CHECK(same_name.err.find((in / "sub" / "b.jsonl.gz").string() + " and " + (in / "sub" / "b.jsonl").string() +
                                 " would both write " + (out / "b.jsonl").string()) != std::string::npos);  // below in/sub, their folder
        const auto own = cli("format --schema nemo-gym-rollout.v2 --out " + quote(in.string()) + " " + quote((in / "a.jsonl").string()));
        CHECK(own.status == 2);
        CHECK(own.err.find("would overwrite the input " + (in / "a.jsonl").string()) != std::string::npos);
        const auto piped = cli("format --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " -");
        CHECK(piped.status == 2);
        CHECK(piped.err.find("standard input has no name") != std::string::npos);
        CHECK(cli("format --check --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " + inputs).status == 2);
        CHECK(cli("format -i --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " + inputs).status == 2);
        CHECK(cli("validate --schema nemo-gym-rollout.v2 --out " + quote(out.string()) + " " + inputs).status == 2);
        CHECK_FALSE(std::filesystem::exists(out));
        CHECK(test::read_file(in / "a.jsonl") == formatted(row, Style::sediment) + "\n" + row + "\n");
    }
}

TEST_CASE("cli: gzip-compressed input is read like plain input") {
    test::TempDir dir;
    const std::string text = row_line() + "\n" + kBadSplit + "\n" + row_line() + "\n";
    const auto gz = dir / "rows.jsonl.gz";
    write_gz(gz, text);

    const auto r = cli("validate --schema nemo-gym-rollout.v2 " + quote(gz.string()));
    CHECK(r.status == 1);
    CHECK(r.out == gz.string() + ":2: " + kSplitError + "\n");
    CHECK(r.err == "2 valid, 1 invalid\n");

    // whatever its name; and from standard input
    const auto named_plain = dir / "rows.jsonl";
    std::filesystem::copy_file(gz, named_plain);
    CHECK(cli("validate --schema nemo-gym-rollout.v2 " + quote(named_plain.string())).out == named_plain.string() + ":2: " + kSplitError + "\n");
    const auto piped = test::run("cat " + quote(gz.string()) + " | " + quote(test::kCli) + " validate --schema nemo-gym-rollout.v2 -");
    CHECK(piped.out == "<stdin>:2: " + kSplitError + "\n");

    // a .json.gz file is one document
    const auto trajectory = dir / "t.json.gz";
    write_gz(trajectory, test::kTrajectory);
    const auto one = cli("validate --format jsonl --schema atif-v1.7 " + quote(trajectory.string()));
    CHECK(one.status == 0);
    CHECK(one.out == "{\"file\": " + Json(trajectory.string()).dump() + ", \"line\": 1, \"valid\": true, \"errors\": []}\n" +
                         "{\"file\": " + Json(trajectory.string()).dump() + ", \"summary\": {\"documents\": 1, \"valid\": 1, \"invalid\": 0}}\n");

    SECTION("a truncated or corrupt file is an I/O error, never a short read taken for the end") {
        std::string bytes = test::read_file(gz);
        const auto truncated = dir / "truncated.jsonl.gz";
        test::write_file(truncated, bytes.substr(0, bytes.size() - 12));
        const auto t = cli("validate --schema nemo-gym-rollout.v2 " + quote(truncated.string()));
        CHECK(t.status == 2);
        CHECK(t.err.find("sediment-rows: cannot read " + truncated.string() + ": the compressed data ends early") != std::string::npos);

        bytes[bytes.size() / 2] ^= 0x55;
        bytes[bytes.size() / 2 + 1] ^= 0x55;
        const auto corrupt = dir / "corrupt.jsonl.gz";
        test::write_file(corrupt, bytes);
        const auto c = cli("validate --schema nemo-gym-rollout.v2 " + quote(corrupt.string()));
        CHECK(c.status == 2);
        CHECK(c.err.find("sediment-rows: cannot read " + corrupt.string() + ": ") != std::string::npos);
    }
}

TEST_CASE("cli: a line longer than --max-document-bytes is not kept, and its error gives its full size") {
    test::TempDir dir;
    const auto file = dir / "rows.jsonl";
    const std::string row = row_line();
    test::write_file(file, row + "\n" + row + "\n");
    const auto r = cli("validate --max-document-bytes 100 --schema nemo-gym-rollout.v2 " + quote(file.string()));
    CHECK(r.status == 1);
    const std::string error = ": (root): document of " + std::to_string(row.size()) + " bytes exceeds 100 (limit max_document_bytes)\n";
    CHECK(r.out == file.string() + ":1" + error + file.string() + ":2" + error);
}

TEST_CASE("cli: --help for each command documents its options and exit status") {
    const std::map<std::string, std::vector<std::string>> options = {
        {"validate", {"--schema", "--engine", "--format", "--quiet", "--verbose", "--fail-fast", "--max-errors", "--jobs", "--max-depth"}},
        {"format", {"--schema", "--style", "--check", "--in-place", "--format", "--fail-fast", "--max-errors"}},
        {"convert", {"--from", "--to", "--metadata", "--lossy", "--style", "--format", "--fail-fast", "--max-errors"}},
        {"schema", {"list", "show"}},
    };
    for (const auto& [command, names] : options) {
        const auto h = cli(command + " --help");
        CHECK(h.status == 0);
        CHECK(h.out.rfind("usage: sediment-rows " + command, 0) == 0);
        CHECK(h.out.find("\nExit status:\n  0  ") != std::string::npos);
        CHECK(h.out.find("\n  2  usage error") != std::string::npos);
        for (const std::string& name : names) CHECK(h.out.find(name) != std::string::npos);
        CHECK(cli("help " + command).out == h.out);
        CHECK(cli(command + " -h").out == h.out);
    }
    CHECK(cli("validate --schema nope -h").status == 0);  // help wins over a bad option
    const auto overview = cli("--help");
    for (const char* command : {"validate", "format", "convert", "schema", "help"})
        CHECK(overview.out.find(std::string("\n  ") + command + " ") != std::string::npos);
    CHECK(overview.out.find("Exit status:") != std::string::npos);
    CHECK(cli("help frobnicate").status == 2);
}

TEST_CASE("cli: --name=value, and -- before files whose names start with '-'") {
    test::TempDir dir;
    const auto file = dir / "-rows.jsonl";
    test::write_file(file, kBadSplit + "\n");
    const auto r = test::run("cd " + quote(dir.path().string()) + " && " + quote(test::kCli) +
                             " validate --schema=nemo-gym-rollout.v2 --format=jsonl -- -rows.jsonl");
    CHECK(r.status == 1);
    CHECK(Json::parse(r.out.substr(0, r.out.find('\n')))["file"] == "-rows.jsonl");
    CHECK(cli("validate --schema=nemo-gym-rollout.v2 --format=xml x").status == 2);
}

TEST_CASE("cli: output that cannot be written is an I/O error, and the run stops") {
    test::TempDir dir;
    const auto file = dir / "rows.jsonl";
    std::string text;
    const std::string row = row_line();
    for (int i = 0; i < 2000; ++i) text += row + "\n";  // more than one buffer of output
    test::write_file(file, text);
    for (const std::string command : {"format --schema nemo-gym-rollout.v2", "convert --from nemo-gym-rollout.v2 --to atif-v1.7"}) {
        const auto r = cli(command + " " + quote(file.string()) + " > /dev/full");
        CHECK(r.status == 2);
        CHECK(r.err.find("sediment-rows: cannot write to standard output\n") != std::string::npos);
    }
    CHECK(cli("schema show atif-v1.7 > /dev/full").status == 2);
}

TEST_CASE("cli: lines across and longer than a 4 MiB read block, and past the limit: plain, gzip and piped") {
    // A plain file is mapped and read in place; gzip and standard input are read a 4 MiB block at a time,
    // the partial line at a block's end starting the next, and a line longer than a block growing it.
    test::TempDir dir;
    const auto with_text = [](std::size_t n) {
        Json row = Json::parse(test::kRow);
        row["responses_create_params"]["input"][0]["parts"][0]["content"] = std::string(n, 'x');
        return encode(row);
    };
    const std::string five = with_text(5u << 20), nine = with_text(9u << 20);
    std::string text = row_line() + "\n" + five + "\n";   // lines 1, 2
    const std::string row = row_line();
    for (int i = 0; i < 600; ++i) text += row + "\n";  // 3..602: many blocks' boundaries
    text += nine + "\n\n" + kBadSplit + "\n" + five + "\n" + row_line();  // 603, blank 604, 605, 606, 607 unterminated
    test::write_file(dir / "rows.jsonl", text);
    write_gz(dir / "rows.jsonl.gz", text);
    const std::string limit = " --max-document-bytes " + std::to_string(6u << 20) + " ";  // between five and nine
    for (const char* name : {"rows.jsonl", "rows.jsonl.gz", "-"}) {
        const std::string f = name == std::string("-") ? "<stdin>" : (dir / name).string();
        const auto run = [&](const std::string& options) {
            if (name != std::string("-")) return cli("validate --schema nemo-gym-rollout.v2" + options + quote(f));
            return test::run("cat " + quote((dir / "rows.jsonl.gz").string()) + " | " + quote(test::kCli) +
                             " validate --schema nemo-gym-rollout.v2" + options + "-");
        };
        INFO(name);
        const auto r = run(" -j 2 ");
        CHECK(r.out == f + ":605: " + kSplitError + "\n");
        CHECK(r.err == "605 valid, 1 invalid\n");
        const auto limited = run(limit);
        CHECK(limited.out == f + ":603: (root): document of " + std::to_string(nine.size()) +
                                 " bytes exceeds 6291456 (limit max_document_bytes)\n" + f + ":605: " + kSplitError + "\n");
        CHECK(limited.err == "604 valid, 2 invalid\n");
    }
}

TEST_CASE("cli: documents longer than the read buffer, plain and compressed, one per line or one per file") {
    test::TempDir dir;
    // a row whose first input text is 3 MB: it spans many 64 KiB reads
    Json row = Json::parse(test::kRow);
    row["responses_create_params"]["input"][0]["parts"][0]["content"] = std::string(3u << 20, 'x');
    const std::string line = encode(row);
    REQUIRE(validate<NemoGymRolloutRowV2>(line).errors.empty());
    const std::string text = row_line() + "\n" + line + "\n" + kBadSplit + "\n" + line;  // the last line unterminated
    test::write_file(dir / "long.jsonl", text);
    write_gz(dir / "long.jsonl.gz", text);
    for (const char* name : {"long.jsonl", "long.jsonl.gz"}) {
        const std::string f = (dir / name).string();
        const auto r = cli("validate --schema nemo-gym-rollout.v2 " + quote(f));
        CHECK(r.status == 1);
        CHECK(r.out == f + ":3: " + kSplitError + "\n");
        CHECK(r.err == "3 valid, 1 invalid\n");
        const auto formatted_out = cli("format --schema nemo-gym-rollout.v2 " + quote(f));
        CHECK(formatted_out.out == formatted(row_line()) + "\n" + formatted(line) + "\n" + formatted(line) + "\n");
    }
    test::write_file(dir / "long.json", line);
    write_gz(dir / "long.json.gz", line);
    for (const char* name : {"long.json", "long.json.gz"}) {
        const auto r = cli("validate --schema nemo-gym-rollout.v2 " + quote((dir / name).string()));
        CHECK(r.status == 0);
        CHECK(r.err == "1 valid, 0 invalid\n");
    }
}

TEST_CASE("cli: a folder stands for its document files, sorted, each named under it, with a line per file") {
    test::TempDir dir;
    const std::filesystem::path root = dir / "export";
    std::filesystem::create_directories(root / "b");
    std::filesystem::create_directories(root / ".cache");
    const std::string sft = test::base(SchemaId::sft_sample_v3).dump(), dpo = test::base(SchemaId::dpo_pair_v4).dump();
    test::write_file(root / "sft.train.jsonl", sft + "\n" + sft + "\n");
    test::write_file(root / "b" / "dpo.eval.jsonl", dpo + "\n" + test::mutate(SchemaId::dpo_pair_v4, {"/metadata/split", "\"test\""}) + "\n");
    write_gz(root / "b" / "a.jsonl.gz", sft + "\n");
    test::write_file(root / "notes.txt", "not a document file\n");
    test::write_file(root / ".cache" / "x.jsonl", "hidden: not read\n");
    const std::string r = root.string();

    SECTION("validate: errors at FOLDER/PATH, a line per file in the summary, then the total") {
        const auto v = cli("validate --schema any " + quote(r));
        CHECK(v.status == 1);
        CHECK(v.out == r + "/b/dpo.eval.jsonl:2: /metadata/split: 'test' is not one of 'train', 'eval'\n");
        CHECK(v.err == "  " + r + "/b/a.jsonl.gz: 1 valid, 0 invalid (read as sft-sample.v3: 1)\n" +
                           "  " + r + "/b/dpo.eval.jsonl: 1 valid, 1 invalid (read as dpo-pair.v4: 2)\n" +
                           "  " + r + "/sft.train.jsonl: 2 valid, 0 invalid (read as sft-sample.v3: 2)\n" +
                           "4 valid, 1 invalid (read as dpo-pair.v4: 2, sft-sample.v3: 3)\n");
        // a trailing '/' names the files the same way, and a folder goes beside files
        const auto w = cli("validate --schema any " + quote(r + "/") + " " + quote(r + "/sft.train.jsonl"));
        CHECK(w.out == v.out);
        CHECK(w.err.find("  " + r + "/sft.train.jsonl: 2 valid, 0 invalid (read as sft-sample.v3: 2)\n  " + r +
                         "/sft.train.jsonl: 2 valid") != std::string::npos);
    }
    SECTION("--format jsonl: a summary record after each file's documents") {
        const auto v = cli("validate --schema any --format jsonl " + quote(r + "/b"));
        std::vector<std::string> lines;
        std::istringstream in(v.out);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        REQUIRE(lines.size() == 5);
        CHECK(lines[1] == "{\"file\": " + Json(r + "/b/a.jsonl.gz").dump() +
                              ", \"summary\": {\"documents\": 1, \"valid\": 1, \"invalid\": 0, \"read_as\": {\"sft-sample.v3\": 1}}}");
        CHECK(lines[4] == "{\"file\": " + Json(r + "/b/dpo.eval.jsonl").dump() +
                              ", \"summary\": {\"documents\": 2, \"valid\": 1, \"invalid\": 1, \"read_as\": {\"dpo-pair.v4\": 2}}}");
        CHECK(Json::parse(lines[3])["line"] == Json(2));
    }
    SECTION("format --check and convert --out walk it too; --out keeps the folder's layout") {
        CHECK(cli("format --check --schema any " + quote(r + "/b")).err.find("; 1 of 2 files not formatted: 1 holds invalid documents\n") != std::string::npos);
        const auto out = dir / "out";
        const auto u = cli("format --schema sft-sample --out " + quote(out.string()) + " " + quote(r + "/sft.train.jsonl") + " " + quote(r + "/b/a.jsonl.gz"));
        CHECK(u.status == 0);
        CHECK(test::read_file(out / "b" / "a.jsonl") == sft + "\n");
        CHECK(test::read_file(out / "sft.train.jsonl") == sft + "\n" + sft + "\n");
    }
    SECTION("a folder with no document file, or that is missing, is a usage error") {
        std::filesystem::create_directories(dir / "empty" / "sub");
        test::write_file(dir / "empty" / "sub" / "rows.csv", "a,b\n");
        const auto e = cli("validate --schema any " + quote((dir / "empty").string()));
        CHECK(e.status == 2);
        CHECK(e.err.rfind("sediment-rows: the folder " + (dir / "empty").string() + " holds no *.jsonl, *.jsonl.gz, *.json or *.json.gz file\n", 0) == 0);
        CHECK(cli("validate --schema any " + quote((dir / "missing").string())).status == 2);
    }
}
