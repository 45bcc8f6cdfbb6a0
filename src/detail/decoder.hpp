// The decoding context generated code calls: JSON Pointer tracking, error collection, and the value
// readers and constraint checks every model shares. Generated `read` overloads for model types live in
// this namespace too, so that overload resolution finds them through the Decoder argument.
#pragma once

#include <cctype>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows/error.hpp"
#include "sediment/rows/json.hpp"
#include "sediment/rows/value.hpp"
#include "text.hpp"

namespace sediment::rows {
enum class SchemaId : int;  // generated/schemas.hpp lists them
}

namespace sediment::rows::detail {

/// The digits of a big integer (see kBigIntegerSubtype); empty for anything else, and for DOM types
/// other than Json, which cannot hold one.
template <class J>
std::string_view big_digits(const J& j) {
    if constexpr (std::is_same_v<J, Json>) return big_integer_digits(j);
    else return {};
}

/// One branch of a union of models that no const tells apart (Sediment's trainer messages, whose
/// three assistant shapes overlap): its properties in schema order, which are required, and the values
/// its selector property (`role`) may have.
struct KeyedBranch {
    const std::string_view* keys;
    std::size_t key_count;
    std::uint64_t required;  // bit i: keys[i]
    const std::string_view* selector_values;
    std::size_t selector_count;
};

/// The branch an object is read as: the first that accepts its keys (all known, the required ones
/// there, the selector's value allowed) and has them in its own order, so that the object encodes
/// back to the same bytes; else the first that accepts them; else, for its errors, the closest (a
/// selector value allowed once normalized, " AUDIO/WAV", names its branch: the error lists that
/// branch's spellings).
/// `selector` is the selector's string value, or null when the object has none. Exact when the branches give a shared
/// property the same schema, which the generator checks.
struct BranchChoice {
    std::size_t index = 0;
    bool accepted = false;
};
/// True when `value`, its surrounding whitespace stripped and lower-cased, is `allowed` (as Harbor
/// normalizes a media type): such a value selects no branch, but names the one to report.
inline bool same_normalized(std::string_view value, std::string_view allowed) {
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
    if (value.size() != allowed.size()) return false;
    for (std::size_t i = 0; i < value.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(value[i])) != allowed[i]) return false;
    return true;
}

inline BranchChoice choose_branch(const KeyedBranch* branches, std::size_t count, const std::string_view* keys,
                                  std::size_t key_count, const std::string_view* selector) {
    BranchChoice best;
    int best_score = -1;
    for (std::size_t b = 0; b < count; ++b) {
        const KeyedBranch& branch = branches[b];
        int selected = branch.selector_count == 0 ? 2 : 0;  // 2: selected (or no selector); 1: only once normalized
        for (std::size_t i = 0; selector && i < branch.selector_count; ++i) {
            if (branch.selector_values[i] == *selector) selected = 2;
            else if (selected == 0 && same_normalized(*selector, branch.selector_values[i])) selected = 1;
        }
        std::uint64_t seen = 0;
        bool known = true, ordered = true;
        std::size_t last = 0;
        for (std::size_t k = 0; k < key_count; ++k) {
            std::size_t i = 0;
            while (i < branch.key_count && branch.keys[i] != keys[k]) ++i;
            if (i == branch.key_count) {
                known = false;
                continue;
            }
            ordered = ordered && (k == 0 || i > last);
            last = i;
            seen |= std::uint64_t{1} << i;
        }
        const bool required = (seen & branch.required) == branch.required;
        const int score = selected * 8 + required * 4 + known * 2 + ordered;
        if (score > best_score) {
            best_score = score;
            best = {b, score >= 22};  // selected, its required keys there, none unknown
        }
    }
    return best;
}

/// "an integer", "a string", ...: the JSON type of a value, for messages.
template <class J>
const char* json_type_name(const J& j) {
    switch (j.type()) {
        case nlohmann::json::value_t::null: return "null";
        case nlohmann::json::value_t::boolean: return "a boolean";
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned: return "an integer";
        case nlohmann::json::value_t::number_float: return "a number";
        case nlohmann::json::value_t::string: return "a string";
        case nlohmann::json::value_t::array: return "an array";
        case nlohmann::json::value_t::object: return "an object";
        case nlohmann::json::value_t::binary: return big_digits(j).empty() ? "a non-JSON value" : "an integer";
        default: return "a non-JSON value";
    }
}

/// Whether schema `s` allows the enum value `v`: an enum holds the values of every schema that uses it,
/// and a schema may allow fewer (rollout v1 has no `cursor` harness).
template <class E, class = void>
struct has_in_schema : std::false_type {};
template <class E>
struct has_in_schema<E, std::void_t<decltype(enum_traits<E>::in_schema(E{}, SchemaId{}))>> : std::true_type {};
template <class E>
constexpr bool in_schema(E v, SchemaId s) {
    if constexpr (has_in_schema<E>::value) return enum_traits<E>::in_schema(v, s);
    else return true;
}

class Decoder {
public:
    /// How the document came: a DOM from the caller is checked for what JSON text cannot hold
    /// (invalid UTF-8, NaN) and copied from; a DOM the library parsed itself is already checked, and
    /// decoding takes its strings and free-form values by move.
    enum class Source { caller_dom, owned_parse };

    Decoder(SchemaId schema, std::vector<Error>& errors, const Limits& limits, Source source)
        : schema_(schema), errors_(errors), limits_(limits), owned_(source == Source::owned_parse) {}

    /// The most bytes of a document's string that a message quotes.
    static constexpr std::size_t kQuoted = 200;

    /// The schema whose rules apply to this document.
    SchemaId schema() const noexcept { return schema_; }

    /// Enters a member or element for the lifetime of the returned scope.
    class Scope {
    public:
        explicit Scope(Decoder& d) : d_(d) {}
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        ~Scope() { d_.path_.pop_back(); }

    private:
        Decoder& d_;
    };
    [[nodiscard]] Scope at(std::string_view key) {
        path_.push_back(Step{key, 0});
        return Scope(*this);
    }
    [[nodiscard]] Scope at(std::size_t index) {
        path_.push_back(Step{{}, index + 1});
        return Scope(*this);
    }

    std::string pointer() const {
        std::string p;
        for (const Step& s : path_) {
            if (s.index) {
                p += '/';
                p += std::to_string(s.index - 1);
            } else {
                append_pointer_token(p, s.key);
            }
        }
        return p;
    }

    /// Records an error at the current place (errors past Limits::max_errors are counted, not kept).
    /// The message and pointer are made printable(): a caller's DOM may hold keys and strings that
    /// are not UTF-8.
    void error(const char* id, std::string message) {
        if (error_count_++ >= limits_.max_errors) return;
        errors_.push_back(Error{id, pointer(), std::move(message)});
        make_printable(errors_.back().pointer);
        make_printable(errors_.back().message);
    }
    /// Errors found so far in this document, including those past Limits::max_errors.
    std::size_t error_count() const noexcept { return error_count_; }

    // ----- structure ---------------------------------------------------------------------------

    template <class J>
    bool expect(const J& j, bool ok, const char* expected) {
        if (!ok) error("rows.decode.type", std::string("expected ") + expected + ", got " + json_type_name(j));
        return ok;
    }
    template <class J>
    bool expect_object(const J& j) { return expect(j, j.is_object(), "an object"); }

    void unknown_key(std::string_view key) {
        error("rows.decode.unknown_key", "unknown key " + quoted(key, kQuoted));
    }

    /// Reports every required key (bit i of `required` is names[i]) that `seen` lacks.
    template <std::size_t N>
    void require(std::uint64_t seen, std::uint64_t required, const char* const (&names)[N]) {
        const std::uint64_t missing = required & ~seen;
        if (missing == 0) return;
        for (std::size_t i = 0; i < N; ++i)
            if (missing & (std::uint64_t{1} << i)) error("rows.decode.missing_key", std::string("missing key '") + names[i] + "'");
    }

    /// The branch of a tagged union: the index in `tags` of the string at j[key], or -1 after
    /// reporting a missing, mistyped or unknown tag.
    template <class J, std::size_t N>
    int read_tag(const J& j, const char* key, const std::string_view (&tags)[N]) {
        if (!expect_object(j)) return -1;
        const auto it = j.find(key);
        if (it == j.end()) {
            error("rows.decode.missing_key", std::string("missing key '") + key + "'");
            return -1;
        }
        auto here = at(key);
        if (!expect(*it, it->is_string(), "a string")) return -1;
        const std::string_view tag = it->template get_ref<const typename J::string_t&>();  // read again by the branch
        for (std::size_t i = 0; i < N; ++i)
            if (tags[i] == tag) return static_cast<int>(i);
        error("rows.decode.const", quoted(tag, kQuoted) + " is not one of " + quoted_list(tags));
        return -1;
    }

    /// The branch of a union selected by the object's keys (choose_branch), or -1 after reporting
    /// a value that is not an object. An object no branch accepts is read as the closest, for its errors.
    template <class J, std::size_t N>
    int select_branch(const J& j, const char* selector, const KeyedBranch (&branches)[N]) {
        if (!expect_object(j)) return -1;
        std::vector<std::string_view> keys;
        keys.reserve(j.size());
        std::string_view value;
        const std::string_view* selected = nullptr;
        for (auto it = j.begin(); it != j.end(); ++it) {
            keys.emplace_back(it.key());
            if (selector && it.key() == selector && it->is_string()) {
                value = it->template get_ref<const typename J::string_t&>();
                selected = &value;
            }
        }
        return static_cast<int>(choose_branch(branches, N, keys.data(), keys.size(), selected).index);
    }

    /// "'a', 'b', 'c'"
    template <class List>
    static std::string quoted_list(const List& names) {
        std::string out;
        for (const std::string_view n : names) {
            if (!out.empty()) out += ", ";
            out += "'";
            out += n;
            out += "'";
        }
        return out;
    }

    // ----- constraints -------------------------------------------------------------------------

    void check_const(std::string_view value, std::string_view expected) {
        if (value != expected)
            error("rows.decode.const", "expected '" + std::string(expected) + "', got " + quoted(value, kQuoted));
    }
    void check_const(std::int64_t value, std::int64_t expected) {
        if (value != expected)
            error("rows.decode.const", "expected " + std::to_string(expected) + ", got " + std::to_string(value));
    }
    void check_one_of(std::int64_t value, std::initializer_list<std::int64_t> allowed) {
        for (const std::int64_t a : allowed)
            if (value == a) return;
        std::string list;
        for (const std::int64_t a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
        error("rows.decode.enum", std::to_string(value) + " is not one of " + list);
    }
    /// An integer of any size (the strict-number schemas).
    void check_one_of(const Integer& value, std::initializer_list<std::int64_t> allowed) {
        for (const std::int64_t a : allowed)
            if (value.compare(a) == 0) return;
        std::string list;
        for (const std::int64_t a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
        error("rows.decode.enum", value.to_string() + " is not one of " + list);
    }
    void check_minimum(std::int64_t value, std::int64_t minimum) {
        if (value < minimum)
            error("rows.decode.range", std::to_string(value) + " is less than the minimum " + std::to_string(minimum));
    }
    void check_maximum(std::int64_t value, std::int64_t maximum) {
        if (value > maximum)
            error("rows.decode.range", std::to_string(value) + " is greater than the maximum " + std::to_string(maximum));
    }
    void check_minimum(const Integer& value, std::int64_t minimum) {
        if (value.compare(minimum) < 0)
            error("rows.decode.range", value.to_string() + " is less than the minimum " + std::to_string(minimum));
    }
    void check_maximum(const Integer& value, std::int64_t maximum) {
        if (value.compare(maximum) > 0)
            error("rows.decode.range", value.to_string() + " is greater than the maximum " + std::to_string(maximum));
    }
    void check_minimum(const Number& value, std::int64_t minimum) {
        const bool below = value.kind() == Number::Kind::floating ? value.as_double() < static_cast<double>(minimum)
                                                                  : value.kind() == Number::Kind::integer && value.as_int64() < minimum;
        if (below) {
            std::string text;
            if (value.is_integer()) text = std::to_string(value.as_int64());
            else append_double(text, value.as_double());
            error("rows.decode.range", text + " is less than the minimum " + std::to_string(minimum));
        }
    }
    template <class T>
    void check_min_items(const std::vector<T>& items, std::size_t min) { check_min_items(items.size(), min); }
    void check_min_items(std::size_t count, std::size_t min) {
        if (count < min)
            error("rows.decode.min_items", "expected at least " + std::to_string(min) + " item" + (min == 1 ? "" : "s") +
                                               ", got " + std::to_string(count));
    }
    template <class T>
    void check_max_items(const std::vector<T>& items, std::size_t max) { check_max_items(items.size(), max); }
    void check_max_items(std::size_t count, std::size_t max) {
        if (count > max)
            error("rows.decode.max_items", "expected at most " + std::to_string(max) + " item" + (max == 1 ? "" : "s") +
                                               ", got " + std::to_string(count));
    }
    /// Runs `check(item)` on each item, at the item's place.
    template <class T, class F>
    void check_items(const std::vector<T>& items, F check) {
        if (items.empty()) return;
        auto here = at(std::size_t{0});
        for (std::size_t i = 0; i < items.size(); ++i) {
            path_.back().index = i + 1;  // the scope's step, moved along the items
            check(items[i]);
        }
    }
    void check_max_length(std::string_view value, std::size_t max) {
        const std::size_t n = code_points(value);
        if (n > max)
            error("rows.decode.max_length",
                  "string of " + std::to_string(n) + " code points is longer than the maximum " + std::to_string(max));
    }
    void check_pattern(std::string_view value, const char* pattern) {
        if (!matches_pattern(pattern, value)) error("rows.decode.pattern", std::string("does not match the pattern ") + pattern);
    }
    void check_date_time(std::string_view value) {
        if (!is_rfc3339_date_time(value))
            error("rows.decode.format", quoted(value, 64) + " is not an RFC 3339 date-time");
    }

    // ----- scalar readers ----------------------------------------------------------------------

    template <class J>
    bool read_string(const J& j, std::string& out) {
        if (!expect(j, j.is_string(), "a string")) return false;
        const auto& s = j.template get_ref<const typename J::string_t&>();
        if (owned_) {
            out = std::move(const_cast<typename J::string_t&>(s));
            return true;
        }
        const std::size_t bad = utf8_error_offset(s);
        if (bad != std::string_view::npos) {
            error("rows.decode.utf8", "invalid UTF-8 at byte " + std::to_string(bad) + " of the string");
            return false;
        }
        out = s;
        return true;
    }

    template <class J>
    bool read_bool(const J& j, bool& out) {
        if (!expect(j, j.is_boolean(), "a boolean")) return false;
        out = j.template get<bool>();
        return true;
    }

    /// JSON Schema integers: `3` and `3.0` are integers, `3.5` is not. The typed model holds 64-bit
    /// signed integers; a value outside that range is refused, never wrapped.
    template <class J>
    bool read_integer(const J& j, std::int64_t& out) {
        if (j.is_number_integer() && !j.is_number_unsigned()) {
            out = j.template get<std::int64_t>();
            return true;
        }
        if (j.is_number_unsigned()) {
            const auto u = j.template get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(INT64_MAX)) {
                error("rows.decode.range", std::to_string(u) + " is outside the 64-bit signed integer range");
                return false;
            }
            out = static_cast<std::int64_t>(u);
            return true;
        }
        if (out_of_range(j)) return false;
        if (!expect(j, j.is_number_float(), "an integer")) return false;
        const double d = j.template get<double>();
        if (!std::isfinite(d) || d != std::floor(d)) {
            std::string text;
            if (std::isfinite(d)) append_double(text, d);
            else text = "a non-finite number";
            error("rows.decode.integer", "expected an integer, got " + text);
            return false;
        }
        if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) {
            std::string text;
            append_double(text, d);
            error("rows.decode.range", text + " is outside the 64-bit signed integer range");
            return false;
        }
        out = static_cast<std::int64_t>(d);
        return true;
    }

    /// Strict integers (ATIF): a JSON integer of any size; `1.0` is not one.
    template <class J>
    bool read_exact_integer(const J& j, Integer& out) {
        if (const std::string_view digits = big_digits(j); !digits.empty()) {
            out = Integer::from_digits(digits);
            return true;
        }
        if (j.is_number_unsigned()) {
            out = Integer::from_digits(std::to_string(j.template get<std::uint64_t>()));
            return true;
        }
        if (j.is_number_integer()) {
            out = Integer(j.template get<std::int64_t>());
            return true;
        }
        if (j.is_number_float() && std::isfinite(j.template get<double>())) {
            std::string text;
            append_double(text, j.template get<double>());
            error("rows.decode.integer", "expected an integer, got " + text);
            return false;
        }
        return expect(j, false, "an integer");
    }

    template <class J>
    bool read_number(const J& j, Number& out) {
        if (out_of_range(j)) return false;
        if (!expect(j, j.is_number(), "a number")) return false;
        if (j.is_number_unsigned()) out = Number(j.template get<std::uint64_t>());
        else if (j.is_number_integer()) out = Number(j.template get<std::int64_t>());
        else {
            const double d = j.template get<double>();
            if (!std::isfinite(d)) {
                error("rows.decode.type", "expected a number, got a non-finite value");
                return false;
            }
            out = Number(d);
        }
        return true;
    }

    /// Any JSON value, kept whole (`result`, and free-form objects such as `arguments`, whose
    /// object-ness the generated code checks as a rule).
    template <class J>
    bool read_json(const J& j, Json& out) {
        if constexpr (std::is_same_v<J, Json>) {
            if (owned_) {
                out = std::move(const_cast<Json&>(j));
                return true;
            }
        }
        if (!valid_json_text(j)) return false;
        out = Json(j);
        return true;
    }

private:
    // A big integer where the model holds a 64-bit integer or a double: refused, never rounded.
    template <class J>
    bool out_of_range(const J& j) {
        const std::string_view digits = big_digits(j);
        if (digits.empty()) return false;
        error("rows.decode.range", printable(digits, 64) + " is outside the 64-bit signed integer range");
        return true;
    }

    struct Step {
        std::string_view key;
        std::size_t index;  // element index + 1, or 0 for an object key
    };

    // Free-form values built in memory may hold what JSON text cannot: invalid UTF-8, NaN.
    template <class J>
    bool valid_json_text(const J& j) {
        switch (j.type()) {
            case nlohmann::json::value_t::string: {
                std::string ignored;
                return read_string(j, ignored);
            }
            case nlohmann::json::value_t::number_float: {
                Number ignored;
                return read_number(j, ignored);
            }
            case nlohmann::json::value_t::array: {
                std::size_t i = 0;
                for (const auto& v : j) {
                    auto s = at(i++);
                    if (!valid_json_text(v)) return false;
                }
                return true;
            }
            case nlohmann::json::value_t::object:
                for (const auto& kv : j.items()) {
                    auto s = at(kv.key());
                    if (utf8_error_offset(kv.key()) != std::string_view::npos) {
                        error("rows.decode.utf8", "invalid UTF-8 in a key");
                        return false;
                    }
                    if (!valid_json_text(kv.value())) return false;
                }
                return true;
            case nlohmann::json::value_t::binary:
                if (valid_big_integer(big_digits(j))) return true;
                error("rows.decode.type", "binary values are not JSON");
                return false;
            default: return true;
        }
    }

    SchemaId schema_;
    std::vector<Error>& errors_;
    Limits limits_;
    bool owned_;
    std::size_t error_count_ = 0;
    std::vector<Step> path_;
};

// Readers by C++ type; generated code adds one per model type. Each returns false after recording an
// error, leaving `out` unspecified.

template <class J>
bool read(Decoder& d, const J& j, std::string& out) { return d.read_string(j, out); }
template <class J>
bool read(Decoder& d, const J& j, bool& out) { return d.read_bool(j, out); }
template <class J>
bool read(Decoder& d, const J& j, std::int64_t& out) { return d.read_integer(j, out); }
template <class J>
bool read(Decoder& d, const J& j, Number& out) { return d.read_number(j, out); }
template <class J>
bool read(Decoder& d, const J& j, Integer& out) { return d.read_exact_integer(j, out); }
template <class J>
bool read(Decoder& d, const J& j, Json& out) { return d.read_json(j, out); }
template <class J>
bool read(Decoder& d, const J&, Nothing&) {
    d.error("rows.decode.no_items", "no item is allowed here (\"items\": false): the array must be empty");
    return false;
}

template <class J, class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
bool read(Decoder& d, const J& j, E& out) {
    std::string text;
    if (!d.read_string(j, text)) return false;
    if (from_string(text, out) && in_schema(out, d.schema())) return true;
    std::vector<std::string_view> allowed;  // this schema's values
    for (std::size_t i = 0; i < std::size(enum_traits<E>::names); ++i)
        if (in_schema(static_cast<E>(i), d.schema())) allowed.push_back(enum_traits<E>::names[i]);
    d.error("rows.decode.enum", quoted(text, Decoder::kQuoted) + " is not one of " + Decoder::quoted_list(allowed));
    return false;
}

template <class J, class T>
bool read(Decoder& d, const J& j, std::vector<T>& out) {
    if (!d.expect(j, j.is_array(), "an array")) return false;
    out.clear();
    out.resize(j.size());
    bool ok = true;
    std::size_t i = 0;
    for (const auto& item : j) {
        auto at = d.at(i);
        ok = read(d, item, out[i++]) && ok;
    }
    return ok;
}

template <class J, class T>
bool read(Decoder& d, const J& j, Nullable<T>& out) {
    if (j.is_null()) {
        out = nullptr;
        return true;
    }
    T value{};
    const bool ok = read(d, j, value);
    out = std::move(value);
    return ok;
}

template <class J, class T>
bool read(Decoder& d, const J& j, std::optional<T>& out) {
    T value{};
    const bool ok = read(d, j, value);
    out = std::move(value);
    return ok;
}

}  // namespace sediment::rows::detail
