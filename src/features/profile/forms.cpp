// Profile forms from simdjson's tape (forms.hpp).
#include "features/profile/forms.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "features/profile/profile_detail.hpp"
#include "sediment/rows/lint.hpp"

namespace sediment::rows::detail {

namespace {

// The object's members: each key's value follows its key on the tape.
template <class F>
void each_member(tape::Value v, F f) {
    for (tape::Value key = v.first(); key.at < v.close();) {
        const tape::Value value = key.with(key.at + 1);
        f(key.string(), value);
        key = key.with(value.next());
    }
}

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
    each_member(v, [&](std::string_view k, tape::Value value) {
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
                each_member(v, [&](std::string_view k, tape::Value value) { w.key(k), write_tape(w, d, value, false); });
                return w.end_object();
            }
            thread_local std::vector<std::vector<std::pair<std::string_view, tape::Value>>> stacks;  // one per depth
            thread_local std::size_t depth = 0;
            if (stacks.size() <= depth) stacks.resize(depth + 1);
            std::vector<std::pair<std::string_view, tape::Value>>& members = stacks[depth];
            members.clear();
            each_member(v, [&](std::string_view k, tape::Value value) { members.emplace_back(k, value); });
            std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            ++depth;
            // (a deeper object may grow `stacks`, moving the vectors: each is found again by its depth)
            for (std::size_t i = 0; i < stacks[depth - 1].size(); ++i) {
                const auto [key, value] = stacks[depth - 1][i];
                w.key(key), write_tape(w, d, value, true);
            }
            --depth;
            return w.end_object();
        }
        default: return write_scalar(w, d, v);
    }
}

namespace {

// One member of a message as written: a tape value, a string, an integer, or parsed arguments.
struct Entry {
    std::string_view key;
    enum Kind { value, text, number, call_list } kind = value;
    tape::Value v{};
    std::string_view s;
    int n = 0;
};

bool write_calls(Writer& w, const TapeDoc& d, tape::Value calls, const MessageForm& form);

bool write_entries(Writer& w, const TapeDoc& d, std::vector<Entry>& entries, const MessageForm& form) {
    if (form.sorted) std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    w.begin_object();
    for (const Entry& e : entries) {
        w.key(e.key);
        switch (e.kind) {
            case Entry::value: write_tape(w, d, e.v, form.sorted); break;
            case Entry::text: w.string(e.s); break;
            case Entry::number: w.integer(e.n); break;
            case Entry::call_list:
                if (!write_calls(w, d, e.v, form)) return false;
                break;
        }
    }
    w.end_object();
    return true;
}

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

bool write_calls(Writer& w, const TapeDoc& d, tape::Value calls, const MessageForm& form) {
    w.begin_array();
    for (tape::Value call = calls.first(); call.at < calls.close(); call = call.with(call.next())) {
        std::vector<Entry> entries;
        tape::Value function{};
        each_member(call, [&](std::string_view k, tape::Value v) {
            if (k == "function") function = v;
            entries.push_back(Entry{k, Entry::value, v});
        });
        if (form.sorted) std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
        w.begin_object();
        for (const Entry& e : entries) {
            w.key(e.key);
            if (e.key != "function" || e.v.type() != '{') {
                write_tape(w, d, e.v, form.sorted);
                continue;
            }
            std::vector<std::pair<std::string_view, tape::Value>> parts;
            each_member(e.v, [&](std::string_view k, tape::Value v) { parts.emplace_back(k, v); });
            if (form.sorted) std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            w.begin_object();
            for (const auto& [k, v] : parts) {
                w.key(k);
                if (k == "arguments") {
                    if (!write_arguments(w, d, v, form)) return false;
                } else {
                    write_tape(w, d, v, form.sorted);
                }
            }
            w.end_object();
        }
        w.end_object();
    }
    w.end_array();
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
        each_member(m, [&](std::string_view k, tape::Value v) {
            if (k == "role") assistant = v.type() == '"' && v.string() == "assistant";
            if (!form.inverse && k == "thinking") moved = Entry{"reasoning_content", Entry::value, v}, has_moved = true;
            else if (form.inverse && k == "reasoning_content") entries.push_back(Entry{"thinking", Entry::value, v});
            else if (form.inverse && k == "weight") return;
            else if (k == "tool_calls" && v.type() == '[' && (form.fireworks || form.inverse)) entries.push_back(Entry{k, Entry::call_list, v});
            else entries.push_back(Entry{k, Entry::value, v});
        });
        if (has_moved) entries.push_back(moved);
        if (!form.inverse && form.fireworks && form.weight >= 0 && assistant) {
            Entry weight{"weight", Entry::number};
            weight.n = form.weight;
            entries.push_back(weight);
        }
        if (!write_entries(w, d, entries, form)) return false;
    }
    return true;
}

std::string sha256_hex(std::string_view bytes) { return hex(sha256(bytes)); }

}  // namespace sediment::rows::detail
