// What a fuzz target asserts: a broken invariant aborts, which libFuzzer reports as a finding.
#pragma once

#include <cstdlib>
#include <string_view>
#include <vector>

#include "detail/text.hpp"
#include <sediment/rows/error.hpp>

#define SEDIMENT_CHECK(condition)       \
    do {                                \
        if (!(condition)) std::abort(); \
    } while (0)

/// Every message and pointer of `errors` is valid UTF-8, whatever bytes the input held (they show as \xNN).
inline void check_printable(const std::vector<sediment::rows::Error>& errors) {
    for (const sediment::rows::Error& e : errors) {
        SEDIMENT_CHECK(sediment::rows::detail::utf8_error_offset(e.message) == std::string_view::npos);
        SEDIMENT_CHECK(sediment::rows::detail::utf8_error_offset(e.pointer) == std::string_view::npos);
    }
}
