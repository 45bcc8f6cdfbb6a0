// What both directions of ATIF v1.7 <-> NeMo Gym rollout rows share (docs/atif-mapping.md). One function builds an agent step's
// output message and one builds its text back from a completion; both directions use them, so that
// to_row_parts(to_atif(parts)) == parts holds by construction and the tests check it.
#pragma once


#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <set>
#include <string>

#include "detail/fast.hpp"
#include "detail/scoring_text.hpp"

#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "sediment/rows/convert.hpp"

namespace sediment::rows::convert_impl {

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

inline std::string pointer(std::string base, std::string_view token) {
    detail::append_pointer_token(base, token);
    return base;
}
inline std::string pointer(const std::string& base, std::size_t index) { return base + "/" + std::to_string(index); }

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

inline const Json& json_value(const Json& j) { return j; }
inline Json json_value(element e) { return read_view<Json>(e); }
inline Json json_value(const detail::view::JsonView& j) { return json_value(j.value); }

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
inline const Json* member_of(const std::optional<Nullable<Json>>& extra, std::string_view key) {
    if (!given(extra)) return nullptr;
    const auto it = (*extra)->find(std::string(key));
    return it == (*extra)->end() ? nullptr : &*it;
}
inline std::optional<element> member_of(const std::optional<Nullable<detail::view::JsonView>>& extra, std::string_view key) {
    element e;
    if (!given(extra) || (*extra)->value.at_key(key).get(e)) return std::nullopt;
    return e;
}

/// A string member of an object, when it has one.
inline std::optional<std::string_view> string_member(const Json& j, const char* key) {
    if (!j.is_object()) return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return std::string_view(it->get_ref<const std::string&>());
}
inline std::optional<std::string_view> string_member(element e, const char* key) {
    std::string_view s;
    if (e.at_key(key).get(s)) return std::nullopt;
    return s;
}

// ----- the pieces both directions share -------------------------------------------------------------

/// The string leaves of the calls' arguments, joined as a scoring text's are.
inline std::string arguments_text(const std::vector<ToolCallPart>& calls) {
    std::string text;
    detail::Joined joined{text};
    for (const ToolCallPart& c : calls) detail::leaves(c.arguments, joined);
    return text;
}

/// The output text an agent step needs so that its scoring text is `completion`, when only the
/// completion survives (the last turn): the completion without the argument text it ends with. When
/// that is impossible, the whole completion (to_atif then records the completion in the extension).
inline std::string text_before_arguments(const std::string& completion, const std::vector<ToolCallPart>& calls) {
    const std::string tail = arguments_text(calls);
    if (tail.empty()) return completion;
    if (completion == tail) return "";
    const std::size_t n = tail.size() + 1;
    if (completion.size() > n && completion.compare(completion.size() - n, n, "\n" + tail) == 0)
        return completion.substr(0, completion.size() - n);
    return completion;
}

/// Row text -> ATIF content: "" for no part, the string for one non-empty part, else the parts.
inline AtifContent content_of(std::vector<std::string> texts) {
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
inline AtifContent text_content(const std::string& text) {
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

inline std::vector<Part> text_parts(const std::vector<std::string>& texts) {
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

inline std::vector<ToolCallPart> tool_calls_of(const Message& m) {
    std::vector<ToolCallPart> out;
    for (const Part& p : m.parts)
        if (const auto* c = std::get_if<ToolCallPart>(&p)) out.push_back(*c);
    return out;
}

/// tool_calls_of(m) == calls, without the copies.
inline bool has_calls(const Message& m, const std::vector<ToolCallPart>& calls) {
    std::size_t i = 0;
    for (const Part& p : m.parts) {
        const auto* c = std::get_if<ToolCallPart>(&p);
        if (c && (i == calls.size() || !(*c == calls[i++]))) return false;
    }
    return i == calls.size();
}

inline Json json_of(const Number& n) {
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
inline AtifContentPart owned(const detail::view::AtifContentPart& p) {
    AtifContentPart out;
    out.type = p.type;
    if (p.text) out.text = p.text->is_null() ? Nullable<std::string>() : Nullable<std::string>(std::string(**p.text));
    if (p.source)
        out.source = p.source->is_null() ? Nullable<AtifImageSource>()
                                         : Nullable<AtifImageSource>(AtifImageSource{(*p.source)->media_type, std::string((*p.source)->path)});
    return out;
}
inline Json json_of(const std::vector<detail::view::AtifContentPart>& parts) {
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

inline void read(Decoder& d, const Json& j, StepExtension& out) {
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

inline void read(Decoder& d, const Json& j, TrajectoryExtension<Json>& out) {
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

inline void read(Decoder&, element j, StepExtension& out) {
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

inline void read(Decoder&, element j, TrajectoryExtension<element>& out) {
    read_extension(j, [&](std::string_view key, element v) {
        if (key == "input") out.input = read_view<std::vector<Message>>(v);
        else if (key == "reward") out.reward = read_view<Number>(v);
        else if (key == "metadata") out.metadata = v;
        else return false;
        return true;
    });
}

inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL) {
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

}  // namespace sediment::rows::convert_impl
