// Why a valid document's bytes are not the ones `format` writes: the first difference, in words
// (format --check).
#include <string>
#include <string_view>
#include <vector>

#include "detail/text.hpp"
#include "cli.hpp"

namespace sediment_rows_cli {

namespace {

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// One token of valid JSON text: its bytes and where it starts, and whether whitespace comes before it.
struct Token {
    std::string_view text;
    std::size_t at = 0;
    std::string_view space_before;
};

std::vector<Token> tokens(std::string_view text) {
    std::vector<Token> out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t space = i;
        while (i < text.size() && json_space(text[i])) ++i;
        if (i == text.size()) break;
        std::size_t end = i + 1;
        if (text[i] == '"') {
            end = rows::detail::string_end(text, i);
        } else if (text[i] != '{' && text[i] != '}' && text[i] != '[' && text[i] != ']' && text[i] != ':' && text[i] != ',') {
            while (end < text.size() && !json_space(text[end]) && std::string_view(",:]}").find(text[end]) == std::string_view::npos) ++end;
        }
        out.push_back(Token{text.substr(i, end - i), i, text.substr(space, i - space)});
        i = end;
    }
    return out;
}

/// The first object, in document order, whose keys `was` holds in another order than `now` (the same
/// values): where it is, the key `was` has there and the one `now` has.
bool key_order(const rows::Json& was, const rows::Json& now, std::string& at, std::string& has, std::string& wants) {
    if (was.is_object() && now.is_object()) {
        auto w = was.begin();
        for (auto n = now.begin(); n != now.end() && w != was.end(); ++n, ++w) {
            if (w.key() != n.key()) {
                has = w.key(), wants = n.key();
                return true;
            }
            const std::size_t size = at.size();
            rows::detail::append_pointer_token(at, w.key());
            if (key_order(*w, *n, at, has, wants)) return true;
            at.resize(size);
        }
    } else if (was.is_array() && now.is_array()) {
        for (std::size_t i = 0; i < was.size() && i < now.size(); ++i) {
            const std::size_t size = at.size();
            at += "/" + std::to_string(i);
            if (key_order(was[i], now[i], at, has, wants)) return true;
            at.resize(size);
        }
    }
    return false;
}

}  // namespace

std::string reformat_reason(std::string_view was, std::string_view now) {
    const bool crlf = !was.empty() && was.back() == '\r' && (now.empty() || now.back() != '\r');
    if (crlf) was.remove_suffix(1);
    if (was == now) return "the line ends in CR LF, and format writes LF";
    // the same values in another order: where the first object's keys part ways
    std::vector<rows::Error> errors;
    rows::Json a, b;
    if (rows::parse(was, a, errors) && rows::parse(now, b, errors) && a != b) {
        std::string at, has, wants;
        if (key_order(a, b, at, has, wants))
            return "keys in another order: " + (at.empty() ? std::string("(root)") : at) + " has " + rows::detail::quoted(has, 40) +
                   " where format writes " + rows::detail::quoted(wants, 40);
        return "values written as format would not write them";
    }
    // the same values, written another way: the first token, or the first space between them, that differs
    const std::vector<Token> x = tokens(was), y = tokens(now);
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        const std::string where = " at byte " + std::to_string(x[i].at) + ": ";
        if (x[i].text != y[i].text) {
            const char first = x[i].text.front();
            const std::string what = first == '"' ? "a string escaped otherwise" : first == '-' || (first >= '0' && first <= '9') ? "a number written otherwise" : "a value written otherwise";
            return what + where + rows::detail::quoted(x[i].text, 40) + " where format writes " + rows::detail::quoted(y[i].text, 40);
        }
        if (x[i].space_before != y[i].space_before)
            return "spacing at byte " + std::to_string(x[i].at - x[i].space_before.size()) + ": " + (x[i].space_before.empty() ? std::string("nothing") : rows::detail::quoted(x[i].space_before)) +
                   " before " + rows::detail::quoted(x[i].text, 40) + " where format writes " +
                   (y[i].space_before.empty() ? std::string("nothing") : rows::detail::quoted(y[i].space_before));
    }
    if (crlf) return "the line ends in CR LF, and format writes LF";
    const std::size_t end = x.empty() ? 0 : x.back().at + x.back().text.size();
    const std::size_t end_now = y.empty() ? 0 : y.back().at + y.back().text.size();
    return "the text ends otherwise: " + rows::detail::quoted(was.substr(end)) + " after the document where format writes " +
           rows::detail::quoted(now.substr(end_now));
}

}  // namespace sediment_rows_cli
