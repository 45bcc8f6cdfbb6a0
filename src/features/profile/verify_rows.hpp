// The rows of a consumer profile folder, for verify_profile() (verify.cpp): each pair of a data line and
// its evidence line read on the fast path (simdjson's tape) or the exact one (Json), with the same findings.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "features/profile/forms.hpp"
#include "features/profile/profile_detail.hpp"

namespace sediment::rows::detail::verification {

// One pair of data and evidence files: "data.train.jsonl" and "evidence.train.jsonl", or unsplit.
struct Pair {
    std::string side;  // "train", "eval" or "" (unsplit)
    std::string data, evidence;
};

// What a row gives the checks across rows.
struct Row {
    std::string side;    // "train" or "eval"
    std::string digest;  // of the data row
    std::string prompt;  // the evidence's prompt_sha256, or ""
    std::string source;  // the evidence's source_row_sha256, or ""
    std::string reward;  // Python's str() of the data row's reward, or ""
    std::string configuration;  // the evidence's configuration_digest (RLVR), or ""
};

// Where each member value of each message of a data row's lists sits in the row's digest form: the
// canonical row's digest form copies them (an hf-trl row's values are the canonical row's, its keys but
// for a renamed reasoning_content too) instead of writing them again.
struct MessageSpans {
    struct Member {
        std::string_view key;
        std::size_t begin, end;  // the value's bytes in the digest form
    };
    std::vector<Member> members;                                   // of every message, in order
    std::vector<std::pair<std::size_t, std::size_t>> messages;     // [first, last) of members, per message
    std::vector<std::pair<std::string_view, std::pair<std::size_t, std::size_t>>> lists;  // key -> [first, last) of messages
    void clear() { members.clear(), messages.clear(), lists.clear(); }
};

// A finding of a line, held until both lines of a row are read (the fast path may hand the row to
// the exact one, which finds the same again).
struct Pending {
    bool evidence;  // of the evidence line, else the data line
    const char* id;
    std::string pointer, message;
};


/// Where `actual` first differs from `expected`, in words: "from byte 12: ', ' where Sediment writes ','".
std::string byte_difference(std::string_view actual, std::string_view expected);

/// Reads the rows of one profile's folder.
class RowReader {
public:
    /// `exact`: every line on the exact path (VerifyOptions::exact).
    RowReader(const Profile& profile, bool exact) : profile_(&profile), exact_(exact) {}
    /// Reads row `number` of `pair`: its data and evidence lines (newlines kept, views into their mapped
    /// files), what the lines' checks find (`pending`), and what the checks across rows need (`row`).
    /// False when the row cannot be read whole (its findings say why).
    bool read(const Pair& pair, std::size_t number, const MappedFile& data_file, std::string_view data, const MappedFile& evidence_file,
              std::string_view evidence, Row& row, std::vector<Pending>& pending) const;

private:
    static bool in_line_form(const TapeDoc& d, std::string_view line, std::string& formed);
    bool fast_row(const Pair& pair, std::size_t number, const MappedFile& data_file, std::string_view data, const MappedFile& evidence_file,
                  std::string_view evidence, Row& row, std::vector<Pending>& pending) const;
    bool canonical_digests(const TapeDoc& d, const std::string& metadata, const std::string& sorted, const MessageSpans* spans,
                           std::string& digest, std::string& source, std::string& prompt) const;
    bool exact_row(const Pair& pair, std::size_t number, std::string_view data, std::string_view evidence, Row& row,
                   std::vector<Pending>& pending) const;
    bool exact_line(bool evidence, std::string_view text, const std::optional<SchemaId>& model, Json& out,
                    std::vector<Pending>& pending) const;
    static Pending line_form_finding(bool evidence, std::string_view line, std::string_view formed);
    void key_order(tape::Value root, bool evidence, std::vector<Pending>& pending) const;
    void row_findings(const Pair& pair, std::size_t number, Row& row, const std::string& row_sha256, const std::string& canonical_schema,
                      const std::string& source, const std::string& prompt, std::vector<Pending>& pending) const;

    const Profile* profile_;
    bool exact_;
};

}  // namespace sediment::rows::detail::verification
