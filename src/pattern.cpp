// JSON Schema `pattern` as ECMA-262 regular expressions over code points.
#include <regex>
#include <string>
#include <unordered_map>

#include "sediment/rows/detail/text.hpp"

static_assert(sizeof(wchar_t) == 4, "patterns run over code points held in a 32-bit wchar_t");

namespace sediment::rows::detail {

bool matches_pattern(const char* pattern, std::string_view utf8) {
    // One compiled regex per pattern and thread: patterns are few (those of the bundled schemas).
    thread_local std::unordered_map<std::string, std::wregex> cache;
    auto it = cache.find(pattern);
    if (it == cache.end()) {
        const std::u32string source = to_code_points(pattern);
        it = cache.emplace(pattern, std::wregex(std::wstring(source.begin(), source.end()), std::regex::ECMAScript)).first;
    }
    const std::u32string text = to_code_points(utf8);
    return std::regex_search(std::wstring(text.begin(), text.end()), it->second);
}

}  // namespace sediment::rows::detail
