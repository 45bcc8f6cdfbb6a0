// SHA-256 in its two implementations (split.cpp), for the tests that check both.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sediment::rows::detail {

/// SHA-256 of `bytes`, with the processor's SHA extensions where it has them and `hardware` is true,
/// else in portable code (rows::sha256() is this with `hardware`).
std::array<unsigned char, 32> sha256(std::string_view bytes, bool hardware);

/// A digest as 64 lowercase hex digits.
std::string hex(const std::array<unsigned char, 32>& digest);

/// The lowercase hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

/// SHA-256 of `a` and of `b`, computed side by side (with the processor's SHA extensions, about as
/// fast as one of them alone where the two are of a size).
void sha256_two(std::string_view a, std::string_view b, std::array<unsigned char, 32>& digest_a, std::array<unsigned char, 32>& digest_b);

/// SHA-256 of bytes given a piece at a time (a file as it is written).
class Sha256 {
public:
    explicit Sha256(bool hardware = true) : hardware_(hardware) {}
    /// Hashes `bytes` after those given before.
    void update(std::string_view bytes);
    /// The digest of every byte given; the object is spent.
    std::array<unsigned char, 32> finish();

private:
    std::uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char pending_[64] = {};
    std::size_t held_ = 0;      // bytes in pending_
    std::uint64_t total_ = 0;   // bytes given
    bool hardware_;
    friend void sha256_two(std::string_view, std::string_view, std::array<unsigned char, 32>&, std::array<unsigned char, 32>&);
};

}  // namespace sediment::rows::detail
