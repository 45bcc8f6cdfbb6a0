// GoogleTest (gMock 1.11+) matchers with the meaning of testing/catch2.hpp's:
//
//   #include <sediment/rows/testing/gtest.hpp>
//   using namespace sediment::rows::gtest;
//   EXPECT_THAT(line, IsValid<NemoGymRolloutRow>());
//   EXPECT_THAT(line, HasError<NemoGymRolloutRow>("/reward", "a number"));
//   EXPECT_THAT(errors, HasError("/metadata", "rows.decode.missing_key"));   // a std::vector<Error>
//
// A failed expectation explains itself with the first errors; models print as their JSON (PrintTo).
// Opt-in: only this header includes GoogleTest. Link sediment::rows_gtest (or sediment::rows) and GTest.
#pragma once

#include <gmock/gmock.h>

#include <ostream>
#include <string>
#include <vector>

#include "common.hpp"

namespace sediment::rows {

// gtest's printers for models: their JSON, cut at 2,000 bytes (one per model, so that they take
// precedence over gtest's own template).
#define SEDIMENT_ROWS_GTEST_PRINTER(Model) \
    inline void PrintTo(const Model& value, std::ostream* os) { *os << preview(value); }
SEDIMENT_ROWS_MODELS(SEDIMENT_ROWS_GTEST_PRINTER)
#undef SEDIMENT_ROWS_GTEST_PRINTER

}  // namespace sediment::rows

namespace sediment::rows::gtest {

/// Matches JSON text that decodes strictly into T (see IsValid).
template <class T>
class IsValidMatcher {
public:
    using is_gtest_matcher = void;  ///< tells GoogleTest this is a matcher
    /// See IsValid().
    IsValidMatcher(rows::detail::Target<T> target, Limits limits) : target_(target), limits_(limits) {}
    /// True on a match; otherwise writes the first errors to `os`.
    bool MatchAndExplain(const std::string& text, std::ostream* os) const {
        const std::vector<Error> errors = target_.validate(text, limits_);
        if (errors.empty()) return true;
        if (os) *os << "errors: " << rows::detail::first_errors(errors);
        return false;
    }
    /// What a matching value is, for GoogleTest's message.
    void DescribeTo(std::ostream* os) const { *os << "is a valid " << target_.description(); }
    /// What a value that does not match is, for GoogleTest's message.
    void DescribeNegationTo(std::ostream* os) const { *os << "is not a valid " << target_.description(); }

private:
    rows::detail::Target<T> target_;
    Limits limits_;
};

/// Matches a std::vector<Error> holding an error at `pointer` whose id or message contains `part`.
class HasErrorMatcher {
public:
    using is_gtest_matcher = void;  ///< tells GoogleTest this is a matcher
    /// See HasError().
    HasErrorMatcher(std::string pointer, std::string part) : pointer_(std::move(pointer)), part_(std::move(part)) {}
    /// True on a match; otherwise writes the first errors to `os`.
    bool MatchAndExplain(const std::vector<Error>& errors, std::ostream*) const {
        return rows::detail::has_error(errors, pointer_, part_);
    }
    /// What a matching value is, for GoogleTest's message.
    void DescribeTo(std::ostream* os) const { *os << rows::detail::error_description(pointer_, part_); }
    /// What a value that does not match is, for GoogleTest's message.
    void DescribeNegationTo(std::ostream* os) const { *os << rows::detail::error_description(pointer_, part_, true); }

private:
    std::string pointer_, part_;
};

/// Matches JSON text that T's decoder refuses with an error at `pointer` containing `part`.
template <class T>
class DocumentHasErrorMatcher {
public:
    using is_gtest_matcher = void;  ///< tells GoogleTest this is a matcher
    /// See HasError<T>().
    DocumentHasErrorMatcher(rows::detail::Target<T> target, std::string pointer, std::string part)
        : target_(target), errors_(std::move(pointer), std::move(part)) {}
    /// True on a match; otherwise writes the first errors to `os`.
    bool MatchAndExplain(const std::string& text, std::ostream* os) const {
        const std::vector<Error> errors = target_.validate(text, {});
        if (os) {
            if (errors.empty()) *os << "it is a valid " << target_.name();
            else *os << "errors: " << rows::detail::first_errors(errors);
        }
        return errors_.MatchAndExplain(errors, nullptr);
    }
    /// What a matching value is, for GoogleTest's message.
    void DescribeTo(std::ostream* os) const {
        *os << "as " << target_.name() << ", ";
        errors_.DescribeTo(os);
    }
    /// What a value that does not match is, for GoogleTest's message.
    void DescribeNegationTo(std::ostream* os) const {
        *os << "as " << target_.name() << ", ";
        errors_.DescribeNegationTo(os);
    }

private:
    rows::detail::Target<T> target_;
    HasErrorMatcher errors_;
};

/// JSON text that decodes strictly into T, within `limits` (AnyRolloutRow: a row of the version it names).
template <class T>
IsValidMatcher<T> IsValid(const Limits& limits = {}) {
    return IsValidMatcher<T>({}, limits);
}

/// JSON text that decodes strictly into T under the rules of `schema` (`IsValid<NemoGymResponse>(SchemaId::nemo_gym_response_v3)`).
template <class T>
IsValidMatcher<T> IsValid(SchemaId schema, const Limits& limits = {}) {
    return IsValidMatcher<T>(rows::detail::Target<T>{schema}, limits);
}

/// Errors (a std::vector<Error>) with one at exactly `pointer` whose id or message contains `part`.
inline HasErrorMatcher HasError(std::string pointer, std::string part) {
    return HasErrorMatcher(std::move(pointer), std::move(part));
}

/// JSON text that T's decoder refuses with an error at exactly `pointer` whose id or message contains
/// `part`.
template <class T>
DocumentHasErrorMatcher<T> HasError(std::string pointer, std::string part) {
    return DocumentHasErrorMatcher<T>({}, std::move(pointer), std::move(part));
}

/// The same under the rules of `schema`.
template <class T>
DocumentHasErrorMatcher<T> HasError(SchemaId schema, std::string pointer, std::string part) {
    return DocumentHasErrorMatcher<T>(rows::detail::Target<T>{schema}, std::move(pointer), std::move(part));
}

}  // namespace sediment::rows::gtest
