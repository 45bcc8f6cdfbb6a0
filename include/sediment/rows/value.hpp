// Value types the generated models are made of: Json, Number, Nullable<T> and Nothing.
#pragma once

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <cstddef>
#include <iterator>
#include <optional>
#include <ostream>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

namespace sediment::rows {

/// Free-form and any-JSON values (`arguments`, `raw`, `result`): the whole content, keys in source order.
using Json = nlohmann::ordered_json;

/// How encode() lays out JSON text.
enum class Style {
    compact,   ///< no spaces, UTF-8 as is: {"a":[1,2]}
    sediment,  ///< Sediment's exporter (Python json.dumps defaults): {"a": [1, 2]}, non-ASCII as \uXXXX
};

/// Integers beyond 64 bits are kept exactly, as their decimal digits, in a Json binary value with this
/// subtype (JSON text has no binary values, so nothing read from text looks like one). encode()
/// writes them back digit for digit; is_big_integer() and big_integer_digits() read them.
inline constexpr std::uint64_t kBigIntegerSubtype = 0x5EB1;

/// A Json holding the integer spelled by `digits` (an optional '-' and decimal digits).
inline Json big_integer(std::string_view digits) {
    return Json::binary(Json::binary_t::container_type(digits.begin(), digits.end()), kBigIntegerSubtype);
}

/// True for an integer beyond 64 bits read from JSON text (see kBigIntegerSubtype).
inline bool is_big_integer(const Json& j) {
    return j.is_binary() && j.get_binary().has_subtype() && j.get_binary().subtype() == kBigIntegerSubtype;
}

/// The decimal digits of a big integer ("-123..."); empty for any other value.
inline std::string_view big_integer_digits(const Json& j) {
    if (!is_big_integer(j)) return {};
    const auto& bytes = j.get_binary();
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// A JSON number of a `"type": "number"` field. It remembers whether it was written as an integer
/// (`0`) or as a float (`0.0`), so that a row re-encodes to the same bytes.
class Number {
public:
    /// How the number was written: a signed integer, an integer above INT64_MAX, or a float.
    enum class Kind : std::uint8_t { integer, unsigned_integer, floating };

    /// The integer 0.
    constexpr Number() noexcept = default;
    /// A float: written with a fraction or an exponent.
    constexpr Number(double v) noexcept : kind_(Kind::floating), d_(v) {}  // NOLINT: implicit by design
    /// An integer: written without a fraction.
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    constexpr Number(I v) noexcept {  // NOLINT: implicit by design
        if constexpr (std::is_unsigned_v<I>) {
            if (v > static_cast<std::uint64_t>(INT64_MAX)) {
                kind_ = Kind::unsigned_integer;
                u_ = v;
                return;
            }
        }
        i_ = static_cast<std::int64_t>(v);
    }

    /// How the number was written.
    constexpr Kind kind() const noexcept { return kind_; }
    /// True for `0` and `-3`, false for `0.0`.
    constexpr bool is_integer() const noexcept { return kind_ != Kind::floating; }
    /// The numeric value (integers above 2^53 are rounded, as any double would).
    constexpr double value() const noexcept {
        switch (kind_) {
            case Kind::integer: return static_cast<double>(i_);
            case Kind::unsigned_integer: return static_cast<double>(u_);
            default: return d_;
        }
    }
    /// value(), so that a Number reads as a double.
    constexpr operator double() const noexcept { return value(); }  // NOLINT: implicit by design
    /// The value of a Kind::integer number (unspecified for other kinds).
    constexpr std::int64_t as_int64() const noexcept { return i_; }
    /// The value of a Kind::unsigned_integer number (unspecified for other kinds).
    constexpr std::uint64_t as_uint64() const noexcept { return u_; }
    /// The value of a Kind::floating number (unspecified for other kinds).
    constexpr double as_double() const noexcept { return d_; }

    /// Same kind and same value: `0` and `0.0` are different numbers to a byte-exact row.
    friend constexpr bool operator==(const Number& a, const Number& b) noexcept {
        if (a.kind_ != b.kind_) return false;
        switch (a.kind_) {
            case Kind::integer: return a.i_ == b.i_;
            case Kind::unsigned_integer: return a.u_ == b.u_;
            default: return a.d_ == b.d_ || (a.d_ != a.d_ && b.d_ != b.d_);
        }
    }
    /// Not operator==.
    friend constexpr bool operator!=(const Number& a, const Number& b) noexcept { return !(a == b); }

private:
    Kind kind_ = Kind::integer;
    union {
        std::int64_t i_ = 0;
        std::uint64_t u_;
        double d_;
    };
};

/// An integer of any size, as the strict-number schemas (ATIF) hold them: a 64-bit value, or the
/// exact decimal digits of a larger one (a token count of 2^70 is valid ATIF).
class Integer {
public:
    /// Zero.
    Integer() = default;
    /// A 64-bit value.
    Integer(std::int64_t v) noexcept : small_(v) {}  // NOLINT: implicit by design
    /// An int, so that `Integer x = 3;` is not ambiguous.
    Integer(int v) noexcept : small_(v) {}           // NOLINT

    /// From JSON integer digits ("-123..."): the caller checks the syntax (detail::valid_big_integer).
    static Integer from_digits(std::string_view digits) {
        Integer out;
        std::int64_t v = 0;
        const char* end = digits.data() + digits.size();
        const auto r = std::from_chars(digits.data(), end, v);
        if (r.ec == std::errc() && r.ptr == end) out.small_ = v;
        else out.big_ = std::string(digits);
        return out;
    }

    /// True when the value fits std::int64_t.
    bool fits_int64() const noexcept { return big_.empty(); }
    /// The value; throws std::out_of_range when it does not fit std::int64_t.
    std::int64_t value() const {
        if (!fits_int64()) throw std::out_of_range("integer " + big_ + " does not fit in 64 bits");
        return small_;
    }
    /// The exact decimal digits.
    std::string to_string() const { return fits_int64() ? std::to_string(small_) : big_; }
    /// -1, 0 or 1 as the value compares with `bound`.
    int compare(std::int64_t bound) const noexcept {
        if (!fits_int64()) return big_.front() == '-' ? -1 : 1;
        return small_ < bound ? -1 : small_ > bound ? 1 : 0;
    }

    /// The same integer.
    friend bool operator==(const Integer& a, const Integer& b) { return a.small_ == b.small_ && a.big_ == b.big_; }
    /// Not the same integer.
    friend bool operator!=(const Integer& a, const Integer& b) { return !(a == b); }

private:
    std::int64_t small_ = 0;
    std::string big_;  // set only beyond the 64-bit range
};

/// The item of an array that must be empty (`"items": false`: the `tools` of Sediment's trainer rows).
/// No JSON value is one: decoding an item fails, and so does encoding one.
struct Nothing {
    /// Always true: there is only one Nothing.
    friend bool operator==(Nothing, Nothing) { return true; }
    /// Always false.
    friend bool operator!=(Nothing, Nothing) { return false; }
};

/// A required field whose value may be JSON `null` (`"anyOf": [X, {"type": "null"}]`): always
/// written, as a value or as null. Deliberately not std::optional, which means "may be absent".
template <class T>
class Nullable {
public:
    /// Null.
    Nullable() = default;
    /// Null.
    Nullable(std::nullptr_t) noexcept {}  // NOLINT: implicit by design
    /// A copy of `v`.
    Nullable(const T& v) : v_(v) {}       // NOLINT
    /// `v`, moved in.
    Nullable(T&& v) : v_(std::move(v)) {} // NOLINT
    /// A T made from `v` (a string literal for a Nullable<std::string>, ...).
    template <class U, std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                            !std::is_same_v<std::decay_t<U>, Nullable> &&
                                            !std::is_same_v<std::decay_t<U>, std::nullptr_t>,
                                        int> = 0>
    Nullable(U&& v) : v_(std::in_place, std::forward<U>(v)) {}  // NOLINT

    /// Makes it null.
    Nullable& operator=(std::nullptr_t) noexcept {
        v_.reset();
        return *this;
    }

    /// True when null.
    bool is_null() const noexcept { return !v_.has_value(); }
    /// True when not null.
    bool has_value() const noexcept { return v_.has_value(); }
    /// True when not null.
    explicit operator bool() const noexcept { return v_.has_value(); }
    /// The value; throws std::bad_optional_access when null.
    T& value() & { return v_.value(); }
    /// The value; throws std::bad_optional_access when null.
    const T& value() const& { return v_.value(); }
    /// The value; undefined when null.
    T& operator*() & { return *v_; }
    /// The value; undefined when null.
    const T& operator*() const& { return *v_; }
    /// The value's members; undefined when null.
    T* operator->() { return &*v_; }
    /// The value's members; undefined when null.
    const T* operator->() const { return &*v_; }
    /// The value, or `fallback` when null.
    template <class U>
    T value_or(U&& fallback) const {
        return v_.value_or(std::forward<U>(fallback));
    }
    /// Makes the value from `args` in place, and returns it.
    template <class... Args>
    T& emplace(Args&&... args) {
        return v_.emplace(std::forward<Args>(args)...);
    }

    /// Both null, or equal values.
    friend bool operator==(const Nullable& a, const Nullable& b) { return a.v_ == b.v_; }
    /// Not operator==.
    friend bool operator!=(const Nullable& a, const Nullable& b) { return !(a == b); }
    /// True when null.
    friend bool operator==(const Nullable& a, std::nullptr_t) { return a.is_null(); }
    /// True when not null.
    friend bool operator!=(const Nullable& a, std::nullptr_t) { return !a.is_null(); }

private:
    std::optional<T> v_;
};

/// Specialized by the generated models for each string enum: `names[i]` is the JSON spelling of the
/// enumerator with value i.
template <class E>
struct enum_traits;

template <class E, class = void>
struct is_model_enum : std::false_type {};
template <class E>
struct is_model_enum<E, std::void_t<decltype(enum_traits<E>::names)>> : std::true_type {};

/// The exact JSON spelling of an enumerator ("claude-code"); empty for a value outside the enum.
template <class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
constexpr std::string_view to_string(E v) noexcept {
    const auto i = static_cast<std::size_t>(v);
    return i < std::size(enum_traits<E>::names) ? enum_traits<E>::names[i] : std::string_view{};
}

/// Prints the enumerator's JSON spelling; a value outside the enum as "<invalid>".
template <class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
std::ostream& operator<<(std::ostream& os, E v) {
    const std::string_view name = to_string(v);
    return name.empty() ? os << "<invalid>" : os << name;
}

/// Parses the exact JSON spelling; false (and `out` unchanged) for anything else.
template <class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
constexpr bool from_string(std::string_view text, E& out) noexcept {
    for (std::size_t i = 0; i < std::size(enum_traits<E>::names); ++i) {
        if (enum_traits<E>::names[i] == text) {
            out = static_cast<E>(i);
            return true;
        }
    }
    return false;
}

/// Specialized by the generated models: `schema`, the schema whose rules apply when T is decoded on
/// its own, and `name`, the model's C++ name.
template <class T>
struct document_traits;

template <class T, class = void>
struct is_model : std::false_type {};
/// True for the generated model types (they carry the member type `sediment_model`: a property of
/// the type itself, so the answer never depends on what was declared when it was first asked).
template <class T>
struct is_model<T, std::void_t<typename T::sediment_model>> : std::true_type {};

template <class J>
inline constexpr bool is_json_v = nlohmann::detail::is_basic_json<J>::value;

// nlohmann's ADL hooks (defined in decode.hpp and encode.hpp), declared before any model so that
// nlohmann's traits see them wherever they are first asked about a model type.
template <class J, class T, std::enable_if_t<is_json_v<J> && is_model<T>::value, int> = 0>
void from_json(const J& document, T& out);
template <class J, class T, std::enable_if_t<is_json_v<J> && is_model<T>::value, int> = 0>
void to_json(J& document, const T& value);

/// Carries a type through a function call (see visit_schema).
template <class T>
struct type_tag {
    using type = T;  ///< the type carried
};

}  // namespace sediment::rows
