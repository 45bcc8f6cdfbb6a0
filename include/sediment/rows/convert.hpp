// Conversion between ATIF v1.7 trajectories and NeMo Gym rollout rows, both ways, in process.
// docs/atif-mapping.md describes the mapping field by field.
//
//   auto trajectory = sediment::rows::decode<sediment::rows::NemoGymAtifTrajectory>(text);
//   auto parts = sediment::rows::to_row_parts(trajectory);            // throws ConvertError on any loss
//   auto lossy = sediment::rows::to_row_parts(trajectory, {true});    // drops, and lists, what a row cannot hold
//   sediment::rows::NemoGymAtifTrajectory back = sediment::rows::to_atif(parts.value);
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "error.hpp"
#include "generated/models.hpp"
#include "versions.hpp"

namespace sediment::rows {

/// The key under which to_atif() writes, in `extra` objects, what ATIF has no field for.
inline constexpr std::string_view kAtifExtensionKey = "sediment_rows";
/// The `agent` that to_atif() writes: a row does not say which agent produced it.
inline constexpr std::string_view kAtifAgentName = "sediment-rows";
inline constexpr std::string_view kAtifAgentVersion = "1";  ///< the version of this mapping

/// How the conversions treat values the target cannot hold.
struct ConvertOptions {
    /// false (the default): a conversion that would lose a value fails with the full list.
    /// true: it drops exactly the listed values and returns the list.
    bool lossy = false;
};

/// What a rollout row holds beyond the two trainer-facing parts, and a trajectory cannot supply: the
/// metadata of one version (`Metadata` is that version's NemoGymMetadata) and the reward.
template <class Metadata>
struct BasicRowMetadata {
    Metadata metadata;             ///< the row's `metadata`
    std::optional<Number> reward;  ///< the row's `reward`, when it has one

    /// Same metadata and reward.
    friend bool operator==(const BasicRowMetadata& a, const BasicRowMetadata& b) {
        return a.metadata == b.metadata && a.reward == b.reward;
    }
};
/// The metadata and reward of a row of today's version (NemoGymRolloutRow, version 4).
using RowMetadata = BasicRowMetadata<NemoGymMetadata>;
/// The metadata and reward of a row of type Row: `RowMetadataOf<NemoGymRolloutRowV4>`.
template <class Row>
using RowMetadataOf = BasicRowMetadata<decltype(Row::metadata)>;

/// The two trainer-facing parts of a rollout row: what a trajectory holds.
struct RowParts {
    NemoGymResponsesCreateParams responses_create_params;  ///< the row's `responses_create_params`
    NemoGymResponse response;                              ///< the row's `response`

    /// Both parts equal.
    friend bool operator==(const RowParts& a, const RowParts& b) {
        return a.responses_create_params == b.responses_create_params && a.response == b.response;
    }
};

/// A converted value and every source value it does not hold, each an Error whose id is
/// `rows.convert.loss.<kind>`, whose pointer is the value's place in the source document and whose
/// message says why a row cannot hold it. Empty unless ConvertOptions::lossy.
template <class T>
struct Converted {
    T value;                    ///< the converted value
    std::vector<Error> losses;  ///< the source values it does not hold
};

/// ATIF -> the row's `responses_create_params` and `response`.
Converted<RowParts> to_row_parts(const NemoGymAtifTrajectory& trajectory, const ConvertOptions& options = {});

/// ATIF -> a complete rollout row of today's version (NemoGymRolloutRow, version 4). Its metadata and reward come from `metadata`, or else
/// from the trajectory's extension (what to_atif() wrote for a complete row); with neither, ConvertError.
Converted<NemoGymRolloutRow> to_rollout_row(const NemoGymAtifTrajectory& trajectory,
                                            const std::optional<RowMetadata>& metadata = std::nullopt,
                                            const ConvertOptions& options = {});

/// ATIF -> a complete rollout row of type Row, any version (`to_rollout_row<NemoGymRolloutRowV4>(t)`):
/// the same, with that version's metadata; the trajectory's own metadata must be of that version, and
/// the row must be valid under it (ConvertError otherwise, at the place in the trajectory or the row).
template <class Row>
Converted<Row> to_rollout_row(const NemoGymAtifTrajectory& trajectory, const std::optional<RowMetadataOf<Row>>& metadata = std::nullopt,
                              const ConvertOptions& options = {});

/// ATIF -> a complete rollout row of rollout version `version`, from the trajectory's own metadata.
Converted<AnyRolloutRow> to_any_rollout_row(const NemoGymAtifTrajectory& trajectory, SchemaId version, const ConvertOptions& options = {});

/// ATIF -> a complete rollout row of the version the trajectory's own metadata names (what to_atif()
/// wrote for a row of any version); ConvertError, at its place, when it names none.
Converted<AnyRolloutRow> to_any_rollout_row(const NemoGymAtifTrajectory& trajectory, const ConvertOptions& options = {});

/// Row -> ATIF: a trajectory valid under the subset, from which to_row_parts() gives back `parts`
/// exactly. Throws ConvertError for parts that are invalid or that no trajectory can hold (no
/// message and no turn: ATIF needs a step).
NemoGymAtifTrajectory to_atif(const RowParts& parts);

/// Row -> ATIF, with the row's metadata and reward in the trajectory's extension, so that
/// to_rollout_row() gives back `row` exactly.
NemoGymAtifTrajectory to_atif(const NemoGymRolloutRow& row);

/// The same for a row of any version (its metadata, of its version, in the extension).
NemoGymAtifTrajectory to_atif(const AnyRolloutRow& row);

namespace detail {

/// to_atif() of a row known valid (decoded under `limits`: it is not checked again), appended to `out`
/// as text in `style` (convert() by name).
void to_atif_text(const AnyRolloutRow& row, Style style, std::string& out, const Limits& limits = {});

/// The limits a text the library wrote from values it holds is read under (to check it, or to read
/// it again): no size limit, since sizes guard reading and those values were read already (a row
/// decoded with a raised max_string_bytes converts), and the depth `read` or else the default allows.
Limits written_limits(const Limits& read = {});

}  // namespace detail

/// Reads a RowMetadata from JSON text: an object with `metadata` (NemoGymMetadata) and optionally
/// `reward` (a number), the two members of a rollout row beside its parts. Appends the errors and
/// returns false when it is not one.
bool decode(std::string_view text, RowMetadata& out, std::vector<Error>& errors);

/// The same for the metadata of another version (`RowMetadataOf<NemoGymRolloutRowV4>`).
template <class Metadata>
bool decode(std::string_view text, BasicRowMetadata<Metadata>& out, std::vector<Error>& errors);

/// What kind of value a loss is (an entry of Converted::losses or Upgraded::losses), to count them by:
/// the <kind> of a conversion's `rows.convert.loss.<kind>` ("timestamp", "metrics", ...), and the
/// member an upgrade's `rows.upgrade.loss` dropped ("ci_resolution", "reward", "reward_source").
std::string loss_kind(const Error& loss);

/// Whether `error`, of a strict conversion or upgrade, is one that lossy mode (ConvertOptions::lossy,
/// the CLI's --lossy) turns into a dropped value: a `rows.convert.loss.<kind>`, or an upgrade's
/// `rows.upgrade.underivable` field of a rollout row, whose CI resolution lossy mode drops (other
/// families' upgrades drop nothing).
bool lossy_would_drop(const Error& error);

/// One document converted by convert(): its text, and what lossy mode dropped.
struct ConvertedText {
    std::string text;            ///< the converted document, in the style asked for
    /// Lossy mode: the source values dropped (their pointers in the source). Strict mode, when the
    /// document failed only on what lossy mode drops: every value lossy mode would drop.
    std::vector<Error> losses;
    bool metadata_fault = false; ///< the errors are the metadata document's, not the source's

    /// Empties it and keeps its memory: convert() into one ConvertedText per thread reuses it.
    void clear() {
        text.clear();
        losses.clear();
        metadata_fault = false;
    }
};

namespace detail {

/// What convert() by name makes of a trajectory: a rollout row (of `version`; without one, of the
/// version the metadata document or else the trajectory's own metadata names) or one of its parts.
struct AtifTarget {
    enum class Kind { row, response, create_params } kind;
    std::optional<SchemaId> version;            ///< the row's or the part's schema
    std::optional<std::string_view> metadata;   ///< a row's metadata and reward (decode(RowMetadata))
};

/// convert() by name of a trajectory of the subset (`text`) to `target`, appended to `out.text` in
/// `style`: reads the text once, into a view model where the fast path can, and does not check the
/// trajectory again. Appends the metadata document's errors to `found` (then `out.metadata_fault`);
/// a part's errors under its version's rules replace `found`; throws DecodeError, ConvertError and
/// EncodeError for the rest.
void from_atif_text(std::string_view text, const AtifTarget& target, ConvertedText& out, std::vector<Error>& found, Style style,
                    const ConvertOptions& options, const Limits& limits);

}  // namespace detail

/// Throws std::invalid_argument, naming the conversions there are, unless convert() goes from the
/// schema `from` names to the one `to` names: from "atif" (any ATIF version, upgraded first) or
/// "atif-v1.7" to "nemo-gym-rollout[.vN]", "nemo-gym-response.vN" or "nemo-gym-responses-create-params.vN";
/// or from "nemo-gym-rollout[.vN]" to "atif-v1.7".
void check_conversion(std::string_view from, std::string_view to);

/// One document converted between schemas named as check_conversion() allows (what `sediment-rows
/// convert` does to each). A row named without its version is read under the version it names; a row
/// made from a trajectory takes its metadata and reward from `metadata` (a JSON object of the two, see
/// decode(RowMetadata)) when given, else from the trajectory's extension, and is of the version `to`
/// names, else of the metadata's own. A response or create-params is checked under the rules of the
/// version `to` names. `limits` are the source's: the texts the conversion writes are checked under
/// no size limit and at least the default depth (detail::written_limits), so that a document read
/// under raised limits converts. `out` is cleared first and keeps its memory (one per thread serves a
/// stream). Returns false and appends every error: the source's, or the metadata's (then
/// `out.metadata_fault`), or every value the conversion would lose (strict mode).
bool convert(std::string_view text, std::string_view from, std::string_view to, ConvertedText& out,
             std::vector<Error>& errors, Style style = Style::compact, const ConvertOptions& options = {},
             std::optional<std::string_view> metadata = std::nullopt, const Limits& limits = {});

/// Sediment's scoring text of an output message (a turn's `completion`): the text parts, then the
/// string leaves of the tool-call arguments (object keys in sorted order), empty items skipped, joined
/// with "\n". Reasoning and tool responses are not part of it.
std::string scoring_text(const RLVRInferenceMessageRow& output);

}  // namespace sediment::rows
