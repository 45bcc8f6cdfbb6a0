// A JSON document as `repair` reads it: leniently, as Python's json module does (duplicate keys kept
// in order, NaN and the infinities, lone surrogate escapes), with every scalar token kept as written
// so that what no repair touches is written back byte for byte. Internal; not installed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows/json.hpp"

namespace sediment::rows::repair_detail {

struct Member;

/// One JSON value. Scalars keep their token (`raw`): a number's literal, a string's quoted text with
/// its escapes; a string also holds its decoded value.
struct Node {
    enum class Kind : unsigned char { null, boolean, number, string, array, object, non_finite };
    Kind kind = Kind::null;
    std::string raw;             ///< the token as written (null, true, false: empty)
    std::string text;            ///< a string's value (UTF-8; a lone surrogate as U+FFFD)
    bool flag = false;           ///< a boolean's value; a string's: it held a lone surrogate escape
    std::vector<Node> items;     ///< an array's
    std::vector<Member> members; ///< an object's, in order, duplicates included

    bool is(Kind k) const { return kind == k; }
    /// The member called `key` (the last, when repeated), or nullptr.
    Node* find(std::string_view key);
    const Node* find(std::string_view key) const;
    /// True when the member is present and not null.
    bool given(std::string_view key) const {
        const Node* n = find(key);
        return n && !n->is(Kind::null);
    }
    /// Removes the members called `key`; returns the last one's value (null when there was none).
    Node take(std::string_view key);
    /// Sets the member `key` (the last of that name), or appends it.
    Node& set(std::string_view key, Node value);

    static Node null() { return Node{}; }
    static Node boolean(bool b);
    static Node string(std::string value);
    static Node integer(long long v);
    /// A number from its literal (JSON number syntax).
    static Node number(std::string literal);
    static Node array();
    static Node object();
};

/// An object's member: its key (decoded, and as written) and value.
struct Member {
    std::string key;
    std::string raw_key;  ///< quoted, escapes as written
    bool key_surrogate = false;
    Node value;
};

/// Reads `text` as Python's json.loads does (RFC 8259, plus NaN, Infinity, -Infinity, duplicate keys
/// and lone surrogate escapes), within `limits` (depth, size). False, with `why` set, for anything else.
bool read_lenient(std::string_view text, Node& out, std::string& why, const Limits& limits);

/// Compact JSON text of `n` with every token as written.
void write_compact(const Node& n, std::string& out);
std::string write_compact(const Node& n);

/// The JSON string literal of `value` (compact: UTF-8 as is).
std::string quote(std::string_view value);

}  // namespace sediment::rows::repair_detail
