// The libFuzzer targets of fuzz-rows, each in a source of its own (which says what it checks): the
// name the binary is run by picks one (main.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz {

namespace decode {
int initialize();  // reads SEDIMENT_FUZZ_SCHEMA
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace decode

namespace validate {
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace validate

namespace convert {
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace convert

namespace versions {
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace versions

namespace repair {
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace repair

namespace profile {
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace profile

}  // namespace fuzz
