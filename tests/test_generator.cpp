// The generator: schema problems are collected with their locations, nothing is written on failure.
#include <catch2/catch.hpp>

#include "process.hpp"

namespace {
const std::string kGen = SEDIMENT_ROWS_GEN;
const std::string kDir = std::string(SEDIMENT_ROWS_SOURCE_DIR) + "/tests/generator/";
}  // namespace

TEST_CASE("generator: every schema problem is reported with its location, then it fails") {
    test::TempDir out;
    const auto r = test::run(test::quote(kGen) + " --out " + test::quote(out.path().string()) + " " +
                             test::quote(kDir + "bad.schema.json"));
    CHECK(r.status == 1);
    const std::string f = kDir + "bad.schema.json";
    for (const std::string& expected : {
             f + "#/additionalProperties: models must be strict: \"additionalProperties\": false",
             f + "#/required: names \"zzz\", which is not a property",
             f + "#/properties/a/type: 'type' arrays are not supported",
             f + "#/properties/b/format: format 'email' is not supported",
             f + "#/properties/c: keyword 'properties' is not supported here",
             f + "#/properties/d/$ref: '#/$defs/Missing' does not resolve",
             f + "#: properties of Bad share the C++ member name e_f",
             f + "#/properties/g/items/items: arrays of arrays are not supported",  // said, not a crash
         }) {
        INFO(r.err);
        CHECK(r.err.find(expected + "\n") != std::string::npos);
    }
    CHECK(r.err.find("schema problem(s); nothing written") != std::string::npos);
    CHECK(std::filesystem::is_empty(out.path()));
}

TEST_CASE("generator: --check fails with the command that fixes it") {
    test::TempDir out;
    const std::string schemas = test::quote(kDir + "odd.schema.json") + " " + test::quote(kDir + "odd-deep.schema.json");
    const std::string dirs = test::quote(out.path().string()) + " --python " + test::quote(out.path().string()) + " ";
    REQUIRE(test::run(test::quote(kGen) + " --out " + dirs + schemas).status == 0);
    CHECK(test::run(test::quote(kGen) + " --check " + dirs + schemas).status == 0);
    for (const char* file : {"models.hpp", "types.py"}) {
        const std::string text = test::read_file(out / file);
        test::write_file(out / file, text + "# edited\n");
        const auto r = test::run(test::quote(kGen) + " --check " + dirs + schemas);
        CHECK(r.status == 1);
        CHECK(r.err.find(std::string(file) + " is not what the generator writes from the schemas") != std::string::npos);
        CHECK(r.err.find("regenerate them with: cmake --build build --target regenerate") != std::string::npos);
        test::write_file(out / file, text);
    }
}
