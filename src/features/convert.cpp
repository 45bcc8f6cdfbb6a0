// ATIF v1.7 <-> NeMo Gym rollout rows (docs/atif-mapping.md). One function builds an agent step's
// output message and one builds its text back from a completion; both directions use them, so that
// to_row_parts(to_atif(parts)) == parts holds by construction and the tests check it.
#include "sediment/rows/convert.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <set>
#include <string>

#include "sediment/rows/decode.hpp"
#include "detail/fast.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows {
namespace {

using detail::Decoder;
using Message = RLVRInferenceMessageRow;
using simdjson::dom::element;
using View = detail::view::NemoGymAtifTrajectory;  // a trajectory read where it is (convert() by name)

// The rules a row's parts are built under from ATIF (the extension is read under them): a row of a
// version with other rules is checked under its own once built.
constexpr SchemaId kPartsSchema = SchemaId::nemo_gym_rollout_v2;

template <class T>
bool given(const std::optional<Nullable<T>>& field) {
    return field.has_value() && !field->is_null();
}

std::string pointer(std::string base, std::string_view token) {
    detail::append_pointer_token(base, token);
    return base;
}
std::string pointer(const std::string& base, std::size_t index) { return base + "/" + std::to_string(index); }

// ----- free-form values: Json in the model, where they are in the view ------------------------------

/// Thrown where a trajectory's view holds what only its model maps: a value the fast readers leave to
/// the exact reader, or an agent step whose id needs the model's encoding. convert() by name then
/// decodes the model and maps that.
struct ViewRefused {};

/// `e`, a value of the view's DOM, as T under the rules of `schema`.
template <class T>
T read_view(element e, SchemaId schema = kPartsSchema) {
    T out{};
    if (!detail::fast::read_value(e, out, schema)) throw ViewRefused{};
    return out;
}

const Json& json_value(const Json& j) { return j; }
Json json_value(element e) { return read_view<Json>(e); }
Json json_value(const detail::view::JsonView& j) { return json_value(j.value); }

template <class F>
void for_each_key(const Json& object, F&& f) {
    for (auto it = object.begin(); it != object.end(); ++it) f(std::string_view(it.key()));
}
template <class F>
void for_each_key(element object, F&& f) {
    simdjson::dom::object members;
    if (object.get(members)) throw ViewRefused{};
    for (const auto field : members) f(field.key);
}
template <class F>
void for_each_key(const detail::view::JsonView& object, F&& f) { for_each_key(object.value, f); }

/// Member `key` of an `extra` object, when it has one.
const Json* member_of(const std::optional<Nullable<Json>>& extra, std::string_view key) {
    if (!given(extra)) return nullptr;
    const auto it = (*extra)->find(std::string(key));
    return it == (*extra)->end() ? nullptr : &*it;
}
std::optional<element> member_of(const std::optional<Nullable<detail::view::JsonView>>& extra, std::string_view key) {
    element e;
    if (!given(extra) || (*extra)->value.at_key(key).get(e)) return std::nullopt;
    return e;
}

/// A string member of an object, when it has one.
std::optional<std::string_view> string_member(const Json& j, const char* key) {
    if (!j.is_object()) return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return std::string_view(it->get_ref<const std::string&>());
}
std::optional<std::string_view> string_member(element e, const char* key) {
    std::string_view s;
    if (e.at_key(key).get(s)) return std::nullopt;
    return s;
}

// ----- the pieces both directions share -------------------------------------------------------------

void string_leaves(const Json& v, std::vector<std::string_view>& out) {
    if (v.is_string()) {
        out.push_back(v.get_ref<const std::string&>());
    } else if (v.is_object()) {
        std::vector<const std::string*> keys;
        for (auto it = v.begin(); it != v.end(); ++it) keys.push_back(&it.key());
        std::sort(keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
        for (const std::string* k : keys) string_leaves(v.at(*k), out);
    } else if (v.is_array()) {
        for (const Json& item : v) string_leaves(item, out);
    }
}

std::string join_nonempty(const std::vector<std::string_view>& items) {
    std::string out;
    for (std::string_view s : items) {
        if (s.empty()) continue;
        if (!out.empty()) out += '\n';
        out += s;
    }
    return out;
}

std::string arguments_text(const std::vector<ToolCallPart>& calls) {
    std::vector<std::string_view> items;
    for (const ToolCallPart& c : calls) string_leaves(c.arguments, items);
    return join_nonempty(items);
}

/// The output text an agent step needs so that its scoring text is `completion`, when only the
/// completion survives (the last turn): the completion without the argument text it ends with. When
/// that is impossible, the whole completion (to_atif then records the completion in the extension).
std::string text_before_arguments(const std::string& completion, const std::vector<ToolCallPart>& calls) {
    const std::string tail = arguments_text(calls);
    if (tail.empty()) return completion;
    if (completion == tail) return "";
    const std::size_t n = tail.size() + 1;
    if (completion.size() > n && completion.compare(completion.size() - n, n, "\n" + tail) == 0)
        return completion.substr(0, completion.size() - n);
    return completion;
}

/// Row text -> ATIF content: "" for no part, the string for one non-empty part, else the parts.
AtifContent content_of(std::vector<std::string> texts) {
    if (texts.empty()) return std::string();
    if (texts.size() == 1 && !texts[0].empty()) return std::move(texts[0]);
    std::vector<AtifContentPart> parts(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        parts[i].type = AtifContentPartType::text;
        parts[i].text = Nullable<std::string>(std::move(texts[i]));
    }
    return parts;
}

/// The content of one text: "" holds no part.
AtifContent text_content(const std::string& text) {
    return content_of(text.empty() ? std::vector<std::string>{} : std::vector<std::string>{text});
}

/// Where the losses of one conversion go.
struct Losses {
    std::vector<Error> list;

    void add(std::string at, const char* kind, std::string why) {
        list.push_back(Error{std::string("rows.convert.loss.") + kind, std::move(at), std::move(why)});
    }
    /// Every key of an `extra` object but `keep` (what the mapping reads).
    template <class J>
    void extra(const std::optional<Nullable<J>>& extra, const std::string& at, std::initializer_list<std::string_view> keep = {}) {
        if (!given(extra)) return;
        for_each_key(**extra, [&](std::string_view key) {
            if (std::find(keep.begin(), keep.end(), key) == keep.end())
                add(pointer(pointer(at, "extra"), key), "extra", "a row has no place for ATIF extension data");
        });
    }
};

/// ATIF content (of the model or the view) -> its text parts' texts ("" holds none). Image parts are
/// reported to `losses`.
template <class Content>
std::vector<std::string> texts_of(const Content& content, Losses* losses, const std::string& at) {
    std::vector<std::string> out;
    if (const auto* s = std::get_if<0>(&content)) {  // a string
        if (!s->empty()) out.emplace_back(*s);
        return out;
    }
    const auto& parts = std::get<1>(content);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].type == AtifContentPartType::text) out.emplace_back(given(parts[i].text) ? std::string(**parts[i].text) : std::string());
        else if (losses) losses->add(pointer(at, i), "image", "a row message has no images");
    }
    return out;
}

std::vector<Part> text_parts(const std::vector<std::string>& texts) {
    std::vector<Part> parts;
    for (const std::string& t : texts) parts.push_back(TextPart{t});
    return parts;
}

template <class Call>
ToolCallPart tool_call_part(const Call& c) {
    return ToolCallPart{std::string(c.tool_call_id), std::string(c.function_name), json_value(c.arguments)};
}

/// An agent step's output message: reasoning, text, then tool calls (Gym's ingress order).
template <class Step>
Message output_message(const Step& step, const std::optional<std::string>& finish_reason, Losses* losses, const std::string& at) {
    Message m;
    m.role = "assistant";
    if (given(step.reasoning_content)) m.parts.push_back(ReasoningPart{std::string(**step.reasoning_content)});
    for (std::string& t : texts_of(step.message, losses, pointer(at, "message"))) m.parts.push_back(TextPart{std::move(t)});
    if (given(step.tool_calls))
        for (const auto& c : **step.tool_calls) m.parts.push_back(tool_call_part(c));
    m.finish_reason = finish_reason;
    return m;
}

std::vector<ToolCallPart> tool_calls_of(const Message& m) {
    std::vector<ToolCallPart> out;
    for (const Part& p : m.parts)
        if (const auto* c = std::get_if<ToolCallPart>(&p)) out.push_back(*c);
    return out;
}

/// tool_calls_of(m) == calls, without the copies.
bool has_calls(const Message& m, const std::vector<ToolCallPart>& calls) {
    std::size_t i = 0;
    for (const Part& p : m.parts) {
        const auto* c = std::get_if<ToolCallPart>(&p);
        if (c && (i == calls.size() || !(*c == calls[i++]))) return false;
    }
    return i == calls.size();
}

Json json_of(const Number& n) {
    switch (n.kind()) {
        case Number::Kind::integer: return Json(n.as_int64());
        case Number::Kind::unsigned_integer: return Json(n.as_uint64());
        default: return Json(n.as_double());
    }
}

template <class T>
Json json_of(const std::vector<T>& values) {
    Json out = Json::array();
    for (const T& v : values) out.push_back(Json(v));
    return out;
}

/// A content part the view holds, as the model has it.
AtifContentPart owned(const detail::view::AtifContentPart& p) {
    AtifContentPart out;
    out.type = p.type;
    if (p.text) out.text = p.text->is_null() ? Nullable<std::string>() : Nullable<std::string>(std::string(**p.text));
    if (p.source)
        out.source = p.source->is_null() ? Nullable<AtifImageSource>()
                                         : Nullable<AtifImageSource>(AtifImageSource{(*p.source)->media_type, std::string((*p.source)->path)});
    return out;
}
Json json_of(const std::vector<detail::view::AtifContentPart>& parts) {
    Json out = Json::array();
    for (const auto& p : parts) out.push_back(Json(owned(p)));
    return out;
}

// ----- the extension: what ATIF has no field for, under extra.sediment_rows -------------------------

struct StepExtension {
    std::optional<std::string> inference_call_id;
    std::optional<std::string> finish_reason;
    std::optional<std::string> completion;
    std::optional<std::vector<ToolCallPart>> tool_calls;
    std::optional<std::vector<Message>> new_messages;
    std::optional<std::vector<RLVRDecisionRow>> decisions;
};

template <class J>  // the metadata: Json of the model, or where the view holds it
struct TrajectoryExtension {
    std::optional<std::vector<Message>> input;
    std::optional<Number> reward;
    std::optional<J> metadata;  // read under the version of the row asked for (extension_metadata)
};

/// Reads the members of an extension object, each with the row schema's rules; `field(key, value)`
/// returns false for a key it does not know.
template <class Field>
void read_extension(Decoder& d, const Json& j, Field&& field) {
    if (!d.expect_object(j)) return;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!field(it.key(), *it)) d.error("rows.convert.extension", "unknown key " + detail::quoted(it.key(), Decoder::kQuoted));
    }
}

void read(Decoder& d, const Json& j, StepExtension& out) {
    read_extension(d, j, [&](const std::string& key, const Json& v) {
        auto at = d.at(key);
        if (key == "inference_call_id") detail::read(d, v, out.inference_call_id);
        else if (key == "finish_reason") detail::read(d, v, out.finish_reason);
        else if (key == "completion") detail::read(d, v, out.completion);
        else if (key == "tool_calls") detail::read(d, v, out.tool_calls);
        else if (key == "new_messages") detail::read(d, v, out.new_messages);
        else if (key == "decisions") detail::read(d, v, out.decisions);
        else return false;
        return true;
    });
}

void read(Decoder& d, const Json& j, TrajectoryExtension<Json>& out) {
    read_extension(d, j, [&](const std::string& key, const Json& v) {
        auto at = d.at(key);
        if (key == "input") detail::read(d, v, out.input);
        else if (key == "reward") detail::read(d, v, out.reward);
        else if (key == "metadata") out.metadata = v;
        else return false;
        return true;
    });
}

// The same where the view holds the extension: anything the fast readers do not accept (an error
// among them) is the model's to map.
template <class Field>
void read_extension(element j, Field&& field) {
    simdjson::dom::object members;
    if (j.get(members)) throw ViewRefused{};
    for (const auto member : members)
        if (!field(member.key, member.value)) throw ViewRefused{};
}

void read(Decoder&, element j, StepExtension& out) {
    read_extension(j, [&](std::string_view key, element v) {
        if (key == "inference_call_id") out.inference_call_id = read_view<std::string>(v);
        else if (key == "finish_reason") out.finish_reason = read_view<std::string>(v);
        else if (key == "completion") out.completion = read_view<std::string>(v);
        else if (key == "tool_calls") out.tool_calls = read_view<std::vector<ToolCallPart>>(v);
        else if (key == "new_messages") out.new_messages = read_view<std::vector<Message>>(v);
        else if (key == "decisions") out.decisions = read_view<std::vector<RLVRDecisionRow>>(v);
        else return false;
        return true;
    });
}

void read(Decoder&, element j, TrajectoryExtension<element>& out) {
    read_extension(j, [&](std::string_view key, element v) {
        if (key == "input") out.input = read_view<std::vector<Message>>(v);
        else if (key == "reward") out.reward = read_view<Number>(v);
        else if (key == "metadata") out.metadata = v;
        else return false;
        return true;
    });
}

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL) {
    for (const unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

/// Encodes `value` at the end of `text` and checks what it wrote under `schema`: the typed rules a value
/// built in C++ may break. `edit`, when given, changes the text before the check (build_atif: the
/// metadata put in; it sees `text` whole, and edits only its end).
template <class T>
void checked_text(const T& value, SchemaId schema, const std::string& at, const Limits& limits, std::string& text,
                  const std::function<void(std::string&)>& edit = {}) {
    const std::size_t from = text.size();
    std::vector<Error> errors;
    try {
        encode(value, text, Style::compact);
        if (edit) edit(text);
        errors = validate<T>(std::string_view(text).substr(from), schema, limits).errors;  // the check-only fast path, and the exact reader's errors
    } catch (const EncodeError& e) {
        errors.push_back(e.error());
    }
    if (errors.empty()) return;
    text.resize(from);
    for (Error& e : errors) e.pointer = at + e.pointer;
    throw ConvertError(std::move(errors));
}

/// checked_text() into a buffer of this thread's, whose memory the next call reuses (a huge
/// document's is given back); `use` reads the text.
template <class T, class Use = void (*)(std::string_view)>
void checked(const T& value, SchemaId schema, const std::string& at, const Limits& limits, Use use = [](std::string_view) {}) {
    thread_local std::string scratch;
    scratch.clear();
    checked_text(value, schema, at, limits, scratch);
    use(std::string_view(scratch));
    if (scratch.capacity() > (std::size_t{1} << 20)) std::string().swap(scratch);
}

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

std::string scoring_text(const RLVRInferenceMessageRow& output) {
    std::vector<std::string_view> items;
    for (const Part& p : output.parts)
        if (const auto* t = std::get_if<TextPart>(&p)) items.push_back(t->content);
    for (const Part& p : output.parts)
        if (const auto* c = std::get_if<ToolCallPart>(&p)) string_leaves(c->arguments, items);
    return join_nonempty(items);
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

Limits written_limits(const Limits& read) {
    Limits out = read;
    out.max_document_bytes = out.max_string_bytes = std::numeric_limits<std::size_t>::max();
    out.max_depth = std::max(read.max_depth, Limits{}.max_depth);
    return out;
}

void to_atif_text(const AnyRolloutRow& row, Style style, std::string& out, const Limits& limits) {
    const Limits written = written_limits(limits);
    if (style == Style::compact) std::visit([&](const auto& r) { to_atif_compact(r, out, written); }, row);
    else encode(std::visit([&](const auto& r) { return to_atif_of(r, true, written); }, row), out, style);
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
    const bool extended = text.find("\"sediment_rows\"") != std::string_view::npos;
    if (extended && fast::view_document(text, limits, view)) {
        try {
            out.metadata_fault = !convert_it(view, []() -> std::uint64_t { throw ViewRefused{}; });
            return;
        } catch (const ViewRefused&) {
            out.clear();
        }
    }
    const NemoGymAtifTrajectory trajectory = rows::decode<NemoGymAtifTrajectory>(text, limits);
    out.metadata_fault = !convert_it(trajectory, [&] { return fnv1a(rows::encode(trajectory)); });
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
