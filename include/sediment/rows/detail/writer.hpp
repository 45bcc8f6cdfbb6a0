// The encoding context generated code calls: separators and string escaping for each style, Python's
// number layout, and the JSON Pointer of the value being written (for EncodeError).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "../error.hpp"
#include "../value.hpp"
#include "text.hpp"

namespace sediment::rows {

/// How encode() lays out JSON text.
enum class Style {
    compact,   ///< no spaces, UTF-8 as is: {"a":[1,2]}
    sediment,  ///< Sediment's exporter (Python json.dumps defaults): {"a": [1, 2]}, non-ASCII as \uXXXX
};

}  // namespace sediment::rows

namespace sediment::rows::detail {

class Writer {
public:
    Writer(std::string& out, Style style) : out_(out), ascii_(style == Style::sediment), spaced_(style == Style::sediment) {}

    void begin_object() {
        separate();
        out_ += '{';
        path_.push_back(Step{});
        first_ = true;
    }
    void end_object() {
        path_.pop_back();
        out_ += '}';
        first_ = false;
    }
    void begin_array() {
        separate();
        out_ += '[';
        path_.push_back(Step{{}, 0, true});
        first_ = true;
    }
    void end_array() {
        path_.pop_back();
        out_ += ']';
        first_ = false;
    }

    /// Writes `"key": ` (after a separator when needed); the next value written is that member.
    void key(std::string_view k) {
        if (!first_) out_ += spaced_ ? ", " : ",";
        path_.back().key = k;
        string_literal(k);
        out_ += spaced_ ? ": " : ":";
        first_ = true;  // the value that follows needs no separator
    }

    void null() { separate(), out_ += "null"; }
    void boolean(bool v) { separate(), out_ += v ? "true" : "false"; }
    void integer(std::int64_t v) { separate(), out_ += std::to_string(v); }
    void unsigned_integer(std::uint64_t v) { separate(), out_ += std::to_string(v); }
    void floating(double v) {
        separate();
        if (!std::isfinite(v)) fail("rows.encode.number", "NaN and infinity cannot be written as JSON");
        append_double(out_, v);
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
        out_ += digits;
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

    /// Any JSON value, keys in their own order.
    void json(const Json& j) {
        switch (j.type()) {
            case Json::value_t::null: return null();
            case Json::value_t::boolean: return boolean(j.get<bool>());
            case Json::value_t::number_integer: return integer(j.get<std::int64_t>());
            case Json::value_t::number_unsigned: return unsigned_integer(j.get<std::uint64_t>());
            case Json::value_t::number_float: return floating(j.get<double>());
            case Json::value_t::string: return string(j.get_ref<const std::string&>());
            case Json::value_t::array:
                begin_array();
                for (const Json& item : j) json(item);
                return end_array();
            case Json::value_t::object:
                begin_object();
                for (const auto& member : j.get_ref<const Json::object_t&>()) {
                    key(member.first);
                    json(member.second);
                }
                return end_object();
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
        if (!first_) out_ += spaced_ ? ", " : ",";
        first_ = false;
        if (!path_.empty() && path_.back().is_array) ++path_.back().index;
    }

    void string_literal(std::string_view s) {
        static constexpr char kHex[] = "0123456789abcdef";
        out_ += '"';
        std::size_t run = 0;  // start of the pending run of bytes that need no escape
        for (std::size_t i = 0; i < s.size();) {
            // Eight plain ASCII bytes at a time: the common case of a long run that needs no escape.
            while (i + 8 <= s.size() && plain_ascii8(s.data() + i)) i += 8;
            if (i >= s.size()) break;
            const auto c = static_cast<unsigned char>(s[i]);
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x7F || (!ascii_ && c >= 0x80))) {
                if (c >= 0x80 && utf8_sequence(s, i) == 0) invalid_utf8(i);
                i += c < 0x80 ? 1 : utf8_sequence(s, i);
                continue;
            }
            out_.append(s.data() + run, i - run);
            if (c < 0x80) {
                switch (c) {
                    case '"': out_ += "\\\""; break;
                    case '\\': out_ += "\\\\"; break;
                    case '\n': out_ += "\\n"; break;
                    case '\r': out_ += "\\r"; break;
                    case '\t': out_ += "\\t"; break;
                    case '\b': out_ += "\\b"; break;
                    case '\f': out_ += "\\f"; break;
                    case 0x7F:
                        if (!ascii_) {
                            out_ += '\x7f';
                            break;
                        }
                        [[fallthrough]];
                    default: out_ += "\\u00", out_ += kHex[c >> 4], out_ += kHex[c & 15];
                }
                run = ++i;
                continue;
            }
            // ascii_: a non-ASCII character as \uXXXX, astral ones as a surrogate pair.
            const std::size_t n = utf8_sequence(s, i);
            if (n == 0) invalid_utf8(i);
            char32_t cp = n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
            for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
            const auto unit = [&](unsigned u) {
                out_ += "\\u";
                for (int shift = 12; shift >= 0; shift -= 4) out_ += kHex[(u >> shift) & 15];
            };
            if (cp >= 0x10000) {
                cp -= 0x10000;
                unit(0xD800 + (cp >> 10));
                unit(0xDC00 + (cp & 0x3FF));
            } else {
                unit(cp);
            }
            i += n;
            run = i;
        }
        out_.append(s.data() + run, s.size() - run);
        out_ += '"';
    }

    /// True when none of the 8 bytes at `p` is a control character, '"', '\\', DEL or non-ASCII.
    static bool plain_ascii8(const char* p) noexcept {
        std::uint64_t w;
        std::memcpy(&w, p, sizeof w);
        constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
        const auto zero_byte = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
        const std::uint64_t special = (w - 0x20 * ones) |  // a byte below 0x20 borrows into its high bit
                                      zero_byte(w ^ ('"' * ones)) | zero_byte(w ^ ('\\' * ones)) |
                                      zero_byte(w ^ (0x7F * ones)) | w;  // DEL, and high bits of non-ASCII
        return (special & highs) == 0;
    }

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
