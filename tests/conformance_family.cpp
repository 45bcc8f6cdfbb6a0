// Conformance over Sediment's other families: schemagen.py's rows of every bundled schema and version
// (Sediment's bytes and UTF-8), and the real rows of fixtures/family.
#include "conformance.hpp"

using namespace sediment::rows;
using namespace conformance;

namespace {

bool has_big_integer(const Json& j) {
    if (is_big_integer(j)) return true;
    if (j.is_structured())
        for (const Json& item : j) if (has_big_integer(item)) return true;
    return false;
}

/// schemagen.py's documents of the schema `name`, generated now (never committed).
std::vector<std::string> schemagen(const std::string& name, const std::string& args) {
    const auto r = test::run(test::kPython + " " + test::quote(kShared + "/tools/schemagen.py") + " " + name + " " + args);
    REQUIRE(r.status == 0);
    return lines_of(r.out);
}

/// Every schema schemagen.py writes that is not a rollout row's (rowgen.py covers those).
std::vector<SchemaId> family_schemas() {
    std::vector<SchemaId> out;
    for (const std::string& name : lines_of(test::run(test::kPython + " " + test::quote(kShared + "/tools/schemagen.py") + " --list").out)) {
        const SchemaInfo* s = find_schema(name);
        REQUIRE(s);  // every schema Sediment publishes is bundled
        if (s->base != "nemo-gym-rollout") out.push_back(s->id);
    }
    return out;
}

}  // namespace

TEST_CASE("conformance: schemagen's documents of every family and part validate, agree, and re-encode byte for byte") {
    const std::vector<SchemaId> schemas = family_schemas();
    CHECK(schemas.size() == 62);  // 66 it writes (ATIF aside), less the 4 rollout versions
    for (const SchemaId schema : schemas) {
        INFO(schema_info(schema).name);
        const std::string args = std::to_string(sample(40)) + " --seed 5";
        conforms(schema, schemagen(std::string(schema_info(schema).name), args + " --sediment"),
                 schemagen(std::string(schema_info(schema).name), args));
    }
}

TEST_CASE("conformance: each family's rows read under their name without a version, and fail under every other version") {
    std::size_t families = 0;
    for (const SchemaInfo& s : kSchemas) {
        if (s.version_pointer.empty() || s.base == "nemo-gym-rollout") continue;
        families += versions_of(s.base).front() == s.id;
        for (const std::string& line : schemagen(std::string(s.name), "15 --seed 6 --sediment")) {
            INFO(s.name << ": " << line.substr(0, 200));
            const Validated own = validate(s.base, line);
            CHECK(own.errors.empty());
            CHECK(own.schema == s.id);
            CHECK(validate("any", line).schema == s.id);
            for (const SchemaId other : versions_of(s.base)) {
                if (other == s.id) continue;
                const auto typed = validate(other, line).errors;
                REQUIRE_FALSE(typed.empty());
                CHECK(typed.front().id == "rows.decode.other_version");
                CHECK(typed.front().pointer == s.version_pointer);
                const auto schema = validate(other, line, Engine::schema).errors;
                REQUIRE_FALSE(schema.empty());
                CHECK(schema.front() == typed.front());
            }
        }
    }
    CHECK(families == 7);
}

TEST_CASE("conformance: a file mixing every family validates and formats with --schema any") {
    test::TempDir dir;
    std::string mixed;
    std::size_t rows = 0;
    for (const SchemaInfo& s : kSchemas) {
        if (s.version_pointer.empty()) continue;
        for (const std::string& line : schemagen(std::string(s.name), "3 --seed 7 --sediment")) mixed += line + "\n", ++rows;
    }
    test::write_file(dir / "mixed.jsonl", mixed);
    const std::string file = test::quote((dir / "mixed.jsonl").string());
    for (const char* engine : {"typed", "schema"}) {
        INFO(engine);
        const auto r = test::run(std::string(SEDIMENT_ROWS_CLI) + " validate --schema any --engine " + engine + " " + file);
        CHECK(r.status == 0);
        CHECK(r.err.rfind(std::to_string(rows) + " valid, 0 invalid (read as diff-sft-sample.v1: 3, ", 0) == 0);
    }
    CHECK(rows == 27 * 3);
    const auto format = test::run(std::string(SEDIMENT_ROWS_CLI) + " format --check --style sediment --schema any " + file);
    CHECK(format.status == 0);
}

TEST_CASE("conformance: the real SFT and DPO rows of Sediment's documentation validate and re-encode to the same values") {
    const std::pair<const char*, SchemaId> fixtures[] = {
        {"sft-sample.v3.sediment-docs-example.json", SchemaId::sft_sample_v3},
        {"dpo-pair.v4.sediment-docs-example.json", SchemaId::dpo_pair_v4},
    };
    for (const auto& [file, schema] : fixtures) {
        INFO(file);
        const std::string text = test::read_file(kShared + "/fixtures/family/" + file);
        const SchemaInfo& info = schema_info(schema);
        CHECK(validate(schema, text).errors.empty());
        CHECK(validate(schema, text, Engine::schema).errors.empty());
        CHECK(validate(info.base, text).schema == schema);
        std::string out;
        REQUIRE(format(info.base, text, Style::sediment, out).valid());
        // the same values: the docs' example puts some metadata keys in another order than the schema's
        CHECK(nlohmann::json::parse(out) == nlohmann::json::parse(text));
    }
}

TEST_CASE("conformance: the fast path and both engines agree on mutated rows of every family") {
    const std::vector<std::string> replacements = {"null", "1", "-1", "0", "1.5", "\"x\"", "\"\"", "true", "[]", "{}",
                                                   "\"assistant\"", "\"tool\"", "\"2026-02-30T00:00:00Z\"", "2", "\"git_notes\""};
    std::mt19937 random(31);
    const std::size_t n = sample(10);  // documents of each schema, each mutated 6 times
    std::size_t invalid = 0, total = 0, fast = 0, small = 0;  // small: valid, and no integer beyond 64 bits
    for (const SchemaInfo& s : kSchemas) {
        if (s.version_pointer.empty() || s.base == "nemo-gym-rollout") continue;
        for (const std::string& line : schemagen(std::string(s.name), std::to_string(n) + " --seed 9 --scale 0.3")) {
            const Json doc = parse(line);
            for (int k = 0; k < 6; ++k) {
                const std::string text = encode(mutated(doc, random, replacements));
                INFO(s.name << ": " << text.substr(0, 300));
                const auto typed = validate(s.id, text).errors;
                CHECK(typed.empty() == validate(s.id, text, Engine::schema).errors.empty());
                bool both_fast = false, both_exact = false;
                visit_schema(s.id, [&](auto tag) {
                    const auto both = test::read_both<typename decltype(tag)::type>(text, s.id);
                    both_fast = both.fast, both_exact = both.exact;
                    return true;
                });
                CHECK(both_exact == typed.empty());
                if (both_fast) CHECK(both_exact);
                fast += both_fast;
                small += both_exact && !has_big_integer(parse(text));
                invalid += !typed.empty();
                ++total;
            }
        }
    }
    CHECK(total == 23 * n * 6);
    CHECK(invalid * 2 > total);
    CHECK(fast * 100 >= small * 99);  // integers beyond 64 bits go to the exact reader, by design
    CHECK(small * 14 > total);  // (of 1,380: 100)
}
