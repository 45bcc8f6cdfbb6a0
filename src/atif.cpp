// The ATIF v1.7 subset's rules that its JSON Schema cannot say, or says only in an allOf: NeMo Gym's
// model validators (nemo_gym.atif_v1_7), each error at the offending value.
#include <set>
#include <string>

#include "sediment/rows/decode.hpp"
#include "sediment/rows/detail/isoformat.hpp"

namespace sediment::rows::detail {
namespace {

// Present and not null: what Gym's `is not None` sees.
template <class T>
bool given(const std::optional<Nullable<T>>& field) {
    return field.has_value() && !field->is_null();
}

}  // namespace

// AtifContentPart.validate_content_type
bool check_rules(Decoder& d, const AtifContentPart& value) {
    const std::size_t before = d.error_count();
    const bool text = value.type == AtifContentPartType::text;
    if (text && !given(value.text)) d.error("rows.decode.atif_content_part", "a text part needs 'text'");
    if (!text && !given(value.source)) d.error("rows.decode.atif_content_part", "an image part needs 'source'");
    if (text && given(value.source)) {
        auto at = d.at("source");
        d.error("rows.decode.atif_content_part", "a text part has no 'source'");
    }
    if (!text && given(value.text)) {
        auto at = d.at("text");
        d.error("rows.decode.atif_content_part", "an image part has no 'text'");
    }
    return d.error_count() == before;
}

// AtifStep.validate_agent_only_fields, validate_zero_llm_call_count and validate_timestamp
bool check_rules(Decoder& d, const AtifStep& value) {
    const std::size_t before = d.error_count();
    const auto refuse = [&](bool present, const char* key, const std::string& why) {
        if (!present) return;
        auto at = d.at(key);
        d.error("rows.decode.atif_step", why);
    };
    if (value.source != AtifStepSource::agent) {
        const std::string why = std::string("only agent steps have it; this is a ") + std::string(to_string(value.source)) + " step";
        refuse(given(value.model_name), "model_name", why);
        refuse(given(value.reasoning_effort), "reasoning_effort", why);
        refuse(given(value.reasoning_content), "reasoning_content", why);
        refuse(given(value.tool_calls), "tool_calls", why);
        refuse(given(value.metrics), "metrics", why);
    }
    if (given(value.llm_call_count) && value.llm_call_count->value().compare(0) == 0) {
        const std::string why = "a step with llm_call_count 0 made no model call";
        refuse(given(value.reasoning_effort), "reasoning_effort", why);
        refuse(given(value.reasoning_content), "reasoning_content", why);
        refuse(given(value.metrics), "metrics", why);
    }
    if (given(value.timestamp) && !PythonIsoformat::accepts_atif_timestamp(**value.timestamp)) {
        auto at = d.at("timestamp");
        d.error("rows.decode.format", "'" + (**value.timestamp).substr(0, 64) +
                                          "' is not a timestamp Python's datetime.fromisoformat reads");
    }
    return d.error_count() == before;
}

// AtifTrajectoryV1_7.validate_step_ids_and_tool_references
bool check_rules(Decoder& d, const AtifTrajectory& value) {
    const std::size_t before = d.error_count();
    for (std::size_t i = 0; i < value.steps.size(); ++i) {
        const AtifStep& step = value.steps[i];
        auto steps_at = d.at("steps");
        auto step_at = d.at(i);
        if (step.step_id.compare(static_cast<std::int64_t>(i + 1)) != 0) {
            auto at = d.at("step_id");
            d.error("rows.decode.atif_step_id",
                    "expected step_id " + std::to_string(i + 1) + " (the step's position), got " + step.step_id.to_string());
        }
        if (!given(step.observation)) continue;
        std::set<std::string> calls;
        if (given(step.tool_calls))
            for (const AtifToolCall& call : **step.tool_calls) calls.insert(call.tool_call_id);
        const auto& results = (*step.observation)->results;
        auto observation_at = d.at("observation");
        auto results_at = d.at("results");
        for (std::size_t k = 0; k < results.size(); ++k) {
            if (!given(results[k].source_call_id) || calls.count(**results[k].source_call_id)) continue;
            auto result_at = d.at(k);
            auto at = d.at("source_call_id");
            d.error("rows.decode.atif_source_call_id",
                    "'" + **results[k].source_call_id + "' names no tool call of step " + std::to_string(i + 1));
        }
    }
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

}  // namespace sediment::rows::detail
