// Upgrades between published versions (docs/upgrade.md): each step edits the document one version up,
// deriving what the next version adds; the target's own decoder then judges the result, so a value the
// newer version refuses (a U+0000 in an id, from version 3 on) fails at its place.
#include "sediment/rows/upgrade.hpp"

#include "sediment/rows/convert.hpp"
#include "detail/atif_parts.hpp"
#include "detail/decode.hpp"
#include "detail/relayout.hpp"
#include "detail/text.hpp"
#include "sediment/rows/encode.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace sediment::rows {
namespace {

/// What one upgrade found: the fields it cannot derive, and (lossy) the values it dropped instead.
struct Findings {
    const SchemaInfo& source;
    const SchemaInfo& target;
    bool lossy = false;
    std::vector<Error> underivable;
    std::vector<Error> losses;

    /// `at` cannot be derived, for the reason `why`: "a dpo-pair.v2 row has no path to dpo-pair.v4: why".
    void cannot_derive(std::string at, const std::string& why) {
        const char* kind = source.version_pointer.empty() ? " document" : " row";
        underivable.push_back(Error{"rows.upgrade.underivable", std::move(at),
                                    "a " + std::string(source.name) + kind + " has no path to " + std::string(target.name) + ": " + why});
    }
};

/// The name of version `version` of `base`: "sft-sample.v2".
std::string version_name(std::string_view base, int version) { return std::string(base) + ".v" + std::to_string(version); }

/// A row's CI resolution, whose new field cannot be derived: in strict mode a finding at `field`; in
/// lossy mode the resolution goes, with the reward and reward source that derive from it, and the
/// observation ids that match it (listed in document order).
void resolution_underivable(Json& row, const std::string& field, const std::string& why, Findings& f) {
    if (!f.lossy) return f.cannot_derive(field, why);
    const std::string because = "goes with the ci_resolution, whose " + field.substr(field.rfind('/') + 1) + " cannot be derived";
    const auto lose = [&](const std::string& at, const std::string& message) { f.losses.push_back(Error{"rows.upgrade.loss", at, message}); };
    Json& m = row["metadata"];
    const bool reward = row.contains("reward");
    if (reward) lose("/reward", because);
    if (m.contains("reward_source")) lose("/metadata/reward_source", because);
    lose("/metadata/ci_resolution", why);
    if (m.contains("session_commit_observation_ids") && !m["session_commit_observation_ids"].empty())
        lose("/metadata/session_commit_observation_ids", because);
    m.erase("reward_source");
    m.erase("ci_resolution");
    if (m.contains("session_commit_observation_ids")) m["session_commit_observation_ids"] = Json::array();
    if (reward) row.erase("reward");  // last: erasing a member moves the members after it
}

// ----- the steps, each from version N to N + 1 ------------------------------------------------------

/// CI outcome v2 -> v3 (and in rollout v3 -> v4): schema_version 1, the only value before v3, marks a
/// payload stored before repository identity existed, which v3 gives no identity: the three are null.
void ci_outcome_2_to_3(Json& outcome) {
    for (const char* key : {"repository_provider", "repository_host", "repository_id"}) outcome[key] = nullptr;
}

/// Rollout v2 -> v3: session_commit_observation_ids is [] without a CI resolution; beside one, the
/// session's matching observations are not in the row.
void rollout_2_to_3(Json& row, Findings& f) {
    Json& m = row["metadata"];
    if (m.contains("ci_resolution"))
        resolution_underivable(row, "/metadata/session_commit_observation_ids",
                               "nemo-gym-rollout.v3 adds the ids of the session's commit observations that match its ci_resolution, "
                               "which it does not hold ([] would say none matches)", f);
    row["metadata"]["session_commit_observation_ids"] = Json::array();
}

/// Rollout v3 -> v4: every CI outcome of a v3 row is a version-1 payload, without identity; a
/// resolution whose source outcomes are all among them is of a legacy repository (its identity null,
/// as all its outcomes carry none), and so is the metadata's.
void rollout_3_to_4(Json& row, Findings& f) {
    Json& m = row["metadata"];
    std::set<std::string> outcomes;
    for (Json& outcome : m["verifier_results"]) {
        ci_outcome_2_to_3(outcome);
        if (outcome.contains("outcome_id") && outcome["outcome_id"].is_string()) outcomes.insert(outcome["outcome_id"].get<std::string>());
    }
    if (m.contains("ci_resolution")) {
        std::string missing;
        for (const Json& id : m["ci_resolution"]["source_outcome_ids"])
            if (missing.empty() && !outcomes.count(id.get<std::string>())) missing = id.get<std::string>();
        if (missing.empty())
            m["ci_resolution"]["repository_identity"] = nullptr;
        else
            resolution_underivable(row, "/metadata/ci_resolution/repository_identity",
                                   "its ci_resolution's source outcome " + detail::quoted(missing, 100) +
                                       " is not among verifier_results, so it does not say whether its repository was identified", f);
    }
    row["metadata"]["repository_identity"] = nullptr;
}

// ----- Sediment's other families (spec/family/README.md) ------------------------------------------

/// The CI part of an RLVR task's or rollout's version that adds repository identity (`holder`: the row,
/// or a SWE-bench task's metadata, at `at`): as rollout v3 -> v4, every CI outcome before it is a
/// version-1 payload without identity, a resolution whose source outcomes are all among them is of a
/// legacy repository (null), and so is the row's repository.
void ci_identity(Json& holder, const std::string& at, Findings& f) {
    std::set<std::string> outcomes;
    for (Json& outcome : holder["verifier_results"]) {
        ci_outcome_2_to_3(outcome);
        if (outcome.contains("outcome_id") && outcome["outcome_id"].is_string()) outcomes.insert(outcome["outcome_id"].get<std::string>());
    }
    const auto resolve = [&](Json& resolution, const std::string& place) {
        std::string missing;
        for (const Json& id : resolution["source_outcome_ids"])
            if (missing.empty() && !outcomes.count(id.get<std::string>())) missing = id.get<std::string>();
        if (missing.empty()) resolution["repository_identity"] = nullptr;
        else f.cannot_derive(place + "/repository_identity", "the source outcome " + detail::quoted(missing, 100) + " of the CI resolution at " +
                                                                  place + " is not among verifier_results, so it does not say whether its repository was identified");
    };
    if (holder.contains("ci_resolution")) resolve(holder["ci_resolution"], at + "/ci_resolution");
    if (holder.contains("ci_resolutions"))
        for (std::size_t i = 0; i < holder["ci_resolutions"].size(); ++i) resolve(holder["ci_resolutions"][i], at + "/ci_resolutions/" + std::to_string(i));
    holder["repository_identity"] = nullptr;
}

/// One step of a family other than the rollout rows', from `version` to the next.
void family_step(std::string_view base, int version, Json& d, Findings& f) {
    // A field the next version adds that the document holds nothing of (an attribution, the
    // observations of a session, a repository's identity): never invented.
    const auto not_held = [&](const std::string& at, const std::string& what, const std::string& why = "") {
        f.cannot_derive(at, version_name(base, version + 1) + " adds " + what + ", which it does not hold" + why);
    };
    const std::string observations = "the session's commit observations";
    const std::string identity = "the repository's identity";
    const std::string legacy = " (null would say it is an unambiguous legacy repository)";
    if (base == "sediment-rlvr-rollout" && version == 2) {  // [] when the row emits no CI resolution
        if (d.contains("ci_resolution") || !d["ci_resolutions"].empty())
            not_held("/session_commit_observation_ids", observations + " that match its CI resolutions", " ([] would say none does)");
        d["session_commit_observation_ids"] = Json::array();
    }
    if ((base == "sediment-rlvr-rollout" && version == 3) || (base == "sediment-rlvr-task" && version == 2)) ci_identity(d, "", f);
    if (base == "swe-bench-task" && version == 2) ci_identity(d["metadata"], "/metadata", f);
    if (base == "sediment-rlvr-task" && version == 1) not_held("/session_commit_observation_ids", observations + " that match its ci_resolution");
    if (base == "swe-bench-task" && version == 1) not_held("/metadata/session_commit_observation_ids", observations + " that match its ci_resolution");
    if (base == "sft-sample" && version == 1) {
        not_held("/metadata/attribution_source", "the target's attribution method");
        not_held("/metadata/session_commit_observation_ids", observations + " of the target's session-to-commit edge");
    }
    if (base == "dpo-pair" && version == 1)
        for (const char* member : {"chosen", "rejected"}) {
            not_held(std::string("/metadata/") + member + "_attribution_source", std::string("the ") + member + " member's attribution method");
            not_held(std::string("/metadata/") + member + "_session_commit_observation_ids", observations + " of the " + member + " member");
        }
    if (base == "diff-sft-sample" && version == 1) {
        not_held("/metadata/attribution_sources", "the attribution methods of the patch's members");
        not_held("/metadata/source_ids/session_commit_observation_ids", observations);
    }
    if (base == "recovery-row" && version == 1)
        for (const char* side : {"failed", "fixed"})
            not_held(std::string("/") + side + "_attribution_evidence", std::string("the ") + side + " side's attribution evidence");
    if (version == 2) {
        if (base == "sft-sample" || base == "diff-sft-sample") not_held("/metadata/repository_identity", identity, legacy);
        if (base == "recovery-row") not_held("/repository_identity", identity, legacy);
        if (base == "dpo-pair")
            for (const char* member : {"chosen", "rejected"})
                not_held(std::string("/metadata/") + member + "_repository_identity", std::string("the ") + member + " member's repository identity", legacy);
    }
    if (base == "dpo-pair" && version == 3)  // recipe_version 1 -> 2: the recipe's semantics changed
        f.cannot_derive("/metadata/recipe_version", "it was made by recipe version 1, and dpo-pair.v4 pairs are recipe version 2's, whose "
                                                    "semantics changed");
}

/// Applies the steps from `from` up to `to` to a document of their schema.
void steps(Json& document, const SchemaInfo& from, const SchemaInfo& to, Findings& f) {
    for (int version = from.version; version < to.version; ++version) {
        if (from.base == "nemo-gym-rollout" && version == 2) rollout_2_to_3(document, f);
        if (from.base == "nemo-gym-rollout" && version == 3) rollout_3_to_4(document, f);
        if (from.base == "ci-outcome" && version == 2) ci_outcome_2_to_3(document);
        family_step(from.base, version, document, f);
    }
    if (!to.version_pointer.empty()) {  // the version the document names, and schema_version beside it
        const Json::json_pointer at{std::string(to.version_pointer)};
        Json& holder = document[at.parent_pointer()];
        holder[at.back()] = std::string(to.uri);
        holder["schema_version"] = to.version;
    }
}

// ----- ATIF: any version -> the v1.7 subset, by relabelling the text -------------------------------

/// The end of the JSON value that starts at `i` in valid JSON text.
std::size_t value_end(std::string_view text, std::size_t i) {
    int depth = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            i = detail::string_end(text, i) - 1;
            if (depth == 0) return i + 1;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return i;  // the end of a number or literal, the last member's
            if (--depth == 0) return i + 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
            return i;  // the end of a number or literal
        }
    }
    return i;
}

/// Valid JSON text of an object with `label` as its schema_version: the member's value replaced, or
/// the member added first. Every other byte stays.
std::string relabel(std::string_view text, std::string_view label) {
    const std::string member = "\"" + std::string(label) + "\"";
    std::size_t i = text.find('{') + 1;
    while (true) {
        while (detail::is_json_space(text[i]) || text[i] == ',') ++i;
        if (text[i] == '}') break;
        const std::size_t key_end = value_end(text, i);
        const std::string key = Json::parse(text.substr(i, key_end - i)).get<std::string>();  // escapes decoded
        i = key_end;
        while (detail::is_json_space(text[i]) || text[i] == ':') ++i;
        const std::size_t end = value_end(text, i);
        if (key == "schema_version") return std::string(text.substr(0, i)) + member + std::string(text.substr(end));
        i = end;
    }
    const std::size_t open = text.find('{') + 1;
    return std::string(text.substr(0, open)) + "\"schema_version\":" + member + "," + std::string(text.substr(open));
}

/// The reference tokens of a JSON Pointer ("/steps/0" -> "steps", "0"), ~1 and ~0 unescaped.
std::vector<std::string> pointer_tokens(std::string_view pointer) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < pointer.size(); ++i) {
        if (pointer[i] == '/') out.emplace_back();
        else if (pointer[i] == '~' && i + 1 < pointer.size()) out.back() += pointer[++i] == '1' ? '/' : '~';
        else out.back() += pointer[i];
    }
    return out;
}

/// The offset in `text` (valid JSON) of the value at `pointer`, which it holds.
std::size_t value_at(std::string_view text, std::string_view pointer) {
    std::size_t i = 0;
    while (detail::is_json_space(text[i])) ++i;
    for (const std::string& token : pointer_tokens(pointer)) {
        const bool array = text[i] == '[';
        std::size_t index = array ? std::stoul(token) : 0;
        ++i;
        while (true) {
            while (detail::is_json_space(text[i]) || text[i] == ',') ++i;
            if (!array) {
                const std::size_t key_end = value_end(text, i);
                const bool found = Json::parse(text.substr(i, key_end - i)).get<std::string>() == token;
                i = key_end;
                while (detail::is_json_space(text[i]) || text[i] == ':') ++i;
                if (found) break;
            } else if (index-- == 0) {
                break;
            }
            i = value_end(text, i);
        }
    }
    return i;
}

/// `text` (valid JSON) without the array items at `pointers`, each with the comma that parts it from
/// its neighbour. Every other byte stays.
std::string without_items(std::string_view text, const std::vector<std::string>& pointers) {
    std::vector<std::size_t> starts;
    for (const std::string& p : pointers) starts.push_back(value_at(text, p));
    std::sort(starts.rbegin(), starts.rend());  // from the last, so that each offset still holds
    std::string out(text);
    for (const std::size_t start : starts) {
        std::size_t from = start, to = value_end(out, start);
        std::size_t before = from;
        while (detail::is_json_space(out[before - 1])) --before;
        if (out[before - 1] == ',') {
            from = before - 1;  // the comma before it
        } else {
            std::size_t after = to;
            while (detail::is_json_space(out[after])) ++after;
            if (out[after] == ',') to = after + 1;  // the first item: the comma after it
        }
        out.erase(from, to - from);
    }
    return out;
}

/// The audio parts (ATIF-v1.8) of the steps of `t`, which the subset has no form for: their pointers.
std::vector<std::string> audio_parts(const HarborAtifTrajectory& t) {
    std::vector<std::string> out;
    detail::for_each_part(t, [&](const HarborAtifContentPart& part, const std::string& at) {
        if (part.type == HarborAtifContentPartType::audio) out.push_back(at);
    });
    return out;
}

/// An ATIF document of any version as the v1.7 subset: Harbor's model judges it under its own label,
/// then the label becomes ATIF-v1.7 and nothing else changes; the subset's rules (bounds, total_steps,
/// exact decimals, ...) judge the result. No value is repaired. An audio
/// part (ATIF-v1.8) has no v1.7 form: it fails the upgrade at its place, or (lossy) is dropped, with the
/// comma beside it, and listed.
bool upgrade_atif(std::string_view text, Upgraded& out, std::vector<Error>& errors, Style style, const ConvertOptions& options,
                  const Limits& limits) {
    HarborAtifTrajectory source;
    if (!decode(text, source, errors, SchemaId::atif, limits)) return false;
    out.from = SchemaId::atif;
    const std::vector<std::string> audio = audio_parts(source);
    for (const std::string& at : audio)  // a value the target cannot hold, as a conversion's: kind "audio"
        (options.lossy ? out.losses : errors).push_back(Error{"rows.convert.loss.audio", at, "an audio part: ATIF-v1.7 has no audio"});
    if (!errors.empty()) return false;
    const std::string_view v17 = to_string(AtifVersion::ATIF_v1_7);
    const std::string relabelled = relabel(audio.empty() ? std::string(text) : without_items(text, audio), v17);
    const std::size_t before = errors.size();  // Harbor's rules hold under every label but audio's
    for (Error& e : validate(SchemaId::atif_v1_7, relabelled, limits).errors) errors.push_back(std::move(e));
    if (errors.size() != before) return false;
    out.text = detail::relayout(relabelled, style);
    return true;
}

}  // namespace

std::string lossy_upgrade_refusal(std::string_view from, SchemaId to) {
    const SchemaInfo& target = schema_info(to);
    if (target.base == "nemo-gym-rollout" || (from == "atif" && to == SchemaId::atif_v1_7)) return {};
    return "lossy mode has nothing to drop in an upgrade to " + std::string(target.name) +
           ": each field it adds is derived, or the document fails and says why (lossy upgrades drop a rollout row's CI "
           "resolution, or an ATIF trajectory's audio parts)";
}

namespace {

/// upgrade(), once: in the mode `options` says.
bool upgrade_once(std::string_view text, std::string_view from_name, SchemaId to, Upgraded& out, std::vector<Error>& errors,
                  Style style, const ConvertOptions& options, const Limits& limits) {
    const SchemaInfo& target = schema_info(to);
    if (from_name == "atif" && to == SchemaId::atif_v1_7) {
        out.clear();
        return upgrade_atif(text, out, errors, style, options, limits);
    }
    const std::vector<SchemaId> named = schemas_named(from_name);
    if (named.empty() || schema_info(named.front()).base != target.base || target.version == 0)
        throw std::invalid_argument("upgrade goes between versions of one schema: " + std::string(from_name) + " to " +
                                    std::string(target.name) + " is not");
    out.clear();
    // The document, valid under its own version.
    Json document;
    if (!parse(text, document, errors, limits, Decimals::nearest)) return false;
    out.from = named.size() == 1 ? named.front() : version_named(from_name, document, errors);
    if (!out.from) return false;
    const SchemaInfo& source = schema_info(*out.from);
    if (source.version > target.version) {
        errors.push_back(Error{"rows.upgrade.version", std::string(source.version_pointer),
                               "a " + std::string(source.name) + " document is newer than " + std::string(target.name) +
                                   ": upgrade does not go back"});
        return false;
    }
    const bool valid = visit_schema(*out.from, [&](auto tag) {
        typename decltype(tag)::type value;
        return decode(document, value, errors, *out.from, limits);
    });
    if (!valid) return false;

    Findings f{source, target, options.lossy, {}, {}};
    steps(document, source, target, f);
    if (!f.underivable.empty()) {
        errors.insert(errors.end(), f.underivable.begin(), f.underivable.end());
        return false;
    }
    out.losses = std::move(f.losses);
    return visit_schema(to, [&](auto tag) {
        typename decltype(tag)::type value;
        if (!decode(document, value, errors, to, limits)) return false;
        try {
            encode(value, out.text, style);
        } catch (const EncodeError& e) {
            errors.push_back(e.error());
            return false;
        }
        return true;
    });
}

}  // namespace

bool upgrade(std::string_view text, std::string_view from, SchemaId to, Upgraded& out, std::vector<Error>& errors, Style style,
             const ConvertOptions& options, const Limits& limits) {
    const std::string refusal = lossy_upgrade_refusal(from, to);
    if (options.lossy && !refusal.empty()) throw std::invalid_argument(refusal);
    const std::size_t first = errors.size();
    if (upgrade_once(text, from, to, out, errors, style, options, limits)) return true;
    if (!options.lossy && refusal.empty() && errors.size() > first && std::all_of(errors.begin() + static_cast<std::ptrdiff_t>(first), errors.end(), lossy_would_drop)) {
        Upgraded lossy;  // the document fails only on what lossy mode drops: list every value it would
        std::vector<Error> ignored;
        if (upgrade_once(text, from, to, lossy, ignored, style, ConvertOptions{true}, limits)) out.losses = std::move(lossy.losses);
    }
    return false;
}

Upgraded upgrade(std::string_view text, std::string_view from, SchemaId to, Style style, const ConvertOptions& options,
                 const Limits& limits) {
    Upgraded out;
    std::vector<Error> errors;
    if (!upgrade(text, from, to, out, errors, style, options, limits)) throw ConvertError(std::move(errors));
    return out;
}

Converted<AnyRolloutRow> upgrade(const AnyRolloutRow& row, SchemaId to, const ConvertOptions& options) {
    const std::string text = std::visit([](const auto& r) { return encode(r); }, row);
    Upgraded up = upgrade(text, schema_info(schema_of(row)).name, to, Style::compact, options);
    return Converted<AnyRolloutRow>{decode<AnyRolloutRow>(up.text), std::move(up.losses)};
}

}  // namespace sediment::rows

namespace sediment::rows {

Converted<NemoGymAtifTrajectory> upgrade(const HarborAtifTrajectory& trajectory, const ConvertOptions& options) {
    Upgraded up = upgrade(encode(trajectory), "atif", SchemaId::atif_v1_7, Style::compact, options);
    return {decode<NemoGymAtifTrajectory>(up.text), std::move(up.losses)};
}

}  // namespace sediment::rows
