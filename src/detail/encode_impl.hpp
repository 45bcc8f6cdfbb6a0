// The definitions behind encode() and append_encoding(), over the generated writers. The library
// instantiates them in src/models/encode.cpp, the one source that includes this header: the tests
// encode models (and a list of them an item at a time), as a user does.
#pragma once

#include "detail/encode.hpp"
#include "generated/write.hpp"

namespace sediment::rows {

template <class T>
void encode(const T& value, std::string& out, Style style) {
    detail::Writer w(out, style);
    detail::write(w, value);
    w.finish();
}

template <class T>
void detail::append_encoding(const T& value, Style style, std::string& out, std::vector<Error>& errors) {
    thread_local std::string scratch;
    scratch.clear();
    try {
        encode(value, scratch, style);
    } catch (const EncodeError& e) {
        errors.push_back(e.error());
        return;
    }
    out += scratch;
}

}  // namespace sediment::rows
