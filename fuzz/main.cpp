// The libFuzzer targets in one binary, fuzz-rows, which the build links as fuzz-decode, fuzz-validate,
// fuzz-convert, fuzz-versions, fuzz-profile and fuzz-repair beside it: the name it is run by picks the target (one binary links
// and instruments the library's code once, not four times).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "targets.hpp"

namespace {

struct Target {
    std::string_view name;
    int (*initialize)();
    int (*test_one_input)(const std::uint8_t*, std::size_t);
};

int nothing_to_initialize() { return 0; }

constexpr Target kTargets[] = {
    {"fuzz-decode", fuzz::decode::initialize, fuzz::decode::test_one_input},
    {"fuzz-validate", nothing_to_initialize, fuzz::validate::test_one_input},
    {"fuzz-convert", nothing_to_initialize, fuzz::convert::test_one_input},
    {"fuzz-versions", nothing_to_initialize, fuzz::versions::test_one_input},
    {"fuzz-profile", nothing_to_initialize, fuzz::profile::test_one_input},
    {"fuzz-repair", nothing_to_initialize, fuzz::repair::test_one_input},
};

const Target* chosen = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char*** argv) {
    const std::string_view path = (*argv)[0];
    const std::string_view name = path.substr(path.rfind('/') + 1);  // the whole path when it has no '/'
    for (const Target& target : kTargets)
        if (target.name == name) chosen = &target;
    if (!chosen) {
        std::fprintf(stderr, "fuzz-rows: run it as fuzz-decode, fuzz-validate, fuzz-convert, fuzz-versions, fuzz-profile or fuzz-repair (the links beside it)\n");
        std::exit(2);
    }
    return chosen->initialize();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return chosen->test_one_input(data, size); }
