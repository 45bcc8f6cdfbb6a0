// The encoding context generated code calls: separators and string escaping for each style, Python's
// number layout, and the JSON Pointer of the value being written (for EncodeError).
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sediment/rows/error.hpp"
#include "sediment/rows/value.hpp"
#include "text.hpp"

namespace sediment::rows::detail {

/// Writes JSON text at the end of a string. It writes into the string's spare room and sets its final
/// size in finish() (or when destroyed): one bounds check per piece instead of std::string's appends.
class Writer {
public:
    Writer(std::string& out, Style style)
        : out_(out), start_(out.size()), len_(out.size()), ascii_(style == Style::sediment), spaced_(style == Style::sediment) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    ~Writer() { finish(); }

    /// The size the string will have: where the next piece goes.
    std::size_t written() const noexcept { return len_; }

    /// The text written so far, the string sized to it.
    std::string& finish() {
        out_.resize(len_);
        return out_;
    }

    void begin_object() {
        separate();
        put('{');
        path_.push_back(Step{});
        first_ = true;
    }
    void end_object() {
        path_.pop_back();
        put('}');
        first_ = false;
    }
    void begin_array() {
        separate();
        put('[');
        path_.push_back(Step{{}, 0, true});
        first_ = true;
    }
    void end_array() {
        path_.pop_back();
        put(']');
        first_ = false;
    }

    /// Writes `"key": ` (after a separator when needed); the next value written is that member.
    void key(std::string_view k) {
        if (!first_) comma();
        path_.back().key = k;
        string_literal(k);
        if (spaced_) put(": ", 2);
        else put(':');
        first_ = true;  // the value that follows needs no separator
    }

    /// key() for a literal that no style escapes (printable ASCII without '"' and '\\'; generated
    /// code checks that): separator, quotes and key written with copies of a size known at compile time.
    template <std::size_t N>
    void plain_key(const char (&k)[N]) {
        constexpr std::size_t n = N - 1;
        char* p = room(n + 6);  // `, "k": `
        if (!first_) {
            *p++ = ',';
            if (spaced_) *p++ = ' ';
        }
        *p++ = '"';
        std::memcpy(p, k, n);
        p += n;
        *p++ = '"';
        *p++ = ':';
        if (spaced_) *p++ = ' ';
        len_ = static_cast<std::size_t>(p - out_.data());
        path_.back().key = std::string_view(k, n);
        first_ = true;
    }

    void null() { separate(), put("null", 4); }
    void boolean(bool v) { separate(), v ? put("true", 4) : put("false", 5); }
    void integer(std::int64_t v) { separate(), decimal(v); }
    void unsigned_integer(std::uint64_t v) { separate(), decimal(v); }
    void floating(double v) {
        separate();
        if (!std::isfinite(v)) fail("rows.encode.number", "NaN and infinity cannot be written as JSON");
        scratch_.clear();
        append_double(scratch_, v);
        put(scratch_.data(), scratch_.size());
    }
    void number(const Number& n) {
        switch (n.kind()) {
            case Number::Kind::integer: return integer(n.as_int64());
            case Number::Kind::unsigned_integer: return unsigned_integer(n.as_uint64());
            default: return floating(n.as_double());
        }
    }
    /// Integer digits beyond 64 bits, written as they are.
    void big_integer(std::string_view digits) {
        separate();
        if (!valid_big_integer(digits)) fail("rows.encode.type", "not an integer: '" + std::string(digits) + "'");
        put(digits.data(), digits.size());
    }
    /// A value already written as JSON text in this writer's style (a digest form made once, spliced in).
    void raw(std::string_view json) {
        separate();
        put(json.data(), json.size());
    }
    void string(std::string_view s) {
        separate();
        string_literal(s);
    }

    /// An enumerator's spelling; empty for a value outside its enum.
    void enumeration(std::string_view name) {
        separate();
        if (name.empty()) fail("rows.encode.enum", "the value is not one of its enum's values");
        string_literal(name);
    }

    /// An item of an array that must be empty (Nothing): always an error.
    [[noreturn]] void nothing() {
        separate();  // the item's place
        fail("rows.encode.no_items", "no item is allowed here (\"items\": false)");
    }

    /// Any JSON value, keys in their own order, or with `sort_keys` in code point order (Python's
    /// json.dumps(sort_keys=True); UTF-8's byte order is code point order).
    void json(const Json& j, bool sort_keys = false) {
        switch (j.type()) {
            case Json::value_t::null: return null();
            case Json::value_t::boolean: return boolean(j.get<bool>());
            case Json::value_t::number_integer: return integer(j.get<std::int64_t>());
            case Json::value_t::number_unsigned: return unsigned_integer(j.get<std::uint64_t>());
            case Json::value_t::number_float: return floating(j.get<double>());
            case Json::value_t::string: return string(j.get_ref<const std::string&>());
            case Json::value_t::array:
                begin_array();
                for (const Json& item : j) json(item, sort_keys);
                return end_array();
            case Json::value_t::object: {
                const Json::object_t& object = j.get_ref<const Json::object_t&>();
                begin_object();
                if (!sort_keys) {
                    for (const auto& member : object) key(member.first), json(member.second);
                    return end_object();
                }
                std::vector<const Json::object_t::value_type*> sorted;
                for (const auto& member : object) sorted.push_back(&member);
                std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
                for (const auto* member : sorted) key(member->first), json(member->second, true);
                return end_object();
            }
            default:
                if (!is_big_integer(j)) separate(), fail("rows.encode.type", "binary values cannot be written as JSON");
                big_integer(big_integer_digits(j));
        }
    }

private:
    struct Step {
        std::string_view key;
        std::size_t index = 0;
        bool is_array = false;
    };

    // Before a value: a comma unless it is the first in its container or follows a key.
    void separate() {
        if (!first_) comma();
        first_ = false;
        if (!path_.empty() && path_.back().is_array) ++path_.back().index;
    }

    /// `s` as a JSON string. The bytes are copied as they are scanned, a block at a time, into room
    /// made for the worst case of a chunk of them (6 bytes out for each byte in, and a block's store
    /// past the end); a byte that needs care (see needs_care) is written escaped, or checked as UTF-8.
    void string_literal(std::string_view s) {
        constexpr std::ptrdiff_t kChunk = 4096;  // input bytes per room made: a huge string's room grows with it
        put('"');
        const char* p = s.data();
        const char* const end = p + s.size();
        while (p < end) {
            const char* const stop = p + std::min(end - p, kChunk);
            char* o = room(static_cast<std::size_t>(6 * (stop - p) + kBlock));
            while (p < stop) {
                if (stop - p >= kBlock) {
                    std::memcpy(o, p, kBlock);  // stored whole; the suspects' bytes are written over
                    const unsigned mask = suspects(p);
                    const int clean = mask == 0 ? static_cast<int>(kBlock) : __builtin_ctz(mask);
                    p += clean;
                    o += clean;
                    if (mask == 0) continue;
                } else {
                    while (p < stop && !needs_care(static_cast<unsigned char>(*p))) *o++ = *p++;
                    if (p == stop) break;
                }
                const auto c = static_cast<unsigned char>(*p);
                if (!needs_care(c)) {  // DEL, which the compact style writes as it is
                    *o++ = *p++;
                    continue;
                }
                if (c >= 0x80) {
                    std::size_t at = static_cast<std::size_t>(p - s.data());
                    const std::size_t n = utf8_sequence(s, at);  // may end past `stop`: room was made for it
                    if (n == 0) invalid_utf8(at);
                    if (ascii_) {  // a non-ASCII character as \uXXXX, an astral one as a surrogate pair
                        o += unicode_escape(next_code_point(s, at), o);
                    } else {       // UTF-8 as it is
                        std::memcpy(o, p, n);
                        o += n;
                    }
                    p += n;
                    continue;
                }
                char named = 0;  // the letter of the escapes JSON names
                switch (c) {
                    case '"': named = '"'; break;
                    case '\\': named = '\\'; break;
                    case '\n': named = 'n'; break;
                    case '\r': named = 'r'; break;
                    case '\t': named = 't'; break;
                    case '\b': named = 'b'; break;
                    case '\f': named = 'f'; break;
                }
                if (named) {
                    o[0] = '\\', o[1] = named;
                    o += 2;
                } else {  // other control characters, and DEL in the sediment style
                    o += unicode_escape(c, o);
                }
                ++p;
            }
            len_ = static_cast<std::size_t>(o - out_.data());
        }
        put('"');
    }

    // ----- the output buffer: out_ holds len_ bytes of text, then spare room ---------------------

    // Room for n more bytes at the end of the text.
    char* room(std::size_t n) {
        if (__builtin_expect(out_.size() - len_ < n, 0)) grow(n);
        return out_.data() + len_;
    }
    // The room grows with what this writer has written, so that zero-filling it costs no more than
    // the text itself (std::string reallocates geometrically underneath).
    __attribute__((noinline)) void grow(std::size_t n) {
        out_.resize(len_ + std::max(n, std::max<std::size_t>(256, len_ - start_)));
    }
    void put(char c) {
        *room(1) = c;
        ++len_;
    }
    void put(const char* p, std::size_t n) {
        std::memcpy(room(n), p, n);
        len_ += n;
    }
    void comma() {
        if (spaced_) put(", ", 2);
        else put(',');
    }
    template <class I>
    void decimal(I v) {
        char* p = room(24);
        len_ = static_cast<std::size_t>(std::to_chars(p, p + 24, v).ptr - out_.data());
    }

    /// A byte that is not written as it is: control characters, '"', '\\', non-ASCII (validated, and
    /// escaped in the sediment style), and DEL in the sediment style (Python escapes it).
    bool needs_care(unsigned char c) const noexcept {
        return c < 0x20 || c == '"' || c == '\\' || c >= 0x80 || (c == 0x7F && ascii_);
    }

    /// The first byte from `p` that needs care (see needs_care), or `end`: 16 bytes at a time with
    /// SSE2, else 8 at a time in a 64-bit word, then byte by byte.
    const char* next_care(const char* p, const char* end) const noexcept {
        while (end - p >= kBlock) {
            const unsigned mask = suspects(p);
            if (mask == 0) {
                p += kBlock;
                continue;
            }
            const char* q = p + __builtin_ctz(mask);  // the first suspect is a byte to look at
            if (needs_care(static_cast<unsigned char>(*q))) return q;
            p = q + 1;  // DEL, which the compact style writes as it is
        }
        while (p < end && !needs_care(static_cast<unsigned char>(*p))) ++p;
        return p;
    }

#if defined(__SSE2__)
    static constexpr std::ptrdiff_t kBlock = 16;
    /// Bit i set when byte i at `p` may need care: below 0x20 or from 0x7F up (a signed compare
    /// takes bytes from 0x80 up as negative), '"' or '\\'.
    static unsigned suspects(const char* p) noexcept {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F))),
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        return static_cast<unsigned>(_mm_movemask_epi8(hit));
    }
#else
    static constexpr std::ptrdiff_t kBlock = 8;
    /// The same in a 64-bit word (little-endian): the lowest flagged byte is a true suspect, since
    /// borrows run only upward from a byte that is one.
    static unsigned suspects(const char* p) noexcept {
        std::uint64_t w;
        std::memcpy(&w, p, sizeof w);
        constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
        const auto zero_byte = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
        const std::uint64_t flagged = ((w - 0x20 * ones) | zero_byte(w ^ ('"' * ones)) | zero_byte(w ^ ('\\' * ones)) |
                                       zero_byte(w ^ (0x7F * ones)) | w) & highs;
        if (flagged == 0) return 0;
        return 1u << (__builtin_ctzll(flagged) / 8);
    }
#endif

    [[noreturn]] void invalid_utf8(std::size_t at) {
        fail("rows.encode.utf8", "invalid UTF-8 at byte " + std::to_string(at) + " of a string");
    }

    [[noreturn]] void fail(const char* id, std::string message) {
        std::string pointer;
        for (const Step& s : path_) {
            if (s.is_array) {
                pointer += '/' + std::to_string(s.index - 1);  // separate() has counted the element
            } else {
                append_pointer_token(pointer, s.key);
            }
        }
        throw EncodeError(Error{id, std::move(pointer), std::move(message)});
    }

    std::string& out_;
    std::size_t start_;  // where this writer began
    std::size_t len_;    // the end of the text; out_ may be longer (spare room)
    std::string scratch_;
    bool ascii_;
    bool spaced_;
    bool first_ = true;
    std::vector<Step> path_;
};

// Writers by C++ type; generated code adds one per model type.

inline void write(Writer& w, const std::string& v) { w.string(v); }
inline void write(Writer& w, bool v) { w.boolean(v); }
inline void write(Writer& w, std::int64_t v) { w.integer(v); }
inline void write(Writer& w, const Number& v) { w.number(v); }
inline void write(Writer& w, const Integer& v) {
    if (v.fits_int64()) w.integer(v.value());
    else w.big_integer(v.to_string());
}
inline void write(Writer& w, const Json& v) { w.json(v); }
inline void write(Writer& w, Nothing) { w.nothing(); }

template <class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
void write(Writer& w, E v) {
    w.enumeration(to_string(v));
}

template <class T>
void write(Writer& w, const std::vector<T>& items) {
    w.begin_array();
    for (const T& item : items) write(w, item);
    w.end_array();
}

template <class T>
void write(Writer& w, const Nullable<T>& v) {
    if (v.is_null()) w.null();
    else write(w, *v);
}

}  // namespace sediment::rows::detail
