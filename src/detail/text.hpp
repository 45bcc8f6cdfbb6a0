// Checks on text that every model needs: UTF-8, code-point length, RFC 3339 date-time, patterns,
// JSON Pointer tokens, and shortest round-trip number text. Written once here, called by generated code.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sediment::rows::detail {

/// Length of the UTF-8 sequence starting at s[i] if it is well-formed (no overlongs, no surrogates,
/// nothing above U+10FFFF), else 0.
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) noexcept {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    const std::size_t left = s.size() - i;
    if (c < 0x80) return 1;
    if (c < 0xC2) return 0;
    if (c < 0xE0) return left >= 2 && (b(i + 1) & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (left < 3 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80) return 0;
        if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
        if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
        return 3;
    }
    if (c < 0xF5) {
        if (left < 4 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80 || (b(i + 3) & 0xC0) != 0x80) return 0;
        if (c == 0xF0 && b(i + 1) < 0x90) return 0;   // overlong
        if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // above U+10FFFF
        return 4;
    }
    return 0;
}

/// Byte offset of the first ill-formed UTF-8 sequence, or npos.
inline std::size_t utf8_error_offset(std::string_view s) noexcept {
    std::size_t i = 0;
    while (i < s.size()) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

/// `s` as text for a message, always valid UTF-8: each byte of an ill-formed UTF-8 sequence is written
/// as `\xNN` (`"\xcf"` for the byte 0xCF), and text longer than `max` bytes is cut at a character
/// boundary, with "..." after it. Input bytes reach an error message only through here.
inline std::string printable(std::string_view s, std::size_t max = std::string_view::npos) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    std::size_t i = 0;
    while (i < s.size() && out.size() < max) {
        const std::size_t n = utf8_sequence(s, i);
        if (n) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        const auto b = static_cast<unsigned char>(s[i++]);
        out += "\\x";
        out += kHex[b >> 4];
        out += kHex[b & 15];
    }
    if (i < s.size()) out += "...";
    return out;
}

/// `s` in single quotes, as printable() writes it: `'text'`, or `'text...'` past `max` bytes.
inline std::string quoted(std::string_view s, std::size_t max = std::string_view::npos) {
    return "'" + printable(s, max) + "'";
}

/// Makes `s` printable() in place when it is not valid UTF-8 (a message or pointer that quotes input).
inline void make_printable(std::string& s) {
    if (utf8_error_offset(s) != std::string_view::npos) s = printable(s);
}

/// Number of code points in valid UTF-8 (JSON Schema's `maxLength` counts these, not bytes).
inline std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

/// Decodes valid UTF-8 into code points.
/// The code point of valid UTF-8 `s` at byte `i`, which moves past it.
inline char32_t next_code_point(std::string_view s, std::size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += n;
    return cp;
}

/// Writes code point `cp` (a scalar value: no surrogate, at most U+10FFFF) at `p` as UTF-8: the
/// number of bytes written, 1 to 4.
inline std::size_t put_utf8(char* p, char32_t cp) noexcept {
    if (cp < 0x80) {
        p[0] = static_cast<char>(cp);
        return 1;
    }
    if (cp < 0x800) {
        p[0] = static_cast<char>(0xC0 | (cp >> 6));
        p[1] = static_cast<char>(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        p[0] = static_cast<char>(0xE0 | (cp >> 12));
        p[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        p[2] = static_cast<char>(0x80 | (cp & 0x3F));
        return 3;
    }
    p[0] = static_cast<char>(0xF0 | (cp >> 18));
    p[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    p[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    p[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
}

/// Appends code point `cp` (as put_utf8()) to `out`.
inline void append_utf8(std::string& out, char32_t cp) {
    char bytes[4];
    out.append(bytes, put_utf8(bytes, cp));
}

/// JSON's whitespace between tokens: space, tab, line feed, carriage return.
inline bool is_json_space(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/// Writes the JSON escape of code point `cp` at `buf`: \uXXXX, or a surrogate pair for one beyond the
/// Basic Multilingual Plane, in lowercase hex as Python writes it. Returns its length, 6 or 12.
inline std::size_t unicode_escape(char32_t cp, char* buf) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto unit = [](char* at, unsigned u) {
        at[0] = '\\', at[1] = 'u';
        for (int k = 0; k < 4; ++k) at[2 + k] = kHex[(u >> (12 - 4 * k)) & 15];
    };
    if (cp < 0x10000) {
        unit(buf, cp);
        return 6;
    }
    cp -= 0x10000;
    unit(buf, 0xD800 + (cp >> 10));
    unit(buf + 6, 0xDC00 + (cp & 0x3FF));
    return 12;
}

inline std::u32string to_code_points(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) out.push_back(next_code_point(s, i));
    return out;
}

/// RFC 3339 section 5.6 `date-time`: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, `T`/`t` and `Z`/`z`
/// accepted, a real calendar date (leap years), hour 00-23, minute 00-59, second 00-60.
inline bool is_rfc3339_date_time(std::string_view s) noexcept {
    const auto digits = [&](std::size_t at, std::size_t n, int& out) {
        if (at + n > s.size()) return false;
        out = 0;
        for (std::size_t k = at; k < at + n; ++k) {
            if (s[k] < '0' || s[k] > '9') return false;
            out = out * 10 + (s[k] - '0');
        }
        return true;
    };
    int year, month, day, hour, minute, second;
    if (!digits(0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(5, 2, month) || s[7] != '-' ||
        !digits(8, 2, day) || (s[10] != 'T' && s[10] != 't') || !digits(11, 2, hour) || s[13] != ':' ||
        !digits(14, 2, minute) || s[16] != ':' || !digits(17, 2, second))
        return false;
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return false;
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (day > kDays[month - 1] + (month == 2 && leap)) return false;
    std::size_t i = 19;
    if (i < s.size() && s[i] == '.') {
        const std::size_t start = ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        if (i == start) return false;
    }
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) return i + 1 == s.size();
    int oh, om;
    return i + 6 == s.size() && (s[i] == '+' || s[i] == '-') && digits(i + 1, 2, oh) && s[i + 3] == ':' &&
           digits(i + 4, 2, om) && oh <= 23 && om <= 59;
}

/// ECMA-262 `pattern` search over the code points of valid UTF-8 (compiled once per pattern). This is
/// what JSON Schema means by `pattern`; libstdc++'s narrow std::regex cannot express ranges such as
/// `\uD800-\uDFFF`, so patterns run as wide regexes (wchar_t is 32-bit on the supported platforms).
/// Throws std::regex_error for a pattern that does not compile.
bool matches_pattern(const char* pattern, std::string_view utf8);

/// True for JSON integer syntax: an optional '-', then 0 or digits without a leading zero.
inline bool valid_big_integer(std::string_view s) noexcept {
    if (!s.empty() && s.front() == '-') s.remove_prefix(1);
    if (s.empty() || (s.size() > 1 && s.front() == '0')) return false;
    for (const char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

/// In valid JSON text, one past the closing quote of the string that opens at `open`: the first quote
/// not escaped by an odd run of backslashes (found with memchr). text.size() if there is none.
inline std::size_t string_end(std::string_view text, std::size_t open) {
    const std::size_t first = open + 1;
    for (std::size_t from = first;;) {
        const std::size_t quote = text.find('"', from);
        if (quote == std::string_view::npos) return text.size();
        std::size_t run = quote;
        while (run > first && text[run - 1] == '\\') --run;
        from = quote + 1;
        if ((quote - run) % 2 == 0) return from;
    }
}

/// True when the decimal literal `text` (JSON number syntax) denotes exactly the value of the double
/// `v` written in shortest round-trip form: 1.50 and 1.5e0 are 1.5, 0.10000000000000001 is not 0.1.
inline bool decimal_is_exact(std::string_view text, double v) {
    // Both sides as (negative, significant digits without leading or trailing zeros, exponent of the
    // point before the first of them). A shortest form has at most 17 digits: a literal with more
    // significant digits is not one, and the digits past kMax need no keeping.
    constexpr int kMax = 24;
    struct Decimal {
        bool negative = false;
        char digits[kMax] = {};
        int size = 0;
        long exponent = 0;
        void trim() {
            while (size > 0 && digits[size - 1] == '0') --size;
            if (size == 0) exponent = 0;  // zero keeps its sign, as -0.0 does
        }
    };
    Decimal literal;
    std::size_t i = 0;
    if (i < text.size() && text[i] == '-') literal.negative = true, ++i;
    long point = 0, lead = 0;  // digits before the point; zeros before the first significant digit
    bool fraction = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.' && !fraction) {
            fraction = true;
            continue;
        }
        if (c < '0' || c > '9') break;
        if (!fraction) ++point;
        if (literal.size == 0 && c == '0') ++lead;
        else if (literal.size < kMax) literal.digits[literal.size++] = c;
        else if (c != '0') return false;  // more significant digits than any shortest form has
    }
    long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool minus = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
        for (; i < text.size(); ++i) exponent = std::min(exponent * 10 + (text[i] - '0'), 100000L);
        if (minus) exponent = -exponent;
    }
    literal.exponent = point + exponent - lead;
    literal.trim();

    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
    Decimal shortest;
    std::size_t k = 0;
    if (sci[k] == '-') shortest.negative = true, ++k;
    const std::size_t e = sci.find('e');
    for (; k < e; ++k)
        if (sci[k] != '.') shortest.digits[shortest.size++] = sci[k];
    int exp10 = 0;
    std::from_chars(sci.data() + e + (sci[e + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exp10);
    shortest.exponent = exp10 + 1;
    shortest.trim();
    return literal.negative == shortest.negative && literal.size == shortest.size && literal.exponent == shortest.exponent &&
           std::equal(literal.digits, literal.digits + literal.size, shortest.digits);
}

/// Appends `token` to a JSON Pointer, escaping `~` and `/` (RFC 6901).
inline void append_pointer_token(std::string& pointer, std::string_view token) {
    pointer += '/';
    for (const char c : token) {
        if (c == '~') pointer += "~0";
        else if (c == '/') pointer += "~1";
        else pointer += c;
    }
}

/// Appends a finite double the way Python's `repr` (and so `json.dumps`) writes it: the shortest
/// digits that round-trip, `.0` on integral values, and an exponent (`1e-05`, `1e+16`) only below
/// 1e-4 or from 1e16 up.
inline void append_double(std::string& out, double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    // buf holds "[-]d[.ddd]e[+-]XX"
    std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
    const bool negative = sci.front() == '-';
    if (negative) sci.remove_prefix(1);
    const std::size_t e = sci.find('e');
    std::string digits;
    digits += sci[0];
    if (e > 1) digits.append(sci.substr(2, e - 2));
    int exp = 0;
    std::from_chars(sci.data() + e + (sci[e + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exp);
    if (negative) out += '-';
    const int n = static_cast<int>(digits.size());
    if (exp < -4 || exp >= 16) {
        out += digits[0];
        if (n > 1) {
            out += '.';
            out.append(digits, 1, std::string::npos);
        }
        out += 'e';
        out += exp < 0 ? '-' : '+';
        const int a = exp < 0 ? -exp : exp;
        if (a < 10) out += '0';
        out += std::to_string(a);
    } else if (exp < 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-exp - 1), '0');
        out += digits;
    } else if (exp + 1 >= n) {
        out += digits;
        out.append(static_cast<std::size_t>(exp + 1 - n), '0');
        out += ".0";
    } else {
        out.append(digits, 0, static_cast<std::size_t>(exp + 1));
        out += '.';
        out.append(digits, static_cast<std::size_t>(exp + 1), std::string::npos);
    }
}

}  // namespace sediment::rows::detail
