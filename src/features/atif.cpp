// The ATIF rules that the JSON Schemas cannot say, or say only in an allOf, each error at the
// offending value: NeMo Gym's model validators (nemo_gym.atif_v1_7) for the v1.7 subset
// (NemoGymAtifStep, NemoGymAtifTrajectory), and Harbor's (harbor.models.trajectories) for every version
// (HarborAtifStep, HarborAtifTrajectory). Where the two agree, one template states the rule for both; each
// rule is a template over the model and its view model (generated/views.hpp, what check() reads).
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <variant>

#include "sediment/rows/decode.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "detail/isoformat.hpp"
#include "generated/views.hpp"

namespace sediment::rows::detail {
namespace {

// Present and not null: what Gym's and Harbor's `is not None` sees.
template <class T>
bool given(const std::optional<Nullable<T>>& field) {
    return field.has_value() && !field->is_null();
}

void refuse(Decoder& d, bool present, const char* key, const std::string& why) {
    if (!present) return;
    auto at = d.at(key);
    d.error("rows.decode.atif_step", why);
}

// Agent-only fields (both), and the timestamp as Python's datetime.fromisoformat reads it.
template <class Step>
void check_step(Decoder& d, const Step& value) {
    if (value.source != AtifStepSource::agent) {
        const std::string why = std::string("only agent steps have it; this is a ") + std::string(to_string(value.source)) + " step";
        refuse(d, given(value.model_name), "model_name", why);
        refuse(d, given(value.reasoning_effort), "reasoning_effort", why);
        refuse(d, given(value.reasoning_content), "reasoning_content", why);
        refuse(d, given(value.tool_calls), "tool_calls", why);
        refuse(d, given(value.metrics), "metrics", why);
    }
    if (given(value.timestamp) && !PythonIsoformat::accepts_atif_timestamp(**value.timestamp)) {
        auto at = d.at("timestamp");
        d.error("rows.decode.format", detail::quoted(**value.timestamp, 64) +
                                          " is not a timestamp Python's datetime.fromisoformat reads");
    }
}

template <class Step>
bool no_model_call(const Step& value) {
    return given(value.llm_call_count) && value.llm_call_count->value().compare(0) == 0;
}

// Step ids count the steps from 1, and a result's source_call_id names a tool call of its own step (both).
template <class Trajectory>
void check_steps(Decoder& d, const Trajectory& value) {
    for (std::size_t i = 0; i < value.steps.size(); ++i) {
        const auto& step = value.steps[i];
        auto steps_at = d.at("steps");
        auto step_at = d.at(i);
        if (step.step_id.compare(static_cast<std::int64_t>(i + 1)) != 0) {
            auto at = d.at("step_id");
            d.error("rows.decode.atif_step_id",
                    "expected step_id " + std::to_string(i + 1) + " (the step's position), got " + step.step_id.to_string());
        }
        if (!given(step.observation)) continue;
        std::set<std::string_view> calls;
        if (given(step.tool_calls))
            for (const auto& call : **step.tool_calls) calls.insert(call.tool_call_id);
        const auto& results = (*step.observation)->results;
        auto observation_at = d.at("observation");
        auto results_at = d.at("results");
        for (std::size_t k = 0; k < results.size(); ++k) {
            if (!given(results[k].source_call_id) || calls.count(**results[k].source_call_id)) continue;
            auto result_at = d.at(k);
            auto at = d.at("source_call_id");
            d.error("rows.decode.atif_source_call_id",
                    detail::quoted(**results[k].source_call_id, detail::Decoder::kQuoted) + " names no tool call of step " + std::to_string(i + 1));
        }
    }
}

// The kind of file a media part's source is: an image source, or (Harbor's AtifSource) either.
template <class Source>
std::string source_kind(const Source& source) {
    if constexpr (std::is_same_v<Source, AtifSource> || std::is_same_v<Source, view::AtifSource>)
        return source.index() == 1 ? "audio" : "image";
    else
        return "image";
}

template <class Source>
std::string media_type_of(const Source& source) {
    if constexpr (std::is_same_v<Source, AtifSource> || std::is_same_v<Source, view::AtifSource>)
        return std::visit([](const auto& s) { return std::string(to_string(s.media_type)); }, source);
    else
        return std::string(to_string(source.media_type));
}

// ContentPart.validate_content_type (NemoGym's AtifContentPart and Harbor's ContentPart): a text part
// has text and no source; a media part (image, or from ATIF-v1.8 audio) a source of its own kind and
// no text.
template <class Part>
bool content_part_rules(Decoder& d, const Part& value) {
    const std::size_t before = d.error_count();
    const std::string kind(to_string(value.type));
    const bool text = kind == "text";
    if (text && !given(value.text)) d.error("rows.decode.atif_content_part", "a text part needs 'text'");
    if (!text && !given(value.source)) d.error("rows.decode.atif_content_part", "an " + kind + " part needs 'source'");
    if (text && given(value.source)) {
        auto at = d.at("source");
        d.error("rows.decode.atif_content_part", "a text part has no 'source'");
    }
    if (!text && given(value.text)) {
        auto at = d.at("text");
        d.error("rows.decode.atif_content_part", "an " + kind + " part has no 'text'");
    }
    if (!text && given(value.source) && source_kind(**value.source) != kind) {
        auto at = d.at("source");
        d.error("rows.decode.atif_content_part",
                "an " + kind + " part's source is an " + kind + " file; this one is " + media_type_of(**value.source));
    }
    return d.error_count() == before;
}

// NemoGymAtifStep.validate_agent_only_fields, validate_zero_llm_call_count and validate_timestamp: without a
// model call (on any step), no reasoning effort, reasoning or metrics.
template <class Step>
bool subset_step_rules(Decoder& d, const Step& value) {
    const std::size_t before = d.error_count();
    check_step(d, value);
    if (no_model_call(value)) {
        const std::string why = "a step with llm_call_count 0 made no model call";
        refuse(d, given(value.reasoning_effort), "reasoning_effort", why);
        refuse(d, given(value.reasoning_content), "reasoning_content", why);
        refuse(d, given(value.metrics), "metrics", why);
    }
    return d.error_count() == before;
}

// Harbor's Step validators: an agent step without a model call has no reasoning and no metrics
// (a reasoning effort may stay).
template <class Step>
bool harbor_step_rules(Decoder& d, const Step& value) {
    const std::size_t before = d.error_count();
    check_step(d, value);
    if (value.source == AtifStepSource::agent && no_model_call(value)) {
        const std::string why = "an agent step with llm_call_count 0 made no model call";
        refuse(d, given(value.reasoning_content), "reasoning_content", why);
        refuse(d, given(value.metrics), "metrics", why);
    }
    return d.error_count() == before;
}

// AtifTrajectoryV1_7.validate_step_ids_and_tool_references, and final_metrics.total_steps
template <class Trajectory>
bool subset_trajectory_rules(Decoder& d, const Trajectory& value) {
    const std::size_t before = d.error_count();
    check_steps(d, value);
    if (given(value.final_metrics) && given((*value.final_metrics)->total_steps)) {
        const Integer& total = **(*value.final_metrics)->total_steps;
        if (total.compare(static_cast<std::int64_t>(value.steps.size())) != 0) {
            auto metrics_at = d.at("final_metrics");
            auto at = d.at("total_steps");
            d.error("rows.decode.atif_total_steps",
                    "total_steps is " + total.to_string() + " but there are " + std::to_string(value.steps.size()) + " steps");
        }
    }
    return d.error_count() == before;
}

// An audio part (ATIF-v1.8) in the content `content` (at `key`) of a document labelled `version`,
// which must then be ATIF-v1.8: the error is at the part.
template <class Content>
void audio_parts(Decoder& d, const Content& content, const char* key, AtifVersion version) {
    if (version == AtifVersion::ATIF_v1_8 || content.index() != 1) return;
    const auto& parts = std::get<1>(content);
    auto content_at = d.at(key);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].type != HarborAtifContentPartType::audio) continue;
        auto at = d.at(i);
        d.error("rows.decode.atif_audio",
                "audio parts need ATIF-v1.8 (v1.7 and earlier have none); this document is labelled " + std::string(to_string(version)));
    }
}

// Harbor's Trajectory validators: step ids and tool references; embedded subagent trajectories each
// with a trajectory_id of their own (each was checked as a trajectory when it was read); under every
// label, as Harbor's current model: a step's tool_call_ids distinct (rule 8), a subagent reference that
// says which trajectory it means (rule 7), and one without a trajectory_path naming an embedded
// subagent of this trajectory (rule 9); audio parts only in an ATIF-v1.8 document.
template <class Trajectory>
bool harbor_trajectory_rules(Decoder& d, const Trajectory& value) {
    const std::size_t before = d.error_count();
    check_steps(d, value);
    if (given(value.subagent_trajectories)) {
        std::map<std::string_view, std::size_t> ids;
        const auto& subagents = **value.subagent_trajectories;
        auto list_at = d.at("subagent_trajectories");
        for (std::size_t i = 0; i < subagents.size(); ++i) {
            auto item_at = d.at(i);
            const auto& id = subagents[i].trajectory_id;
            if (!id) {
                d.error("rows.decode.atif_subagent", "an embedded subagent trajectory needs a trajectory_id");
                continue;
            }
            auto at = d.at("trajectory_id");
            if (id->is_null()) {
                d.error("rows.decode.atif_subagent", "an embedded subagent trajectory needs a trajectory_id, not null");
            } else if (const auto [first, added] = ids.emplace(**id, i); !added) {
                d.error("rows.decode.atif_subagent", "trajectory_id " + detail::quoted(**id, 64) +
                                                         " is also embedded subagent trajectory " + std::to_string(first->second) + "'s");
            }
        }
    }
    std::set<std::string_view> embedded;
    if (given(value.subagent_trajectories))
        for (const auto& subagent : **value.subagent_trajectories)
            if (given(subagent.trajectory_id)) embedded.insert(**subagent.trajectory_id);
    const AtifVersion version = value.schema_version ? *value.schema_version : AtifVersion::ATIF_v1_8;  // none: Harbor's default
    for (std::size_t i = 0; i < value.steps.size(); ++i) {
        const auto& step = value.steps[i];
        auto steps_at = d.at("steps");
        auto step_at = d.at(i);
        audio_parts(d, step.message, "message", version);
        if (given(step.tool_calls)) {  // rule 8: a step's tool_call_ids are distinct
            std::map<std::string_view, std::size_t> ids;
            const auto& calls = **step.tool_calls;
            for (std::size_t k = 0; k < calls.size(); ++k) {
                const auto [first, added] = ids.emplace(calls[k].tool_call_id, k);
                if (added) continue;
                auto a = d.at("tool_calls"), b = d.at(k), c = d.at("tool_call_id");
                d.error("rows.decode.atif_tool_call_id", "tool_call_id " + detail::quoted(calls[k].tool_call_id, 64) +
                                                             " is also tool call " + std::to_string(first->second) + "'s, in the same step");
            }
        }
        if (!given(step.observation)) continue;
        const auto& results = (*step.observation)->results;
        auto observation_at = d.at("observation");
        auto results_at = d.at("results");
        for (std::size_t k = 0; k < results.size(); ++k) {
            auto result_at = d.at(k);
            if (given(results[k].content)) audio_parts(d, **results[k].content, "content", version);
            if (!given(results[k].subagent_trajectory_ref)) continue;
            const auto& refs = **results[k].subagent_trajectory_ref;
            auto refs_at = d.at("subagent_trajectory_ref");
            for (std::size_t m = 0; m < refs.size(); ++m) {
                const auto& ref = refs[m];
                auto at = d.at(m);
                if (!given(ref.trajectory_id) && !given(ref.trajectory_path)) {  // rule 7
                    d.error("rows.decode.atif_subagent_ref", "a subagent reference needs trajectory_id or trajectory_path");
                } else if ((!given(ref.trajectory_path) || (**ref.trajectory_path).empty()) &&
                           (!given(ref.trajectory_id) || !embedded.count(**ref.trajectory_id))) {  // rule 9
                    d.error("rows.decode.atif_subagent_ref",
                            given(ref.trajectory_id)
                                ? "trajectory_id " + detail::quoted(**ref.trajectory_id, 64) +
                                      " names no trajectory of this trajectory's subagent_trajectories, and the reference has no trajectory_path"
                                : "a subagent reference with an empty trajectory_path needs the trajectory_id of one of this trajectory's subagent_trajectories");
                }
            }
        }
    }
    return d.error_count() == before;
}

}  // namespace

bool check_rules(Decoder& d, const AtifContentPart& value) { return content_part_rules(d, value); }
bool check_rules(Decoder& d, const HarborAtifContentPart& value) { return content_part_rules(d, value); }
bool check_rules(Decoder& d, const view::HarborAtifContentPart& value) { return content_part_rules(d, value); }
bool check_rules(Decoder& d, const view::AtifContentPart& value) { return content_part_rules(d, value); }
bool check_rules(Decoder& d, const NemoGymAtifStep& value) { return subset_step_rules(d, value); }
bool check_rules(Decoder& d, const view::NemoGymAtifStep& value) { return subset_step_rules(d, value); }
bool check_rules(Decoder& d, const HarborAtifStep& value) { return harbor_step_rules(d, value); }
bool check_rules(Decoder& d, const view::HarborAtifStep& value) { return harbor_step_rules(d, value); }
bool check_rules(Decoder& d, const NemoGymAtifTrajectory& value) { return subset_trajectory_rules(d, value); }
bool check_rules(Decoder& d, const view::NemoGymAtifTrajectory& value) { return subset_trajectory_rules(d, value); }
bool check_rules(Decoder& d, const HarborAtifTrajectory& value) { return harbor_trajectory_rules(d, value); }
bool check_rules(Decoder& d, const view::HarborAtifTrajectory& value) { return harbor_trajectory_rules(d, value); }

}  // namespace sediment::rows::detail
