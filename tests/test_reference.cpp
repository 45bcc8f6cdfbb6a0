// A third opinion: python-jsonschema, a Draft 2020-12 reference validator, gives the typed decoder's
// verdict on every rule case, except where the typed models deliberately go further (listed, and
// asserted to differ, so that the list cannot go stale).
#include <map>

#include <catch2/catch.hpp>

#include "process.hpp"
#include "rules.hpp"

using namespace sediment::rows;

TEST_CASE("reference: python-jsonschema agrees with the typed decoder on every rule case") {
    const std::string root = SEDIMENT_ROWS_SOURCE_DIR;
    // cmake/install-deps.sh installs it with the other dependencies
    REQUIRE(test::run(test::kPython + " -c 'import jsonschema'").status == 0);
    // Where the typed models are stricter than the reference, and why.
    const std::map<std::string, std::string> stricter = {
        {"integer: beyond 64 bits", "the typed models hold 64-bit integers"},
        {"integer: 2^63 as a float", "the typed models hold 64-bit integers"},
        {"integer: 2^70", "the typed models hold 64-bit integers"},
        {"number: 2^70", "the typed models hold numbers as 64-bit integers or doubles"},
        {"date-time: no leap day", "the reference does not assert date-time"},
        {"date-time: century without leap day", "the reference does not assert date-time"},
        {"date-time: April 31", "the reference does not assert date-time"},
        {"date-time: month 13", "the reference does not assert date-time"},
        {"date-time: hour 24", "the reference does not assert date-time"},
        {"date-time: no offset", "the reference does not assert date-time"},
        {"date-time: space separator", "the reference does not assert date-time"},
        {"date-time: date only", "the reference does not assert date-time"},
        {"date-time: five-digit year", "the reference does not assert date-time"},
        {"date-time: empty fraction", "the reference does not assert date-time"},
        {"date-time: offset without colon", "the reference does not assert date-time"},
        {"swe-bench: captured_at February 30", "the reference does not assert date-time"},
    };
    test::TempDir dir;
    std::string requests;
    const auto& cases = test::rule_cases();
    for (const test::RuleCase& c : cases) {
        const std::string file = root + "/schemas/" + std::string(schema_info(c.schema).name) + ".schema.json";
        requests += Json{{"schema", file}, {"document", test::mutate(c.schema, c.change)}}.dump() + "\n";
    }
    test::write_file(dir / "requests.jsonl", requests);
    const auto r = test::run(test::kPython + " " + test::quote(root + "/tests/reference/jsonschema_verdicts.py") + " < " +
                             test::quote((dir / "requests.jsonl").string()));
    REQUIRE(r.status == 0);
    std::istringstream verdicts(r.out);
    std::size_t compared = 0;
    for (const test::RuleCase& c : cases) {
        std::string line;
        REQUIRE(std::getline(verdicts, line));
        const bool reference_valid = Json::parse(line)["valid"].get<bool>();
        const bool typed_valid = *c.id == '\0';
        INFO(c.rule);
        const auto why = stricter.find(c.rule);
        if (why == stricter.end()) {
            CHECK(typed_valid == reference_valid);
            ++compared;
        } else {
            INFO(why->second);
            CHECK(reference_valid);
            CHECK_FALSE(typed_valid);
        }
    }
    CHECK(compared + stricter.size() == cases.size());
}
