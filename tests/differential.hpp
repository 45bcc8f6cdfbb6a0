// The fast path against the exact reader on one text, as the differential tests check it: whatever the
// fast path accepts, the exact reader accepts too, with the same value and the same bytes; and the
// check-only fast path (validate()'s) accepts exactly what the fast path accepts.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <sediment/rows.hpp>

#include "detail/decode.hpp"  // exact_decode(), fast_check()

namespace test {

using sediment::rows::SchemaId;
using sediment::rows::document_traits;

/// How the readers agreed on a text (each true when they did).
struct Agreement {
    bool check_only = true;  ///< the check-only fast path gave the fast path's verdict
    bool in_place = true;    ///< ... and so did it on the text read where it is (padded)
    bool exact = true;       ///< the exact reader accepted what the fast path read
    bool value = true;       ///< ... to the same value
    bool bytes = true;       ///< ... and the same bytes
};

/// What each reader made of a text.
template <class T>
struct BothReaders {
    bool fast = false;   ///< the fast path read it
    bool exact = false;  ///< the exact reader accepted it
    T value;             ///< the exact reader's value
    Agreement agreement;
};

/// CHECKs an Agreement (out of the templates: compiled once, not once per model type).
inline void check_agreement(const Agreement& a, const std::string& text) {
    INFO(text.substr(0, 300));
    CHECK(a.check_only);
    CHECK(a.in_place);
    CHECK(a.exact);
    CHECK(a.value);
    CHECK(a.bytes);
}

/// Runs both readers on `text` and checks (CHECK) that the fast path accepts nothing the exact reader
/// refuses, and reads what it accepts to the exact reader's value and bytes; and that the check-only
/// fast path gives the fast path's verdict.
template <class T>
BothReaders<T> read_both(const std::string& text, SchemaId schema = document_traits<T>::schema) {
    using namespace sediment::rows;
    BothReaders<T> both;
    T fast;
    std::vector<Error> errors;
    both.fast = detail::fast_decode(text, fast, Limits{}, schema);
    both.exact = detail::exact_decode(text, both.value, errors, Limits{}, schema);
    Agreement& a = both.agreement;
    a.check_only = detail::fast_check(text, type_tag<T>{}, Limits{}, schema) == both.fast;
    std::string padded = text;  // parsed where it is
    padded.reserve(text.size() + kTextPadding);
    a.in_place = detail::fast_check(padded, type_tag<T>{}, Limits{}, schema, true) == both.fast;
    if (both.fast) {
        a.exact = both.exact;
        a.value = fast == both.value;
        a.bytes = encode(fast, Style::sediment) == encode(both.value, Style::sediment);
    }
    check_agreement(a, text);
    return both;
}

}  // namespace test
