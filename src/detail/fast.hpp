// The fast path's runtime: simdjson parses the text (structure, numbers, strings and UTF-8, all
// checked), and these readers move a simdjson DOM into the typed models. Each reader returns false at
// the first thing it does not accept as is, and decode() then hands the text to the exact reader,
// which gives the verdict and the errors. So the fast path may refuse what is valid (3.0 as an
// integer, an integer beyond 64 bits outside a free-form value, very wide free-form values, a decimal
// it cannot prove exact), never accept what is not. The parser refuses documents nested deeper than
// Limits::max_depth allows.
//
// Included only by src/fast.cpp (through generated/fast_read.hpp); not installed.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "decoder.hpp"
#include "fast_dom.hpp"
#include "generated/views.hpp"

namespace sediment::rows::detail::fast {

using simdjson::dom::element;
using simdjson::dom::element_type;

/// The memory of the free-form values a reader replaced, for the next ones it builds. Decoding row
/// after row into one model reuses a free-form value's memory where the new value has the old one's
/// shape; but tool arguments and results change shape from row to row, and nlohmann spends two
/// allocations on every string, array and object. A value a reader drops (an object's members past
/// the new keys, an array's items past its new size, a value of another type) comes here as empty
/// strings, arrays and objects that keep their capacity, and the reader takes its new ones from
/// here. It holds at most kBudget bytes; one per thread (src/engines/fast.cpp).
class SpareJson {
public:
    /// Takes the memory of `value` and of everything in it; `value` is then null.
    void give(Json& value) {
        switch (value.type()) {
            case Json::value_t::string: value.get_ref<std::string&>().clear(); break;
            case Json::value_t::array: {
                auto& items = value.get_ref<Json::array_t&>();
                for (Json& item : items) give(item);
                items.clear();
                break;
            }
            case Json::value_t::object: {
                auto& members = value.get_ref<Json::object_t&>();
                for (auto& member : members) give(member.second);
                members.clear();
                break;
            }
            default: value = nullptr; return;
        }
        const std::size_t bytes = held(value);
        if (bytes_ + bytes <= kBudget) {
            bytes_ += bytes;
            kept(value.type()).push_back(std::move(value));
        }
        value = nullptr;
    }

    /// An empty string, array or object, with the memory of one given earlier where there is one.
    Json take(Json::value_t type) {
        std::vector<Json>& spare = kept(type);
        if (spare.empty()) return Json(type);
        Json value = std::move(spare.back());
        spare.pop_back();
        bytes_ -= held(value);
        return value;
    }

private:
    static constexpr std::size_t kBudget = std::size_t{1} << 20;

    /// The bytes an empty string, array or object holds: its capacity, and its own place on the heap.
    static std::size_t held(const Json& value) {
        constexpr std::size_t kValue = 64;
        if (value.is_string()) return kValue + value.get_ref<const std::string&>().capacity();
        if (value.is_array()) return kValue + value.get_ref<const Json::array_t&>().capacity() * sizeof(Json);
        return kValue + value.get_ref<const Json::object_t&>().capacity() * sizeof(Json::object_t::value_type);
    }

    std::vector<Json>& kept(Json::value_t type) {
        return type == Json::value_t::string ? strings_ : type == Json::value_t::array ? arrays_ : objects_;
    }

    std::vector<Json> strings_, arrays_, objects_;
    std::size_t bytes_ = 0;
};

/// The Decoder whose checks every rule shares (any error it records sends the document to the exact
/// reader), the limits of this document, and how many decimals (simdjson's doubles: literals with a
/// fraction or an exponent) it holds. The two readers that accept a double, of Number and of Json,
/// count it: a schema of exact decimals then reads that many literals again from the text.
/// `big_integers`, when set, holds the document's integers beyond 64 bits, which the parser read as
/// markers (src/engines/fast.cpp, mark_big_integers()), and whether a reader took each.
struct Reader {
    Decoder& d;
    const Limits& limits;
    std::size_t decimals = 0;
    std::vector<std::pair<std::string_view, bool>>* big_integers = nullptr;
    bool reordered = false;  ///< an object's keys were not in the order of its model's fields
    SpareJson* spare = nullptr;  ///< where the free-form values a reader replaces keep their memory
    bool escaped = false;  ///< the last string read over tokens had escapes (detail/fast_tokens.hpp)
};

/// A string of a marker's form, where the document has markers. Only a free-form value reads one
/// (take_marked()); every other reader refuses it.
inline bool is_marker(const Reader& r, std::string_view s) { return r.big_integers && marker_form(s); }

/// The integer the marker `s` stands for, taken; empty when that marker is taken already or out of
/// range. The text's own strings are of any content, so one of a marker's form may be a string of
/// the text; but every value of the document is read once, so that each marker is taken exactly once
/// (accepts() checks it), and a string of the text of a marker's form takes one twice or one out of
/// range: the exact reader then reads the document.
inline std::string_view take_marked(Reader& r, std::string_view s) {
    const std::size_t i = marker_index(s);
    if (i >= r.big_integers->size()) return {};
    auto& [literal, taken] = (*r.big_integers)[i];
    if (taken) return {};
    taken = true;
    return literal;
}

// Objects wider than this go to the exact reader, which checks duplicate keys with a hash set.
constexpr std::size_t kMaxScannedKeys = 64;

// The DOM counts an array's items up to this many; a longer array says this size (simdjson's
// array::size() saturates), and goes to the exact reader.
constexpr std::size_t kSaturatedSize = 0xFFFFFF;

inline bool read(Reader& r, element e, std::string& out) {
    std::string_view s;
    if (e.get(s) || s.size() > r.limits.max_string_bytes || is_marker(r, s)) return false;
    out.assign(s.data(), s.size());
    return true;
}

/// A string where it is, in the parser's buffer (the check-only readers).
inline bool read(Reader& r, element e, std::string_view& out) {
    return !e.get(out) && out.size() <= r.limits.max_string_bytes && !is_marker(r, out);
}

inline bool read(Reader&, element e, bool& out) { return !e.get(out); }
inline bool read(Reader&, element, Nothing&) { return false; }  // no item is one

// An integer field: a JSON integer in the 64-bit range (3.0 and the rest go to the exact reader).
inline bool read(Reader&, element e, std::int64_t& out) { return e.type() == element_type::INT64 && !e.get(out); }

inline bool read(Reader&, element e, Integer& out) {
    std::int64_t v = 0;
    if (e.type() != element_type::INT64 || e.get(v)) return false;
    out = Integer(v);
    return true;
}

inline bool read(Reader& r, element e, Number& out) {
    switch (e.type()) {
        case element_type::INT64: out = Number(e.get_int64().value_unsafe()); return true;
        case element_type::UINT64: out = Number(e.get_uint64().value_unsafe()); return true;
        case element_type::DOUBLE: ++r.decimals, out = Number(e.get_double().value_unsafe()); return true;
        default: return false;
    }
}

/// `value` null, its memory kept in `r.spare` where the reader has one.
inline void drop(Reader& r, Json& value) {
    if (r.spare && (value.is_string() || value.is_structured())) r.spare->give(value);
    else value = nullptr;
}

/// `out` of `type` (a string, an array or an object), as it is when it is one already.
inline void become(Reader& r, Json& out, Json::value_t type) {
    if (out.type() == type) return;
    drop(r, out);
    out = r.spare ? r.spare->take(type) : Json(type);
}

inline void truncate(Reader& r, Json::object_t::Container& members, std::size_t size) {
    while (members.size() > size) {
        drop(r, members.back().second);
        members.pop_back();
    }
}

/// The value of the member at position `i` of an object read by position into `members` (the readers
/// over the DOM and over tokens), for the key `key`: the one there when it has that key, else a new one
/// (the members from `i` on dropped: an ordered map's keys are const); nullptr for a key one of the
/// members before `i` has (a duplicate).
inline Json* member_at(Reader& r, Json::object_t::Container& members, std::size_t i, std::string_view key) {
    for (std::size_t k = 0; k < i; ++k)
        if (members[k].first == key) return nullptr;
    if (i < members.size() && members[i].first != key) truncate(r, members, i);
    if (i == members.size()) members.emplace_back(std::string(key), Json());
    return &members[i].second;
}

/// A free-form value as the exact reader builds it: key order kept, non-negative integers unsigned
/// (nlohmann's reading), duplicate keys refused. What `out` holds is reused, and what it no longer
/// needs goes to `r.spare`.
inline bool read(Reader& r, element e, Json& out) {
    switch (e.type()) {
        case element_type::NULL_VALUE: drop(r, out); return true;
        case element_type::BOOL: drop(r, out), out = e.get_bool().value_unsafe(); return true;
        case element_type::INT64: {
            const std::int64_t v = e.get_int64().value_unsafe();
            drop(r, out);
            if (v >= 0) out = static_cast<std::uint64_t>(v);
            else out = v;
            return true;
        }
        case element_type::UINT64: drop(r, out), out = e.get_uint64().value_unsafe(); return true;
        case element_type::DOUBLE: ++r.decimals, drop(r, out), out = e.get_double().value_unsafe(); return true;
        case element_type::STRING: {
            std::string_view s = e.get_string().value_unsafe();
            if (s.size() > r.limits.max_string_bytes) return false;
            if (is_marker(r, s)) {
                const std::string_view literal = take_marked(r, s);
                if (literal.empty()) return false;
                drop(r, out);
                out = big_integer(literal);
                return true;
            }
            become(r, out, Json::value_t::string);
            out.get_ref<std::string&>().assign(s.data(), s.size());
            return true;
        }
        case element_type::ARRAY: {
            become(r, out, Json::value_t::array);
            auto& items = out.get_ref<Json::array_t&>();
            const simdjson::dom::array array = e.get_array().value_unsafe();
            const std::size_t size = array.size();
            if (size >= kSaturatedSize) return false;
            for (std::size_t k = size; k < items.size(); ++k) drop(r, items[k]);
            items.resize(size);
            std::size_t i = 0;
            for (const element item : array)
                if (!read(r, item, items[i++])) return false;
            return true;
        }
        case element_type::OBJECT: {
            const simdjson::dom::object object = e.get_object().value_unsafe();
            if (object.size() > kMaxScannedKeys) return false;
            become(r, out, Json::value_t::object);
            // Members whose keys come in the order `out` has them are read in place (member_at()).
            Json::object_t::Container& members = out.get_ref<Json::object_t&>();  // by position
            members.reserve(object.size());
            std::size_t i = 0;
            for (const auto field : object) {
                if (field.key.size() > r.limits.max_string_bytes) return false;
                Json* value = member_at(r, members, i++, field.key);
                if (!value || !read(r, field.value, *value)) return false;
            }
            truncate(r, members, i);
            return true;
        }
    }
    return false;
}

template <class E, std::enable_if_t<is_model_enum<E>::value, int> = 0>
bool read(Reader& r, element e, E& out) {
    std::string_view s;
    return !e.get(s) && from_string(s, out) && in_schema(out, r.d.schema());
}

/// The 8 bytes at `p`, as one word (memcpy: any alignment).
inline std::uint64_t word_at(const char* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
}

/// `key == literal`, with a comparison of a size known at compile time: words, the last one
/// overlapping the one before, so that no byte past either is read (GCC calls memcmp() for more than
/// 3 bytes, and keys are compared by the million).
template <std::size_t N>
inline bool is_key(std::string_view key, const char (&literal)[N]) {
    constexpr std::size_t n = N - 1;
    if (key.size() != n) return false;
    if constexpr (n < 4) {
        return std::memcmp(key.data(), literal, n) == 0;
    } else if constexpr (n < 8) {
        const auto half = [](const char* p) {
            std::uint32_t w;
            std::memcpy(&w, p, sizeof w);
            return w;
        };
        return half(key.data()) == half(literal) && half(key.data() + n - 4) == half(literal + n - 4);
    } else {
        for (std::size_t i = 0; i + 8 < n; i += 8)
            if (word_at(key.data() + i) != word_at(literal + i)) return false;
        return word_at(key.data() + n - 8) == word_at(literal + n - 8);
    }
}

// A thread's models that its readers replaced (an array's items past its new size, a union's
// alternative of another kind), at most kSpareModels of each type, for the next ones of their type
// it reads: these keep their strings', vectors' and free-form values' memory. (A reader sets or
// resets every field of a model it reads.)
constexpr std::size_t kSpareModels = 16;

template <class T>
std::vector<T>& spare_models() {
    thread_local std::vector<T> models;
    return models;
}

template <class T>
struct is_union : std::false_type {};
template <class... T>
struct is_union<std::variant<T...>> : std::true_type {};

/// Keeps `value`, a model replaced (or the alternative a union holds), for the next T read; nothing
/// for other types (a free-form value's memory goes to SpareJson).
template <class T>
void spare(T& value) {
    if constexpr (is_model<T>::value) {
        std::vector<T>& models = spare_models<T>();
        if (models.size() < kSpareModels) models.push_back(std::move(value));
    } else if constexpr (is_union<T>::value) {
        std::visit([](auto& held) { spare(held); }, value);
    }
}

/// A T for a reader to fill: a spare one where there is one.
template <class T>
T spared() {
    if constexpr (is_model<T>::value) {
        std::vector<T>& models = spare_models<T>();
        if (!models.empty()) {
            T value = std::move(models.back());
            models.pop_back();
            return value;
        }
    }
    return T();
}

/// `items` resized to `size`: items past it are spared, new ones spare ones.
template <class T>
void resize(std::vector<T>& items, std::size_t size) {
    if constexpr (is_model<T>::value || is_union<T>::value) {
        while (items.size() > size) spare(items.back()), items.pop_back();
        items.reserve(size);
        while (items.size() < size) items.push_back(spared<T>());
    } else {
        items.resize(size);
    }
}

// The containers below read into the values they already hold: decoding row after row into one
// model reuses its strings' and vectors' memory. Every model reader sets or resets each of its
// fields, so nothing of the earlier document is left.

template <class T>
bool read(Reader& r, element e, std::vector<T>& out) {
    simdjson::dom::array array;
    if (e.get(array) || array.size() >= kSaturatedSize) return false;
    resize(out, array.size());
    std::size_t i = 0;
    for (const element item : array)
        if (!read(r, item, out[i++])) return false;
    return true;
}

template <class T>
bool read(Reader& r, element e, Nullable<T>& out) {
    if (e.is_null()) {
        out = nullptr;
        return true;
    }
    return read(r, e, out.is_null() ? out.emplace() : *out);
}

template <class T>
bool read(Reader& r, element e, std::optional<T>& out) {
    return read(r, e, out ? *out : out.emplace());
}

/// The alternative M of a union, the one it holds when it holds M (else a spare one: spare()).
template <class M, class V>
M& alternative(V& v) {
    if (M* held = std::get_if<M>(&v)) return *held;
    spare(v);
    return v.template emplace<M>(spared<M>());
}

/// The alternative I of a union, the one it holds when it holds that one (a reader of a model and its
/// view model, whose alternatives are of different types).
template <std::size_t I, class V>
auto& alternative_at(V& v) {
    if (v.index() == I) return std::get<I>(v);
    spare(v);
    return v.template emplace<I>(spared<std::variant_alternative_t<I, V>>());
}

// ----- the check-only readers ----------------------------------------------------------------------
// check(r, e, type_tag<T>{}) accepts exactly what read(r, e, T&) accepts, and builds nothing (the
// generated overloads cover the models and unions).

/// What a check-only reader reads a scalar T as: itself, a string as a view, an Integer as the 64-bit
/// integer the fast path reads it as.
template <class T>
struct viewed {
    using type = T;
};
template <>
struct viewed<std::string> {
    using type = std::string_view;
};
template <>
struct viewed<Integer> {
    using type = std::int64_t;
};

template <class T>
bool check(Reader& r, element e, type_tag<T>) {
    typename viewed<T>::type value{};
    return read(r, e, value);
}

template <class T>
bool check(Reader& r, element e, type_tag<std::vector<T>>) {
    simdjson::dom::array array;
    if (e.get(array)) return false;
    for (const element item : array)
        if (!check(r, item, type_tag<T>{})) return false;
    return true;
}

/// A free-form value, walked: what read(r, e, Json&) accepts.
inline bool check(Reader& r, element e, type_tag<Json> json) {
    switch (e.type()) {
        case element_type::DOUBLE: ++r.decimals; return true;
        case element_type::STRING: {
            const std::string_view s = e.get_string().value_unsafe();
            return s.size() <= r.limits.max_string_bytes && (!is_marker(r, s) || !take_marked(r, s).empty());
        }
        case element_type::ARRAY: {
            const simdjson::dom::array array = e.get_array().value_unsafe();
            for (const element item : array)
                if (!check(r, item, json)) return false;
            return true;
        }
        case element_type::OBJECT: {
            const simdjson::dom::object object = e.get_object().value_unsafe();
            if (object.size() > kMaxScannedKeys) return false;
            for (auto field = object.begin(); field != object.end(); ++field) {
                if (field.key().size() > r.limits.max_string_bytes) return false;
                for (auto earlier = object.begin(); earlier != field; ++earlier)
                    if (earlier.key() == field.key()) return false;  // a duplicate key
                if (!check(r, field.value(), json)) return false;
            }
            return true;
        }
        default: return true;  // null, a boolean, an integer
    }
}

/// A free-form value of a view model: checked where it is.
inline bool read(Reader& r, element e, view::JsonView& out) {
    out.value = e;
    return check(r, e, type_tag<Json>{});
}

/// Parses `text` and reads it into the view model of a trajectory of the ATIF subset, every rule
/// checked: true only for a valid trajectory (check()'s fast verdict). The view points into a DOM of
/// this thread's that only the next view_document() on it overwrites (src/convert.cpp maps the view
/// to a row, reading other documents meanwhile).
bool view_document(std::string_view text, const Limits& limits, view::NemoGymAtifTrajectory& out);

/// A rollout row of any version, viewed (the alternatives of AnyRolloutRow's).
using AnyRolloutRowView =
    std::variant<view::NemoGymRolloutRowV1, view::NemoGymRolloutRowV2, view::NemoGymRolloutRowV3, view::NemoGymRolloutRowV4>;

/// Parses `text` (in place when `padded`) and reads a rollout row into the view model `out`, every
/// rule checked: a row of `schema`, or of the version it names when `schema` is none. True only for a
/// valid row, whose DOM `root` then is; the view and the DOM are this thread's until its next call
/// (src/lint.cpp lints them).
bool view_row(std::string_view text, bool padded, const Limits& limits, std::optional<SchemaId> schema,
              AnyRolloutRowView& out, element& root);

/// Reads `e`, a value of the DOM view_document() parsed, as T under the rules of `schema` (a
/// trajectory's extension, which holds row values); false for what the exact reader must judge. Its
/// decimals are not read again: the trajectory's own check read every decimal of the document.
template <class T>
bool read_value(element e, T& out, SchemaId schema);

/// Parses `text` (in place when `padded`: kTextPadding readable bytes follow it) and reads a document
/// of `schema` into `out`; false for anything the exact reader must judge.
template <class T>
bool decode_document(std::string_view text, T& out, const Limits& limits, SchemaId schema, bool padded);

/// Parses `text` (in place when `padded`: kTextPadding readable bytes follow it) and checks it as a
/// document of `schema` with root T: decode_document()'s verdict, building nothing.
template <class T>
bool check_document(std::string_view text, type_tag<T> root, const Limits& limits, SchemaId schema, bool padded);

}  // namespace sediment::rows::detail::fast
