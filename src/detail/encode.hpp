// The library's side of encode(): detail/encode_impl.hpp defines it over the generated writers, and
// src/models/encode.cpp instantiates it for every model and for Json; no other source compiles them.
#pragma once

#include <string>
#include <vector>

#include "detail/writer.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows::detail {

/// encode() of `value` appended to `out` through a buffer of the thread's own, so that `out` grows by
/// the text's size only (the writer leaves room behind it, up to the text's size again): `out` may be
/// one of many queued texts. A value that cannot be encoded leaves `out` unchanged and appends its
/// error (EncodeError's) to `errors` (format()). Instantiated for every model.
template <class T>
void append_encoding(const T& value, Style style, std::string& out, std::vector<Error>& errors);

}  // namespace sediment::rows::detail
