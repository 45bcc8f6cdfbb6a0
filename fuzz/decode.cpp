// libFuzzer target (fuzz-rows, main.cpp): the typed decoders of one bundled schema, named at run time
// by the environment variable SEDIMENT_FUZZ_SCHEMA ("nemo-gym-rollout.v4"): one binary serves every
// schema. On any bytes:
//   - the fast path accepts only what the exact reader accepts, with the same value, and the
//     check-only fast path exactly what the fast path accepts;
//   - the exact reader fails exactly when it reports an error;
//   - decode() into one model reused from input to input gives what a fresh model gets;
//   - a decoded value encodes (both styles) to text that decodes to the same value and the same bytes;
//   - atif: an upgrade to the subset changes the label and nothing else, and gives a document valid
//     under the subset and under Harbor's v1.7 rules; or it fails with an error and no text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

#include "check.hpp"
#include "targets.hpp"
#include "detail/decode.hpp"  // the fast path and the exact reader, each on its own

namespace rows = sediment::rows;

namespace fuzz::decode {

namespace {
rows::SchemaId schema;  // SEDIMENT_FUZZ_SCHEMA's
}  // namespace

int initialize() {
    const char* name = std::getenv("SEDIMENT_FUZZ_SCHEMA");
    const rows::SchemaInfo* info = name ? rows::find_schema(name) : nullptr;
    if (!info) {
        std::fprintf(stderr, "fuzz-decode: set SEDIMENT_FUZZ_SCHEMA to a bundled schema's name (sediment-rows schema list)\n");
        std::exit(2);
    }
    schema = info->id;
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rows::visit_schema(schema, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T fast, exact;
        std::vector<rows::Error> errors;
        const bool fast_ok = rows::detail::fast_decode(text, fast, rows::Limits{}, schema);
        const bool exact_ok = rows::detail::exact_decode(text, exact, errors, rows::Limits{}, schema);
        SEDIMENT_CHECK(exact_ok == errors.empty());
        check_printable(errors);
        if (fast_ok) SEDIMENT_CHECK(exact_ok && fast == exact);
        SEDIMENT_CHECK(rows::detail::fast_check(text, tag, rows::Limits{}, schema) == fast_ok);
        SEDIMENT_CHECK(rows::validate<T>(text, schema).errors.empty() == exact_ok);
        static T reused;  // holds the last input's value of this type
        std::vector<rows::Error> reused_errors;
        SEDIMENT_CHECK(rows::decode(text, reused, reused_errors, schema) == exact_ok);
        if (exact_ok) SEDIMENT_CHECK(reused == exact);
        if (!exact_ok) return;
        if (schema == rows::SchemaId::atif) {
            rows::Upgraded up;
            std::vector<rows::Error> up_errors;
            if (rows::upgrade(text, "atif", rows::SchemaId::atif_v1_7, up, up_errors)) {
                SEDIMENT_CHECK(up_errors.empty() && rows::validate(rows::SchemaId::atif_v1_7, up.text).errors.empty());
                SEDIMENT_CHECK(rows::validate(rows::SchemaId::atif, up.text).errors.empty());
                rows::Json relabelled = rows::parse(text);
                relabelled["schema_version"] = "ATIF-v1.7";
                SEDIMENT_CHECK(rows::parse(up.text) == relabelled);
            } else {
                SEDIMENT_CHECK(!up_errors.empty() && up.text.empty());
            }
        }
        for (const rows::Style style : {rows::Style::compact, rows::Style::sediment}) {
            const std::string once = rows::encode(exact, style);
            T again;
            errors.clear();
            SEDIMENT_CHECK(rows::decode(once, again, errors, schema));
            SEDIMENT_CHECK(again == exact);
            SEDIMENT_CHECK(rows::encode(again, style) == once);
        }
    });
    return 0;
}

}  // namespace fuzz::decode
