// Sediment's consumer profiles: what a trainer loads (docs/profiles.md). `sediment export sft --profile
// hf-trl-sft-v1` writes a folder of rows in the trainer's own shape (data.train.jsonl, data.eval.jsonl),
// an evidence record per row tying it to its canonical row by SHA-256 (evidence.*.jsonl) and a manifest
// of every file's digest (compatibility.json). This header maps canonical rows to a profile, writes the
// folder as Sediment does, byte for byte, and verifies a folder before training.
//
// Source of every rule: sediment-ai/sediment at ef084b9, packages/export/sediment_export/compatibility.py
// (profiles, the SFT/DPO adapter, publication) and jsonl.py (the line writer, split file names).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "error.hpp"
#include "json.hpp"
#include "generated/models.hpp"
#include "schema.hpp"
#include "value.hpp"

namespace sediment::rows {

/// One of Sediment's consumer profiles (compatibility.py PROFILES): its manifest entry, and the models
/// of its rows.
struct Profile {
    std::string_view id;         ///< "hf-trl-sft-v1": `{consumer}-{objective}-v{profile_version}`
    std::string_view consumer;   ///< "hf-trl", "fireworks", "swe-bench", "nemo-gym"
    std::string_view objective;  ///< "sft", "dpo", "rlvr"
    int profile_version = 1;     ///< the profile's version (the `v{n}` of its id)
    SchemaId canonical;                 ///< the schema of the canonical rows it maps (sft-sample.v3, ...)
    std::string_view canonical_schema;  ///< that schema's $id, as the manifest and evidence name it
    std::vector<std::pair<std::string_view, std::string_view>> dependencies;  ///< pinned [name, version]s
    std::string_view validation;  ///< what Sediment ran to check the rows (a manifest string)
    std::string_view support;     ///< what that check covers (a manifest string)
    std::optional<SchemaId> data;      ///< the model of its data rows, where the project has one
    std::optional<SchemaId> evidence;  ///< the model of its evidence records, where the project has one

    /// True for the profiles adapt_row() maps canonical rows to: SFT and DPO from the rows alone,
    /// swe-bench-tasks-v1 with an operator's consumer config (NeMo Gym's needs Sediment's inference calls,
    /// which rows do not hold: its folders are read and verified only).
    bool writable() const noexcept { return objective == "sft" || objective == "dpo" || consumer == "swe-bench"; }
};

/// Sediment's six profiles, in its order.
const std::vector<Profile>& profiles();

/// The profile named `id`, or nullptr.
const Profile* find_profile(std::string_view id) noexcept;

/// True for a profile Sediment retired (hf-trl-dpo-v1, fireworks-dpo-v1): profile() refuses it, naming
/// its successor.
bool retired_profile(std::string_view id) noexcept;

/// Sediment refused an export or a profile name: what() is Sediment's own message.
class ProfileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The profile named `id`; throws ProfileError with Sediment's message ("unsupported profile: NAME", or for
/// hf-trl-dpo-v1 and fireworks-dpo-v1 "profile NAME is retired; use ... and re-export ...").
const Profile& profile(std::string_view id);

/// The profile's manifest entry: {id, consumer, objective, profile_version, canonical_schema,
/// dependencies, validation, support}.
Json profile_entry(const Profile& p);

/// Sediment's digest form: json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False):
/// sorted keys, no spaces, UTF-8, floats as Python's repr. Throws EncodeError for what JSON cannot carry.
std::string digest_form(const Json& value);

/// The lowercase hex SHA-256 of digest_form(value) (compatibility.py row_digest()).
std::string row_sha256(const Json& value);

/// Sediment's line form: Python's json.JSONEncoder defaults (", " and ": ", non-ASCII as \uXXXX), keys in
/// their order, then "\n": a line of data.*.jsonl, evidence.*.jsonl and the canonical exports.
std::string line_form(const Json& value);

/// An operator's consumer config (`--consumer-config`; consumer_rlvr.py ConsumerSettings and
/// load_consumer_settings()): SWE-bench's settings of each task, NeMo Gym's response settings. Read
/// strictly (the consumer-config and swe-task-settings models: unknown keys, a wrong type or a
/// blank id refused), then normalized as Sediment's types normalize (RepoSlug and CommitSha stripped and
/// lowercased, ids stripped, created_at written as pydantic writes a date-time) with its defaults written
/// out. A default-constructed one is Sediment's without a config: no tasks, no NeMo settings.
class ConsumerSettings {
public:
    ConsumerSettings();
    /// The config in `json` (a config file's text). Throws ProfileError naming the first error's pointer
    /// and its id ("consumer config: /tasks/x/repo: ... [rows.decode.repo_slug]").
    static ConsumerSettings parse(std::string_view json);
    /// model_dump(mode="json"): {"schema_version": 1, "nemo": ..., "tasks": {id: settings}}.
    const Json& value() const noexcept { return value_; }
    /// The configuration_digest each evidence record carries: row_sha256(value()).
    const std::string& digest() const noexcept { return digest_; }
    /// The settings of task `instance_id` (the 14 keys of a data row, normalized), or nullptr.
    const Json* task(std::string_view instance_id) const;

private:
    Json value_;
    std::string digest_;
    std::unordered_map<std::string, std::size_t> index_;  // a task's position in value_["tasks"] (an ordered map finds by scanning)
};

/// One canonical row mapped to a profile: its split, its data row and its evidence record (row_sha256
/// first, then the adapter's keys), each a line in Sediment's line form, and the two digests the folder
/// is sorted and checked by.
struct ProfileRow {
    Split split = Split::train;  ///< the side the row is on
    std::string data;           ///< the data row: line_form(), "\n" ended
    std::string evidence;       ///< its evidence record: line_form(), "\n" ended
    std::string row_sha256;     ///< the data row's digest (the evidence's first member)
    std::string prompt_sha256;  ///< the canonical prompt's digest (the evidence's prompt_sha256)
};

/// Maps one canonical row of `p`'s canonical schema (writable profiles) on side `split`, as
/// adapt_training_rows() does. Throws ProfileError with Sediment's message: "PROFILE: invalid canonical
/// row" (a row Sediment's model refuses), "PROFILE: canonical row has unknown or altered fields" (one it
/// would change, or whose metadata.split is not `split`), the Fireworks refusals.
ProfileRow adapt_row(const Profile& p, const Json& canonical, Split split);

/// The same for any writable profile; swe-bench-tasks-v1 (consumer_rlvr.py adapt_swe_rows() and
/// validate_rlvr_consumer_rows()) maps a swe-bench-task.v3 row with its task's settings from `consumer`,
/// refusing with Sediment's messages: "SWE-bench task configuration missing for ID", "... does not match
/// ID" (repo or base_commit differ), "SWE-bench requires a repair request" (a blank problem_statement),
/// "SWE-bench test transitions overlap", "SWE-bench eval_script requires test-output markers", and
/// "swe-bench-tasks-v1: invalid canonical row" for a row the swe-bench-task.v3 model refuses.
ProfileRow adapt_row(const Profile& p, const Json& canonical, Split split, const ConsumerSettings& consumer);

/// The same of a canonical row's JSON text (a line of a canonical export), read where it is: a row the
/// fast path accepts is mapped from the parser's DOM, any other parsed and judged as above. Without a
/// `split`, the row's own metadata.split. Throws ProfileError for text that is not JSON too.
ProfileRow adapt_row(const Profile& p, const StringText& canonical, std::optional<Split> split = std::nullopt,
                     const ConsumerSettings& consumer = ConsumerSettings());

/// How write_profile() writes a folder.
struct ProfileOptions {
    /// data.train.jsonl and data.eval.jsonl (Sediment's eval fraction above 0), or one data.jsonl.
    bool split = true;
    /// The counts Sediment's projection skipped before the adapter (`canonical_skipped`: an object of
    /// names to counts, which the CLI always writes), or none for no such key.
    std::optional<Json> canonical_skipped = Json::object();
    /// RLVR profiles: the rows Sediment's bundle counted as fragmented (`fragmented`, by reason), which
    /// an RLVR manifest always holds; none writes `{}`. Refused for SFT and DPO profiles.
    std::optional<Json> fragmented;
    /// swe-bench-tasks-v1: the operator's consumer config (without one, every row is refused as Sediment
    /// refuses it: no task configuration).
    ConsumerSettings consumer;
    /// write_profile_files(): the threads that map rows (0: one per core). The folder is the same.
    unsigned jobs = 0;
};

/// Publishes `rows` as the folder `out` (publish_compatible_rows()): sorted in Sediment's order, the
/// files and manifest written in a private staging folder beside `out` and renamed to it at once (0700,
/// files 0600). Returns the manifest; with no rows, writes nothing (Sediment writes no folder). Throws
/// ProfileError with Sediment's message for an existing `out` or, with splitting, an exact prompt in both
/// train and eval; std::filesystem::filesystem_error when a file cannot be written.
Json write_profile(const Profile& p, std::vector<ProfileRow> rows, const std::filesystem::path& out,
                   const ProfileOptions& options = {});

/// write_profile() of the rows of canonical JSONL files (blank lines skipped), each mapped by adapt_row():
/// its split is its file's (NAME.train.jsonl, NAME.eval.jsonl), else its metadata's. The files are read
/// in place (mapped) twice: once to check and order every row, then to write them; memory holds each
/// row's digests, not the rows. Throws as write_profile() does, a ProfileError about a row starting
/// "FILE:LINE: ", and std::filesystem::filesystem_error for a file that cannot be read.
Json write_profile_files(const Profile& p, const std::vector<std::filesystem::path>& files, const std::filesystem::path& out,
                         const ProfileOptions& options = {});

/// One thing verify_profile() found: the file (a name in the folder, or a canonical file's path), its
/// line (0: the file as a whole) and the error (id `rows.verify.*`, docs/errors.md; the pointer is
/// within the line's document or the manifest).
struct ProfileFinding {
    std::string file;      ///< a file name in the folder ("data.train.jsonl"), or a canonical file's path
    std::size_t line = 0;  ///< from 1; 0 for the file as a whole
    Error error;           ///< its id (rows.verify.*), pointer and message
};

/// What verify_profile() concluded.
struct ProfileVerdict {
    const Profile* profile = nullptr;  ///< the manifest's profile, when it names one
    std::size_t rows = 0;              ///< the data lines read
    std::map<std::string, std::size_t> rows_by_split;  ///< of those lines
    std::vector<ProfileFinding> findings;              ///< in file order, then line order
    /// True when nothing was found.
    bool ok() const noexcept { return findings.empty(); }
};

/// What verify_profile() checks beside the folder.
struct VerifyOptions {
    /// Canonical JSONL files: each evidence record's source_row_sha256 must name one of their rows, and
    /// (SFT, DPO) each data row and evidence record must be that row's mapping, byte for byte.
    std::vector<std::filesystem::path> canonical;
    /// swe-bench-tasks-v1: the consumer config the folder was written with. Each evidence record's
    /// configuration_digest must be its digest (without it: every row's the same), and with `canonical`
    /// each data row and evidence record must be its canonical row's mapping, byte for byte.
    std::optional<ConsumerSettings> consumer;
    /// Findings kept, at most (the rest are counted in a last finding).
    std::size_t max_findings = 1000;
    /// Read every line with the exact reader (parsed into Json), not from simdjson's DOM where the fast
    /// path accepts it: slower, the same findings (the tests hold the two to it).
    bool exact = false;
};

/// Checks that `folder` is the consumer profile folder Sediment writes (docs/profiles.md, "What verify
/// checks"): its files are the manifest's, with their SHA-256 and sizes; the manifest in digest form and
/// its profile entry the profile's; data and evidence lines aligned, each row_sha256 its data line's
/// digest, every line in line form and Sediment's order; counts and splits as the manifest says; no exact
/// prompt in train and eval; every row and record valid under its model; (SFT, DPO) each data row the
/// mapping of the canonical row its evidence names. Never throws for what the folder holds.
ProfileVerdict verify_profile(const std::filesystem::path& folder, const VerifyOptions& options = {});

}  // namespace sediment::rows
