// Profile forms from simdjson's tape (forms.hpp).
#include "features/profile/forms.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include "detail/text.hpp"
#include "features/lint/split.hpp"
#include "features/profile/profile_detail.hpp"

namespace sediment::rows::detail {

namespace {

void write_scalar(Writer& w, const TapeDoc& d, tape::Value v) {
    switch (v.type()) {
        case 'n': return w.null();
        case 't': return w.boolean(true);
        case 'f': return w.boolean(false);
        case 'l': return w.integer(v.number<std::int64_t>());
        case 'u': return w.unsigned_integer(v.number<std::uint64_t>());
        case 'd': return w.floating(v.number<double>());
        default: {
            const std::string_view s = v.string();
            if (d.big && !d.big->empty() && marker_form(s)) {
                const std::size_t i = marker_index(s);
                if (i < d.big->size()) return w.big_integer((*d.big)[i].first);
            }
            return w.string(s);
        }
    }
}

}  // namespace

tape::Value member(tape::Value v, std::string_view key) {
    tape::Value found{v.words, v.strings, 0};
    if (v.type() != '{') return found;
    tape::each_member(v, [&](std::string_view k, tape::Value value) {
        if (!found.at && k == key) found = value;
    });
    return found;
}

void write_tape(Writer& w, const TapeDoc& d, tape::Value v, bool sorted) {
    switch (v.type()) {
        case '[':
            w.begin_array();
            for (tape::Value item = v.first(); item.at < v.close(); item = item.with(item.next())) write_tape(w, d, item, sorted);
            return w.end_array();
        case '{': {
            w.begin_object();
            if (!sorted) {
                tape::each_member(v, [&](std::string_view k, tape::Value value) { w.key(k), write_tape(w, d, value, false); });
                return w.end_object();
            }
            // the members sorted on one stack for the thread, above those of the enclosing objects
            thread_local std::vector<std::pair<std::string_view, tape::Value>> stack;
            const std::size_t bottom = stack.size();
            tape::each_member(v, [&](std::string_view k, tape::Value value) { stack.emplace_back(k, value); });
            std::sort(stack.begin() + static_cast<std::ptrdiff_t>(bottom), stack.end(),
                      [](const auto& a, const auto& b) { return a.first < b.first; });
            for (std::size_t i = bottom; i < stack.size(); ++i) {
                const auto [key, value] = stack[i];  // (a deeper object may grow the stack: a copy, not a reference)
                w.key(key), write_tape(w, d, value, true);
            }
            stack.resize(bottom);
            return w.end_object();
        }
        default: return write_scalar(w, d, v);
    }
}

std::string sorted_sha256(const TapeDoc& d, tape::Value v) {
    thread_local std::string text;
    text.clear();
    {
        Writer w(text, Style::compact);
        write_tape(w, d, v, true);
    }
    return sha256_hex(text);
}

namespace {

// One member of an object the adapter writes: a tape value as it is, a number it sets (a weight), or a
// value it writes its own way (a message's tool calls, a call's function, the function's arguments).
struct Entry {
    enum Kind { value, number, calls, function, arguments };
    Entry() = default;
    Entry(std::string_view k, Kind kind, tape::Value v = {}, int n = 0) : key(k), kind(kind), v(v), n(n) {}
    std::string_view key;
    Kind kind = value;
    tape::Value v{};
    int n = 0;
};

bool write_entries(Writer& w, const TapeDoc& d, std::vector<Entry>& entries, const MessageForm& form);

// A tool call's arguments: Fireworks writes the object's digest form as a string; the inverse parses it.
bool write_arguments(Writer& w, const TapeDoc& d, tape::Value args, const MessageForm& form) {
    if (form.inverse) {
        if (args.type() != '"') return write_tape(w, d, args, form.sorted), true;
        thread_local simdjson::dom::parser parser;
        const std::string_view s = args.string();
        simdjson::dom::element root;
        if (parser.parse(s.data(), s.size(), true).get(root) != simdjson::SUCCESS) return false;
        write_tape(w, TapeDoc{tape::value_of(root), nullptr}, tape::value_of(root), form.sorted);
        return true;
    }
    if (!form.fireworks) return write_tape(w, d, args, form.sorted), true;
    thread_local std::string text;
    text.clear();
    {
        Writer digest(text, Style::compact);
        write_tape(digest, d, args, true);
    }
    w.string(text);
    return true;
}

// An object's members, `kind` for the one named `key` (an object), the others as they are.
bool write_object(Writer& w, const TapeDoc& d, tape::Value object, std::string_view key, Entry::Kind kind, const MessageForm& form) {
    std::vector<Entry> entries;
    tape::each_member(object, [&](std::string_view k, tape::Value v) {
        entries.emplace_back(k, k == key && (kind == Entry::arguments || v.type() == '{') ? kind : Entry::value, v);
    });
    return write_entries(w, d, entries, form);
}

bool write_entries(Writer& w, const TapeDoc& d, std::vector<Entry>& entries, const MessageForm& form) {
    if (form.sorted) std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    w.begin_object();
    for (const Entry& e : entries) {
        w.key(e.key);
        bool ok = true;
        switch (e.kind) {
            case Entry::value: write_tape(w, d, e.v, form.sorted); break;
            case Entry::number: w.integer(e.n); break;
            case Entry::calls:
                w.begin_array();
                for (tape::Value call = e.v.first(); ok && call.at < e.v.close(); call = call.with(call.next()))
                    ok = write_object(w, d, call, "function", Entry::function, form);
                w.end_array();
                break;
            case Entry::function: ok = write_object(w, d, e.v, "arguments", Entry::arguments, form); break;
            case Entry::arguments: ok = write_arguments(w, d, e.v, form); break;
        }
        if (!ok) return false;
    }
    w.end_object();
    return true;
}

}  // namespace

bool write_messages(Writer& w, const TapeDoc& d, tape::Value list, const MessageForm& form) {
    std::size_t index = 0;
    for (tape::Value m = list.first(); m.at < list.close(); m = m.with(m.next()), ++index) {
        if (index < form.first) continue;
        if (index >= form.last) break;
        std::vector<Entry> entries;
        Entry moved{};
        bool has_moved = false, assistant = false;
        tape::each_member(m, [&](std::string_view k, tape::Value v) {
            if (k == "role") assistant = v.type() == '"' && v.string() == "assistant";
            if (!form.inverse && k == "thinking") moved = Entry{"reasoning_content", Entry::value, v}, has_moved = true;
            else if (form.inverse && k == "reasoning_content") entries.emplace_back("thinking", Entry::value, v);
            else if (form.inverse && k == "weight") return;
            else if (k == "tool_calls" && v.type() == '[' && (form.fireworks || form.inverse)) entries.emplace_back(k, Entry::calls, v);
            else entries.emplace_back(k, Entry::value, v);
        });
        if (has_moved) entries.push_back(moved);
        if (!form.inverse && form.fireworks && form.weight >= 0 && assistant) entries.emplace_back("weight", Entry::number, tape::Value{}, form.weight);
        if (!write_entries(w, d, entries, form)) return false;
    }
    return true;
}

namespace {

bool lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The first byte from `i` that needs a look (a quote, a backslash, a control byte or one past '~'), 32
// bytes at a time; `n` where none does.
__attribute__((target("avx2"))) std::size_t next_special_avx2(const char* t, std::size_t i, std::size_t n) {
    const __m256i bias = _mm256_set1_epi8(static_cast<char>(0x80));  // signed compares of bytes as unsigned
    while (i + 32 <= n) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + i));
        const __m256i flipped = _mm256_xor_si256(v, bias);
        const __m256i low = _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(0x20 ^ 0x80)), flipped);
        const __m256i high = _mm256_cmpgt_epi8(flipped, _mm256_set1_epi8(static_cast<char>(0x7e ^ 0x80)));
        const __m256i quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'));
        const __m256i slash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'));
        const unsigned mask = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(low, high), _mm256_or_si256(quote, slash))));
        if (mask) return i + static_cast<std::size_t>(__builtin_ctz(mask));
        i += 32;
    }
    return i;
}
#endif

// The end of the string whose first byte (after its quote) is at `i`, or npos when a byte or an escape
// in it is not as Python writes it.
std::size_t python_string_end(std::string_view t, std::size_t i) {
    const std::size_t n = t.size();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
#endif
    for (;;) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (avx2) i = next_special_avx2(t.data(), i, n);
#endif
#if defined(__SSE2__)
        // sixteen bytes at a time while none needs a look
        while (i + 16 <= n) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + i));
            const __m128i flipped = _mm_xor_si128(v, _mm_set1_epi8(static_cast<char>(0x80)));
            const __m128i low = _mm_cmplt_epi8(flipped, _mm_set1_epi8(static_cast<char>(0x20 ^ 0x80)));
            const __m128i high = _mm_cmpgt_epi8(flipped, _mm_set1_epi8(static_cast<char>(0x7e ^ 0x80)));
            const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
            const __m128i slash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
            const int mask = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, high), _mm_or_si128(quote, slash)));
            if (mask) {
                i += static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
                break;
            }
            i += 16;
        }
#endif
        if (i >= n) return std::string_view::npos;
        const auto c = static_cast<unsigned char>(t[i]);
        if (c == '"') return i + 1;
        if (c < 0x20 || c > 0x7e) return std::string_view::npos;  // raw: Python escapes it
        if (c != '\\') {
            ++i;
            continue;
        }
        if (i + 1 >= n) return std::string_view::npos;
        const char e = t[i + 1];
        if (e == '"' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
            i += 2;
            continue;
        }
        if (e != 'u' || i + 6 > n) return std::string_view::npos;  // \/ and the rest: not Python's
        unsigned v = 0;
        for (std::size_t k = i + 2; k < i + 6; ++k) {
            if (!lower_hex(t[k])) return std::string_view::npos;
            v = v * 16 + static_cast<unsigned>(t[k] <= '9' ? t[k] - '0' : t[k] - 'a' + 10);
        }
        // Python writes \uXXXX for a control character without a short escape, and from U+007F on
        if (v >= 0x20 && v < 0x7f) return std::string_view::npos;
        if (v == 0x08 || v == 0x0c || v == 0x0a || v == 0x0d || v == 0x09) return std::string_view::npos;
        i += 6;
    }
}

}  // namespace

bool in_line_form(std::string_view t) {
    const std::size_t n = t.size();
    std::string repr;
    for (std::size_t i = 0; i < n;) {
        const char c = t[i];
        switch (c) {
            case '"':
                i = python_string_end(t, i + 1);
                if (i == std::string_view::npos) return false;
                break;
            case ',':
            case ':':
                if (i + 1 >= n || t[i + 1] != ' ') return false;
                i += 2;
                break;
            case '{':
            case '}':
            case '[':
            case ']':
                ++i;
                break;
            case 't': i += 4; break;  // true (the parser read it)
            case 'f': i += 5; break;
            case 'n': i += 4; break;
            default: {
                if (c != '-' && (c < '0' || c > '9')) return false;  // a space where none belongs
                std::size_t end = i + 1;
                bool decimal = false;
                while (end < n && ((t[end] >= '0' && t[end] <= '9') || t[end] == '.' || t[end] == 'e' || t[end] == 'E' || t[end] == '+' ||
                                   t[end] == '-'))
                    decimal = decimal || t[end] == '.' || t[end] == 'e' || t[end] == 'E', ++end;
                const std::string_view number = t.substr(i, end - i);
                if (!decimal) {
                    if (number == "-0") return false;  // Python writes 0
                } else {
                    double v = 0;
                    std::from_chars(number.data(), number.data() + number.size(), v);
                    repr.clear();
                    append_double(repr, v);
                    if (repr != number) return false;
                }
                i = end;
            }
        }
    }
    return true;
}

}  // namespace sediment::rows::detail
