// libFuzzer target (fuzz-rows, main.cpp): `validate` on arbitrary bytes, for the bundled schemas (an
// eighth of them for each input, every one over a run): the schema engine (valijson) and the typed
// engine both answer without crashing. On the row schemas they give the same verdict. On ATIF (the
// subset and Harbor's model) the typed engine is the stricter one: it adds the rules no JSON Schema can
// say (sequential step ids, tool-call references, total_steps, distinct subagent ids, Python's
// timestamps), so whatever it accepts the schema engine accepts too.
#include <cstdint>
#include <string_view>

#include <sediment/rows.hpp>

#include "check.hpp"
#include "targets.hpp"

namespace rows = sediment::rows;

namespace fuzz::validate {

namespace {

/// Every bundled schema is checked, a different eighth of them for each input (by its bytes' FNV-1a
/// hash), so that an input costs 9 schemas' two validations rather than 68's: under the sanitizers all
/// 68 took 0.3 s an input, and a 10-second run read its seeds without fuzzing at all.
constexpr std::size_t kShare = 8;

std::size_t share_of(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return static_cast<std::size_t>(h % kShare);
}

}  // namespace

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::size_t share = share_of(text);
    for (const rows::SchemaInfo& schema : rows::kSchemas) {
        if (static_cast<std::size_t>(schema.id) % kShare != share) continue;
        const std::vector<rows::Error> typed_errors = rows::validate(schema.id, text).errors, schema_errors = rows::validate(schema.id, text, rows::Engine::schema).errors;
        check_printable(typed_errors);
        check_printable(schema_errors);
        const bool typed = typed_errors.empty(), valijson = schema_errors.empty();
        const bool agree = schema.strict_numbers ? (!typed || valijson) : typed == valijson;  // ATIF, both models
        SEDIMENT_CHECK(agree);
    }
    return 0;
}

}  // namespace fuzz::validate
