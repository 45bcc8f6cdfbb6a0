// Sediment's scoring text of an output message: its text parts, then the string leaves of its
// tool-call arguments (an object's members by sorted key), empty items skipped, joined with "\n".
// One definition, over a model or its view: convert's scoring_text() and arguments text, and lint's
// completion rule (src/features/lint/rules.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "detail/fast.hpp"
#include "detail/tape.hpp"

namespace sediment::rows::detail {

/// The model a value is: itself, or the model a view model views.
template <class T, class = void>
struct model_of {
    using type = T;
};
template <class T>
struct model_of<T, std::void_t<typename T::viewed_model>> {
    using type = typename T::viewed_model;
};
template <class T>
using model_t = typename model_of<T>::type;

/// Where a scoring text's pieces go: a Joined builds the text, a JoinedMatch tells whether it equals
/// a text without a copy.
struct Joined {
    std::string& text;
    void add(std::string_view piece) {
        if (!piece.empty()) text.append(text.empty() ? "" : "\n").append(piece);
    }
};

struct JoinedMatch {
    std::string_view want;
    std::size_t at = 0;  // of want, after the pieces so far
    bool started = false, same = true;
    void add(std::string_view piece) {
        if (piece.empty() || !same) return;
        if (started) same = at < want.size() && want[at++] == '\n';
        started = true;
        same = same && want.size() - at >= piece.size() && want.compare(at, piece.size(), piece) == 0;
        at += piece.size();
    }
    bool equal() const { return same && at == want.size(); }
};

/// The string leaves of a free-form value, to `out`.
template <class Out>
void leaves(const Json& v, Out& out) {
    if (v.is_string()) {
        out.add(v.get_ref<const std::string&>());
    } else if (v.is_object()) {
        std::vector<const Json::object_t::value_type*> members;
        for (const auto& m : v.get_ref<const Json::object_t&>()) members.push_back(&m);
        std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
        for (const auto* m : members) leaves(m->second, out);
    } else if (v.is_array()) {
        for (const Json& x : v) leaves(x, out);
    }
}

/// The same of a free-form value on the parser's tape. An object's members are sorted on one stack
/// for the thread, above its enclosing objects' members.
template <class Out>
void leaves(tape::Value v, Out& out) {
    if (v.type() == '"') {
        out.add(v.string());
    } else if (v.type() == '{') {
        thread_local std::vector<std::pair<std::string_view, tape::Value>> stack;
        const std::size_t bottom = stack.size();
        tape::each_member(v, [](std::string_view key, tape::Value value) { stack.emplace_back(key, value); });
        std::sort(stack.begin() + bottom, stack.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = bottom; i < stack.size(); ++i) leaves(stack[i].second, out);
        stack.resize(bottom);
    } else if (v.type() == '[') {
        for (tape::Value item = v.first(); item.at < v.close(); item = item.with(item.next())) leaves(item, out);
    }
}

template <class Out>
void leaves(const view::JsonView& v, Out& out) {
    leaves(tape::value_of(v.value), out);
}

/// The alternative of the union P (a model's or a view's) that is or views T.
template <class T, class P, std::size_t... I>
constexpr std::size_t alternative_of(std::index_sequence<I...>) {
    constexpr bool same[] = {std::is_same_v<T, model_t<std::variant_alternative_t<I, P>>>...};
    std::size_t i = 0;
    while (i < sizeof...(I) && !same[i]) ++i;
    return i;
}

/// The part `p` (of a model's message or a view's) as a T (TextPart, ...), or null.
template <class T, class P>
const auto* part_as(const P& p) {
    return std::get_if<alternative_of<T, P>(std::make_index_sequence<std::variant_size_v<P>>())>(&p);
}

/// Gives `out` the pieces of the scoring text of `output`.
template <class M, class Out>
void scoring_text(const M& output, Out& out) {
    for (const auto& p : output.parts)
        if (const auto* t = part_as<TextPart>(p)) out.add(t->content);
    for (const auto& p : output.parts)
        if (const auto* c = part_as<ToolCallPart>(p)) leaves(c->arguments, out);
}

}  // namespace sediment::rows::detail
