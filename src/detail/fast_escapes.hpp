// JSON string escapes checked without unescaping, for the check-only path over tokens
// (detail/fast_tokens.hpp): the escapes of a whole document in one scan (AVX2 where the processor has
// it, SSE2 otherwise), and the unescaper that the strings read over tokens go through. A lone surrogate is
// refused here and left to the exact reader, as the DOM path leaves it.
//
// Included only by src/engines/fast_tokens.cpp (through detail/fast_tokens.hpp) and the tests; not
// installed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "text.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sediment::rows::detail::fast {

/// The offset of the first '\\' in `p[from, size)`, or `size`. The text is padded (simdjson's padding
/// follows it), so 16 bytes are read at a time past the end: one compare for most of a string's bytes,
/// without the call memchr() costs at each of a source file's escapes.
inline std::size_t next_backslash(const char* p, std::size_t from, std::size_t size) noexcept {
#if defined(__SSE2__)
    const __m128i backslash = _mm_set1_epi8('\\');
    for (std::size_t i = from; i < size; i += 16) {
        unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), backslash)));
        if (size - i < 16) mask &= (1u << (size - i)) - 1;
        if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
    return size;
#else
    const void* at = from < size ? std::memchr(p + from, '\\', size - from) : nullptr;
    return at ? static_cast<std::size_t>(static_cast<const char*>(at) - p) : size;
#endif
}

/// The value of each byte as a hex digit; -1 for a byte that is none.
struct HexDigits {
    signed char value[256] = {};
    constexpr HexDigits() {
        for (int c = 0; c < 256; ++c)
            value[c] = static_cast<signed char>(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1);
    }
};
inline constexpr HexDigits kHexDigits{};

/// The code point of the four hex digits at `p`; -1 where they are not four hex digits.
inline long hex4(const char* p) noexcept {
    const auto digit = [p](int i) { return static_cast<long>(kHexDigits.value[static_cast<unsigned char>(p[i])]); };
    const long a = digit(0), b = digit(1), c = digit(2), d = digit(3);
    return (a | b | c | d) < 0 ? -1 : a << 12 | b << 8 | c << 4 | d;
}

/// The byte each escape of one character stands for ('n' -> line feed); 0 for a byte that starts none.
struct SimpleEscapes {
    char value[256] = {};
    constexpr SimpleEscapes() {
        const char pairs[][2] = {{'"', '"'}, {'\\', '\\'}, {'/', '/'}, {'b', '\b'}, {'f', '\f'}, {'n', '\n'}, {'r', '\r'}, {'t', '\t'}};
        for (const auto& pair : pairs) value[static_cast<unsigned char>(pair[0])] = pair[1];
    }
};
inline constexpr SimpleEscapes kSimpleEscapes{};

/// The \\u escape at `p` (a backslash, `left` bytes before the text's end), and the low surrogate
/// after it where it is a high one: its length (6, or 12 for a pair) and its code point; 0 for one
/// that is not four hex digits, or a surrogate outside a pair (left to the exact reader).
inline std::size_t unicode_escape(const char* p, std::size_t left, char32_t& cp) noexcept {
    const long high = left >= 6 ? hex4(p + 2) : -1;
    if (high < 0 || (high >= 0xDC00 && high <= 0xDFFF)) return 0;
    if (high < 0xD800 || high > 0xDBFF) return cp = static_cast<char32_t>(high), 6;
    const long low = left >= 12 && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8) : -1;
    if (low < 0xDC00 || low > 0xDFFF) return 0;
    cp = static_cast<char32_t>(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
    return 12;
}

/// Unescapes `raw`, a string's text between its quotes, into `out`: where the text written ends, or
/// nullptr for a malformed escape or a lone surrogate (left to the exact reader). The text is copied
/// 16 bytes at a time, whose backslashes the same load finds: `raw` is padded (16 bytes are read past
/// it) and `out` has room for raw.size() + 16 bytes. The text unescaped is never longer than raw.
inline char* unescape_into(std::string_view raw, char* out) noexcept {
    const char* p = raw.data();
    const char* const end = p + raw.size();
    for (;;) {
#if defined(__SSE2__)
        for (const __m128i backslash = _mm_set1_epi8('\\');;) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
            unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, backslash)));
            const std::size_t left = static_cast<std::size_t>(end - p);
            if (left < 16) mask &= (1u << left) - 1;
            if (mask) {
                const unsigned run = static_cast<unsigned>(__builtin_ctz(mask));
                p += run, out += run;
                break;
            }
            if (left <= 16) return out + left;
            p += 16, out += 16;
        }
#else
        const std::size_t run = next_backslash(p, 0, static_cast<std::size_t>(end - p));
        std::memcpy(out, p, run);
        p += run, out += run;
        if (p == end) return out;
#endif
        if (end - p < 2) return nullptr;  // the backslash at p starts an escape
        if (p[1] != 'u') {
            const char byte = kSimpleEscapes.value[static_cast<unsigned char>(p[1])];
            if (!byte) return nullptr;
            *out++ = byte;
            p += 2;
            continue;
        }
        char32_t cp = 0;
        const std::size_t length = unicode_escape(p, static_cast<std::size_t>(end - p), cp);
        if (!length) return nullptr;
        out += put_utf8(out, cp);
        p += length;
    }
}

/// `raw`, whose first backslash is at `slash`, unescaped into `out` (the text before it copied, the rest
/// through unescape_into(), in place): false as unescape_into().
inline bool unescape_string(std::string_view raw, std::size_t slash, std::string& out) {
    out.resize(raw.size() + 16);
    std::memcpy(out.data(), raw.data(), slash);
    const char* const end = unescape_into(raw.substr(slash), out.data() + slash);
    if (!end) return false;
    out.resize(static_cast<std::size_t>(end - out.data()));
    return true;
}

/// Checks a document's escapes one backslash at a time, in the order the scans of escapes_valid()
/// find them: a backslash an escape consumed is passed over, a lone surrogate refused (left to the
/// exact reader).
class EscapeCheck {
public:
    explicit EscapeCheck(std::string_view raw) noexcept : p_(raw.data()), size_(raw.size()) {}

    /// The backslash at `at`: true when it starts a well-formed escape, or belongs to one before it.
    bool at(std::size_t at) noexcept {
        if (at < consumed_) return true;  // the second backslash of "\\\\", or one in a surrogate pair
        if (at + 1 >= size_) return false;
        const unsigned char c = static_cast<unsigned char>(p_[at + 1]);
        if (kSimpleEscapes.value[c]) return consumed_ = at + 2, true;  // (a table: a branch on each kind costs more)
        char32_t cp = 0;
        const std::size_t length = c == 'u' ? unicode_escape(p_ + at, size_ - at, cp) : 0;
        return length && (consumed_ = at + length, true);
    }

private:
    const char* p_;
    std::size_t size_;
    std::size_t consumed_ = 0;  // the bytes before it belong to escapes checked already
};

/// The characters that backslashes escape, of 64 bytes whose backslashes are `backslash`; `carry`
/// says whether the first byte is escaped, and becomes whether the next block's is. (Stage 1's own
/// computation, as simdjson describes it: an odd run of backslashes escapes the byte after it.)
inline std::uint64_t escaped_bytes(std::uint64_t backslash, std::uint64_t& carry) noexcept {
    constexpr std::uint64_t kEven = 0x5555555555555555ULL;
    backslash &= ~carry;
    const std::uint64_t follows = backslash << 1 | carry;
    const std::uint64_t odd_starts = backslash & ~kEven & ~follows;
    std::uint64_t even_runs = 0;
    carry = __builtin_add_overflow(odd_starts, backslash, &even_runs);
    return (kEven ^ (even_runs << 1)) & follows;
}

/// The \\u escapes of the block at `i` of `raw`, whose 'u's are the bits of `us` (the vector scans'
/// few scalar steps): four hex digits each, and a surrogate only in a pair; `paired` holds the 'u'
/// of a low surrogate that the high one before it took.
inline bool unicode_escapes(std::string_view raw, std::size_t i, std::uint64_t us, std::size_t& paired) noexcept {
    const char* const p = raw.data();
    const std::size_t size = raw.size();
    for (; us; us &= us - 1) {
        const std::size_t at = i + static_cast<std::size_t>(__builtin_ctzll(us)) - 1;  // its backslash
        if (at + 1 == paired) continue;
        char32_t cp = 0;
        const std::size_t length = unicode_escape(p + at, size - at, cp);
        if (!length) return false;
        if (length == 12) paired = at + 7;
    }
    return true;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// escapes_valid() where the processor has AVX2, 64 bytes to a loop and no branch per escape: the
/// escaped bytes come from the backslashes (escaped_bytes()), and each must be one of "\\/bfnrt
/// (a lookup of each byte's two halves) or a 'u', whose four hex digits and surrogate pairs are
/// checked one by one (text carries few). (No lambdas: they would not have the target.)
__attribute__((target("avx2"))) inline bool escapes_valid_avx2(std::string_view raw) noexcept {
    const char* const p = raw.data();
    const std::size_t size = raw.size();
    const __m256i backslash = _mm256_set1_epi8('\\'), letter_u = _mm256_set1_epi8('u'), nibble = _mm256_set1_epi8(0x0F);
    // By high half: 2 -> 1 ('"', '/'), 5 -> 2 ('\\'), 6 -> 4 ('b', 'f', 'n'), 7 -> 8 ('r', 't'); by low
    // half, the bits of the high halves it makes an escape with. A byte is one when the two share a bit.
    const __m256i by_high = _mm256_setr_epi8(0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i by_low = _mm256_setr_epi8(0, 0, 13, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1, 0, 0, 13, 0, 8, 0, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1);
    std::uint64_t carry = 0;
    std::size_t paired = SIZE_MAX;  // see unicode_escapes()
    for (std::size_t i = 0; i < size; i += 64) {
        const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
        const __m256i second = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32));
        std::uint64_t backslashes = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(first, backslash))) |
                                    std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(second, backslash)))} << 32;
        if (size - i < 64) backslashes &= (std::uint64_t{1} << (size - i)) - 1;
        if (!backslashes && !carry) continue;  // most blocks of text
        std::uint64_t simple = 0, u = 0;  // the bytes of simple escapes, and the 'u's
        for (int half = 0; half < 2; ++half) {
            const __m256i v = half ? second : first;
            const __m256i high = _mm256_shuffle_epi8(by_high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
            const __m256i low = _mm256_shuffle_epi8(by_low, _mm256_and_si256(v, nibble));
            const __m256i none = _mm256_cmpeq_epi8(_mm256_and_si256(high, low), _mm256_setzero_si256());
            simple |= std::uint64_t{~static_cast<std::uint32_t>(_mm256_movemask_epi8(none))} << (32 * half);
            u |= std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, letter_u)))} << (32 * half);
        }
        const std::uint64_t escaped = escaped_bytes(backslashes, carry);
        if (size - i < 64 && escaped >> (size - i)) return false;  // a backslash last
        if (escaped & ~(simple | u)) return false;
        if (!unicode_escapes(raw, i, escaped & u, paired)) return false;
    }
    return carry == 0;
}

#endif

/// escapes_valid() on any processor: SSE2's compares where there are, each backslash then checked.
inline bool escapes_valid_portable(std::string_view raw) noexcept {
    EscapeCheck check(raw);
    const char* const p = raw.data();
#if defined(__SSE2__)
    const __m128i backslash = _mm_set1_epi8('\\');
    for (std::size_t i = 0; i < raw.size(); i += 32) {
        const auto half = [&](std::size_t at) {
            return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at)), backslash)));
        };
        std::uint32_t mask = half(i) | half(i + 16) << 16;
        if (raw.size() - i < 32) mask &= (std::uint32_t{1} << (raw.size() - i)) - 1;
        for (; mask; mask &= mask - 1)
            if (!check.at(i + static_cast<std::size_t>(__builtin_ctz(mask)))) return false;
    }
#else
    for (std::size_t at = next_backslash(p, 0, raw.size()); at < raw.size(); at = next_backslash(p, at + 1, raw.size()))
        if (!check.at(at)) return false;
#endif
    return true;
}

/// True when every escape of `raw` is well-formed (a lone surrogate is left to the exact reader).
/// Run once over a whole document (a backslash outside a string is refused by the grammar anyway), so
/// that the strings no rule reads need no look at their bytes. Text and code carry an escape every
/// few dozen bytes (each line end, each quote): the backslashes of 32 or 64 bytes come from one
/// compare each. `raw` is padded: the scan reads up to 63 bytes past it.
inline bool escapes_valid(std::string_view raw) noexcept {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) return escapes_valid_avx2(raw);
#endif
    return escapes_valid_portable(raw);
}

}  // namespace sediment::rows::detail::fast
