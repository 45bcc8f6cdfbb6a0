// Upgrade: a document of an older published version rewritten as a newer one, where every field the
// newer version adds can be derived from the document itself. docs/upgrade.md lists, field by field,
// what is derived, from what, and what cannot be.
//
//   auto newer = sediment::rows::upgrade(line, "nemo-gym-rollout", sediment::rows::SchemaId::nemo_gym_rollout_v4);
//   std::cout << newer.text << "\n";  // throws ConvertError naming each field it cannot derive
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "convert.hpp"
#include "versions.hpp"

namespace sediment::rows {

/// A document rewritten as a newer version.
struct Upgraded {
    std::string text;              ///< the new document, in the style asked for
    std::optional<SchemaId> from;  ///< the version it was read as, once known
    /// Lossy mode: the source values dropped (their pointers in the source). Strict mode, when the
    /// document failed only on what lossy mode drops: every value lossy mode would drop.
    std::vector<Error> losses;

    /// Empties it and keeps its memory: upgrade() into one Upgraded per thread reuses it.
    void clear() {
        text.clear();
        from.reset();
        losses.clear();
    }
};

/// Rewrites a document of `from` (a versioned name, or "nemo-gym-rollout" for the version each row
/// names) as version `to` of the same schema, newer or the same, in `style`. From "atif" (Harbor's
/// model, any ATIF version) to SchemaId::atif_v1_7 (NeMo Gym's subset), the document must be valid
/// under its own label; its schema_version becomes "ATIF-v1.7" (added when absent) and every other
/// byte stays (only the whitespace between tokens follows `style`); the result must then pass Harbor's
/// v1.7 rules and the subset, whose errors (at their places, which the source shares) fail it. Nothing
/// is repaired; an audio part (ATIF-v1.8) fails, or with ConvertOptions::lossy is dropped and listed.
/// Returns false and appends the errors: the document's own, when it is not valid under its version;
/// every field `to` needs that the document cannot give (`rows.upgrade.underivable`, at the field's
/// place in the new document, saying which version adds it); or a value `to` does not accept (its
/// decoder's error). With ConvertOptions::lossy, a rollout row's CI resolution whose new fields cannot
/// be derived is dropped with its reward instead, and listed in `out.losses`. Throws
/// std::invalid_argument for names that are not two versions of one schema, and for lossy mode where
/// an upgrade has nothing to drop (lossy_upgrade_refusal()). `out` is cleared first and keeps its
/// memory (one per thread serves a stream).
bool upgrade(std::string_view text, std::string_view from, SchemaId to, Upgraded& out, std::vector<Error>& errors,
             Style style = Style::compact, const ConvertOptions& options = {}, const Limits& limits = {});

/// Why lossy mode is refused for an upgrade from `from` to `to`: every family but the rollout rows (a
/// CI resolution) and Harbor's ATIF to the subset (audio parts) derives each field or fails, so there is
/// nothing it could drop. Empty where it is offered.
std::string lossy_upgrade_refusal(std::string_view from, SchemaId to);

/// The same; throws ConvertError with the errors.
Upgraded upgrade(std::string_view text, std::string_view from, SchemaId to, Style style = Style::compact,
                 const ConvertOptions& options = {}, const Limits& limits = {});

/// A Harbor trajectory of any version as NeMo Gym's v1.7 subset (see upgrade() above): the subset has
/// no audio, so an audio part (ATIF-v1.8) fails the upgrade at its place, or with `options.lossy` is
/// dropped and listed in `losses`; throws ConvertError with what the subset refuses, at its place.
Converted<NemoGymAtifTrajectory> upgrade(const HarborAtifTrajectory& trajectory, const ConvertOptions& options = {});

/// The same on a decoded row: `row` as rollout version `to`.
Converted<AnyRolloutRow> upgrade(const AnyRolloutRow& row, SchemaId to, const ConvertOptions& options = {});

}  // namespace sediment::rows
