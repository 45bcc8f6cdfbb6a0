// The fast path's readers over simdjson's stage 1 alone, into the models (decode()): the generated
// readers (read(r, t, out) over a Tokens cursor, in generated/fast_read.hpp) walk the tokens once, as
// the check-only ones do (detail/fast_tokens.hpp), and build each value from its literal: a string
// copied from the text and unescaped as it is copied, a number converted from its digits. No stage 2,
// no DOM, and each string copied once instead of twice.
//
// The same contract as the DOM readers (detail/fast.hpp): true only for a valid document, false for
// anything to judge again (a lone surrogate, an integer beyond 64 bits in a free-form value, a key
// with an escape): the DOM readers then read the document into the same model, setting or resetting
// every field the token readers set, and the exact reader after them.
//
// Included only by src/engines/fast_tokens.cpp (through generated/token_read.hpp); not installed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fast_parser.hpp"
#include "fast_tokens.hpp"

namespace sediment::rows::detail::fast {

/// The room an array or object is given at its first item: tokens do not say how many it has (the
/// DOM does), and growing from one item costs a copy of the items at 2 and at 4.
constexpr std::size_t kFirstItems = 4;

/// The string at the cursor into `out`, unescaped. Every string a model holds is read here, and each
/// escape is checked as it is unescaped: the document needs no scan of its escapes first. One without
/// escapes is assigned (a short one stays in the string's own bytes); from a string's first escape on,
/// its text is copied and its escapes found in one pass (unescape_into()), in place in `out`.
inline bool read(Reader& r, Tokens& t, std::string& out) {
    std::string_view raw;
    if (!t.raw_string(raw) || raw.size() > r.limits.max_string_bytes) return false;
    const std::size_t slash = next_backslash(raw.data(), 0, raw.size());
    if (slash == raw.size()) {
        out.assign(raw.data(), raw.size());
        return true;
    }
    return unescape_string(raw, slash, out);
}

inline bool read(Reader& r, Tokens& t, Integer& out) {
    std::int64_t value = 0;
    if (!read(r, t, value)) return false;
    out = Integer(value);
    return true;
}

/// A free-form value as the exact reader builds it, reusing what `out` holds (as the DOM's reader
/// does): key order kept, non-negative integers unsigned, duplicate keys refused; integers beyond 64
/// bits and keys with escapes are left to the DOM path.
inline bool read(Reader& r, Tokens& t, Json& out) {
    switch (t.peek()) {
        case '{': {
            if (!t.open('{')) return false;
            become(r, out, Json::value_t::object);
            Json::object_t::Container& members = out.get_ref<Json::object_t&>();  // by position
            if (members.capacity() == 0) members.reserve(kFirstItems);
            std::size_t i = 0;
            if (!t.close('}')) {
                do {
                    std::string_view key;
                    if (!t.plain_key(key) || key.size() > r.limits.max_string_bytes || i == kMaxScannedKeys) return false;
                    Json* value = member_at(r, members, i++, key);
                    if (!value || !read(r, t, *value)) return false;
                } while (t.comma());
                if (!t.close('}')) return false;
            }
            truncate(r, members, i);
            return true;
        }
        case '[': {
            if (!t.open('[')) return false;
            become(r, out, Json::value_t::array);
            auto& items = out.get_ref<Json::array_t&>();
            if (items.capacity() == 0) items.reserve(kFirstItems);
            std::size_t i = 0;
            if (!t.close(']')) {
                do {
                    if (i == items.size()) items.emplace_back();
                    if (!read(r, t, items[i++])) return false;
                } while (t.comma());
                if (!t.close(']')) return false;
            }
            for (std::size_t k = i; k < items.size(); ++k) drop(r, items[k]);
            items.resize(i);
            return true;
        }
        case '"':
            become(r, out, Json::value_t::string);
            return read(r, t, out.get_ref<std::string&>());
        case 't':
        case 'f': {
            bool value = false;
            if (!read(r, t, value)) return false;
            drop(r, out);
            out = value;
            return true;
        }
        case 'n':
            if (!t.null()) return false;
            drop(r, out);
            return true;
        default: {  // as the DOM reader converts simdjson's numbers: a non-negative integer unsigned
            if (!t.is_number()) return false;
            const std::string_view s = t.scalar();
            drop(r, out);
            if (is_decimal(s)) {
                double value = 0;
                if (!decimal_literal(s, value)) return false;
                ++r.decimals;
                out = value;
                return true;
            }
            bool is_negative = false;
            std::int64_t negative = 0;
            std::uint64_t positive = 0;
            if (!integer_literal(s, is_negative, negative, positive)) return false;
            if (is_negative && negative < 0) out = negative;
            else out = is_negative ? std::uint64_t{0} : positive;
            return true;
        }
    }
}

/// An array, read into the items `out` holds (a model past its new size spared, a new one a spare one).
template <class T>
bool read(Reader& r, Tokens& t, std::vector<T>& out) {
    if (!t.open('[')) return false;
    if (out.capacity() == 0) out.reserve(kFirstItems);
    std::size_t i = 0;
    if (!t.close(']')) {
        do {
            if (i == out.size()) out.push_back(spared<T>());
            if (!read(r, t, out[i++])) return false;
        } while (t.comma());
        if (!t.close(']')) return false;
    }
    resize(out, i);
    return true;
}

template <class T>
bool read(Reader& r, Tokens& t, Nullable<T>& out) {
    if (t.null()) {
        out = nullptr;
        return true;
    }
    return read(r, t, out.is_null() ? out.emplace() : *out);
}

template <class T>
bool read(Reader& r, Tokens& t, std::optional<T>& out) {
    return read(r, t, out ? *out : out.emplace());
}

// ----- documents over tokens (generated/token_read.hpp's entries call these for every root) --------

/// Stage 1 of `text` (in place when `padded`) into the thread's parser, and its escapes checked
/// (fast_escapes.hpp) unless `unescaped` (the readers into models check each as they unescape
/// it): the tokens to walk, or nothing for a text the DOM path is to judge. They stay valid until the
/// thread's next parse.
inline std::optional<Tokens> tokens_of(std::string_view text, const Limits& limits, bool padded, bool unescaped = false) {
    Parser& p = thread_parser();
    if (!prepare(p, text, limits)) return std::nullopt;
    const char* at = padded ? text.data() : padded_copy(p, text);
    auto& stage1 = *p.parser.implementation;
    if (stage1.stage1(reinterpret_cast<const std::uint8_t*>(at), text.size(), simdjson::stage1_mode::regular) ||
        (!unescaped && !escapes_valid({at, text.size()})))
        return std::nullopt;
    return Tokens({at, text.size()}, stage1.structural_indexes.get(), stage1.n_structural_indexes, parser_depth(limits));
}

/// True when the readers over tokens read a document of `schema` with root T: not for the roots whose
/// rules read view models (check_rules()), nor for a schema of exact decimals (read again from the
/// DOM's structural indexes). Asked before stage 1, which the DOM path would run again.
template <class T>
bool over_tokens(type_tag<T>, SchemaId schema) {
    return checked_over_tokens<T>::value && !schema_info(schema).exact_decimals;
}

/// Checks the tokens `t` as a document of `schema` with root T (one over_tokens() takes), building no
/// DOM: true only for a valid document; false for anything the DOM path is to judge.
template <class T>
bool check_tokens(Tokens t, type_tag<T> root, const Limits& limits, SchemaId schema) {
    if constexpr (!checked_over_tokens<T>::value) {
        return false;
    } else {
        std::vector<Error> errors;
        Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
        Reader r{d, limits};
        return check(r, t, root) && t.done() && errors.empty();
    }
}

/// The same from the text.
template <class T>
bool check_tokens(std::string_view text, type_tag<T> root, const Limits& limits, SchemaId schema, bool padded) {
    if (!over_tokens(root, schema)) return false;
    const std::optional<Tokens> t = tokens_of(text, limits, padded);
    return t && check_tokens(*t, root, limits, schema);
}

/// Reads `text` (in place when `padded`) into `out` as a document of `schema` over its tokens, building
/// no DOM: false for anything the DOM path is to judge (as check_tokens()).
template <class T>
bool read_tokens(std::string_view text, T& out, const Limits& limits, SchemaId schema, bool padded) {
    if constexpr (!checked_over_tokens<T>::value) {
        return false;
    } else {
        if (!over_tokens(type_tag<T>{}, schema)) return false;
        std::optional<Tokens> t = tokens_of(text, limits, padded, true);
        if (!t) return false;
        std::vector<Error> errors;
        Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
        Reader r{d, limits, 0, nullptr, false, &thread_spare()};
        return read(r, *t, out) && t->done() && errors.empty();
    }
}

}  // namespace sediment::rows::detail::fast
