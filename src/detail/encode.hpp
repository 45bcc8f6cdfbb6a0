// The library's side of encode(): the writer over the generated writers. src/models/encode.cpp
// instantiates it for every model and for Json.
#pragma once

#include "detail/writer.hpp"
#include "generated/write.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows {

template <class T>
void encode(const T& value, std::string& out, Style style) {
    detail::Writer w(out, style);
    detail::write(w, value);
    w.finish();
}

namespace detail {

/// encode() of `value` appended to `out` through a buffer of the thread's own, so that `out` grows by
/// the text's size only (the writer leaves room behind it, up to the text's size again): `out` may be
/// one of many queued texts. A value that cannot be encoded leaves `out` unchanged and appends its
/// error (EncodeError's) to `errors` (format()).
template <class T>
void append_encoding(const T& value, Style style, std::string& out, std::vector<Error>& errors) {
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

}  // namespace detail

}  // namespace sediment::rows
