#include "tree.hpp"

#include "detail/text.hpp"
#include "detail/writer.hpp"

namespace sediment::rows::repair_detail {

Node* Node::find(std::string_view key) {
    for (auto m = members.rbegin(); m != members.rend(); ++m)
        if (m->key == key) return &m->value;
    return nullptr;
}

const Node* Node::find(std::string_view key) const { return const_cast<Node*>(this)->find(key); }

Node Node::take(std::string_view key) {
    Node last;
    bool found = false;
    for (std::size_t i = members.size(); i-- > 0;) {
        if (members[i].key != key) continue;
        if (!found) last = std::move(members[i].value), found = true;
        members.erase(members.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return last;
}

Node& Node::set(std::string_view key, Node value) {
    if (Node* n = find(key)) return *n = std::move(value);
    members.push_back(Member{std::string(key), quote(key), false, std::move(value)});
    return members.back().value;
}

Node Node::boolean(bool b) {
    Node n;
    n.kind = Kind::boolean;
    n.flag = b;
    return n;
}

Node Node::string(std::string value) {
    Node n;
    n.kind = Kind::string;
    n.raw = quote(value);
    n.text = std::move(value);
    return n;
}

Node Node::integer(long long v) { return number(std::to_string(v)); }

Node Node::number(std::string literal) {
    Node n;
    n.kind = Kind::number;
    n.raw = std::move(literal);
    return n;
}

Node Node::array() {
    Node n;
    n.kind = Kind::array;
    return n;
}

Node Node::object() {
    Node n;
    n.kind = Kind::object;
    return n;
}

std::string quote(std::string_view value) {
    std::string out;
    detail::Writer w(out, Style::compact);
    w.string(value);
    return w.finish();
}

namespace {

class Reader {
public:
    Reader(std::string_view text, const Limits& limits) : s_(text), limits_(limits) {}

    bool document(Node& out, std::string& why) {
        if (s_.size() > limits_.max_document_bytes) return fail("the document is longer than the limit of " +
                                                                std::to_string(limits_.max_document_bytes) + " bytes", why);
        space();
        if (!value(out, 0)) return fail(why_, why);
        space();
        if (i_ != s_.size()) return fail("text after the document", why);
        return true;
    }

private:
    bool fail(const std::string& what, std::string& why) {
        why = what + " (byte " + std::to_string(i_) + ")";
        return false;
    }
    bool error(const char* what) {
        if (why_.empty()) why_ = what;
        return false;
    }
    void space() {
        while (i_ < s_.size() && detail::is_json_space(s_[i_])) ++i_;
    }
    bool literal(std::string_view word) {
        if (s_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }

    bool value(Node& n, std::size_t depth) {
        if (i_ >= s_.size()) return error("the text ends where a value should be");
        const char c = s_[i_];
        if (c == '{' || c == '[') {
            if (depth >= limits_.max_depth) return error("nested deeper than the limit");
            return c == '{' ? object(n, depth + 1) : array(n, depth + 1);
        }
        if (c == '"') {
            n.kind = Node::Kind::string;
            return string(n.raw, n.text, n.flag);
        }
        if (literal("null")) return n.kind = Node::Kind::null, true;
        if (literal("true")) return n = Node::boolean(true), true;
        if (literal("false")) return n = Node::boolean(false), true;
        for (const char* word : {"NaN", "Infinity", "-Infinity"})
            if (literal(word)) {
                n.kind = Node::Kind::non_finite;
                n.raw = word;
                return true;
            }
        return number(n);
    }

    /// At `close` (after the opening bracket and its whitespace, or after an item): true, and past it.
    bool closes(char close) {
        if (i_ >= s_.size() || s_[i_] != close) return false;
        ++i_;
        return true;
    }
    /// After an item: true at ',' (past it and its whitespace: another item follows).
    bool comma() {
        space();
        if (i_ >= s_.size() || s_[i_] != ',') return false;
        ++i_;
        space();
        return true;
    }

    bool object(Node& n, std::size_t depth) {
        n.kind = Node::Kind::object;
        ++i_;
        space();
        if (closes('}')) return true;
        while (true) {
            if (i_ >= s_.size() || s_[i_] != '"') return error("expected a key in double quotes");
            Member m;
            if (!string(m.raw_key, m.key, m.key_surrogate)) return false;
            space();
            if (i_ >= s_.size() || s_[i_] != ':') return error("expected ':' after a key");
            ++i_;
            space();
            if (!value(m.value, depth)) return false;
            n.members.push_back(std::move(m));
            if (comma()) continue;
            return closes('}') || error("expected ',' or '}' in an object");
        }
    }

    bool array(Node& n, std::size_t depth) {
        n.kind = Node::Kind::array;
        ++i_;
        space();
        if (closes(']')) return true;
        while (true) {
            n.items.emplace_back();
            if (!value(n.items.back(), depth)) return false;
            if (comma()) continue;
            return closes(']') || error("expected ',' or ']' in an array");
        }
    }

    static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
    bool unit(unsigned& u) {
        if (i_ + 6 > s_.size() || s_[i_] != '\\' || s_[i_ + 1] != 'u') return false;
        u = 0;
        for (std::size_t k = 2; k < 6; ++k) {
            const int h = hex(s_[i_ + k]);
            if (h < 0) return false;
            u = u * 16 + static_cast<unsigned>(h);
        }
        i_ += 6;
        return true;
    }
    bool string(std::string& raw, std::string& text, bool& surrogate) {
        const std::size_t open = i_++;
        while (true) {
            if (i_ >= s_.size()) return error("a string without its closing quote");
            const auto c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') break;
            if (c < 0x20) return error("a control character inside a string");
            if (c >= 0x80) {
                const std::size_t n = detail::utf8_sequence(s_, i_);
                if (n == 0) return error("bytes that are not UTF-8");
                text.append(s_, i_, n);
                i_ += n;
                continue;
            }
            if (c != '\\') {
                text += static_cast<char>(c);
                ++i_;
                continue;
            }
            if (i_ + 1 >= s_.size()) return error("a string without its closing quote");
            const char e = s_[i_ + 1];
            const char* simple = e == '"' ? "\"" : e == '\\' ? "\\" : e == '/' ? "/" : e == 'b' ? "\b" : e == 'f' ? "\f"
                               : e == 'n' ? "\n" : e == 'r' ? "\r" : e == 't' ? "\t" : nullptr;
            if (simple) {
                text += simple;
                i_ += 2;
                continue;
            }
            unsigned u = 0;
            if (!unit(u)) return error("an invalid escape in a string");
            char32_t cp = u;
            if (u >= 0xD800 && u < 0xDC00) {  // a high surrogate: a pair, or alone
                const std::size_t at = i_;
                unsigned low = 0;
                if (unit(low) && low >= 0xDC00 && low < 0xE000) {
                    cp = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                } else {
                    i_ = at;
                    cp = 0xFFFD;
                    surrogate = true;
                }
            } else if (u >= 0xDC00 && u < 0xE000) {
                cp = 0xFFFD;
                surrogate = true;
            }
            detail::append_utf8(text, cp);
        }
        ++i_;
        if (text.size() > limits_.max_string_bytes) return error("a string longer than the limit");
        raw.assign(s_, open, i_ - open);
        return true;
    }

    bool number(Node& n) {
        const std::size_t start = i_;
        const auto digits = [&] {
            const std::size_t from = i_;
            while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
            return i_ > from;
        };
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        if (i_ < s_.size() && s_[i_] == '0') {
            ++i_;
        } else if (!digits()) {
            i_ = start;
            return error("not a JSON value");
        }
        if (i_ < s_.size() && s_[i_] == '.') {
            ++i_;
            if (!digits()) return error("a number without digits after its '.'");
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            if (!digits()) return error("a number without digits in its exponent");
        }
        n.kind = Node::Kind::number;
        n.raw.assign(s_, start, i_ - start);
        return true;
    }

    std::string_view s_;
    const Limits& limits_;
    std::size_t i_ = 0;
    std::string why_;
};

}  // namespace

bool read_lenient(std::string_view text, Node& out, std::string& why, const Limits& limits) {
    out = Node{};
    return Reader(text, limits).document(out, why);
}

void write_compact(const Node& n, std::string& out) {
    switch (n.kind) {
        case Node::Kind::null: out += "null"; return;
        case Node::Kind::boolean: out += n.flag ? "true" : "false"; return;
        case Node::Kind::number:
        case Node::Kind::string:
        case Node::Kind::non_finite: out += n.raw; return;
        case Node::Kind::array:
            out += '[';
            for (std::size_t i = 0; i < n.items.size(); ++i) {
                if (i) out += ',';
                write_compact(n.items[i], out);
            }
            out += ']';
            return;
        case Node::Kind::object:
            out += '{';
            for (std::size_t i = 0; i < n.members.size(); ++i) {
                if (i) out += ',';
                out += n.members[i].raw_key;
                out += ':';
                write_compact(n.members[i].value, out);
            }
            out += '}';
            return;
    }
}

std::string write_compact(const Node& n) {
    std::string out;
    write_compact(n, out);
    return out;
}

}  // namespace sediment::rows::repair_detail
