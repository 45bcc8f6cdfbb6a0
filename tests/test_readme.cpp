// The README never lies: its code example is the compiled examples/readme.cpp, and CI runs its
// Quick start commands as written.
#include <catch2/catch.hpp>

#include "process.hpp"

namespace {


/// The body of the first fenced block of `language` after `after` in `text`.
std::string fenced_block(const std::string& text, const std::string& after, const std::string& language) {
    const std::size_t from = text.find(after);
    REQUIRE(from != std::string::npos);
    const std::string fence = "```" + language + "\n";
    const std::size_t open = text.find(fence, from);
    REQUIRE(open != std::string::npos);
    const std::size_t close = text.find("```\n", open + fence.size());
    REQUIRE(close != std::string::npos);
    return text.substr(open + fence.size(), close - open - fence.size());
}

}  // namespace

TEST_CASE("readme: the code example is examples/readme.cpp") {
    const std::string readme = test::read_file(test::kSourceDir + "/README.md");
    CHECK(fenced_block(readme, "## Example", "cpp") == test::read_file(test::kSourceDir + "/examples/readme.cpp"));
}

TEST_CASE("readme: the Quick start is two commands, and CI runs them as written") {
    const std::string readme = test::read_file(test::kSourceDir + "/README.md");
    const std::string block = fenced_block(readme, "## Quick start", "sh");
    const std::string ci = test::read_file(test::kSourceDir + "/.ci/run");
    std::size_t commands = 0;
    for (std::size_t at = 0; at < block.size();) {
        const std::size_t end = block.find('\n', at);
        const std::string line = block.substr(at, end - at);
        at = end + 1;
        ++commands;
        CHECK(ci.find("\n" + line + "\n") != std::string::npos);
    }
    CHECK(commands == 2);
}

TEST_CASE("docs/convert.md: its example output is what the CLI writes, and its metadata example makes a lint-clean row") {
    const std::string doc = test::read_file(test::kSourceDir + "/docs/convert.md");
    const std::string cli = std::string("cd ") + "'" + test::kSourceDir + "' && '" + SEDIMENT_ROWS_CLI + "'";
    // a strict conversion, as shown: the command on the block's first line, then what it writes
    const std::string block = fenced_block(doc, "would convert it\n(`examples/trajectory.json`):", "");
    const std::string command = block.substr(0, block.find('\n'));
    REQUIRE(command.rfind("$ sediment-rows ", 0) == 0);
    const auto strict = test::run(cli + command.substr(15));
    CHECK(strict.status == 1);
    CHECK(strict.err == block.substr(command.size() + 1));
    // the summary of the lossy one, as shown
    const std::string lossy_block = fenced_block(doc, "and counts them by kind:", "");
    const std::string lossy_command = lossy_block.substr(0, lossy_block.find('\n'));
    const auto lossy = test::run(cli + lossy_command.substr(15, lossy_command.find(" > ") - 15));
    CHECK(lossy.status == 0);
    REQUIRE(lossy.err.rfind("1 converted") != std::string::npos);
    CHECK(lossy.err.substr(lossy.err.rfind("1 converted")) == lossy_block.substr(lossy_block.rfind("1 converted")));

    // the metadata example: a valid row of version 4 that lint finds nothing in
    test::TempDir dir;
    test::write_file(dir / "meta.jsonl", fenced_block(doc, "<!-- a test converts examples/trajectory.json", "json"));
    const auto row = test::run(cli + " convert --lossy -q --from atif --to nemo-gym-rollout --metadata '" + (dir / "meta.jsonl").string() +
                               "' examples/trajectory.json");
    REQUIRE(row.status == 0);
    test::write_file(dir / "row.jsonl", row.out);
    const auto lint = test::run(cli + " lint --schema nemo-gym-rollout '" + (dir / "row.jsonl").string() + "'");
    CHECK(lint.status == 0);
    CHECK(lint.err == "1 rows: 0 findings, 0 not schema-valid (read as nemo-gym-rollout.v4: 1)\n");
}
