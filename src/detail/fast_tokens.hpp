// The check-only fast path over simdjson's stage 1 alone: no DOM. Stage 1 checks the text's UTF-8,
// finds its strings and where every token starts (its structural indexes); the generated checkers
// (check(r, t, type_tag<T>{}) over a Tokens cursor, in generated/fast_read.hpp) then walk those tokens
// once, checking the grammar, each scalar's literal and the schema's rules as they go. What the DOM
// checkers do after stage 2 built a tape, done in the one pass that stage 2 would have made.
//
// The same contract as the DOM readers (detail/fast.hpp): true only for a valid document, false for
// anything to judge again; a checker that is unsure returns false (a lone surrogate escape, an integer
// beyond 64 bits, a key with an escape, a decimal outside a double's range), and the DOM path and
// then the exact reader judge the document.
//
// Included only by src/engines/fast_tokens.cpp (through generated/token_read.hpp) and the tests; not
// installed.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "fast.hpp"
#include "fast_escapes.hpp"
#include "text.hpp"

namespace sediment::rows::detail::fast {

/// True for the roots whose documents the token checkers check (generated: those with no model whose
/// rules read a view model).
template <class T>
struct checked_over_tokens : std::false_type {};

/// True for a number literal with a fraction or an exponent (a loop: find_first_of() looks each byte
/// up in the set with a call).
inline bool is_decimal(std::string_view number) noexcept {
    for (const char c : number)
        if (c == '.' || c == 'e' || c == 'E') return true;
    return false;
}

/// A cursor over the tokens of one document that stage 1 indexed: the text (with simdjson's padding
/// after it), the first byte of each token, and the nesting depth so far.
class Tokens {
public:
    Tokens(std::string_view text, const std::uint32_t* starts, std::size_t count, std::size_t max_depth)
        : text_(text.data()), at_(starts), end_(starts + count), max_depth_(max_depth) {}

    /// The first byte of the token at the cursor; '\0' past the last one.
    char peek() const noexcept { return at_ < end_ ? text_[*at_] : '\0'; }

    /// True after the last token, with every array and object closed.
    bool done() const noexcept { return at_ == end_ && depth_ == 0; }

    /// Steps into the array or object (`c`, '[' or '{') at the cursor, within the depth limit.
    bool open(char c) noexcept {
        if (peek() != c || ++depth_ > max_depth_) return false;
        ++at_;
        return true;
    }
    /// Steps out of an array or object when its closing bracket `c` is at the cursor.
    bool close(char c) noexcept {
        if (peek() != c) return false;
        --depth_, ++at_;
        return true;
    }
    /// Steps over a ',' at the cursor.
    bool comma() noexcept {
        if (peek() != ',') return false;
        ++at_;
        return true;
    }

    /// An object's key as written, and the ':' after it. A model's keys are compared as written: one
    /// with an escape is no key of the model, and the DOM path judges the document.
    bool key(std::string_view& out) noexcept {
        if (!raw_string(out) || peek() != ':') return false;
        ++at_;
        return true;
    }
    /// The same for a key of a free-form value, whose keys are compared with each other: one with an
    /// escape is left to the DOM path.
    bool plain_key(std::string_view& out) noexcept { return key(out) && next_backslash(out.data(), 0, out.size()) == out.size(); }

    /// The string at the cursor as written, between its quotes. Nothing but whitespace lies between a
    /// string's closing quote and the next token (stage 1 starts a token at anything else), so the
    /// closing quote is found from there, without reading the string.
    bool raw_string(std::string_view& out) noexcept {
        if (peek() != '"') return false;
        const std::size_t first = *at_ + 1;
        std::size_t last = token_end();
        if (last <= first || text_[last - 1] != '"') return false;
        out = std::string_view(text_ + first, last - 1 - first);
        ++at_;
        return true;
    }

    /// The scalar (a number or a literal) at the cursor, as written, and steps over it.
    std::string_view scalar() noexcept {
        if (at_ == end_) return {};
        const std::size_t first = *at_;
        const std::string_view out(text_ + first, token_end() - first);
        ++at_;
        return out;
    }

    /// Steps over the value at the cursor, whatever it holds (a union's peek at its keys): false at a
    /// bracket that does not close.
    bool skip() noexcept {
        const char c = peek();
        if (c != '{' && c != '[') return at_ < end_ && (++at_, true);
        std::size_t depth = 0;
        do {
            const char t = peek();
            if (t == '{' || t == '[') ++depth;
            else if (t == '}' || t == ']') --depth;
            else if (t == '\0') return false;
            ++at_;
        } while (depth > 0);
        return true;
    }

    /// The key of the last member of the object whose '{' is at the cursor, and a cursor at its value,
    /// found from the object's end: where a row names its version, its last member ("metadata") holds
    /// it, and walking there from the start would step over every token of the row. False for a
    /// document that is not one object or whose last member is not where it should be.
    bool last_member(std::string_view& key, Tokens& value) const noexcept {
        if (peek() != '{' || end_ - at_ < 4 || text_[end_[-1]] != '}') return false;
        const std::uint32_t* v = end_ - 2;  // the value's last token; step back to its first
        for (std::size_t depth = 0;; --v) {
            const char c = text_[*v];
            if (c == '}' || c == ']') ++depth;
            else if ((c == '{' || c == '[') && depth > 0) --depth;
            if (depth == 0 || v == at_ + 1) break;
        }
        if (v - at_ < 3 || text_[v[-1]] != ':') return false;
        Tokens k = *this;
        k.at_ = v - 2;
        value = *this;
        value.at_ = v;
        value.depth_ = depth_ + 1;
        return k.raw_string(key) && k.at_ == v - 1;
    }

    // What the value at the cursor is, by its first byte (a union's branch).
    bool is_string() const noexcept { return peek() == '"'; }
    bool is_object() const noexcept { return peek() == '{'; }
    bool is_array() const noexcept { return peek() == '['; }
    bool is_bool() const noexcept { return peek() == 't' || peek() == 'f'; }
    bool is_number() const noexcept { return peek() == '-' || (peek() >= '0' && peek() <= '9'); }
    bool is_int64() const noexcept {  // an integer literal; its range is checked where it is read
        if (!is_number()) return false;
        Tokens copy = *this;
        const std::string_view s = copy.scalar();
        return !is_decimal(s);
    }
    bool is_uint64() const noexcept { return is_int64(); }

    /// Steps over a `null` at the cursor.
    bool null() noexcept {
        if (peek() != 'n') return false;
        Tokens copy = *this;
        if (copy.scalar() != "null") return false;
        *this = copy;
        return true;
    }

private:
    /// Where the token at the cursor ends: before the next token, and the whitespace before it. (Stage
    /// 1 ends its indexes with the text's size: the last token has a next one too.)
    std::size_t token_end() const noexcept {
        std::size_t end = at_[1];
        while (end > *at_ && is_json_space(text_[end - 1])) --end;
        return end;
    }

    const char* text_;
    const std::uint32_t* at_;
    const std::uint32_t* end_;
    std::size_t depth_ = 0;
    std::size_t max_depth_;
};

/// The string at the cursor checked, its value not needed: its length within the limit (a string
/// written longer than the limit goes to the DOM path, which unescapes it). Its escapes were checked
/// with the whole document's (escapes_valid()).
inline bool check_string(Reader& r, Tokens& t) {
    std::string_view raw;
    return t.raw_string(raw) && raw.size() <= r.limits.max_string_bytes;
}

/// The string at the cursor, unescaped where it has escapes (into a buffer of this thread's that the
/// next string read overwrites: a rule reads it at once).
inline bool read(Reader& r, Tokens& t, std::string_view& out) {
    std::string_view raw;
    if (!t.raw_string(raw) || raw.size() > r.limits.max_string_bytes) return false;
    const std::size_t slash = next_backslash(raw.data(), 0, raw.size());
    r.escaped = slash < raw.size();
    if (!r.escaped) {
        out = raw;
        return true;
    }
    thread_local std::string unescaped;
    if (!unescape_string(raw, slash, unescaped)) return false;
    out = unescaped;
    return true;
}

inline bool read(Reader&, Tokens& t, bool& out) {
    if (!t.is_bool()) return false;
    const std::string_view s = t.scalar();
    out = s == "true";
    return out || s == "false";
}

inline bool read(Reader&, Tokens&, Nothing&) { return false; }  // no item is one

/// An integer literal as JSON writes it (no leading zeros, no '+'), in the 64-bit range: a negative
/// one into `negative`, else into `positive`. False for anything else.
inline bool integer_literal(std::string_view s, bool& is_negative, std::int64_t& negative, std::uint64_t& positive) {
    is_negative = !s.empty() && s[0] == '-';
    const std::string_view digits = s.substr(is_negative);
    if (digits.empty() || digits.size() > 20 || (digits[0] == '0' && digits.size() > 1)) return false;
    std::uint64_t value = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return false;
        if (value > (UINT64_MAX - 9) / 10 && (value > UINT64_MAX / 10 || UINT64_MAX - value * 10 < std::uint64_t(c - '0')))
            return false;
        value = value * 10 + std::uint64_t(c - '0');
    }
    if (is_negative) {
        if (value > std::uint64_t{1} << 63) return false;
        negative = value == std::uint64_t{1} << 63 ? INT64_MIN : -static_cast<std::int64_t>(value);
    }
    positive = value;
    return true;
}

/// An integer field: an integer literal in int64's range (as the DOM reads one as INT64).
inline bool read(Reader&, Tokens& t, std::int64_t& out) {
    bool is_negative = false;
    std::int64_t negative = 0;
    std::uint64_t positive = 0;
    if (!t.is_number() || !integer_literal(t.scalar(), is_negative, negative, positive)) return false;
    if (!is_negative && positive > static_cast<std::uint64_t>(INT64_MAX)) return false;
    out = is_negative ? negative : static_cast<std::int64_t>(positive);
    return true;
}

/// A decimal literal as JSON writes it, and the double it reads as: false outside a double's range.
inline bool decimal_literal(std::string_view s, double& out) {
    std::size_t i = s[0] == '-';
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i - from;
    };
    const std::size_t whole = digits();
    if (whole == 0 || (whole > 1 && s[s[0] == '-'] == '0')) return false;
    if (i < s.size() && s[i] == '.' && (++i, digits() == 0)) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    if (i != s.size()) return false;
    const char* begin = s.data() + (s[0] == '-');
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), out);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(out)) return false;
    if (out == 0 && s.find_first_of("123456789") < s.find_first_of("eE")) return false;  // underflow: the DOM path judges
    if (s[0] == '-') out = -out;
    return true;
}

/// The number literal `s`: an integer in 64 bits, or a decimal within a double's range (counted, as
/// the DOM reader counts its doubles).
inline bool number_value(Reader& r, std::string_view s, Number& out) {
    bool is_negative = false;
    std::int64_t negative = 0;
    std::uint64_t positive = 0;
    if (!is_decimal(s)) {
        if (!integer_literal(s, is_negative, negative, positive)) return false;
        out = is_negative ? Number(negative)
              : positive > static_cast<std::uint64_t>(INT64_MAX) ? Number(positive)
                                                                  : Number(static_cast<std::int64_t>(positive));
        return true;
    }
    double value = 0;
    if (!decimal_literal(s, value)) return false;
    ++r.decimals;
    out = Number(value);
    return true;
}

inline bool read(Reader& r, Tokens& t, Number& out) { return t.is_number() && number_value(r, t.scalar(), out); }

/// A number literal checked, its value not needed, from the literal alone: JSON's grammar, and a
/// value within reach. An integer within 64 bits is compared digit by digit with the limit; a decimal
/// whose first significant digit is within 10^±307 is within a double's range and does not underflow
/// (an all-zero one is zero); one nearer the limits is converted (number_value()). Rows carry
/// timestamps and scores of 17 to 20 characters by the thousand, which a conversion would cost.
/// Integers beyond 64 bits are left to the DOM path.
__attribute__((noinline)) inline bool number_literal_valid(Reader& r, std::string_view s) {
    const char* p = s.data();
    const char* const end = p + s.size();
    const auto digits = [end](const char*& at) {
        const char* const from = at;
        while (at < end && static_cast<unsigned char>(*at - '0') < 10) ++at;
        return static_cast<std::size_t>(at - from);
    };
    const bool negative = *p == '-';
    p += negative;
    const char* const whole_digits = p;
    const std::size_t whole = digits(p);
    if (whole == 0 || (whole > 1 && *whole_digits == '0')) return false;
    if (p == end) {  // an integer
        const std::string_view limit = negative ? "9223372036854775808" : "18446744073709551615";
        return whole < limit.size() || (whole == limit.size() && std::string_view(whole_digits, whole) <= limit);
    }
    // The power of ten of the first significant digit, before the exponent: -1 and less in the fraction.
    long lead = 0;
    bool zero = true;
    for (std::size_t k = 0; k < whole && zero; ++k)
        if (whole_digits[k] != '0') zero = false, lead = static_cast<long>(whole - 1 - k);
    if (p < end && *p == '.') {
        const char* const fraction = ++p;
        if (digits(p) == 0) return false;
        for (const char* k = fraction; k < p && zero; ++k)
            if (*k != '0') zero = false, lead = -static_cast<long>(k - fraction) - 1;
    }
    long exponent = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        ++p;
        const bool minus = p < end && *p == '-';
        if (p < end && (*p == '+' || *p == '-')) ++p;
        const char* const from = p;
        if (digits(p) == 0) return false;
        for (const char* k = from; k < p && exponent <= 100000; ++k) exponent = exponent * 10 + (*k - '0');
        if (minus) exponent = -exponent;
    }
    if (p != end) return false;
    if (!zero && (lead + exponent < -307 || lead + exponent > 307)) {  // near a double's limits: converted
        Number value;
        return number_value(r, s, value);
    }
    ++r.decimals;
    return true;
}

/// check_number(): the small non-negative integers that most numbers are, where the checkers call
/// it; the rest out of line (number_literal_valid()).
inline bool check_number(Reader& r, Tokens& t) {
    if (!t.is_number()) return false;
    const std::string_view s = t.scalar();
    if (s.size() > 18 || (s[0] == '0' && s.size() > 1)) return number_literal_valid(r, s);
    for (const char c : s)
        if (static_cast<unsigned char>(c - '0') >= 10) return number_literal_valid(r, s);
    return true;
}

template <class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
bool read(Reader& r, Tokens& t, E& out) {
    std::string_view s;
    return read(r, t, s) && from_string(s, out) && in_schema(out, r.d.schema());
}

// ----- the check-only readers over tokens (the generated overloads cover the models and unions) -----

template <class T>
bool check(Reader& r, Tokens& t, type_tag<T>) {
    typename viewed<T>::type value{};
    return read(r, t, value);
}

inline bool check(Reader& r, Tokens& t, type_tag<std::string>) { return check_string(r, t); }
inline bool check(Reader& r, Tokens& t, type_tag<Number>) { return check_number(r, t); }

template <class T>
bool check(Reader& r, Tokens& t, type_tag<std::vector<T>>) {
    if (!t.open('[')) return false;
    if (t.close(']')) return true;
    do {
        if (!check(r, t, type_tag<T>{})) return false;
    } while (t.comma());
    return t.close(']');
}

/// A free-form value, walked: what read(r, e, Json&) accepts (duplicate keys refused; integers beyond
/// 64 bits and keys with escapes left to the DOM path).
inline bool check(Reader& r, Tokens& t, type_tag<Json> json) {
    switch (t.peek()) {
        case '{': {
            if (!t.open('{')) return false;
            if (t.close('}')) return true;
            std::string_view keys[kMaxScannedKeys];
            std::size_t count = 0;
            do {
                std::string_view key;
                if (!t.plain_key(key) || key.size() > r.limits.max_string_bytes || count == kMaxScannedKeys) return false;
                for (std::size_t k = 0; k < count; ++k)
                    if (keys[k] == key) return false;  // a duplicate key
                keys[count++] = key;
                if (!check(r, t, json)) return false;
            } while (t.comma());
            return t.close('}');
        }
        case '[': {
            if (!t.open('[')) return false;
            if (t.close(']')) return true;
            do {
                if (!check(r, t, json)) return false;
            } while (t.comma());
            return t.close(']');
        }
        case '"': return check_string(r, t);
        case 't':
        case 'f': {
            bool value = false;
            return read(r, t, value);
        }
        case 'n': return t.null();
        default: return check_number(r, t);
    }
}

/// Reads the keys of the object at the cursor, and the string value of the key `selector` where it
/// has one, without moving the cursor (a union's branch by its keys): false for more than `capacity`
/// keys or a malformed object.
inline bool peek_keys(Reader& r, const Tokens& at, std::string_view* keys, std::size_t capacity, std::size_t& count,
                      std::string_view selector, std::string_view& value, const std::string_view*& selected) {
    Tokens t = at;
    count = 0;
    if (!t.open('{')) return false;
    if (t.close('}')) return true;
    do {
        if (count == capacity || !t.key(keys[count])) return false;
        if (!selector.empty() && keys[count] == selector && t.is_string()) {
            Tokens copy = t;
            if (read(r, copy, value)) selected = &value;
        }
        ++count;
        if (!t.skip()) return false;
    } while (t.comma());
    return t.close('}');
}

/// Moves `t` from the '{' of an object to the value of its first member `key` (as written); false
/// where it has none.
inline bool to_member(Tokens& t, std::string_view key) {
    if (!t.open('{') || t.close('}')) return false;
    for (;;) {
        std::string_view k;
        if (!t.key(k)) return false;
        if (k == key) return true;
        if (!t.skip() || !t.comma()) return false;
    }
}

/// The string at the JSON Pointer `pointer` (object keys only, none escaped: where a document names
/// its version) of the document at `at`, as written; false where there is none, or it has an escape.
inline bool peek_pointer(const Tokens& at, std::string_view pointer, std::string_view& out) {
    Tokens t = at;
    std::string_view last;
    Tokens value = at;
    if (pointer.size() > 1 && at.last_member(last, value) && pointer.compare(1, last.size(), last) == 0 &&
        (pointer.size() == last.size() + 1 || pointer[last.size() + 1] == '/'))
        t = value, pointer.remove_prefix(last.size() + 1);  // the first key is the last member's: from there
    while (!pointer.empty()) {
        const std::size_t end = pointer.find('/', 1);
        const std::string_view segment = pointer.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
        pointer = end == std::string_view::npos ? std::string_view() : pointer.substr(end);
        if (!to_member(t, segment)) return false;
    }
    return t.raw_string(out) && next_backslash(out.data(), 0, out.size()) == out.size();
}

/// The string value of the first key `tag` of the object at the cursor, without moving the cursor
/// (a union's branch by its tag).
inline bool peek_tag(Reader& r, const Tokens& at, std::string_view tag, std::string_view& out) {
    Tokens t = at;
    return to_member(t, tag) && read(r, t, out);
}

}  // namespace sediment::rows::detail::fast
