// libFuzzer target (fuzz-rows, main.cpp): repair() on arbitrary bytes, for Harbor's model and NeMo Gym's
// subset, strict and lossy. Nothing crashes or hangs; errors are printable; a document that comes out
// is valid under the schema, and repairing it again changes nothing; a valid input comes back as it
// was; a strict repair makes no lossy change and gives what the lossy one gives when it succeeds.
#include <cstdint>
#include <string_view>

#include <sediment/rows.hpp>

#include "check.hpp"
#include "targets.hpp"

namespace rows = sediment::rows;

namespace fuzz::repair {

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const rows::SchemaId schema : {rows::SchemaId::atif, rows::SchemaId::atif_v1_7}) {
        const bool valid = rows::validate(schema, text).errors.empty();
        const rows::Repaired strict = rows::repair(text, schema);
        const rows::Repaired lossy = rows::repair(text, schema, rows::RepairOptions{true});
        for (const rows::Repaired* r : {&strict, &lossy}) {
            check_printable(r->errors);
            SEDIMENT_CHECK(r->ok() == !r->text.empty());
            if (!r->ok()) continue;
            SEDIMENT_CHECK(rows::validate(schema, r->text).errors.empty());
            if (valid) SEDIMENT_CHECK(r->text == text && r->repairs.empty());
            const rows::Repaired again = rows::repair(r->text, schema);
            SEDIMENT_CHECK(again.ok() && again.text == r->text && again.repairs.empty());
        }
        if (strict.ok()) {
            for (const rows::Repair& change : strict.repairs) SEDIMENT_CHECK(!change.lossy);
            SEDIMENT_CHECK(lossy.ok() && lossy.text == strict.text && lossy.repairs == strict.repairs);
        }
    }
    return 0;
}

}  // namespace fuzz::repair
