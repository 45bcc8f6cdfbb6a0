// SHA-256 in its two implementations (split.cpp), for the tests that check both.
#pragma once

#include <array>
#include <string_view>

namespace sediment::rows::detail {

/// SHA-256 of `bytes`, with the processor's SHA extensions where it has them and `hardware` is true,
/// else in portable code (rows::sha256() is this with `hardware`).
std::array<unsigned char, 32> sha256(std::string_view bytes, bool hardware);

}  // namespace sediment::rows::detail
