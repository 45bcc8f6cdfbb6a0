// libFuzzer target: `validate` on arbitrary bytes, for every bundled schema: the schema engine
// (valijson) and the typed engine both answer without crashing. On the row schemas they give the same
// verdict. On ATIF (the subset and Harbor's model) the typed engine is the stricter one: it adds the rules no JSON Schema can say
// (sequential step ids, tool-call references, total_steps, distinct subagent ids, Python's timestamps), so whatever it
// accepts the schema engine accepts too.
#include <cstdint>
#include <string_view>

#include <sediment/rows.hpp>

#include "check.hpp"

namespace rows = sediment::rows;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const rows::SchemaInfo& schema : rows::kSchemas) {
        const std::vector<rows::Error> typed_errors = rows::validate(schema.id, text).errors, schema_errors = rows::validate(schema.id, text, rows::Engine::schema).errors;
        check_printable(typed_errors);
        check_printable(schema_errors);
        const bool typed = typed_errors.empty(), valijson = schema_errors.empty();
        const bool agree = schema.strict_numbers ? (!typed || valijson) : typed == valijson;  // ATIF, both models
        SEDIMENT_CHECK(agree);
    }
    return 0;
}
