// The digests lint keeps of JSON values (lint.cpp, family.cpp): 64 bits each, not cryptographic, the
// same for the same value whatever its text's layout and key order; and the 128-bit keys of
// SessionFacts, two of them from two seeds.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sediment::rows::detail::digests {

/// The seed of a 64-bit digest (and the odd multiplier of a member's).
constexpr std::uint64_t kSeed = 0x9E3779B97F4A7C15ull;

/// `h` with the word `w` mixed in.
inline std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

/// The 64-bit digests of bytes from each of `N` seeds (not cryptographic: they tell apart the values
/// of one run's rows), in one pass: a key's two digests of a long string cost little more than one. A
/// short string (most keys and values) takes two loads that may overlap, and no copy of its tail.
template <std::size_t N>
std::array<std::uint64_t, N> digests_of(std::string_view s, const std::array<std::uint64_t, N>& seeds) {
    const auto word = [](const char* at) {
        std::uint64_t w;
        std::memcpy(&w, at, 8);
        return w;
    };
    const auto half = [](const char* at) {
        std::uint32_t w;
        std::memcpy(&w, at, 4);
        return std::uint64_t(w);
    };
    const char* p = s.data();
    const std::size_t size = s.size();
    std::array<std::uint64_t, N> h;
    for (std::size_t k = 0; k < N; ++k) h[k] = seeds[k] ^ size;
    if (size <= 16) {  // the first and the last bytes of the string cover it; its size tells the overlap
        const auto byte = [p](std::size_t i) { return std::uint64_t(static_cast<unsigned char>(p[i])); };
        std::uint64_t a = 0, b = 0;
        if (size >= 8) a = word(p), b = word(p + size - 8);
        else if (size >= 4) a = half(p), b = half(p + size - 4);
        else if (size > 0) a = byte(0) | byte(size / 2) << 8 | byte(size - 1) << 16;
        for (std::size_t k = 0; k < N; ++k) h[k] = mix(mix(h[k], a), b);
        return h;
    }
    std::size_t n = size;
    if (n >= 32) {  // four words at a time, in four independent lanes a seed
        constexpr std::uint64_t kLanes[3] = {0x632be59bd9b4e019ull, 0x8cb92ba72f3d8dd7ull, 0xd6e8feb86659fd93ull};
        std::uint64_t lanes[N][4];
        for (std::size_t k = 0; k < N; ++k) lanes[k][0] = h[k], lanes[k][1] = kLanes[0], lanes[k][2] = kLanes[1], lanes[k][3] = kLanes[2];
        for (; n >= 32; n -= 32, p += 32) {
            const std::uint64_t w[4] = {word(p), word(p + 8), word(p + 16), word(p + 24)};
#pragma GCC unroll 8
            for (std::size_t k = 0; k < N; ++k)
#pragma GCC unroll 4
                for (int lane = 0; lane < 4; ++lane) lanes[k][lane] = mix(lanes[k][lane], w[lane]);
        }
        for (std::size_t k = 0; k < N; ++k) h[k] = mix(mix(mix(lanes[k][0], lanes[k][1]), lanes[k][2]), lanes[k][3]);
    }
    for (; n >= 8; n -= 8, p += 8)
        for (std::size_t k = 0; k < N; ++k) h[k] = mix(h[k], word(p));
    if (n > 0)  // the last 8 bytes, overlapping the words before
        for (std::size_t k = 0; k < N; ++k) h[k] = mix(h[k], word(s.data() + size - 8));
    return h;  // what takes them mixes them again
}

/// The digest of bytes (from kSeed).
inline std::uint64_t digest(std::string_view s) { return digests_of<1>(s, {kSeed})[0]; }

// A value's digest: its JSON value, whatever the text's layout and key order, numbers by value (1
// and 1.0 apart), read from the parser's DOM (a row on the fast path) or from the exact reader's Json
// (any other row, re-encoded), which give the same digest for the same value.

enum Tag : std::uint64_t { null_tag = 1, false_tag, true_tag, negative_tag, integer_tag, double_tag, big_tag, string_tag, array_tag, object_tag };

inline std::uint64_t double_digest(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return mix(double_tag, bits);
}

/// An integer's, whether it is read as signed or unsigned.
inline std::uint64_t integer_digest(std::int64_t v) { return v < 0 ? mix(negative_tag, static_cast<std::uint64_t>(v)) : mix(integer_tag, static_cast<std::uint64_t>(v)); }
inline std::uint64_t unsigned_digest(std::uint64_t v) { return mix(integer_tag, v); }

/// A member's, of its key's digest and its value's.
inline std::uint64_t member_of(std::uint64_t key, std::uint64_t value) { return mix(mix(string_tag, key), value) * kSeed; }

/// A member's, which its object sums: members in any order give the same sum.
inline std::uint64_t member_digest(std::string_view key, std::uint64_t value) { return member_of(digest(key), value); }

// ----- 128-bit keys: the digests of a value from each of two seeds, built up as a value's digest is --

/// The seeds of a key's two digests.
constexpr std::array<std::uint64_t, 2> kKeySeeds = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull};

/// A key (the same type as FactKey).
using Key = std::array<std::uint64_t, 2>;

/// The key of a scalar whose digest is `d` (its tag mixed in).
inline Key key_leaf(std::uint64_t d) { return {mix(kKeySeeds[0], d), mix(kKeySeeds[1], d)}; }

/// The key of a string's bytes (`string_tag`), or of a big integer's digits (`big_tag`).
inline Key key_text(Tag tag, std::string_view s) {
    const Key d = digests_of(s, kKeySeeds);
    return {mix(kKeySeeds[0], mix(tag, d[0])), mix(kKeySeeds[1], mix(tag, d[1]))};
}

/// An array's key so far (key_leaf(array_tag) before the first item) with its next item's key mixed in.
inline Key key_item(const Key& array, const Key& item) { return {mix(array[0], item[0]), mix(array[1], item[1])}; }

/// An object's sum so far (zero before the first member) with a member added: any order, the same sum.
inline void key_member(Key& sum, std::string_view name, const Key& value) {
    const Key d = digests_of(name, kKeySeeds);
    sum[0] += member_of(d[0], value[0]);
    sum[1] += member_of(d[1], value[1]);
}

/// The key of an object whose members summed to `sum`.
inline Key key_object(const Key& sum) {
    const Key tag = key_leaf(object_tag);
    return {mix(tag[0], sum[0]), mix(tag[1], sum[1])};
}

}  // namespace sediment::rows::detail::digests
