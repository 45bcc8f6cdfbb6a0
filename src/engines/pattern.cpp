// JSON Schema `pattern` as ECMA-262 regular expressions over code points.
#include <algorithm>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "detail/text.hpp"

static_assert(sizeof(wchar_t) == 4, "patterns run over code points held in a 32-bit wchar_t");

namespace sediment::rows::detail {
namespace {

using Range = std::pair<char32_t, char32_t>;

/// A compiled pattern. `^[^...]*$` (a string none of whose code points is in a class of characters
/// and ranges, written plainly or as \uXXXX) needs no regex: every pattern of the bundled schemas has
/// that form, and a regex run over each id would cost more than reading the whole row. Other patterns
/// run as std::wregex.
struct Compiled {
    const char* pointer = nullptr;  // the text it was last asked for by (generated code passes literals)
    std::string source;
    std::vector<Range> excluded;    // the negated class, when the pattern is one
    bool ascii[128] = {};           // its ASCII members, looked up by byte
    int only = -1;                  // the one byte the class excludes from valid UTF-8, when it is one
    int count = -1;                 // `^[...]{N}$` of ASCII members (a SHA-256 in hex): N, and `ascii` its members
    std::unique_ptr<std::wregex> regex;

    bool matches_class(std::string_view utf8) const {
        if (count >= 0) {
            if (utf8.size() != static_cast<std::size_t>(count)) return false;
            for (const char c : utf8)
                if (static_cast<unsigned char>(c) >= 0x80 || !ascii[static_cast<unsigned char>(c)]) return false;
            return true;
        }
        if (only >= 0) return std::memchr(utf8.data(), only, utf8.size()) == nullptr;
        for (std::size_t i = 0; i < utf8.size();) {
            const auto byte = static_cast<unsigned char>(utf8[i]);
            if (byte < 0x80) {
                if (ascii[byte]) return false;
                ++i;
                continue;
            }
            const char32_t cp = next_code_point(utf8, i);
            for (const Range& r : excluded)
                if (cp >= r.first && cp <= r.second) return false;
        }
        return true;
    }
};

// One item of a class at p[i]: a plain code point or \uXXXX; false for anything else (other escapes,
// brackets), which the regex takes.
bool class_item(const std::u32string& p, std::size_t& i, char32_t& out) {
    if (p[i] != U'\\') {
        if (p[i] == U'[' || p[i] == U']' || p[i] == U'-' || p[i] == U'^') return false;
        out = p[i++];
        return true;
    }
    if (i + 6 > p.size() || p[i + 1] != U'u') return false;
    out = 0;
    for (std::size_t k = i + 2; k < i + 6; ++k) {
        const char32_t c = p[k];
        const int digit = c >= U'0' && c <= U'9'   ? static_cast<int>(c - U'0')
                          : c >= U'a' && c <= U'f' ? static_cast<int>(c - U'a' + 10)
                          : c >= U'A' && c <= U'F' ? static_cast<int>(c - U'A' + 10)
                                                   : -1;
        if (digit < 0) return false;
        out = out * 16 + static_cast<char32_t>(digit);
    }
    i += 6;
    return true;
}

// The class of `^[^...]*$`, or false when the pattern has another form.
bool negated_class(const std::u32string& p, std::vector<Range>& excluded) {
    if (p.size() < 7 || p.compare(0, 3, U"^[^") != 0 || p.compare(p.size() - 3, 3, U"]*$") != 0) return false;
    const std::size_t end = p.size() - 3;
    std::size_t i = 3;
    while (i < end) {
        char32_t lo = 0;
        if (!class_item(p, i, lo)) return false;
        char32_t hi = lo;
        if (i < end && p[i] == U'-') {
            ++i;
            if (i >= end || !class_item(p, i, hi) || hi < lo) return false;
        }
        excluded.emplace_back(lo, hi);
    }
    return i == end && !excluded.empty();
}

// The class and count of `^[...]{N}$` whose members are ASCII, or false when the pattern has another form.
bool counted_class(const std::u32string& p, std::vector<Range>& members, int& count) {
    if (p.size() < 8 || p.compare(0, 2, U"^[") != 0 || p[2] == U'^' || p.compare(p.size() - 2, 2, U"}$") != 0) return false;
    const std::size_t close = p.find(U"]{");
    if (close == std::u32string::npos) return false;
    std::size_t i = 2;
    while (i < close) {
        char32_t lo = 0;
        if (!class_item(p, i, lo)) return false;
        char32_t hi = lo;
        if (i < close && p[i] == U'-') {
            ++i;
            if (i >= close || !class_item(p, i, hi) || hi < lo) return false;
        }
        if (hi >= 0x80) return false;
        members.emplace_back(lo, hi);
    }
    count = 0;
    for (std::size_t k = close + 2; k + 2 < p.size(); ++k) {
        if (p[k] < U'0' || p[k] > U'9' || count > 100000) return false;
        count = count * 10 + static_cast<int>(p[k] - U'0');
    }
    return i == close && close + 4 <= p.size() && !members.empty();
}

const Compiled& compiled(const char* pattern) {
    // Patterns are few (those of the bundled schemas): one compiled form per pattern and thread.
    thread_local std::vector<std::unique_ptr<Compiled>> cache;
    for (const auto& c : cache)
        if (c->pointer == pattern) return *c;
    for (const auto& c : cache)
        if (c->source == pattern) return c->pointer = pattern, *c;
    auto c = std::make_unique<Compiled>();
    c->pointer = pattern;
    c->source = pattern;
    const std::u32string source = to_code_points(pattern);
    std::vector<Range> members;
    if (counted_class(source, members, c->count)) {
        for (const Range& r : members)
            for (char32_t cp = r.first; cp <= r.second; ++cp) c->ascii[cp] = true;
    } else if (c->count = -1, negated_class(source, c->excluded)) {
        for (const Range& r : c->excluded)
            for (char32_t cp = r.first; cp <= r.second && cp < 0x80; ++cp) c->ascii[cp] = true;
        // Valid UTF-8 holds no surrogate (U+D800-U+DFFF): a class of one ASCII character beside
        // surrogates (the bundled schemas' `^[^\u0000\uD800-\uDFFF]*$`) is one byte to find.
        const auto surrogates = [](const Range& r) { return r.first >= 0xD800 && r.second <= 0xDFFF; };
        const auto one = std::find_if_not(c->excluded.begin(), c->excluded.end(), surrogates);
        if (one != c->excluded.end() && one->first == one->second && one->first < 0x80 &&
            std::none_of(one + 1, c->excluded.end(), [&](const Range& r) { return !surrogates(r); }))
            c->only = static_cast<int>(one->first);
    } else {
        c->excluded.clear();
        c->regex = std::make_unique<std::wregex>(std::wstring(source.begin(), source.end()), std::regex::ECMAScript);
    }
    cache.push_back(std::move(c));
    return *cache.back();
}

}  // namespace

bool matches_pattern(const char* pattern, std::string_view utf8) {
    const Compiled& c = compiled(pattern);
    if (c.regex) {
        const std::u32string text = to_code_points(utf8);
        return std::regex_search(std::wstring(text.begin(), text.end()), *c.regex);
    }
    return c.matches_class(utf8);
}

}  // namespace sediment::rows::detail
