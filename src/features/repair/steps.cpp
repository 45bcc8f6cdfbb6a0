// A step's repairs: its id, source and agent-only fields, its message and content parts, its tool calls
// and its observation's results and references.
#include "walk.hpp"

#include <cstdlib>

#include "detail/isoformat.hpp"
#include "detail/text.hpp"

namespace sediment::rows::repair_detail {

using Kind = Node::Kind;

bool Walk::step(Node& s, std::size_t i, const std::string& at, const Names& embedded, bool& audio) {
    if (!s.is(Kind::object)) {
        refuse(at, "a step is " + std::string(kind_name(s)) + ", not an object");
        return false;
    }
    fields(s, Role::step, at);
    step_id(s, i, at);
    const std::string source = step_source(s, at);
    if (source.empty()) return false;
    if (source != "agent")
        for (const char* key : {"model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"})
            if (s.given(key)) move_out(s, Role::step, at, key, "an agent-only field on a " + source + " step", "rows.repair.agent_only");
    if (Node* effort = s.find("reasoning_effort"); effort && !effort->is(Kind::null) && !effort->is(Kind::string) && !effort->is(Kind::number))
        move_out(s, Role::step, at, "reasoning_effort", shown(*effort) + " is not a string or a number", "rows.repair.invalid_value");
    zero_calls(s, source, at);
    if (Node* ts = s.find("timestamp"); ts && ts->is(Kind::string) && !detail::PythonIsoformat::accepts_atif_timestamp(ts->text))
        move_out(s, Role::step, at, "timestamp", shown(*ts) + " is not a timestamp Python's datetime.fromisoformat reads", "rows.repair.timestamp");
    message(s, at, audio);
    Names calls;
    if (Node* tc = s.find("tool_calls"); tc && tc->is(Kind::array)) tool_calls(*tc, child(at, "tool_calls"), i + 1, calls);  // (another value went to extra)
    if (Node* m = s.find("metrics"); m && !m->is(Kind::null)) {
        if (m->is(Kind::object)) fields(*m, Role::metrics, child(at, "metrics"));
        else move_out(s, Role::step, at, "metrics", shown(*m) + " is not an object", "rows.repair.invalid_value");
    }
    if (Node* o = s.find("observation"); o && !o->is(Kind::null)) {
        if (o->is(Kind::object)) observation(*o, child(at, "observation"), calls, embedded, audio);
        else move_out(s, Role::step, at, "observation", shown(*o) + " is not an object", "rows.repair.invalid_value");
    }
    return true;
}

void Walk::step_id(Node& s, std::size_t i, const std::string& at) {
    const std::string want = std::to_string(i + 1);
    Node* id = s.find("step_id");
    if (id && is_integer_literal(*id) && id->raw == want) return;
    if (!id) {
        made("rows.repair.step_id", child(at, "step_id"), "missing: set to " + want + ", the step's position");
    } else {
        made("rows.repair.step_id", child(at, "step_id"), shown(*id) + " renumbered " + want + ", the step's position (the written id kept in extra)");
        keep_in_extra(s, at, "step_id", std::move(*id));
    }
    s.set("step_id", Node::number(want));
}

std::string Walk::step_source(Node& s, const std::string& at) {
    Node* v = s.find("source");
    if (!v || !v->is(Kind::string)) {
        refuse(child(at, "source"), v ? shown(*v) + " is not a source: who wrote the step cannot be told" : "a step without a source: who wrote it cannot be told");
        return {};
    }
    const std::string l = lower(stripped(v->text));
    if (l == v->text && (l == "system" || l == "user" || l == "agent")) return l;
    if (l == "system" || l == "user" || l == "agent") {
        made("rows.repair.source", child(at, "source"), shown(*v) + " written as \"" + l + "\"");
    } else if (l == "assistant") {
        made("rows.repair.source", child(at, "source"), shown(*v) + " written as \"agent\" (ATIF's name for the model's steps)", true);
        return *v = Node::string("agent"), "agent";
    } else {
        refuse(child(at, "source"), shown(*v) + " is not system, user or agent: who wrote the step cannot be told");
        return {};
    }
    *v = Node::string(l);
    return l;
}

void Walk::zero_calls(Node& s, const std::string& source, const std::string& at) {
    const Node* n = s.find("llm_call_count");
    if (!n || !is_integer_literal(*n) || std::strtod(n->raw.c_str(), nullptr) != 0) return;
    if (source != "agent" && !subset_) return;
    for (const char* key : {"reasoning_content", "metrics", "reasoning_effort"}) {
        if (std::string_view(key) == "reasoning_effort" && !subset_) continue;
        if (s.given(key)) move_out(s, Role::step, at, key, std::string(key) + " beside llm_call_count 0", "rows.repair.llm_call_count");
    }
}

void Walk::message(Node& s, const std::string& at, bool& audio) {
    const std::string where = child(at, "message");
    Node* m = s.find("message");
    if (!m || m->is(Kind::null)) {
        made("rows.repair.message", where, std::string(m ? "null" : "missing") + ": set to \"\"", true);
        s.set("message", Node::string(""));
        return;
    }
    content(*m, where, audio);
}

void Walk::content(Node& c, const std::string& at, bool& audio) {
    if (c.is(Kind::string)) return;
    if (c.is(Kind::number) || c.is(Kind::boolean)) {
        Node text = Node::string(c.is(Kind::number) ? c.raw : (c.flag ? "true" : "false"));
        made("rows.repair.type", at, shown(c) + " written as the string " + shown(text));
        c = std::move(text);
        return;
    }
    if (c.is(Kind::object)) {
        Node list = Node::array();
        list.items.push_back(std::move(c));
        c = std::move(list);
        made("rows.repair.list", at, "a single part where a list is expected: wrapped in a list");
    }
    std::vector<Node> kept;
    for (std::size_t k = 0; k < c.items.size(); ++k)
        if (part(c.items[k], child(at, k), audio)) kept.push_back(std::move(c.items[k]));
    c.items = std::move(kept);
}

bool Walk::part(Node& p, const std::string& at, bool& audio) {
    const auto drop = [&](const std::string& why) {
        made("rows.repair.part_dropped", at, why + ": the part dropped", true);
        return false;
    };
    if (p.is(Kind::string)) {
        Node text = Node::object();
        text.set("type", Node::string("text"));
        text.set("text", std::move(p));
        p = std::move(text);
        made("rows.repair.part_type", at, "a string where a part is expected: written as a text part");
    } else if (!p.is(Kind::object)) {
        return drop(std::string(kind_name(p)) + " where a part is expected");
    }
    std::string type;
    Node* t = p.find("type");
    if (t && t->is(Kind::string)) {
        type = lower(stripped(t->text));
        if (type != "text" && type != "image" && type != "audio") return drop("a part of type " + shown(*t) + ", which Harbor's model has not");
        if (type != t->text) made("rows.repair.part_type", child(at, "type"), shown(*t) + " written as \"" + type + "\"");
    } else if (t && !t->is(Kind::null)) {
        return drop("a part whose type is " + std::string(kind_name(*t)));
    } else {
        const Node* source = p.find("source");
        if (p.given("text") && !p.given("source")) type = "text";
        else if (source && source->is(Kind::object)) type = media_kind(*source);
        if (type.empty()) return drop("a part without a type, whose keys show none");
        made("rows.repair.part_type", child(at, "type"), std::string(t ? "null" : "missing") + ": set to \"" + type + "\", as its keys show");
    }
    p.set("type", Node::string(type));
    fields(p, Role::part, at);
    if (type == "text") {
        if (p.given("source")) made("rows.repair.part_stray", child(at, "source"), "a text part's source: dropped", true), p.take("source");
        if (!p.given("text")) made("rows.repair.part_text", child(at, "text"), "a text part without text: set to \"\"", true), p.set("text", Node::string(""));
        return true;
    }
    if (p.given("text")) made("rows.repair.part_stray", child(at, "text"), "an " + type + " part's text: dropped", true), p.take("text");
    Node* source = p.find("source");
    if (!source || !source->is(Kind::object)) return drop("an " + type + " part without a source");
    const std::string where = child(at, "source");
    fields(*source, type == "image" ? Role::image_source : Role::audio_source, where);
    Node* media = source->find("media_type");
    Node* path = source->find("path");
    if (!path || !path->is(Kind::string)) return drop("an " + type + " part whose source has no path");
    if (!media || !media->is(Kind::string)) return drop("an " + type + " part whose source has no media_type");
    if (type == "image") {
        if (!image_media_type(media->text)) return drop(shown(*media) + " is not an image media type Harbor's model has");
        return true;
    }
    audio = true;
    if (audio_media_type(media->text)) return true;
    const std::string canonical = canonical_audio(media->text);
    if (canonical.empty()) return drop(shown(*media) + " is not an audio media type Harbor's model has");
    made("rows.repair.media_type", child(where, "media_type"), shown(*media) + " written as \"" + canonical + "\", as Harbor's model reads it");
    *media = Node::string(canonical);
    return true;
}



void Walk::tool_calls(Node& list, const std::string& at, std::size_t step, Names& ids) {
    std::vector<Node> kept;
    for (std::size_t n = 0; n < list.items.size(); ++n) {
        Node& call = list.items[n];
        const std::string where = child(at, n);
        if (!call.is(Kind::object)) {
            made("rows.repair.tool_call_dropped", where, std::string(kind_name(call)) + " where a tool call is expected: dropped", true);
            continue;
        }
        fields(call, Role::tool_call, where);
        tool_call_id(call, where, step, n, ids);
        if (!string_given(call, where, "function_name")) give_string(call, where, "function_name", "unknown_tool", "rows.repair.function_name");
        arguments(call, where);
        kept.push_back(std::move(call));
    }
    list.items = std::move(kept);
}

void Walk::tool_call_id(Node& call, const std::string& at, std::size_t step, std::size_t n, Names& ids) {
    if (!string_given(call, at, "tool_call_id"))
        return give_string(call, at, "tool_call_id", ids.unique("call_" + std::to_string(step) + "_" + std::to_string(n + 1)),
                           "rows.repair.tool_call_id");
    Node* id = call.find("tool_call_id");
    if (!ids.taken(id->text)) return ids.add(id->text);
    const std::string name = ids.unique(id->text);
    made("rows.repair.tool_call_id", child(at, "tool_call_id"),
         shown(*id) + " repeats an earlier call's id in this step: written as \"" + name + "\" (the written one kept in extra)");
    keep_in_extra(call, at, "tool_call_id", std::move(*id));
    call.set("tool_call_id", Node::string(name));
}

void Walk::arguments(Node& call, const std::string& at) {
    const std::string where = child(at, "arguments");
    Node* a = call.find("arguments");
    if (a && a->is(Kind::object)) return;
    if (!a || a->is(Kind::null)) {
        made("rows.repair.arguments", where, std::string(a ? "null" : "missing") + ": set to {}", true);
        call.set("arguments", Node::object());
        return;
    }
    if (a->is(Kind::string)) {
        Node parsed;
        std::string why;
        if (read_lenient(a->text, parsed, why, Limits{}) && parsed.is(Kind::object)) {
            made("rows.repair.arguments", where, "a JSON-encoded object string: written as that object");
            json_level(parsed, where);
            *a = std::move(parsed);
            return;
        }
    }
    Node wrapped = Node::object();
    made("rows.repair.arguments", where, std::string(kind_name(*a)) + " where an object is expected: kept as {\"_raw\": value}");
    wrapped.set("_raw", std::move(*a));
    *a = std::move(wrapped);
}

void Walk::observation(Node& o, const std::string& at, const Names& calls, const Names& embedded, bool& audio) {
    fields(o, Role::observation, at);
    Node* results = o.find("results");
    if (!results || !results->is(Kind::array)) {
        if (!results || results->is(Kind::null)) {
            made("rows.repair.results", child(at, "results"), std::string(results ? "null" : "missing") + ": set to []");
        } else {
            made("rows.repair.results", child(at, "results"), shown(*results) + " is not a list of results: set to [] (an observation has no extra)", true);
        }
        o.set("results", Node::array());
        return;
    }
    std::vector<Node> kept;
    for (std::size_t j = 0; j < results->items.size(); ++j) {
        Node& r = results->items[j];
        const std::string where = child(child(at, "results"), j);
        if (!r.is(Kind::object)) {
            made("rows.repair.result_dropped", where, std::string(kind_name(r)) + " where a result is expected: dropped", true);
            continue;
        }
        result(r, where, calls, embedded, audio);
        kept.push_back(std::move(r));
    }
    results->items = std::move(kept);
}

void Walk::result(Node& r, const std::string& at, const Names& calls, const Names& embedded, bool& audio) {
    fields(r, Role::result, at);
    if (Node* id = r.find("source_call_id"); id && id->is(Kind::string) && !calls.taken(id->text))
        move_out(r, Role::result, at, "source_call_id", shown(*id) + " names no tool call of this step", "rows.repair.source_call_id");
    if (Node* c = r.find("content"); c && !c->is(Kind::null)) content(*c, child(at, "content"), audio);
    Node* refs = r.find("subagent_trajectory_ref");
    if (!refs || !refs->is(Kind::array)) return;
    const std::string where = child(at, "subagent_trajectory_ref");
    std::vector<Node> kept, unresolved;
    for (std::size_t k = 0; k < refs->items.size(); ++k) {
        Node& ref = refs->items[k];
        if (ref.is(Kind::object)) fields(ref, Role::subagent_ref, child(where, k));
        const Node* path = ref.is(Kind::object) ? ref.find("trajectory_path") : nullptr;
        const Node* id = ref.is(Kind::object) ? ref.find("trajectory_id") : nullptr;
        const bool by_path = path && path->is(Kind::string) && !path->text.empty();
        const bool by_id = id && id->is(Kind::string) && embedded.taken(id->text);
        if (by_path || by_id) {
            kept.push_back(std::move(ref));
            continue;
        }
        made("rows.repair.subagent_ref", child(where, k),
             std::string(!ref.is(Kind::object) ? "not a reference" : id && id->is(Kind::string) ? "names no embedded subagent and no trajectory_path"
                                                                                                   : "has no trajectory_id and no trajectory_path") +
                 ": moved into the result's extra");
        unresolved.push_back(std::move(ref));
    }
    refs->items = std::move(kept);
    if (unresolved.empty()) return;
    if (refs->items.empty()) r.take("subagent_trajectory_ref");
    Node list = Node::array();
    list.items = std::move(unresolved);
    keep_in_extra(r, at, "subagent_trajectory_ref", std::move(list));
}

}  // namespace sediment::rows::repair_detail
