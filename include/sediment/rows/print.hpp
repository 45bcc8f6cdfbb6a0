// preview(): a model's JSON cut to a size fit for a test failure or a log line. (The printers, `os << row`,
// `os << error` and `os << enumerator`, come with the types themselves.)
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "encode.hpp"
#include "error.hpp"

namespace sediment::rows {

/// A model's compact JSON, cut to at most `max_bytes` bytes (on a UTF-8 character boundary) with a note
/// of the full size. Never throws: a value that cannot be encoded shows the EncodeError instead.
template <class T, std::enable_if_t<is_model<T>::value, int> = 0>
std::string preview(const T& value, std::size_t max_bytes = 2000) {
    std::string text;
    try {
        text = encode(value);
    } catch (const EncodeError& e) {
        return "<" + std::string(document_traits<T>::name) + " that cannot be encoded: " + to_string(e.error()) + ">";
    }
    if (text.size() <= max_bytes) return text;
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    const std::string size = std::to_string(text.size());
    text.resize(cut);
    return text + "... (" + size + " bytes)";
}

}  // namespace sediment::rows
