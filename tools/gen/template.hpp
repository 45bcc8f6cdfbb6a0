// Emission from templates that look like their output, with named holes: `$Name$`.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gen {

using Vars = std::map<std::string, std::string>;

/// Replaces each `$Name$` in `tmpl` with vars["Name"] and `$$` with `$`; a hole without a value is a
/// generator bug. Substituted text is not scanned again, so values may contain `$`.
inline std::string fill(std::string_view tmpl, const Vars& vars) {
    std::string out;
    out.reserve(tmpl.size() * 2);
    std::size_t i = 0;
    while (i < tmpl.size()) {
        const std::size_t open = tmpl.find('$', i);
        if (open == std::string_view::npos) break;
        const std::size_t close = tmpl.find('$', open + 1);
        if (close == std::string_view::npos) throw std::logic_error("unclosed hole in template");
        out.append(tmpl.substr(i, open - i));
        if (close == open + 1) {
            out += '$';
            i = close + 1;
            continue;
        }
        const std::string name(tmpl.substr(open + 1, close - open - 1));
        const auto it = vars.find(name);
        if (it == vars.end()) throw std::logic_error("template hole $" + name + "$ has no value");
        out += it->second;
        i = close + 1;
    }
    out.append(tmpl.substr(i));
    return out;
}

/// Indents every non-empty line of `text` by `spaces`.
inline std::string indent(const std::string& text, int spaces) {
    std::string out;
    bool line_start = true;
    for (const char c : text) {
        if (line_start && c != '\n') out.append(static_cast<std::size_t>(spaces), ' ');
        out += c;
        line_start = c == '\n';
    }
    return out;
}

}  // namespace gen
