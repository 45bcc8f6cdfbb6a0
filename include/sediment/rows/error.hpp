// Errors reported by parsing, decoding, encoding and validation.
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sediment::rows {

/// One problem with a document: a stable id (listed in docs/errors.md), the JSON Pointer of the
/// offending value (of the object, for an unknown or missing key) and a one-line reason.
struct Error {
    std::string id;       ///< e.g. "rows.decode.unknown_key"
    std::string pointer;  ///< RFC 6901 JSON Pointer, "" for the whole document
    std::string message;  ///< e.g. "unknown key 'debug'"

    /// Same id, pointer and message.
    friend bool operator==(const Error& a, const Error& b) {
        return a.id == b.id && a.pointer == b.pointer && a.message == b.message;
    }
};

/// "[rows.decode.unknown_key] (/metadata) unknown key 'debug'"
inline std::string to_string(const Error& e) {
    return "[" + e.id + "] (" + e.pointer + ") " + e.message;
}

/// Prints to_string(e).
inline std::ostream& operator<<(std::ostream& os, const Error& e) { return os << to_string(e); }

namespace detail {
inline std::string describe(const std::vector<Error>& errors) {
    if (errors.empty()) return "unknown error";
    std::string s = to_string(errors.front());
    if (errors.size() > 1) s += " (and " + std::to_string(errors.size() - 1) + " more)";
    return s;
}
}  // namespace detail

/// The base of every exception that carries a document's errors: what() is the first error and
/// errors() has them all, at their JSON Pointers. Catch it to handle DecodeError, EncodeError and
/// ConvertError alike.
class DocumentError : public std::runtime_error {
public:
    /// An exception carrying `errors` (at least one).
    explicit DocumentError(std::vector<Error> errors)
        : std::runtime_error(detail::describe(errors)), errors_(std::move(errors)) {}
    /// Every error, in document order.
    const std::vector<Error>& errors() const noexcept { return errors_; }

private:
    std::vector<Error> errors_;
};

/// Thrown by decode() and parse(): the document is not valid.
class DecodeError : public DocumentError {
public:
    using DocumentError::DocumentError;
};

/// Thrown by encode() for a value JSON cannot carry (NaN, infinity, invalid UTF-8).
class EncodeError : public DocumentError {
public:
    /// An exception carrying `error`.
    explicit EncodeError(Error error) : DocumentError({std::move(error)}) {}
    /// The value that cannot be written: its pointer and why.
    const Error& error() const noexcept { return errors().front(); }
};

/// Thrown by the conversions and upgrades: every value that would be lost (strict mode), or what is
/// wrong with the source (an invalid document or `sediment_rows` extension), by JSON Pointer.
class ConvertError : public DocumentError {
public:
    using DocumentError::DocumentError;
};

}  // namespace sediment::rows
