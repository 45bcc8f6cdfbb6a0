// Invalid UTF-8 anywhere in the input (in a string, a key, between tokens, at the end of a line, in a
// gzip member, in a file's name) gets a verdict, with its error at its place, through every entry
// point: each C++ call, each CLI command in each report format. No message carries a raw input byte:
// each is written as \xNN, so that every message, and all the CLI writes, is valid UTF-8.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <map>

#include "cli.hpp"

using namespace sediment::rows;
using test::cli;
using test::quote;

namespace {

bool utf8(std::string_view s) { return detail::utf8_error_offset(s) == std::string_view::npos; }

/// A v4 row's compact text with `from` replaced by `to` (its first occurrence).
std::string row_with(const std::string& from, const std::string& to) {
    std::string text = test::row_of_version(4).dump();
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

struct BadInput {
    const char* place;
    std::string text;
    std::string pointer;  // of the one error
    std::string shown;    // how the message shows the bad bytes
};

const std::vector<BadInput>& bad_inputs() {
    static const std::vector<BadInput> inputs = {
        {"a string", row_with(R"("sess_b")", "\"s\xcfss_b\""), "/metadata/session_id", "\\xcf"},
        {"a lone continuation byte, deep in a free-form value", row_with(R"("x"]})", "\"\x80\"]}"),
         "/metadata/verifier_results/0/raw/a/2", "\\x80"},
        {"a key", row_with(R"("org_id":"org_a","session_id")", "\"org\xcf_id\":\"org_a\",\"session_id\""), "/metadata", "\\xcf"},
        {"between tokens", row_with(R"(,"split")", ", \xcf \"split\""), "/metadata", "\\xcf"},
        {"at the end of the line", test::row_of_version(4).dump() + "\xcf", "", "\\xcf"},
        {"an overlong encoding", row_with(R"("sess_b")", "\"\xc0\xaf\""), "/metadata/session_id", "\\xc0"},
        {"an encoded surrogate", row_with(R"("sess_b")", "\"\xed\xa0\x80\""), "/metadata/session_id", "\\xed"},
        {"beyond U+10FFFF", row_with(R"("sess_b")", "\"\xf4\x90\x80\x80\""), "/metadata/session_id", "\\xf4"},
        {"a sequence cut before the quote", row_with(R"("sess_b")", "\"sess_b\xe2\x82\""), "/metadata/session_id", "\\xe2"},
        {"a byte alone", "\xff", "", "\\xff"},
    };
    return inputs;
}

/// Every error of `errors` is valid UTF-8, and the first is the parse error at `in`'s place, showing its bytes escaped.
void check_errors(const BadInput& in, const std::vector<Error>& errors) {
    REQUIRE_FALSE(errors.empty());
    CHECK(errors.front().id == "rows.parse.syntax");
    CHECK(errors.front().pointer == in.pointer);
    CHECK(errors.front().message.find(in.shown) != std::string::npos);
    for (const Error& e : errors) {
        INFO(e);
        CHECK(utf8(e.message));
        CHECK(utf8(e.pointer));
    }
}

void write_gz(const std::filesystem::path& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "wb");
    REQUIRE(f);
    REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
    REQUIRE(gzclose(f) == Z_OK);
}

}  // namespace

TEST_CASE("bad bytes: printable() writes each byte that is not UTF-8 as an escape and cuts at a character") {
    CHECK(detail::printable("plain \xc3\xa9t\xc3\xa9") == "plain \xc3\xa9t\xc3\xa9");
    CHECK(detail::printable("a\xcf" "b\x80\xff") == "a\\xcfb\\x80\\xff");
    CHECK(detail::printable("\xe2\x82") == "\\xe2\\x82");            // a sequence cut short
    CHECK(detail::printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");   // a surrogate
    CHECK(detail::printable("abc\xe2\x82\xac" "def", 4) == "abc\xe2\x82\xac...");  // the euro sign stays whole
    CHECK(detail::printable("abcdef", 3) == "abc...");
    CHECK(detail::quoted("k\xcf", 10) == "'k\\xcf'");
}

TEST_CASE("bad bytes: every C++ call gives the verdict at the place, in valid UTF-8") {
    for (const BadInput& in : bad_inputs()) {
        INFO(in.place);
        check_errors(in, validate("nemo-gym-rollout", in.text).errors);
        check_errors(in, validate(SchemaId::nemo_gym_rollout_v4, in.text).errors);
        std::string padded = in.text;
        padded.reserve(padded.size() + kTextPadding);
        check_errors(in, validate("nemo-gym-rollout", StringText(padded)).errors);
        check_errors(in, validate("nemo-gym-rollout", in.text, Engine::schema).errors);
        check_errors(in, validate(SchemaId::nemo_gym_rollout_v4, in.text, Engine::schema).errors);

        std::vector<Error> errors;
        AnyRolloutRow any;
        CHECK_FALSE(decode(in.text, any, errors));
        check_errors(in, errors);
        try {
            decode<NemoGymRolloutRowV4>(in.text);
            FAIL("decoded");
        } catch (const DecodeError& e) {
            check_errors(in, e.errors());
            CHECK(utf8(e.what()));
        }
        std::string out;
        check_errors(in, format("nemo-gym-rollout", in.text, Style::sediment, out).errors);
        CHECK(out.empty());

        ConvertedText converted;
        errors.clear();
        CHECK_FALSE(convert(in.text, "nemo-gym-rollout", "atif-v1.7", converted, errors));
        check_errors(in, errors);
        Upgraded up;
        errors.clear();
        CHECK_FALSE(upgrade(in.text, "nemo-gym-rollout", SchemaId::nemo_gym_rollout_v4, up, errors));
        check_errors(in, errors);

        check_errors(in, lint("nemo-gym-rollout", in.text).errors);
        SessionFacts facts;
        errors.clear();
        CHECK_FALSE(lint("nemo-gym-rollout", in.text, errors, facts).has_value());
        check_errors(in, errors);
        errors.clear();
        CHECK_FALSE(lint("nemo-gym-rollout", in.text, any, errors));
        check_errors(in, errors);
    }
}

TEST_CASE("bad bytes: ATIF trajectories of both models, and their conversions") {
    std::string text = test::kTrajectory;
    text.replace(text.find("coder"), 5, "co\xcf" "der");
    const BadInput in{"an agent's name", text, "/agent/name", "\\xcf"};
    check_errors(in, validate("atif", text).errors);
    check_errors(in, validate("atif-v1.7", text).errors);
    check_errors(in, validate("atif", text, Engine::schema).errors);
    for (const char* to : {"nemo-gym-response.v3", "nemo-gym-rollout.v4"}) {
        for (const char* from : {"atif", "atif-v1.7"}) {
            ConvertedText converted;
            std::vector<Error> errors;
            CHECK_FALSE(convert(text, from, to, converted, errors, Style::compact, ConvertOptions{true}));
            check_errors(in, errors);
        }
    }
    Upgraded up;
    std::vector<Error> errors;
    CHECK_FALSE(upgrade(text, "atif", SchemaId::atif_v1_7, up, errors));
    check_errors(in, errors);
    // the metadata document of a conversion to a row: its own error, in valid UTF-8
    ConvertedText converted;
    errors.clear();
    CHECK_FALSE(convert(test::kTrajectory, "atif-v1.7", "nemo-gym-rollout.v2", converted, errors, Style::compact,
                        ConvertOptions{true}, std::string_view("{\"metadata\": \xcf}")));
    CHECK(converted.metadata_fault);
    check_errors(BadInput{"metadata", "", "/metadata", "\\xcf"}, errors);
}

TEST_CASE("bad bytes: a caller's DOM with keys and strings that are not UTF-8 gets printable errors") {
    Json row = test::row_of_version(4);
    row["metadata"]["k\xcf"] = 1;                  // an unknown key that is not UTF-8
    row["metadata"]["split"] = "tr\xcf";           // a string that is not UTF-8
    row["response"]["turns"][0]["tool_calls"][0]["arguments"]["\xff"] = 1;  // inside a free-form value
    std::vector<Error> errors;
    NemoGymRolloutRowV4 out;
    CHECK_FALSE(decode(row, out, errors));
    REQUIRE_FALSE(errors.empty());
    std::map<std::string, std::string> found;
    for (const Error& e : errors) {
        INFO(e);
        CHECK(utf8(e.pointer));
        CHECK(utf8(e.message));
        found[e.id] = e.pointer + " " + e.message;
    }
    CHECK(found.count("rows.decode.utf8"));
    CHECK(found["rows.decode.unknown_key"] == "/metadata unknown key 'k\\xcf'");
    for (const Error& e : validate(SchemaId::nemo_gym_rollout_v4, row, Engine::schema).errors) {
        INFO(e);
        CHECK(utf8(e.pointer));
        CHECK(utf8(e.message));
    }
}

TEST_CASE("bad bytes: every CLI command, in every report format, writes valid UTF-8 and a verdict per line") {
    test::TempDir dir;
    const std::string good = test::row_of_version(4).dump();
    std::string text = good + "\n";
    std::vector<std::size_t> bad_lines;
    for (const BadInput& in : bad_inputs()) {
        text += in.text + "\n";
        bad_lines.push_back(bad_lines.size() + 2);
    }
    text += good + "\n";
    test::write_file(dir / "rows.jsonl", text);
    write_gz(dir / "rows.jsonl.gz", text);
    test::write_file(dir / "bad\xcfname.jsonl", text);  // a file name that is not UTF-8 either
    const std::size_t bad = bad_inputs().size();

    const std::vector<std::string> commands = {
        "validate --schema nemo-gym-rollout", "validate --engine schema --schema nemo-gym-rollout.v4",
        "format --schema nemo-gym-rollout --style sediment", "convert --from nemo-gym-rollout --to atif-v1.7",
        "upgrade --to nemo-gym-rollout.v4", "lint --schema nemo-gym-rollout"};
    for (const std::string& command : commands) {
        for (const char* format : {"text", "jsonl", "github"}) {
            for (const char* file : {"rows.jsonl", "rows.jsonl.gz", "bad\xcfname.jsonl"}) {
                const std::string path = (dir / file).string();
                INFO(command << " --format " << format << " " << file);
                const auto r = cli(command + " --format " + format + " -j 2 " + quote(path));
                CHECK(r.status == 1);
                CHECK(utf8(r.out));
                CHECK(utf8(r.err));
                CHECK(r.out.find('\xcf') == std::string::npos);
                // the report names every bad line and its place, in its format
                const std::string shown = detail::printable(path);
                const bool on_stdout = command.rfind("validate", 0) == 0 || command.rfind("lint", 0) == 0;
                const std::string& report = on_stdout ? r.out : r.err;
                for (std::size_t i = 0; i < bad; ++i) {
                    const BadInput& in = bad_inputs()[i];
                    const std::string line = std::to_string(bad_lines[i]);
                    const std::string where = in.pointer.empty() ? "(root)" : in.pointer;
                    if (std::string(format) == "text")
                        CHECK(report.find(shown + ":" + line + ": " + where + ": invalid JSON at byte ") != std::string::npos);
                    else if (std::string(format) == "jsonl")
                        CHECK(report.find("\"line\": " + line + ", \"valid\": false") != std::string::npos);
                    else if (i < 10)  // GitHub shows 10 errors
                        CHECK(report.find(",line=" + line + "::" + where + ": invalid JSON at byte ") != std::string::npos);
                }
                // the summary counts the good lines and the bad ones
                const std::string counts = command.rfind("validate", 0) == 0  ? "2 valid, " + std::to_string(bad) + " invalid"
                                           : command.rfind("format", 0) == 0  ? "2 formatted, " + std::to_string(bad) + " invalid"
                                           : command.rfind("convert", 0) == 0 ? "2 converted, " + std::to_string(bad) + " failed"
                                           : command.rfind("upgrade", 0) == 0 ? "2 upgraded, " + std::to_string(bad) + " failed"
                                                                              : std::to_string(bad + 2) + " rows: ";
                CHECK(r.err.find(counts) != std::string::npos);
                if (command.rfind("lint", 0) == 0) CHECK(r.err.find(std::to_string(bad) + " not schema-valid") != std::string::npos);
            }
        }
    }
}

TEST_CASE("bad bytes: usage and I/O errors on standard error are valid UTF-8 too") {
    test::TempDir dir;
    const std::string missing = (dir / "missing\xcf.jsonl").string();
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"validate --schema 'nemo\xcf' x", "sediment-rows: unknown schema 'nemo\\xcf'"},
        {"validate --bogus\xcf --schema nemo-gym-rollout x", "sediment-rows: unknown option '--bogus\\xcf' for validate"},
        {"validate --schema nemo-gym-rollout " + quote(missing), "sediment-rows: cannot open " + detail::printable(missing)},
        {"convert --from atif --to nemo-gym-rollout --metadata " + quote(missing) + " x", "sediment-rows: cannot open"},
    };
    for (const auto& [args, said] : runs) {
        INFO(args);
        const auto r = cli(args);
        CHECK(r.status == 2);
        CHECK(utf8(r.err));
        CHECK(r.err.rfind(said, 0) == 0);
    }
}

TEST_CASE("bad bytes: a byte-order mark on any line is an error at that line, in every command") {
    test::TempDir dir;
    const std::string row = test::row_of_version(4).dump(), bom = "\xEF\xBB\xBF";
    const std::string message = "(root): a byte-order mark (bytes EF BB BF) at byte 0: JSON text never holds one outside a "
                                "string; save the file as UTF-8 without a BOM";
    test::write_file(dir / "rows.jsonl", bom + row + "\n" + row + "\n" + bom + row + "\n");
    const std::string file = (dir / "rows.jsonl").string();
    const auto validate = cli("validate --schema nemo-gym-rollout " + quote(file));
    CHECK(validate.status == 1);
    CHECK(validate.out == file + ":1: " + message + "\n" + file + ":3: " + message + "\n");
    CHECK(validate.err == "1 valid, 2 invalid (read as nemo-gym-rollout.v4: 1, no version: 2)\n");
    const auto lint = cli("lint --schema nemo-gym-rollout " + quote(file));
    CHECK(lint.status == 1);
    CHECK(lint.out.rfind(file + ":1: " + message + " [rows.parse.bom]\n", 0) == 0);
    const auto format = cli("format --check --schema nemo-gym-rollout " + quote(file));
    CHECK(format.status == 1);
    CHECK(format.err.rfind(file + ":1: " + message + "\n" + file + ":3: " + message + "\n", 0) == 0);
    // a whole .json document, and standard input
    test::write_file(dir / "row.json", bom + row);
    CHECK(cli("validate --schema nemo-gym-rollout " + quote((dir / "row.json").string())).out ==
          (dir / "row.json").string() + ":1: " + message + "\n");
    CHECK(cli("validate --schema nemo-gym-rollout - < " + quote((dir / "row.json").string())).out == "<stdin>:1: " + message + "\n");
}
