// Catch2 (v2) helpers for tests of code that makes or reads rows:
//
//   #include <sediment/rows/testing/catch2.hpp>
//   using namespace sediment::rows::catch2;
//   REQUIRE_THAT(line, IsValid<NemoGymRolloutRow>());             // text that decodes strictly
//   REQUIRE_THAT(line, HasError<NemoGymRolloutRow>("/reward", "a number"));
//   REQUIRE_THAT(errors, HasError("/metadata", "rows.decode.missing_key"));  // a std::vector<Error>
//
// A failed assertion names the first errors; models print as their JSON (Catch::StringMaker).
// Opt-in: only this header includes Catch2. Link sediment::rows_catch2 (or sediment::rows).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common.hpp"

namespace sediment::rows::catch2 {

/// Matches JSON text that decodes strictly into T (see IsValid).
template <class T>
class IsValidMatcher : public Catch::MatcherBase<std::string> {
public:
    /// See IsValid().
    IsValidMatcher(rows::detail::Target<T> target, Limits limits) : target_(target), limits_(limits) {}
    /// True when the value matches; keeps the errors for describe().
    bool match(const std::string& text) const override {
        errors_ = target_.validate(text, limits_);
        return errors_.empty();
    }
    /// What a matching value is, with the errors found, for Catch's message.
    std::string describe() const override {
        std::string text = "is a valid " + target_.description();
        if (!errors_.empty()) text += "; errors: " + rows::detail::first_errors(errors_);
        return text;
    }

private:
    rows::detail::Target<T> target_;
    Limits limits_;
    mutable std::vector<Error> errors_;  // of the last match, for describe()
};

/// Matches a std::vector<Error> holding an error at `pointer` whose id or message contains `part`.
class HasErrorMatcher : public Catch::MatcherBase<std::vector<Error>> {
public:
    /// See HasError().
    HasErrorMatcher(std::string pointer, std::string part) : pointer_(std::move(pointer)), part_(std::move(part)) {}
    /// True when the value matches; keeps the errors for describe().
    bool match(const std::vector<Error>& errors) const override { return rows::detail::has_error(errors, pointer_, part_); }
    /// What a matching value is, with the errors found, for Catch's message.
    std::string describe() const override {
        return rows::detail::error_description(pointer_, part_);
    }

private:
    std::string pointer_, part_;
};

/// Matches JSON text that T's decoder refuses with an error at `pointer` containing `part`.
template <class T>
class DocumentHasErrorMatcher : public Catch::MatcherBase<std::string> {
public:
    /// See HasError<T>().
    DocumentHasErrorMatcher(rows::detail::Target<T> target, std::string pointer, std::string part)
        : target_(target), errors_matcher_(std::move(pointer), std::move(part)) {}
    /// True when the value matches; keeps the errors for describe().
    bool match(const std::string& text) const override {
        errors_ = target_.validate(text, {});
        return errors_matcher_.match(errors_);
    }
    /// What a matching value is, with the errors found, for Catch's message.
    std::string describe() const override {
        return "as " + target_.name() + ", " + errors_matcher_.describe() + "; errors: " +
               (errors_.empty() ? std::string("none, it is valid") : rows::detail::first_errors(errors_));
    }

private:
    rows::detail::Target<T> target_;
    HasErrorMatcher errors_matcher_;
    mutable std::vector<Error> errors_;
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

}  // namespace sediment::rows::catch2

namespace Catch {

/// Models show as their JSON in assertions, cut at 2,000 bytes.
template <class T>
struct StringMaker<T, std::enable_if_t<sediment::rows::is_model<T>::value>> {
    /// preview(value).
    static std::string convert(const T& value) { return sediment::rows::preview(value); }
};

}  // namespace Catch
