// NeMo Gym rollout rows -> ATIF v1.7 (docs/atif-mapping.md): a trajectory that converts back to the same row.
#include "features/convert/common.hpp"

namespace sediment::rows {

using namespace convert_impl;

namespace {

// ----- row -> ATIF ----------------------------------------------------------------------------------

bool is_plain(const Message& m) {
    if ((m.role != "system" && m.role != "user") || m.finish_reason) return false;
    return std::all_of(m.parts.begin(), m.parts.end(), [](const Part& p) { return std::holds_alternative<TextPart>(p); });
}

/// An output message in the order output_message() builds: one reasoning part at most, then text, then tool calls.
bool is_output(const Message& m) {
    if (m.role != "assistant") return false;
    int stage = 0;  // 0 reasoning, 1 text, 2 tool calls
    for (std::size_t i = 0; i < m.parts.size(); ++i) {
        const int kind = std::holds_alternative<ReasoningPart>(m.parts[i]) ? 0
                         : std::holds_alternative<TextPart>(m.parts[i]) ? 1
                         : std::holds_alternative<ToolCallPart>(m.parts[i]) ? 2 : 3;
        if (kind == 3 || kind < stage || (kind == 0 && i > 0)) return false;
        stage = kind;
    }
    return true;
}

/// A turn's new_messages as the previous output's echo, the tool results answering it, then plain
/// messages; nullopt when they do not have that shape.
struct Echo {
    const Message* output;
    std::vector<const ToolCallResponsePart*> results;
    std::vector<const Message*> plain;
};

std::optional<Echo> echo_of(const std::vector<Message>& messages) {
    if (messages.empty() || !is_output(messages[0])) return std::nullopt;
    Echo echo{&messages[0], {}, {}};
    std::set<std::string> ids;
    for (const ToolCallPart& c : tool_calls_of(messages[0])) ids.insert(c.id);
    std::size_t j = 1;
    for (; j < messages.size(); ++j) {
        const Message& m = messages[j];
        if (m.role != "tool" || m.finish_reason || m.parts.size() != 1) break;
        const auto* r = std::get_if<ToolCallResponsePart>(&m.parts[0]);
        if (!r || !ids.count(r->id)) break;
        echo.results.push_back(r);
    }
    for (; j < messages.size() && is_plain(messages[j]); ++j) echo.plain.push_back(&messages[j]);
    if (j != messages.size()) return std::nullopt;
    return echo;
}

std::vector<std::string> texts_of(const Message& m) {
    std::vector<std::string> out;
    for (const Part& p : m.parts)
        if (const auto* t = std::get_if<TextPart>(&p)) out.push_back(t->content);
    return out;
}

NemoGymAtifStep plain_step(const Message& m) {
    NemoGymAtifStep s;
    from_string(m.role, s.source);
    s.message = content_of(texts_of(m));
    return s;
}

NemoGymAtifObservationResult observation_result(const ToolCallResponsePart& r) {
    NemoGymAtifObservationResult out;
    out.source_call_id = Nullable<std::string>(r.id);
    if (r.result.is_string()) {
        out.content = Nullable<AtifContent>(AtifContent(r.result.get_ref<const std::string&>()));
    } else {
        out.content = Nullable<AtifContent>();
        if (!r.result.is_null()) {
            Json extra = Json::object();
            extra["tool_result"] = r.result;  // one copy (an initializer list makes two)
            out.extra = Nullable<Json>(std::move(extra));
        }
    }
    return out;
}

/// What to_atif() writes of a row beyond its parts: the metadata (any version, as JSON) and reward.
struct RowSide {
    const std::string& session_id;
    const std::string& instance_id;
    Json metadata;                     ///< null when `metadata_text` holds it
    const std::optional<Number>& reward;
    std::string metadata_text;         ///< the metadata's compact text, put in the trajectory's text only
};

/// `text`, the compact text of a trajectory whose extension ends with a null `metadata` (its last
/// member, in the trajectory's last member `extra`), with `metadata` in place of the null: the text
/// of the trajectory holding it, without building its value. False when the text does not end so.
bool put_metadata(std::string& text, std::string_view metadata) {
    constexpr std::string_view tail = R"("metadata":null}}})";
    if (text.size() < tail.size() || std::string_view(text).substr(text.size() - tail.size()) != tail) return false;
    text.resize(text.size() - std::string_view("null}}}").size());
    text += metadata;
    text += "}}}";
    return true;
}

/// The trajectory of a row's parts (and its metadata); `text`, when given, gets its compact text appended.
/// With `metadata->metadata_text`, only that text holds the metadata.
NemoGymAtifTrajectory build_atif(const NemoGymResponsesCreateParams& params, const NemoGymResponse& response, RowSide* metadata,
                          const Limits& limits, std::string* text = nullptr) {
    const auto& input = params.input;
    const auto& turns = response.turns;
    NemoGymAtifTrajectory t;
    t.agent.name = kAtifAgentName;
    t.agent.version = kAtifAgentVersion;
    Json ext = Json::object();
    if (std::all_of(input.begin(), input.end(), is_plain)) {
        for (const Message& m : input) t.steps.push_back(plain_step(m));
    } else {
        ext["input"] = json_of(input);
    }
    if (metadata) {
        t.session_id = Nullable<std::string>(metadata->session_id);
        t.trajectory_id = Nullable<std::string>(metadata->instance_id);
        if (metadata->reward) ext["reward"] = json_of(*metadata->reward);
        ext["metadata"] = std::move(metadata->metadata);
    }
    if (!ext.empty()) t.extra = Nullable<Json>(Json::object({{std::string(kAtifExtensionKey), std::move(ext)}}));

    std::vector<std::optional<Echo>> echoes(turns.size());
    for (std::size_t k = 1; k < turns.size(); ++k) echoes[k] = echo_of(turns[k].new_messages);
    for (std::size_t k = 0; k < turns.size(); ++k) {
        const RLVRTurnRow& turn = turns[k];
        const std::optional<Echo>* next = k + 1 < turns.size() && echoes[k + 1] ? &echoes[k + 1] : nullptr;
        NemoGymAtifStep s;
        s.source = AtifStepSource::agent;
        Json e = Json::object();
        e["inference_call_id"] = turn.inference_call_id;
        std::vector<ToolCallPart> calls;
        if (next) {
            const Message& out = *(*next)->output;
            for (const Part& p : out.parts)
                if (const auto* r = std::get_if<ReasoningPart>(&p)) s.reasoning_content = Nullable<std::string>(r->content);
            s.message = content_of(texts_of(out));
            calls = tool_calls_of(out);
            if (out.finish_reason) e["finish_reason"] = *out.finish_reason;
            if (!(*next)->results.empty()) {
                NemoGymAtifObservation o;
                for (const ToolCallResponsePart* r : (*next)->results) o.results.push_back(observation_result(*r));
                s.observation = Nullable<NemoGymAtifObservation>(std::move(o));
            }
        } else {
            calls = turn.tool_calls;
            s.message = text_content(text_before_arguments(turn.completion, calls));
        }
        if (!calls.empty()) {
            std::vector<AtifToolCall> atif_calls;
            atif_calls.reserve(calls.size());
            for (ToolCallPart& c : calls)
                atif_calls.push_back(AtifToolCall{std::move(c.id), std::move(c.name), std::move(c.arguments), std::nullopt});
            s.tool_calls = Nullable<std::vector<AtifToolCall>>(std::move(atif_calls));
        }
        // What the steps give back is compared with the turn; what differs travels in the extension.
        const Message rebuilt = output_message(s, std::nullopt, nullptr, "");
        if (scoring_text(rebuilt) != turn.completion) e["completion"] = turn.completion;
        if (!has_calls(rebuilt, turn.tool_calls)) e["tool_calls"] = json_of(turn.tool_calls);
        const bool shadowed = k == 0 ? turn.new_messages != input : !echoes[k];
        if (shadowed) e["new_messages"] = json_of(turn.new_messages);
        if (!turn.decisions.empty()) e["decisions"] = json_of(turn.decisions);
        s.extra = Nullable<Json>(Json::object({{std::string(kAtifExtensionKey), std::move(e)}}));
        t.steps.push_back(std::move(s));
        if (next)
            for (const Message* m : (*next)->plain) t.steps.push_back(plain_step(*m));
    }
    if (t.steps.empty())
        throw ConvertError({Error{"rows.convert.empty", "",
                                  "a row with no turn and no plain system or user input has no ATIF form (ATIF needs a step)"}});
    for (std::size_t i = 0; i < t.steps.size(); ++i) t.steps[i].step_id = static_cast<std::int64_t>(i + 1);
    std::function<void(std::string&)> put;  // the metadata's text, when only the text holds it
    if (metadata && !metadata->metadata_text.empty())
        put = [&](std::string& encoded) {
            if (!put_metadata(encoded, metadata->metadata_text)) throw std::logic_error("build_atif: the extension's metadata is not last");
        };
    if (text) checked_text(t, SchemaId::atif_v1_7, "", limits, *text, put);
    else checked(t, SchemaId::atif_v1_7, "", limits);
    return t;
}

}  // namespace

NemoGymAtifTrajectory to_atif(const RowParts& parts) {
    const Limits limits = detail::written_limits();
    checked(parts.responses_create_params, SchemaId::nemo_gym_rollout_v2, "/responses_create_params", limits);
    checked(parts.response, SchemaId::nemo_gym_rollout_v2, "/response", limits);
    return build_atif(parts.responses_create_params, parts.response, nullptr, limits);
}

/// The trajectory of a row; `valid`: the row is known valid (decoded).
template <class Row>
NemoGymAtifTrajectory to_atif_of(const Row& row, bool valid, const Limits& limits = detail::written_limits()) {
    if (!valid) checked(row, document_traits<Row>::schema, "", limits);
    RowSide side{row.metadata.session_id, row.metadata.instance_id, Json(row.metadata), row.reward, {}};
    return build_atif(row.responses_create_params, row.response, &side, limits);
}

/// The compact text of the trajectory of a row known valid, appended to `out`; the metadata goes in as text.
template <class Row>
void to_atif_compact(const Row& row, std::string& out, const Limits& limits) {
    RowSide side{row.metadata.session_id, row.metadata.instance_id, Json(), row.reward, encode(row.metadata)};
    build_atif(row.responses_create_params, row.response, &side, limits, &out);
}

NemoGymAtifTrajectory to_atif(const NemoGymRolloutRow& row) { return to_atif_of(row, false); }
NemoGymAtifTrajectory to_atif(const AnyRolloutRow& row) {
    return std::visit([](const auto& r) { return to_atif_of(r, false); }, row);
}

namespace detail {

void to_atif_text(const AnyRolloutRow& row, Style style, std::string& out, const Limits& limits) {
    const Limits written = written_limits(limits);
    if (style == Style::compact) std::visit([&](const auto& r) { to_atif_compact(r, out, written); }, row);
    else encode(std::visit([&](const auto& r) { return to_atif_of(r, true, written); }, row), out, style);
}

}  // namespace detail

}  // namespace sediment::rows
