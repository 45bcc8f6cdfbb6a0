// What the profile writer and verify_profile() share (src/features/profile/).
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows/json.hpp"
#include "sediment/rows/profile.hpp"

namespace sediment::rows::detail {

/// "train" or "eval".
std::string_view split_name(Split s);

/// Throws ProfileError with Sediment's message unless `row` is a canonical row of `p` that Sediment's
/// strict model reads back unchanged, on side `split` (compatibility.py _validate_canonical()).
void check_canonical(const Profile& p, const Json& row, Split split);

/// The digest form of an evidence record without its row_sha256: the last key of Sediment's order.
std::string evidence_key(const Json& evidence);

/// Whether row a sorts before row b in Sediment's order (compatibility.py aligned_rows()): by split name
/// ("eval" first), then the data row's digest, then, only where those tie, evidence_key() of the evidence
/// lines `evidence_a()` and `evidence_b()` give (the second may reuse the text the first gave).
template <class A, class B>
bool sorts_before(std::string_view split_a, std::string_view digest_a, const A& evidence_a, std::string_view split_b,
                  std::string_view digest_b, const B& evidence_b) {
    if (split_a != split_b) return split_a < split_b;
    if (digest_a != digest_b) return digest_a < digest_b;
    const std::string key_a = evidence_key(parse(evidence_a()));
    const std::string key_b = evidence_key(parse(evidence_b()));
    return key_a < key_b;
}

/// The manifest's diagnostics of rows: each row's split, prompt digest ("" for none) and reward (Python's
/// str() of it, "" for none; an empty list for rows without rewards), and the count of exact prompts in
/// both train and eval.
Json diagnostics(const std::vector<Split>& splits, const std::vector<std::string_view>& prompts,
                 const std::vector<std::string>& rewards, std::size_t& overlap);

/// Python's str() of a number: a reward's key in reward_counts ("1.0").
std::string python_str(const Json& v);

/// adapt_row() of a canonical row's text into `out` (its strings reused): `lines` false computes the
/// digests alone (the first pass of the file writer); `valid` says the text was judged by an earlier call
/// and the fast path accepted it (it is parsed, not checked again).
void adapt_text(const Profile& p, const StringText& text, std::optional<Split> split, ProfileRow& out, bool lines,
                const ConsumerSettings& consumer, bool valid = false);

/// adapt_row() for swe-bench-tasks-v1 (swe.cpp).
ProfileRow adapt_swe(const Profile& p, const Json& canonical, Split split, const ConsumerSettings& consumer);

/// Python's str.strip() (the characters str.isspace() is true of).
std::string_view python_strip(std::string_view s);

/// Python's str.lower() of UTF-8 text (Unicode's case mappings, as tools/lowercase_table.py read them), but
/// for U+03A3, always σ here: Python writes ς at a word's end.
std::string python_lower(std::string_view text);

/// sediment_core's RepoSlug (swe.cpp): `out` is "" or "owner/repo", stripped and lowercased; false with
/// `why` for anything else, and for a capital sigma (whose lowercase depends on its context).
bool repo_slug(std::string_view value, std::string& out, std::string& why);

/// sediment_core's CommitSha: `out` is 40 or 64 hex digits, stripped and lowercased; false for anything else.
bool commit_sha(std::string_view value, std::string& out);

/// pydantic 2's AwareDatetime read from a JSON string (speedate's date-time forms, or a Unix timestamp
/// as an integer) and written back (`out`: seconds always, microseconds when not 0, UTC as Z); false with
/// `why` for what it refuses (a timestamp with a fraction is refused here, not read).
bool aware_datetime(std::string_view text, std::string& out, std::string& why);

/// A file mapped for reading: each line is read where it is, with kTextPadding bytes after it where the
/// mapping has them.
class MappedFile {
public:
    MappedFile() = default;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    /// False (errno says why) when the file cannot be read.
    bool open(const std::filesystem::path& path);
    std::string_view text() const { return {static_cast<const char*>(map_), size_}; }
    /// `line`, a view into text(), as StringText: in place when padded by the mapping, else copied into
    /// `spare` with room after it.
    StringText line(std::string_view line, std::string& spare) const;

private:
    void* map_ = nullptr;
    std::size_t size_ = 0, mapped_ = 0;
};

/// f(number, line) for each line of `text` that is not blank, without its newline and a CR before it.
template <class F>
void each_line(std::string_view text, F f) {
    std::size_t start = 0;
    for (std::size_t number = 1; start < text.size(); ++number) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        f(number, line);
    }
}

}  // namespace sediment::rows::detail
