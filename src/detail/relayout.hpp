// Valid JSON text laid out again, every token kept: what upgrade and repair write. Internal.
#pragma once

#include <string>
#include <string_view>

#include "sediment/rows/value.hpp"
#include "text.hpp"

namespace sediment::rows::detail {

/// Valid JSON text laid out in `style` with every token kept as written (numbers, escapes, key order):
/// compact drops the whitespace between tokens; sediment puts one space after ',' and ':' and writes
/// non-ASCII characters in strings as \uXXXX escapes, as Python's json.dumps does.
inline std::string relayout(std::string_view text, Style style) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    const bool sediment = style == Style::sediment;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c != '"') {
            if (!is_json_space(c)) out += c;
            if (sediment && (c == ',' || c == ':')) out += ' ';
            ++i;
            continue;
        }
        const std::size_t end = string_end(text, i);
        if (!sediment) {
            out.append(text, i, end - i);  // the string as written, escapes and all
            i = end;
            continue;
        }
        while (i < end) {  // runs of ASCII as written; each other character as \uXXXX escapes
            const std::size_t ascii = i;
            while (i < end && static_cast<unsigned char>(text[i]) < 0x80) ++i;
            out.append(text, ascii, i - ascii);
            if (i == end) break;
            char buf[12];
            out.append(buf, unicode_escape(next_code_point(text, i), buf));
        }
    }
    return out;
}

}  // namespace sediment::rows::detail
