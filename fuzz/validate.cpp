// libFuzzer target: `validate` on arbitrary bytes, for every bundled schema: the schema engine
// (valijson) and the typed engine both answer, without crashing, and give the same verdict.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <sediment/rows.hpp>

namespace rows = sediment::rows;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const rows::SchemaInfo& schema : rows::kSchemas) {
        const bool typed = rows::check(schema.id, text).empty();
        const bool valijson = rows::validate(schema.id, text).empty();
        if (typed != valijson) std::abort();
    }
    return 0;
}
