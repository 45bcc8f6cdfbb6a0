// The strict JSON reader every decoder starts from.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "value.hpp"

namespace sediment::rows {

/// Resource limits for reading one document. Exceeding one is an error naming the limit.
struct Limits {
    std::size_t max_depth = 1000;                  ///< nested arrays and objects
    std::size_t max_document_bytes = 256u << 20;   ///< bytes of JSON text in one document
    std::size_t max_string_bytes = 64u << 20;      ///< bytes of one string or key, after unescaping
    std::size_t max_errors = 100;                  ///< errors collected before decoding stops reporting
};

/// Parses one JSON document strictly: RFC 8259 text in UTF-8 with nothing after it, no NaN or
/// Infinity, no lone surrogate escapes, no duplicate keys, numbers that fit a double. Keys keep their
/// order; integers are exact, those beyond 64 bits (up to 308 digits) as big integers (see
/// kBigIntegerSubtype). On failure returns false and appends one error to `errors` with the JSON
/// Pointer of the place where reading stopped.
bool parse(std::string_view text, Json& out, std::vector<Error>& errors, const Limits& limits = {});

/// Same as above; throws DecodeError.
Json parse(std::string_view text, const Limits& limits = {});

}  // namespace sediment::rows
