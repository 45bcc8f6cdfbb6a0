// What a fuzz target asserts: a broken invariant aborts, which libFuzzer reports as a finding.
#pragma once

#include <cstdlib>

#define SEDIMENT_CHECK(condition)       \
    do {                                \
        if (!(condition)) std::abort(); \
    } while (0)
