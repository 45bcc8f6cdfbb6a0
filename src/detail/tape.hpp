// simdjson's tape read word by word: the DOM a parse leaves is an array of 64-bit words (a type in
// the top byte, a payload below it) and a buffer of strings (simdjson's doc/tape.md). The walks that
// visit every value under an element (a session digest, an equality of free-form values) run as
// loops over its words, without the element API's type checks and iterator steps.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include <simdjson.h>

namespace sediment::rows::detail::tape {

/// A value on a parsed document's tape: the document's words and strings, and its first word.
struct Value {
    const std::uint64_t* words;
    const std::uint8_t* strings;
    std::size_t at;

    /// simdjson's tape type: 'n', 't', 'f', 'l' (int64), 'u' (uint64), 'd' (double), '"', '[', '{'.
    char type() const { return static_cast<char>(words[at] >> 56); }
    /// The word of a number ('l', 'u', 'd') as T: the word after its type word.
    template <class T>
    T number() const {
        static_assert(sizeof(T) == 8);
        T v;
        std::memcpy(&v, &words[at + 1], 8);
        return v;
    }
    /// A string's bytes: a 4-byte length, then the bytes, where its word's payload points.
    std::string_view string() const {
        const std::uint8_t* p = strings + (words[at] & simdjson::internal::JSON_VALUE_MASK);
        std::uint32_t size;
        std::memcpy(&size, p, 4);
        return {reinterpret_cast<const char*>(p + 4), size};
    }
    /// The index of the word after the value (after its closing word, for an array or an object).
    std::size_t next() const {
        switch (type()) {
            case '[': case '{': return static_cast<std::uint32_t>(words[at]);
            case 'l': case 'u': case 'd': return at + 2;
            default: return at + 1;
        }
    }
    /// An array's first item or an object's first key; close() is the index of its closing word.
    Value first() const { return {words, strings, at + 1}; }
    std::size_t close() const { return static_cast<std::uint32_t>(words[at]) - 1; }
    Value with(std::size_t index) const { return {words, strings, index}; }
};

/// f(key, value) for each member of the object `v`, in order: each key's value follows its key.
template <class F>
void each_member(Value v, F f) {
    for (Value key = v.first(); key.at < v.close();) {
        const Value value = key.with(key.at + 1);
        f(key.string(), value);
        key = key.with(value.next());
    }
}

/// The tape value of `e`. simdjson keeps an element's place private; an element is exactly a
/// tape_ref (its document and its first word's index), copied out here.
inline Value value_of(simdjson::dom::element e) {
    using Ref = simdjson::internal::tape_ref;
    static_assert(sizeof(simdjson::dom::element) == sizeof(Ref) && std::is_trivially_copyable_v<simdjson::dom::element> &&
                  std::is_trivially_copyable_v<Ref>);
    Ref ref;
    std::memcpy(static_cast<void*>(&ref), &e, sizeof ref);
    return {ref.doc->tape.get(), ref.doc->string_buf.get(), ref.json_index};
}

}  // namespace sediment::rows::detail::tape
