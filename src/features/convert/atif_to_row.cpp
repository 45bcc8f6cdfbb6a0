// ATIF -> NeMo Gym rollout rows and their parts (docs/atif-mapping.md), and the metadata a row takes.
#include "features/convert/common.hpp"

#include <string.h>  // memmem

namespace sediment::rows {

using namespace convert_impl;

namespace {

// ----- ATIF -> row ----------------------------------------------------------------------------------

/// The seed of the ids of turns that carry none: the FNV-1a hash of the compact text of the trajectory
/// being mapped, asked for when first needed (a trajectory's view has no such text: ViewRefused).
using Seed = std::function<std::uint64_t()>;

/// The mapping of a trajectory T: the model (NemoGymAtifTrajectory) or its view (View).
template <class T>
struct FromAtif {
    using Extra = std::decay_t<decltype(*std::declval<T>().extra)>;  // Nullable<Json> or Nullable<JsonView>
    using Member = std::decay_t<decltype(*member_of(std::declval<const std::optional<Extra>&>(), ""))>;

    const T& t;
    Losses losses;
    std::vector<Error> errors;  // problems of the extension
    TrajectoryExtension<Member> ext;
    std::vector<StepExtension> step_ext;
    std::vector<std::size_t> agents;  // indices of the agent steps

    explicit FromAtif(const T& trajectory) : t(trajectory), step_ext(trajectory.steps.size()) {
        Decoder d(kPartsSchema, errors, Limits{}, Decoder::Source::caller_dom);
        if (const auto j = member_of(t.extra, kAtifExtensionKey)) {
            auto extra_at = d.at("extra");
            auto key_at = d.at(kAtifExtensionKey);
            read(d, *j, ext);
        }
        auto steps_at = d.at("steps");
        for (std::size_t i = 0; i < t.steps.size(); ++i) {
            const auto& step = t.steps[i];
            const bool agent = step.source == AtifStepSource::agent;
            if (agent) agents.push_back(i);
            const auto j = member_of(step.extra, kAtifExtensionKey);
            if (!j) continue;
            auto step_at = d.at(i);
            auto extra_at = d.at("extra");
            auto key_at = d.at(kAtifExtensionKey);
            if (!agent) d.error("rows.convert.extension", "only an agent step carries the extension");
            else read(d, *j, step_ext[i]);
        }
        // An override stands in for steps; steps it would shadow are an inconsistent extension.
        if (ext.input && !t.steps.empty() && t.steps[0].source != AtifStepSource::agent)
            errors.push_back({"rows.convert.extension", "/extra/sediment_rows/input",
                              "'input' stands in for the steps before the first agent step, but there are such steps"});
        for (std::size_t k = 1; k < agents.size(); ++k)
            if (step_ext[agents[k]].new_messages && agents[k] != agents[k - 1] + 1)
                errors.push_back({"rows.convert.extension", "/steps/" + std::to_string(agents[k]) + "/extra/sediment_rows/new_messages",
                                  "'new_messages' stands in for the steps since the previous agent step, but there are such steps"});
        if (!errors.empty()) throw ConvertError(std::move(errors));
    }

    /// Whether agent step k's output message is echoed in the next turn's new_messages.
    bool echoed(std::size_t k) const { return k + 1 < agents.size() && !step_ext[agents[k + 1]].new_messages; }

    Message plain_message(std::size_t i) {
        const auto& step = t.steps[i];
        const std::string at = "/steps/" + std::to_string(i);
        if (given(step.observation) && !(*step.observation)->results.empty())
            losses.add(at + "/observation", "unpaired_result", "a system or user step has no tool call for a result to answer");
        return Message{std::string(to_string(step.source)), text_parts(texts_of(step.message, &losses, at + "/message")), {}};
    }

    /// The tool messages of agent step i's observation, each result paired by source_call_id.
    void tool_messages(std::size_t i, std::vector<Message>& out) {
        const auto& step = t.steps[i];
        if (!given(step.observation)) return;
        const std::string at = "/steps/" + std::to_string(i) + "/observation/results";
        const auto& results = (*step.observation)->results;
        for (std::size_t j = 0; j < results.size(); ++j) {
            const auto& r = results[j];
            const std::string here = pointer(at, j);
            if (!given(r.source_call_id)) {
                losses.add(here, "unpaired_result", "a result without source_call_id answers no tool call");
                continue;
            }
            if (given(r.subagent_trajectory_ref) && !(*r.subagent_trajectory_ref)->empty())
                losses.add(here + "/subagent_trajectory_ref", "subagent", "a row has no subagent trajectories");
            ToolCallResponsePart part{std::string(**r.source_call_id), Json()};
            const auto tool_result = member_of(r.extra, "tool_result");
            if (given(r.content)) {
                if (const auto* s = std::get_if<0>(&**r.content)) part.result = std::string(*s);
                else part.result = json_of(std::get<1>(**r.content));
                losses.extra(r.extra, here);  // tool_result too: content is the result
            } else {
                if (tool_result) part.result = json_value(*tool_result);
                losses.extra(r.extra, here, {"tool_result"});
            }
            out.push_back(Message{"tool", {std::move(part)}, {}});
        }
    }

    void step_losses(std::size_t i) {
        const auto& s = t.steps[i];
        const std::string at = "/steps/" + std::to_string(i);
        const bool agent = s.source == AtifStepSource::agent;
        if (given(s.timestamp)) losses.add(at + "/timestamp", "timestamp", "a row has no timestamps");
        if (given(s.model_name)) losses.add(at + "/model_name", "model_name", "a row has no model names");
        if (given(s.reasoning_effort)) losses.add(at + "/reasoning_effort", "reasoning_effort", "a row has no reasoning effort");
        if (given(s.metrics)) losses.add(at + "/metrics", "metrics", "a row has no metrics, token ids or logprobs");
        if (given(s.llm_call_count) && !(agent && s.llm_call_count->value().compare(1) == 0))
            losses.add(at + "/llm_call_count", "llm_call_count", agent ? "a turn is exactly one inference call" : "a system or user step is no inference call");
        if (given(s.is_copied_context) && **s.is_copied_context)
            losses.add(at + "/is_copied_context", "copied_context", "a row has no copied context");
        losses.extra(s.extra, at, {kAtifExtensionKey});
        if (given(s.tool_calls))
            for (std::size_t j = 0; j < (*s.tool_calls)->size(); ++j) losses.extra((**s.tool_calls)[j].extra, pointer(at + "/tool_calls", j));
    }

    /// `session_id` and `instance_id`: the metadata's, when a row has it.
    void trajectory_losses(std::optional<std::string_view> session_id, std::optional<std::string_view> instance_id) {
        const auto differs = [&](const auto& field, std::optional<std::string_view> expected) {
            return given(field) && (!expected || **field != *expected);
        };
        if (differs(t.session_id, session_id))
            losses.add("/session_id", "session", "a row holds a session id only as metadata.session_id, and it differs or is not given");
        if (differs(t.trajectory_id, instance_id))
            losses.add("/trajectory_id", "session", "a row holds a trajectory id only as metadata.instance_id, and it differs or is not given");
        if (t.agent.name != kAtifAgentName) losses.add("/agent/name", "agent", "a row does not name its agent");
        if (t.agent.version != kAtifAgentVersion) losses.add("/agent/version", "agent", "a row does not name its agent's version");
        if (given(t.agent.model_name)) losses.add("/agent/model_name", "model_name", "a row has no model names");
        if (given(t.agent.tool_definitions) && !(*t.agent.tool_definitions)->empty())
            losses.add("/agent/tool_definitions", "tool_definitions", "a row has no tool definitions");
        losses.extra(t.agent.extra, "/agent");
        if (given(t.notes)) losses.add("/notes", "notes", "a row has no notes");
        if (given(t.final_metrics)) losses.add("/final_metrics", "metrics", "a row has no metrics");
        if (given(t.continued_trajectory_ref))
            losses.add("/continued_trajectory_ref", "continuation", "a row has no continuation references");
        if (given(t.subagent_trajectories))
            for (std::size_t i = 0; i < (*t.subagent_trajectories)->size(); ++i)
                losses.add(pointer("/subagent_trajectories", i), "subagent", "a row has no subagent trajectories");
        losses.extra(t.extra, "", {kAtifExtensionKey});
    }

    RowParts run(std::optional<std::string_view> session_id, std::optional<std::string_view> instance_id, const Seed& seed_of) {
        trajectory_losses(session_id, instance_id);
        RowParts out;
        const std::size_t first_agent = agents.empty() ? t.steps.size() : agents.front();
        const std::size_t last_agent = agents.empty() ? t.steps.size() : agents.back();
        auto& input = out.responses_create_params.input;
        for (std::size_t i = 0; i < first_agent; ++i) {
            step_losses(i);
            input.push_back(plain_message(i));
        }
        if (ext.input) input = *ext.input;

        std::optional<std::uint64_t> seed;
        auto& turns = out.response.turns;
        std::vector<Message> next;  // the next turn's new_messages: the echo, tool results, then plain steps
        for (std::size_t k = 0; k < agents.size(); ++k) {
            const std::size_t i = agents[k];
            const auto& step = t.steps[i];
            StepExtension& e = step_ext[i];
            const std::string at = "/steps/" + std::to_string(i);
            step_losses(i);

            RLVRTurnRow turn;
            if (e.inference_call_id) {
                turn.inference_call_id = *e.inference_call_id;
            } else {
                if (!seed) seed = seed_of();
                char id[20];
                const std::uint64_t h = fnv1a("step " + step.step_id.to_string(), *seed);
                std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(h));
                turn.inference_call_id = "ic_" + std::string(id);
            }
            if (e.new_messages) turn.new_messages = std::move(*e.new_messages);
            else if (k == 0) turn.new_messages = input;
            else turn.new_messages = std::move(next);
            next.clear();

            Message output = output_message(step, e.finish_reason, &losses, at);
            turn.completion = e.completion ? *e.completion : scoring_text(output);
            turn.tool_calls = e.tool_calls ? std::move(*e.tool_calls) : tool_calls_of(output);
            if (e.decisions) turn.decisions = std::move(*e.decisions);

            if (echoed(k)) {
                next.push_back(std::move(output));
                tool_messages(i, next);
                for (std::size_t j = i + 1; j < agents[k + 1]; ++j) {
                    step_losses(j);
                    next.push_back(plain_message(j));
                }
            } else {
                // Only completion and tool_calls keep this output: what they cannot give back is lost.
                const char* why = "the output of a turn whose message is not echoed (the last turn) lives on only as completion and tool_calls";
                if (given(step.reasoning_content)) losses.add(at + "/reasoning_content", "last_output", why);
                if (e.finish_reason) losses.add(at + "/extra/sediment_rows/finish_reason", "last_output", why);
                if (given(step.observation) && !(*step.observation)->results.empty())
                    losses.add(at + "/observation", "last_output", "the results of a turn whose output is not echoed have no turn to go in");
                const std::vector<std::string> kept = texts_of(text_content(text_before_arguments(turn.completion, turn.tool_calls)), nullptr, "");
                if (texts_of(step.message, nullptr, "") != kept) losses.add(at + "/message", "last_output", why);
                if (!has_calls(output, turn.tool_calls)) losses.add(at + "/tool_calls", "last_output", why);
            }
            turns.push_back(std::move(turn));
        }
        for (std::size_t i = last_agent + 1; i < t.steps.size(); ++i)
            losses.add("/steps/" + std::to_string(i), "after_last_turn", "a step after the last agent step has no turn to go in");
        return out;
    }
};

/// The trajectory's own metadata, read as a row of M's version has it (at its place in the trajectory).
template <class M>
M extension_metadata(const Json& j) {
    M out;
    std::vector<Error> errors;
    Decoder d(document_traits<M>::schema, errors, Limits{}, Decoder::Source::caller_dom);
    auto extra_at = d.at("extra");
    auto key_at = d.at(kAtifExtensionKey);
    auto metadata_at = d.at("metadata");
    if (detail::read(d, j, out)) return out;
    detail::put_first(errors, 0, detail::other_version(document_traits<M>::schema, Json{{"metadata", j}}, "/extra/sediment_rows", true));
    throw ConvertError(std::move(errors));
}
template <class M>
M extension_metadata(element e) {
    return read_view<M>(e, document_traits<M>::schema);
}

/// The rollout version the trajectory's own metadata names (ConvertError otherwise, at its place).
SchemaId extension_version(const Json& metadata) {
    std::vector<Error> errors;
    const auto version = version_named(schema_info(kPartsSchema).base, Json{{"metadata", metadata}}, errors);
    for (Error& e : errors) e.pointer = "/extra/" + std::string(kAtifExtensionKey) + e.pointer;
    if (!version) throw ConvertError(std::move(errors));
    return *version;
}
SchemaId extension_version(element metadata) {
    if (const std::optional<std::string_view> uri = string_member(metadata, "schema_id"))
        for (const SchemaId id : versions_of(schema_info(kPartsSchema).base))
            if (schema_info(id).uri == *uri) return id;
    throw ViewRefused{};  // the model's path says what is wrong
}

/// The trajectory's own metadata, when the row's parts are all that is asked for: valid under the
/// rollout version it names (ConvertError otherwise, at its place).
template <class J>
void check_extension_metadata(const J& j) {
    const SchemaId version = extension_version(j);
    AnyRolloutRow any;
    detail::with_version(any, version, [&](auto& row) {
        extension_metadata<std::decay_t<decltype(row.metadata)>>(j);
        return true;
    });
}

/// ATIF -> a row's parts; with `found`, also the metadata the row takes: `metadata`, or else the
/// trajectory's own (of M's version). The trajectory is valid (the caller checked it).
template <class M, class T>
Converted<RowParts> convert(const T& trajectory, const std::optional<BasicRowMetadata<M>>& metadata, const ConvertOptions& options,
                            std::optional<BasicRowMetadata<M>>* found, const Seed& seed_of) {
    FromAtif<T> from(trajectory);
    std::optional<BasicRowMetadata<M>> in_use = metadata;
    std::optional<std::string_view> session_id, instance_id;
    if (metadata) session_id = metadata->metadata.session_id, instance_id = metadata->metadata.instance_id;
    if (!metadata && from.ext.metadata) {
        if (found) in_use = BasicRowMetadata<M>{extension_metadata<M>(*from.ext.metadata), from.ext.reward};
        else check_extension_metadata(*from.ext.metadata);
        session_id = string_member(*from.ext.metadata, "session_id");
        instance_id = string_member(*from.ext.metadata, "instance_id");
    }
    if (metadata && from.ext.metadata && json_value(*from.ext.metadata) != Json(metadata->metadata))
        from.losses.add("/extra/sediment_rows/metadata", "metadata", "the metadata argument replaces the trajectory's");
    if (metadata && from.ext.reward && from.ext.reward != metadata->reward)
        from.losses.add("/extra/sediment_rows/reward", "metadata", "the metadata argument's reward replaces the trajectory's");
    Converted<RowParts> out{from.run(session_id, instance_id, seed_of), std::move(from.losses.list)};
    if (!options.lossy && !out.losses.empty()) throw ConvertError(std::move(out.losses));
    if (found) *found = std::move(in_use);
    return out;
}

/// A trajectory built in C++ may break a rule: checked (ConvertError), and the seed of its ids, from
/// the compact text the check read.
Seed checked_seed(const NemoGymAtifTrajectory& trajectory) {
    std::uint64_t seed = 0;
    checked(trajectory, SchemaId::atif_v1_7, "", detail::written_limits(), [&](std::string_view text) { seed = fnv1a(text); });
    return [seed] { return seed; };
}

/// ATIF -> a rollout row of type Row (the trajectory valid); `text`, when given, gets the row's compact
/// text appended when it was encoded to be checked under Row's own rules, and is left as it was otherwise.
template <class Row, class T>
Converted<Row> rollout_row(const T& trajectory, const std::optional<RowMetadataOf<Row>>& metadata, const ConvertOptions& options,
                           const Seed& seed_of, const Limits& limits, std::string* text = nullptr) {
    std::optional<RowMetadataOf<Row>> found;
    Converted<RowParts> parts = convert(trajectory, metadata, options, &found, seed_of);
    if (!found)
        throw ConvertError({Error{"rows.convert.metadata", "",
                                  "a rollout row needs Sediment's metadata: pass a metadata document (docs/convert.md), or convert to "
                                  "nemo-gym-response.vN for the row's trainer parts"}});
    Converted<Row> out;
    out.value.responses_create_params = std::move(parts.value.responses_create_params);
    out.value.response = std::move(parts.value.response);
    out.value.reward = found->reward;
    out.value.metadata = std::move(found->metadata);
    out.losses = std::move(parts.losses);
    // what another version's rules refuse in the parts (from version 3 on, a U+0000 in an id), at its
    // place in the row
    if (document_traits<Row>::schema != kPartsSchema) {
        if (text) checked_text(out.value, document_traits<Row>::schema, "", limits, *text);
        else checked(out.value, document_traits<Row>::schema, "", limits);
    }
    return out;
}

/// The `metadata` member of the extension object, when it has one.
const Json* metadata_of(const Json& ext) { return ext.is_object() && ext.contains("metadata") ? &ext.at("metadata") : nullptr; }
std::optional<element> metadata_of(element ext) {
    element e;
    if (ext.at_key("metadata").get(e)) return std::nullopt;
    return e;
}

/// The rollout version the trajectory's own metadata names (ConvertError when it has none).
template <class T>
SchemaId own_version(const T& trajectory) {
    const auto ext = member_of(trajectory.extra, kAtifExtensionKey);
    const auto metadata = ext ? metadata_of(*ext) : decltype(metadata_of(*ext))();
    if (!metadata)
        throw ConvertError({Error{"rows.convert.metadata", "", "a rollout row needs Sediment's metadata, and the trajectory has none of its own: pass a "
                                  "metadata document (docs/convert.md), or convert to nemo-gym-response.vN for the row's trainer parts"}});
    return extension_version(*metadata);
}

}  // namespace

std::string scoring_text(const RLVRInferenceMessageRow& output) {
    std::string text;
    detail::Joined joined{text};
    detail::scoring_text(output, joined);
    return text;
}

template <class M>
bool decode(std::string_view text, BasicRowMetadata<M>& out, std::vector<Error>& errors) {
    Json document;
    if (!parse(text, document, errors)) return false;
    const std::size_t before = errors.size();
    std::optional<Error> other = detail::other_version(document_traits<M>::schema, document, "", true);
    Decoder d(document_traits<M>::schema, errors, Limits{}, Decoder::Source::owned_parse);
    if (!d.expect_object(document)) return false;
    bool has_metadata = false;
    for (auto it = document.begin(); it != document.end(); ++it) {
        if (it.key() == "metadata") {
            has_metadata = true;
            auto at = d.at("metadata");
            detail::read(d, *it, out.metadata);
        } else if (it.key() == "reward") {
            auto at = d.at("reward");
            detail::read(d, *it, out.reward);
        } else {
            d.unknown_key(it.key());
        }
    }
    if (!has_metadata) d.error("rows.decode.missing_key", "missing key 'metadata'");
    detail::put_first(errors, before, std::move(other));
    return errors.size() == before;
}

bool decode(std::string_view text, RowMetadata& out, std::vector<Error>& errors) { return decode<NemoGymMetadata>(text, out, errors); }

Converted<RowParts> to_row_parts(const NemoGymAtifTrajectory& trajectory, const ConvertOptions& options) {
    return convert<NemoGymMetadataV2>(trajectory, std::nullopt, options, nullptr, checked_seed(trajectory));
}

template <class Row>
Converted<Row> to_rollout_row(const NemoGymAtifTrajectory& trajectory, const std::optional<RowMetadataOf<Row>>& metadata,
                              const ConvertOptions& options) {
    return rollout_row<Row>(trajectory, metadata, options, checked_seed(trajectory), detail::written_limits());
}

Converted<NemoGymRolloutRow> to_rollout_row(const NemoGymAtifTrajectory& trajectory, const std::optional<RowMetadata>& metadata,
                                            const ConvertOptions& options) {
    return to_rollout_row<NemoGymRolloutRow>(trajectory, metadata, options);
}

Converted<AnyRolloutRow> to_any_rollout_row(const NemoGymAtifTrajectory& trajectory, SchemaId version, const ConvertOptions& options) {
    Converted<AnyRolloutRow> out;
    if (!detail::with_version(out.value, version, [&](auto& row) {
            auto converted = to_rollout_row<std::decay_t<decltype(row)>>(trajectory, std::nullopt, options);
            row = std::move(converted.value);
            out.losses = std::move(converted.losses);
            return true;
        }))
        throw std::invalid_argument("not a rollout version: " + std::string(schema_info(version).name));
    return out;
}

Converted<AnyRolloutRow> to_any_rollout_row(const NemoGymAtifTrajectory& trajectory, const ConvertOptions& options) {
    return to_any_rollout_row(trajectory, own_version(trajectory), options);
}

namespace detail {

Limits written_limits(const Limits& read) {
    Limits out = read;
    out.max_document_bytes = out.max_string_bytes = std::numeric_limits<std::size_t>::max();
    out.max_depth = std::max(read.max_depth, Limits{}.max_depth);
    return out;
}

void from_atif_text(std::string_view text, const AtifTarget& target, ConvertedText& out, std::vector<Error>& found, Style style,
                    const ConvertOptions& options, const Limits& limits) {
    // The rollout version of the row made, when the target or the metadata document names it.
    std::optional<SchemaId> version = target.version;
    if (target.kind == AtifTarget::Kind::row && !version && target.metadata) {
        Json document;
        out.metadata_fault = !rows::parse(*target.metadata, document, found) ||
                             !(version = version_named("nemo-gym-rollout", document, found));
        if (out.metadata_fault) return;
    }
    // `t`, the view or the model, converted; false when the metadata document is not one (its errors in `found`).
    const auto convert_it = [&](const auto& t, const Seed& seed_of) {
        if (target.kind != AtifTarget::Kind::row) {
            auto parts = convert<NemoGymMetadataV2>(t, std::nullopt, options, nullptr, seed_of);
            if (target.kind == AtifTarget::Kind::response) rows::encode(parts.value.response, out.text, style);
            else rows::encode(parts.value.responses_create_params, out.text, style);
            out.losses = std::move(parts.losses);
            found = rows::validate(*version, out.text, written_limits(limits)).errors;  // the rules of that version (tool-call id patterns)
            return true;
        }
        AnyRolloutRow row;
        return with_version(row, version ? *version : own_version(t), [&](auto& r) {
            using Row = std::decay_t<decltype(r)>;
            std::optional<RowMetadataOf<Row>> given;
            if (target.metadata && !rows::decode(*target.metadata, given.emplace(), found)) return false;
            // the row's compact text is written where it was checked under its version's rules
            const std::size_t from = out.text.size();
            auto made = rollout_row<Row>(t, given, options, seed_of, written_limits(limits), style == Style::compact ? &out.text : nullptr);
            if (out.text.size() == from) rows::encode(made.value, out.text, style);
            out.losses = std::move(made.losses);
            return true;
        });
    };
    // The trajectory's view, where the fast path reads it and every value it maps (the text is then
    // valid, and read once); the model otherwise, decoded (so valid too: it is not checked again).
    // Without the extension (as ATIF from elsewhere comes), no agent step has its id, and the ids
    // seeded by the model's encoding need the model: it is read straight away.
    thread_local View view;
    constexpr std::string_view extension = "\"sediment_rows\"";  // memmem: string_view::find stops at every quote
    const bool extended = ::memmem(text.data(), text.size(), extension.data(), extension.size()) != nullptr;
    if (extended && fast::view_document(text, limits, view)) {
        try {
            out.metadata_fault = !convert_it(view, []() -> std::uint64_t { throw ViewRefused{}; });
            return;
        } catch (const ViewRefused&) {
            out.clear();
        }
    }
    thread_local NemoGymAtifTrajectory trajectory;  // decoded into again: its strings' and vectors' memory is reused
    std::vector<Error> errors;
    if (!rows::decode(text, trajectory, errors, limits)) throw DecodeError(std::move(errors));
    out.metadata_fault = !convert_it(trajectory, [&] {
        thread_local std::string encoded;  // as large as the largest trajectory seeded
        encoded.clear();
        rows::encode(trajectory, encoded);
        return fnv1a(encoded);
    });
}

}  // namespace detail

// Every rollout version.
template Converted<NemoGymRolloutRowV1> to_rollout_row<NemoGymRolloutRowV1>(const NemoGymAtifTrajectory&, const std::optional<RowMetadataOf<NemoGymRolloutRowV1>>&, const ConvertOptions&);
template Converted<NemoGymRolloutRowV2> to_rollout_row<NemoGymRolloutRowV2>(const NemoGymAtifTrajectory&, const std::optional<RowMetadataOf<NemoGymRolloutRowV2>>&, const ConvertOptions&);
template Converted<NemoGymRolloutRowV3> to_rollout_row<NemoGymRolloutRowV3>(const NemoGymAtifTrajectory&, const std::optional<RowMetadataOf<NemoGymRolloutRowV3>>&, const ConvertOptions&);
template Converted<NemoGymRolloutRowV4> to_rollout_row<NemoGymRolloutRowV4>(const NemoGymAtifTrajectory&, const std::optional<RowMetadataOf<NemoGymRolloutRowV4>>&, const ConvertOptions&);
template bool decode<NemoGymMetadataV1>(std::string_view, BasicRowMetadata<NemoGymMetadataV1>&, std::vector<Error>&);
template bool decode<NemoGymMetadataV2>(std::string_view, BasicRowMetadata<NemoGymMetadataV2>&, std::vector<Error>&);
template bool decode<NemoGymMetadataV3>(std::string_view, BasicRowMetadata<NemoGymMetadataV3>&, std::vector<Error>&);
template bool decode<NemoGymMetadataV4>(std::string_view, BasicRowMetadata<NemoGymMetadataV4>&, std::vector<Error>&);

}  // namespace sediment::rows
