// Lint: what a schema cannot say of Sediment's rows (rollout rows and every other family), that they
// are what Sediment's derivation rules produce (docs/lint.md lists every rule). A schema-valid row can still hold a reward of 1.0 beside a
// failed CI verdict, a CI resolution that does not follow from its own CI outcomes, or a session split
// across train and eval; lint finds them, each with a stable rule id, the JSON Pointer of the value
// that breaks the rule, and what was expected:
//
//   [rows.lint.reward] (/reward) expected 0.0 for verdict "failed", got 1.0
//
// The rules within one row are lint_row(); the rules across rows (one session's rows agree, ids are
// unique) need a Linter, which keeps a few facts per session and never a row:
//
//   rows::Linter linter;
//   for (const std::string& line : lines) {
//       std::vector<rows::Error> findings;
//       rows::SessionFacts facts;
//       if (rows::lint("nemo-gym-rollout", line, findings, facts))  // schema errors, else lint
//           linter.add(std::move(facts), findings);
//       report(findings);
//   }
//   for (const rows::LintFinding& f : linter.finish()) report(f);  // rows that differ from their session
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "error.hpp"
#include "versions.hpp"

namespace sediment::rows {

/// What lint takes from its caller.
struct LintOptions {
    /// The eval fraction the rows' split was derived with: 0.0 to 0.5 (Sediment's default 0.1).
    double eval_fraction = 0.1;
    /// Linter::finish(): every session's segment indexes are 0..k-1 (the file holds whole sessions).
    bool sessions_complete = false;
    /// The SFT policy's minimum label confidence (Sediment's SFTPolicy.min_confidence: 0.6), 0.0 to 1.0.
    double min_confidence = 0.6;
    /// The DPO policy's most pairs per (org, model, prompt) bucket (DPOPolicy.max_pairs_per_bucket: 3).
    std::size_t max_pairs_per_bucket = 3;
};

/// Throws std::invalid_argument for an eval fraction outside 0.0-0.5, a minimum confidence outside
/// 0.0-1.0 (or NaN), or no pairs per bucket.
void check_lint_options(const LintOptions& options);

/// SHA-256 (FIPS 180-4) of `bytes`.
std::array<unsigned char, 32> sha256(std::string_view bytes);

/// A session's split score: the first 8 bytes of SHA-256(session_id), big-endian, over 2^64.
double split_score(std::string_view session_id);

/// The split Sediment derives for `session_id`: eval when its score is below `eval_fraction`.
Split split_of(std::string_view session_id, double eval_fraction = 0.1);

/// What the resolution algorithm gives for one commit's CI outcomes: every field of a CIResolution that
/// derives from them (docs/lint.md, "The resolution algorithm").
struct CommitResolution {
    Nullable<Verdict> verdict;    ///< null when the lineages disagree, or none has a verdict
    Nullable<Number> reliability; ///< null with the verdict
    bool suspected_flake = false;  ///< some lineage has both a passed and a failed attempt
    std::vector<CIWorkflowResolution> workflow_resolutions;  ///< one per lineage, in Sediment's order
    std::vector<std::string> source_outcome_ids;       ///< every outcome's id, sorted
    std::vector<std::string> verdict_outcome_ids;      ///< each lineage's verdict outcome, sorted
    std::vector<std::string> non_verdict_outcome_ids;  ///< every non-verdict outcome's id, sorted
};

/// The resolution of one commit's outcomes (row versions 1 to 3 and version 4 CI outcomes): lineages
/// (org, CI provider, repository qualification, run_id), attempts in (run_attempt or 0, outcome_id)
/// order, verdicts, reliabilities and flakes across lineages, sorted id lists and workflow resolutions.
CommitResolution resolve_commit(const std::vector<CIOutcomeV1>& outcomes);
/// The same of version 4 CI outcomes, whose lineages tell identified repositories from legacy ones.
CommitResolution resolve_commit(const std::vector<CIOutcomeV3>& outcomes);

/// Appends the findings of the rules within one schema-valid row (ids `rows.lint.*`, docs/lint.md).
void lint_row(const NemoGymRolloutRowV1& row, std::vector<Error>& findings, const LintOptions& options = {});
/// The same, of a version 2 row.
void lint_row(const NemoGymRolloutRowV2& row, std::vector<Error>& findings, const LintOptions& options = {});
/// The same, of a version 3 row (and its observation ids).
void lint_row(const NemoGymRolloutRowV3& row, std::vector<Error>& findings, const LintOptions& options = {});
/// The same, of a version 4 row (and its repository identities).
void lint_row(const NemoGymRolloutRowV4& row, std::vector<Error>& findings, const LintOptions& options = {});
/// The same, of a row of any version.
void lint_row(const AnyRolloutRow& row, std::vector<Error>& findings, const LintOptions& options = {});

/// The lowercase hex SHA-256 of `{"prompt": prompt}` in Sediment's digest form (json.dumps with
/// sort_keys, compact separators, UTF-8, floats as Python's repr): the evidence's prompt_sha256, by
/// which Sediment finds an exact prompt in both train and eval.
std::string prompt_sha256(const Json& prompt);

/// 128 bits that stand for a value in the Linter's tables (SessionFacts).
using FactKey = std::array<std::uint64_t, 2>;

namespace detail {
/// Whether `key` is zero: a key of SessionFacts that is not given, or a table's empty slot.
inline bool zero_key(const FactKey& key) { return (key[0] | key[1]) == 0; }
/// Memory for a large table of random access (the Linter's): from 256 KiB, in whole 2 MiB pages where
/// Linux gives them (one TLB entry for 2 MiB of slots); std::allocator's interface.
void* table_allocate(std::size_t bytes);
void table_deallocate(void* p, std::size_t bytes) noexcept;
template <class T>
struct TableAllocator {
    using value_type = T;
    TableAllocator() = default;
    template <class U>
    TableAllocator(const TableAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(table_allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { table_deallocate(p, n * sizeof(T)); }
    template <class U>
    bool operator==(const TableAllocator<U>&) const noexcept { return true; }
    template <class U>
    bool operator!=(const TableAllocator<U>&) const noexcept { return false; }
};
}  // namespace detail

/// What the rules across rows keep of one row. A rollout row: its session, its ids, and a 64-bit digest
/// of each value that every row of a session repeats. A row of another family: its family, split,
/// identity, prompt digest and the like (the members after `line`). Made on any thread, taken by
/// Linter::add in input order.
struct SessionFacts {
    /// The values a session's rows share, in the order findings name them.
    enum Field { verifier_results, ci_resolution, reward, split, attribution_source, verification, provenance,
                 session_commit_observation_ids, repository_identity, kFields };
    std::string org_id;       ///< the session's org
    std::string session_id;   ///< the session
    std::string instance_id;  ///< the row's
    std::int64_t segment_index = 0;  ///< the row's
    std::array<std::uint64_t, kFields> digests{};  ///< of each JSON value (members in any order), absent and null apart
    std::size_t line = 0;  ///< where the row is, for findings that name it (0: the Linter counts rows)

    std::string family;                ///< a row of another family: its schema's name without a version ("" for a rollout row)
    std::optional<Split> row_split;    ///< the row's split, where it has one
    std::string split_pointer;         ///< where it is ("/metadata/split" or "/split")
    std::string identity;              ///< what no other row of the family may share (a completion, a pair, an instance id), or ""
    std::string prompt_sha256;         ///< an eval row's: prompt_sha256() of its prompt, which a finding names; else ""
    std::string order_key;             ///< SFT: its completion_id, in whose order Sediment writes the rows
    // What the Linter keeps (zero: nothing). lint() fills them in, on the thread that lints the row.
    /// Of the identity: two 64-bit digests of its bytes (Linter::add() computes it where it is zero).
    FactKey identity_key{};
    /// Of the prompt (SFT, DPO, diff-SFT; SWE-bench: its problem statement): two 64-bit digests of its
    /// JSON value, the same for the prompts prompt_sha256() does not tell apart (not cryptographic: two
    /// prompts made to collide are taken for one).
    FactKey prompt_key{};
    /// Of a DPO pair: two 64-bit digests of its bucket (org_id '\0' source_model '\0' the prompt's key).
    /// None of the three is cryptographic: values made to collide are taken for one.
    FactKey bucket_key{};
};

/// What the rules across rows keep of `row`.
SessionFacts session_facts(const AnyRolloutRow& row);

/// A finding of Linter::finish(): at the row it is about (a row that differs from its session's other
/// rows), or at the first row of the session (a session whose segments are not all there).
struct LintFinding {
    std::string file;  ///< as given to Linter::begin_file ("" when none was)
    std::size_t line = 0;  ///< the line (or, without begin_file, the row number) of the session's first row
    Error error;           ///< the finding
};

/// The rules across rows, over rows in input order: the rows of one session (org_id, session_id) agree
/// on every value of SessionFacts::Field, a session's segment indexes and every instance_id are unique,
/// and (LintOptions::sessions_complete) a session's segments are 0..k-1. Where a session's rows
/// disagree, the rows that differ from the value most of them hold (on a tie, the value that came
/// first) get the finding, from finish(): one edited row gets one finding, whichever row it is.
/// Memory: one entry per session with each field's distinct digests, and a segment index, line and
/// value per field for each row of it; never a row.
class Linter {
public:
    /// Throws std::invalid_argument for options check_lint_options() refuses.
    explicit Linter(LintOptions options = {});

    /// The rows that follow are in the file `name`: findings about an earlier row name it "FILE:LINE"
    /// when it is in another file, "line N" otherwise.
    void begin_file(std::string name);

    /// Lints a schema-valid row: its own rules (lint_row), then the rules across rows against the rows
    /// added before it. Appends the findings.
    void add(const AnyRolloutRow& row, std::vector<Error>& findings);

    /// The rules across rows only, for a row whose own rules ran elsewhere (on another thread).
    void add(SessionFacts facts, std::vector<Error>& findings);

    /// After the last row: the findings about rows that differ from the rest of their session, and
    /// (LintOptions::sessions_complete) about sessions whose segments are not all there, ordered by
    /// file and line.
    std::vector<LintFinding> finish();

    /// The options it was made with.
    const LintOptions& options() const noexcept { return options_; }

private:
    struct Where {
        std::uint32_t file;
        std::size_t line;
    };
    struct Segment {
        std::int64_t index;
        Where where;
        bool derived;  // its instance_id is "{org_id}-{session_id}-seg{index}"
        std::array<std::uint16_t, SessionFacts::kFields> value;  // each field's value: its place in Session::values
    };
    struct Value {  // one distinct value of a field in a session
        std::uint64_t digest;
        std::size_t rows;   // that hold it
        std::size_t first;  // the first of them: its place in Session::segments
    };
    struct Session {  // its org_id and session_id are its key
        Where first;
        std::array<std::vector<Value>, SessionFacts::kFields> values;  // each field's, in the order they came
        std::vector<Segment> segments;  // in arrival order
        std::size_t order;
    };
    std::string describe(const Where& w) const;
    std::string describe_fully(const Where& w) const;  // "FILE:LINE", or "row N" without files

    LintOptions options_;
    std::vector<std::string> files_;
    std::size_t rows_ = 0;
    std::unordered_map<std::string, Session> sessions_;  // by org_id '\0' session_id
    // instance ids "{org_id}-{session_id}-seg{k}" are unique when (org, session, k) is and no two
    // sessions spell the same "{org_id}-{session_id}": the first session of each spelling
    std::unordered_map<std::string, const Session*> spellings_;
    std::unordered_map<std::string, Where> other_ids_;  // instance ids that are not the derived one
    std::string key_, spelling_;  // scratch: a session's key and spelling, for lookups
    // the rules across rows of the other families
    void add_family(const SessionFacts& facts, const Where& here, std::vector<Error>& findings);
    std::optional<Split> file_split_;  // the split the current file's name gives (NAME.train.jsonl, NAME.eval.jsonl.gz, ...)
    /// An open-addressing table keyed by FactKeys (uniform bits already: a key's first word is its
    /// hash), linear probing, at most half full. The key {0, 0} marks an empty slot: a key that is
    /// {0, 0} is stored as {0, 1}.
    template <class V>
    class KeyTable {
    public:
        /// The value of `key`, and true when it was not there and now holds `value`.
        std::pair<V*, bool> try_emplace(FactKey key, const V& value) {
            if (4 * (size_ + 1) > 3 * slots_.size()) grow();  // at most 3/4 full: linear probes stay short
            std::pair<FactKey, V>* slot = find_slot(key);
            const bool fresh = detail::zero_key(slot->first);
            if (fresh) *slot = {stored(key), value}, ++size_;
            return {&slot->second, fresh};
        }
        const V* find(FactKey key) const {
            if (slots_.empty()) return nullptr;
            const std::pair<FactKey, V>* slot = const_cast<KeyTable*>(this)->find_slot(key);
            return detail::zero_key(slot->first) ? nullptr : &slot->second;
        }

    private:
        static FactKey stored(FactKey key) { return detail::zero_key(key) ? FactKey{0, 1} : key; }
        std::pair<FactKey, V>* find_slot(FactKey key) {
            key = stored(key);
            const std::size_t mask = slots_.size() - 1;
            for (std::size_t i = static_cast<std::size_t>(key[0]) & mask;; i = (i + 1) & mask) {
                const FactKey& k = slots_[i].first;
                if ((k[0] == key[0] && k[1] == key[1]) || detail::zero_key(k)) return &slots_[i];
            }
        }
        void grow() {
            std::vector<std::pair<FactKey, V>, detail::TableAllocator<std::pair<FactKey, V>>> old(slots_.empty() ? 1024 : 2 * slots_.size());
            old.swap(slots_);
            for (const auto& slot : old)
                if (!detail::zero_key(slot.first)) *find_slot(slot.first) = slot;
        }
        std::vector<std::pair<FactKey, V>, detail::TableAllocator<std::pair<FactKey, V>>> slots_;
        std::size_t size_ = 0;
    };
    struct FamilyTables {  // the keys of one family's rows
        KeyTable<Where> identities;  // each identity's first row
        KeyTable<Where> train_prompts;  // each prompt's first train row
        /// An eval row with a prompt: blamed in finish() when a train row holds it.
        struct EvalPrompt {
            FactKey key;         ///< its prompt's
            Where where;         ///< the row
            std::string sha256;  ///< its prompt_sha256, for the finding
        };
        std::vector<EvalPrompt> eval_prompts;
        KeyTable<std::pair<std::size_t, Where>> buckets;  // DPO: pairs so far, and the first
    };
    std::vector<std::pair<std::string, FamilyTables>> families_;  // in the order they came
    FamilyTables& tables_of(std::string_view family);
    std::string last_order_key_;  // SFT: the completion_id of the file's last row
};

/// Whether lint() reads documents of `name`: Sediment's rows, nemo-gym-rollout, sft-sample, dpo-pair,
/// diff-sft-sample, recovery-row, sediment-rlvr-rollout, sediment-rlvr-task or swe-bench-task, with or
/// without a version, or "any".
bool lints(std::string_view name);

/// Decodes `text` as a row of `name` (nemo-gym-rollout with or without its version) into `row`,
/// reused from call to call, and lints it: nothing, with its schema errors appended, when it is not
/// schema-valid; else the version it was read as, with its findings under the rules within a row
/// appended. Throws std::invalid_argument for a name that stands for no rollout version.
std::optional<SchemaId> lint(std::string_view name, std::string_view text, AnyRolloutRow& row, std::vector<Error>& findings,
                             const LintOptions& options = {}, const Limits& limits = {});

/// Lints the text of one row of `name` (a name lints() takes): its schema errors when it is not
/// schema-valid, else its findings under the rules within a row and, in `facts`, what the rules
/// across rows keep of it (for Linter::add). Returns the schema it was read as when it is
/// schema-valid. A valid rollout row is linted where the parser left it, nothing copied; any other is
/// read by the exact reader. Throws std::invalid_argument for a name lints() refuses.
std::optional<SchemaId> lint(std::string_view name, std::string_view text, std::vector<Error>& findings, SessionFacts& facts,
                             const LintOptions& options = {}, const Limits& limits = {});

/// The same, of a std::string's text, read in place when its capacity allows (see StringText).
std::optional<SchemaId> lint(std::string_view name, const StringText& text, std::vector<Error>& findings, SessionFacts& facts,
                             const LintOptions& options = {}, const Limits& limits = {});

/// A row's verdict: its schema errors when it is not schema-valid (of `name`, a name lints() takes),
/// else its findings under the rules within a row. Throws std::invalid_argument for a name lints()
/// refuses.
Validated lint(std::string_view name, std::string_view text, const LintOptions& options = {}, const Limits& limits = {});

}  // namespace sediment::rows
