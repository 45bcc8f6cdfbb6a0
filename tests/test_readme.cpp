// The README never lies: its code example is the compiled examples/readme.cpp, and CI runs its
// Quick start commands as written. (Every other shell and Python block of the docs runs in
// tests/python/test_docs.py.)
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
