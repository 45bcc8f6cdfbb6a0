// The two JSON forms of a profile folder written straight from simdjson's tape (detail/tape.hpp), for the
// documents the fast path accepts: the adapter's data rows and evidence, and the digests verify
// recomputes, without building a Json. (The Json path, profile.cpp, judges everything else.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "detail/fast_dom.hpp"
#include "detail/tape.hpp"
#include "detail/writer.hpp"

namespace sediment::rows::detail {

/// A document the fast path accepted: its tape, and the literals of its integers beyond 64 bits (which
/// stand in the tape as marker strings, fast_dom.hpp).
struct TapeDoc {
    tape::Value root;
    const BigIntegers* big = nullptr;
};

/// `v` as JSON: keys in their own order, or (`sorted`) in code point order: with a Writer of
/// Style::sediment, Sediment's line form; of Style::compact and `sorted`, its digest form.
void write_tape(Writer& w, const TapeDoc& d, tape::Value v, bool sorted);

/// The lowercase hex SHA-256 of `v`'s digest form (row_sha256() of what the tape holds).
std::string sorted_sha256(const TapeDoc& d, tape::Value v);

/// How write_messages() writes a list of trainer messages.
struct MessageForm {
    bool fireworks = false;  ///< tool-call arguments as the digest form of the object, a string
    int weight = -1;         ///< Fireworks: each assistant message's weight (0 or 1), -1 for none
    bool inverse = false;    ///< the canonical messages back from a data row's: reasoning_content as
                             ///< thinking, no weight, a string of arguments parsed back
    bool sorted = false;     ///< keys sorted (the digest form)
    std::size_t first = 0;   ///< the list's messages written: those from index `first`
    std::size_t last = SIZE_MAX;  ///< up to, not including, index `last`
};

/// The items of a list of trainer messages (inside an array the caller begins and ends) as the adapter
/// writes them (compatibility.py _messages()): each message's keys in their order, a `thinking` renamed
/// `reasoning_content` and moved last, then the weight; or the inverse. False when an argument string of
/// the inverse is no JSON text the fast path reads.
bool write_messages(Writer& w, const TapeDoc& d, tape::Value list, const MessageForm& form);

/// Whether `text`, a JSON document the parser accepted (without its newline), is in Sediment's line form:
/// what json.dumps() writes of what json.loads() reads of it. ", " and ": " and no other space; strings
/// escaped as Python escapes them (\" \\ \b \f \n \r \t, \u and four lowercase hex digits for the
/// other control characters and everything past '~', nothing else); integers as written (not -0);
/// decimals as Python's repr of their double. A scan of the bytes, without writing the form.
bool in_line_form(std::string_view text);

/// The member `key` of the object `v`, or a value whose `at` is 0 (no member).
tape::Value member(tape::Value v, std::string_view key);

}  // namespace sediment::rows::detail
