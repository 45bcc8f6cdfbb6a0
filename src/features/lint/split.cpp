// SHA-256 (FIPS 180-4), with the x86 SHA extensions where the processor has them, and the split
// Sediment derives from a session id with it (packages/derive/sediment_derive/split.py).
#include "features/lint/split.hpp"

#include <algorithm>
#include <array>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#endif

#include <cstdint>
#include <cstring>
#include <string>

#include "sediment/rows/lint.hpp"

namespace sediment::rows {

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void sha256_block(std::uint32_t h[8], const unsigned char* p) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
        w[i] = std::uint32_t(p[4 * i]) << 24 | std::uint32_t(p[4 * i + 1]) << 16 | std::uint32_t(p[4 * i + 2]) << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; ++i) {
        const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; ++i) {
        const std::uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[i] + w[i];
        const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same blocks with the x86 SHA extensions (four rounds' message words at a time; two rounds per
// sha256rnds2), where the processor has them: lint hashes every prompt, and this is four times faster.
__attribute__((target("sha,sse4.1,ssse3"))) void sha256_blocks_sha_ni(std::uint32_t h[8], const unsigned char* p, std::size_t blocks) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);  // each word big-endian
    __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h)), 0xB1);  // C D A B
    __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4)), 0x1B);  // E F G H
    __m128i abef = _mm_alignr_epi8(dcba, hgfe, 8);
    __m128i cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
    for (; blocks; --blocks, p += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i w[16];
        for (int t = 0; t < 16; ++t) {
            if (t < 4) {
                w[t] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * t)), swap);
            } else {
                const __m128i x = _mm_add_epi32(_mm_sha256msg1_epu32(w[t - 4], w[t - 3]), _mm_alignr_epi8(w[t - 1], w[t - 2], 4));
                w[t] = _mm_sha256msg2_epu32(x, w[t - 1]);
            }
            __m128i wk = _mm_add_epi32(w[t], _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound + 4 * t)));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            wk = _mm_shuffle_epi32(wk, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_blend_epi16(feba, dchg, 0xF0));  // D C B A
    _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), _mm_alignr_epi8(dchg, feba, 8));  // H G F E
}

// Two runs of blocks at once, each step of one beside the same step of the other: sha256rnds2 waits for
// its previous result (a latency of two to four issues on common cores), and two independent messages
// fill the wait.
__attribute__((target("sha,sse4.1,ssse3"))) void sha256_blocks_sha_ni_x2(std::uint32_t h0[8], const unsigned char* p0,
                                                                          std::uint32_t h1[8], const unsigned char* p1, std::size_t blocks) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i abef[2], cdgh[2];
    std::uint32_t* const h[2] = {h0, h1};
    const unsigned char* p[2] = {p0, p1};
    for (int m = 0; m < 2; ++m) {
        const __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h[m])), 0xB1);
        const __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h[m] + 4)), 0x1B);
        abef[m] = _mm_alignr_epi8(dcba, hgfe, 8);
        cdgh[m] = _mm_blend_epi16(hgfe, dcba, 0xF0);
    }
    for (; blocks; --blocks, p[0] += 64, p[1] += 64) {
        const __m128i abef_before[2] = {abef[0], abef[1]}, cdgh_before[2] = {cdgh[0], cdgh[1]};
        __m128i w[2][16];
        for (int t = 0; t < 16; ++t) {
            __m128i wk[2];
            for (int m = 0; m < 2; ++m) {
                if (t < 4) {
                    w[m][t] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p[m] + 16 * t)), swap);
                } else {
                    const __m128i x = _mm_add_epi32(_mm_sha256msg1_epu32(w[m][t - 4], w[m][t - 3]), _mm_alignr_epi8(w[m][t - 1], w[m][t - 2], 4));
                    w[m][t] = _mm_sha256msg2_epu32(x, w[m][t - 1]);
                }
                wk[m] = _mm_add_epi32(w[m][t], _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound + 4 * t)));
            }
            cdgh[0] = _mm_sha256rnds2_epu32(cdgh[0], abef[0], wk[0]);
            cdgh[1] = _mm_sha256rnds2_epu32(cdgh[1], abef[1], wk[1]);
            wk[0] = _mm_shuffle_epi32(wk[0], 0x0E);
            wk[1] = _mm_shuffle_epi32(wk[1], 0x0E);
            abef[0] = _mm_sha256rnds2_epu32(abef[0], cdgh[0], wk[0]);
            abef[1] = _mm_sha256rnds2_epu32(abef[1], cdgh[1], wk[1]);
        }
        for (int m = 0; m < 2; ++m) abef[m] = _mm_add_epi32(abef[m], abef_before[m]), cdgh[m] = _mm_add_epi32(cdgh[m], cdgh_before[m]);
    }
    for (int m = 0; m < 2; ++m) {
        const __m128i feba = _mm_shuffle_epi32(abef[m], 0x1B);
        const __m128i dchg = _mm_shuffle_epi32(cdgh[m], 0xB1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(h[m]), _mm_blend_epi16(feba, dchg, 0xF0));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(h[m] + 4), _mm_alignr_epi8(dchg, feba, 8));
    }
}

bool has_sha_ni() {
    static const bool has = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 29 & 1);  // CPUID.(EAX=7,ECX=0):EBX.SHA
    }();
    return has;
}
#endif

/// SHA-256's compression of `blocks` 64-byte blocks at `p` into `h`: with the SHA extensions where
/// the processor has them and `hardware` allows.
void sha256_blocks(std::uint32_t h[8], const unsigned char* p, std::size_t blocks, bool hardware) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (hardware && has_sha_ni()) return sha256_blocks_sha_ni(h, p, blocks);
#endif
    for (; blocks; --blocks, p += 64) sha256_block(h, p);
}

}  // namespace

std::array<unsigned char, 32> sha256(std::string_view bytes) { return detail::sha256(bytes, true); }

std::array<unsigned char, 32> detail::sha256(std::string_view bytes, bool hardware) {
    Sha256 h(hardware);
    h.update(bytes);
    return h.finish();
}

std::string detail::hex(const std::array<unsigned char, 32>& digest) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(64, '0');
    for (std::size_t i = 0; i < 32; ++i) out[2 * i] = kDigits[digest[i] >> 4], out[2 * i + 1] = kDigits[digest[i] & 15];
    return out;
}

std::string detail::sha256_hex(std::string_view bytes) { return hex(sha256(bytes, true)); }

void detail::sha256_two(std::string_view a, std::string_view b, std::array<unsigned char, 32>& digest_a,
                        std::array<unsigned char, 32>& digest_b) {
    Sha256 x, y;
    const std::size_t both = std::min(a.size(), b.size()) / 64;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (both && has_sha_ni()) {
        sha256_blocks_sha_ni_x2(x.h_, reinterpret_cast<const unsigned char*>(a.data()), y.h_,
                                reinterpret_cast<const unsigned char*>(b.data()), both);
        x.total_ = y.total_ = both * 64;
        a.remove_prefix(both * 64), b.remove_prefix(both * 64);
    }
#endif
    x.update(a), y.update(b);
    digest_a = x.finish(), digest_b = y.finish();
}

void detail::Sha256::update(std::string_view bytes) {
    if (bytes.empty()) return;  // (an empty view's data may be null, which memcpy must not see)
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t n = bytes.size();
    total_ += n;
    if (held_) {  // complete the block begun before
        const std::size_t take = std::min(n, 64 - held_);
        std::memcpy(pending_ + held_, p, take);
        held_ += take, p += take, n -= take;
        if (held_ < 64) return;
        sha256_blocks(h_, pending_, 1, hardware_);
        held_ = 0;
    }
    sha256_blocks(h_, p, n / 64, hardware_);
    p += n / 64 * 64, n %= 64;
    std::memcpy(pending_, p, n);
    held_ = n;
}

std::array<unsigned char, 32> detail::Sha256::finish() {
    unsigned char tail[128] = {};
    std::memcpy(tail, pending_, held_);
    tail[held_] = 0x80;
    const std::size_t blocks = held_ < 56 ? 1 : 2;
    const std::uint64_t bits = total_ * 8;
    for (int i = 0; i < 8; ++i) tail[blocks * 64 - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    sha256_blocks(h_, tail, blocks, hardware_);
    std::array<unsigned char, 32> out{};
    for (int i = 0; i < 32; ++i) out[i] = static_cast<unsigned char>(h_[i / 4] >> (24 - 8 * (i % 4)));
    return out;
}

double split_score(std::string_view session_id) {
    thread_local std::string last_id;  // a session's rows come together: its score is worked out once
    thread_local double last_score = -1;
    if (last_score >= 0 && session_id == last_id) return last_score;
    const auto digest = sha256(session_id);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | digest[i];
    last_id.assign(session_id.data(), session_id.size());
    last_score = static_cast<double>(v) / 18446744073709551616.0;  // as Python's int / 2 ** 64: correctly rounded
    return last_score;
}

Split split_of(std::string_view session_id, double eval_fraction) {
    return split_score(session_id) < eval_fraction ? Split::eval : Split::train;
}

}  // namespace sediment::rows
