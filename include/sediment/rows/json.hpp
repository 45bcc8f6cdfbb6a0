// The strict JSON reader every decoder starts from.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "value.hpp"

namespace sediment::rows {

/// Bytes after a text's end that a StringText needs in its string's capacity to be read in place.
inline constexpr std::size_t kTextPadding = 64;

/// The text of a std::string, for validate(): when the string's capacity leaves kTextPadding bytes
/// after its end (`s.reserve(s.size() + kTextPadding)` makes sure), the fast path parses the text
/// where it is, instead of copying it into a padded buffer of its own first (for a very large
/// document, a copy as large as the document). The string must not change while it is in use.
class StringText {
public:
    /// The text of `s`.
    explicit StringText(const std::string& s) noexcept : text_(s), padded_(s.capacity() - s.size() >= kTextPadding) {}
    /// Text inside a larger buffer (a block of lines read at once): `padded` says that kTextPadding
    /// readable bytes of the buffer follow it.
    StringText(std::string_view text, bool padded) noexcept : text_(text), padded_(padded) {}
    /// The text.
    std::string_view text() const noexcept { return text_; }
    /// True when kTextPadding bytes of the string's memory follow the text.
    bool padded() const noexcept { return padded_; }

private:
    std::string_view text_;
    bool padded_;
};

/// Resource limits for reading one document. Exceeding one is an error naming the limit.
struct Limits {
    std::size_t max_depth = 1000;                  ///< nested arrays and objects
    std::size_t max_document_bytes = 256u << 20;   ///< bytes of JSON text in one document
    std::size_t max_string_bytes = 64u << 20;      ///< bytes of one string or key, after unescaping
    std::size_t max_errors = 100;                  ///< errors collected before decoding stops reporting
};

/// How decimal literals (numbers with a fraction or an exponent) are read.
enum class Decimals {
    nearest,  ///< as the nearest double, like Python's json (the rows)
    exact,    ///< only when the literal is exactly the double it reads as, in shortest form (NeMo Gym's
              ///< ATIF loader): 0.1 and 1.50 are fine, 0.10000000000000001 and 1e-400 are refused
};

/// Parses one JSON document strictly: RFC 8259 text in UTF-8 with nothing after it, no NaN or
/// Infinity, no lone surrogate escapes, no duplicate keys, numbers that fit a double. Keys keep their
/// order; integers are exact, those beyond 64 bits (up to 308 digits) as big integers (see
/// kBigIntegerSubtype). On failure returns false and appends one error to `errors` with the JSON
/// Pointer of the place where reading stopped.
bool parse(std::string_view text, Json& out, std::vector<Error>& errors, const Limits& limits = {},
           Decimals decimals = Decimals::nearest);

/// Same as above; throws DecodeError.
Json parse(std::string_view text, const Limits& limits = {}, Decimals decimals = Decimals::nearest);

/// The error parse() reports for a document of `bytes` bytes, more than `limits.max_document_bytes`;
/// for readers that stop keeping a document's bytes once it is too long.
Error document_size_error(std::size_t bytes, const Limits& limits);

}  // namespace sediment::rows
