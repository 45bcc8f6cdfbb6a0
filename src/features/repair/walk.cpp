// The walk (walk.hpp): a trajectory and its agent, final metrics and embedded subagents; each object's
// fields as the schema has them; the values moved aside into extra; the JSON-level leftovers.
#include "walk.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "detail/text.hpp"

namespace sediment::rows::repair_detail {

using Kind = Node::Kind;

Walk::Walk(SchemaId target) : subset_(target == SchemaId::atif_v1_7) {
    for (std::size_t r = 0; r < static_cast<std::size_t>(Role::count); ++r) {
        harbor_[r] = &definition(SchemaId::atif, static_cast<Role>(r));
        strict_[r] = &definition(subset_ ? SchemaId::atif_v1_7 : SchemaId::atif, static_cast<Role>(r));
    }
}

void Walk::json_level(Node& n, const std::string& at) {
    switch (n.kind) {
        case Kind::non_finite:
            made("rows.repair.non_finite", at, n.raw + " written as null (JSON has no such number)", true);
            n = Node::null();
            return;
        case Kind::string:
            if (n.flag) surrogate(n, at);
            return;
        case Kind::number:
            if (n.raw.find_first_of(".eE") != std::string::npos) decimal(n, at);
            return;
        case Kind::array:
            for (std::size_t i = 0; i < n.items.size(); ++i) json_level(n.items[i], child(at, i));
            return;
        case Kind::object:
            repeated_keys(n, at);
            for (Member& m : n.members) {
                if (m.key_surrogate) {
                    made("rows.repair.lone_surrogate", child(at, m.key), "a lone surrogate escape in a key written as U+FFFD", true);
                    m.raw_key = quote(m.key);
                    m.key_surrogate = false;
                }
                json_level(m.value, child(at, m.key));
            }
            return;
        default: return;
    }
}

bool Walk::trajectory(Node& t, const std::string& at, bool top) {
    if (!t.is(Kind::object)) {
        refuse(at, top ? "the root is " + std::string(kind_name(t)) + ", not a trajectory object"
                       : "an embedded subagent trajectory is " + std::string(kind_name(t)) + ", not an object");
        return false;
    }
    schema_version(t, at);
    fields(t, Role::trajectory, at);
    Node* agent = t.find("agent");
    if (!agent || !agent->is(Kind::object)) {
        refuse(child(at, "agent"), agent ? "the agent is " + std::string(kind_name(*agent)) + ": a trajectory names its agent"
                                         : "no agent: a trajectory names its agent");
        return false;
    }
    this->agent(*agent, child(at, "agent"));
    Node* steps = t.find("steps");
    if (!steps || !steps->is(Kind::array) || steps->items.empty()) {
        refuse(child(at, "steps"), steps ? "no steps (" + std::string(steps->is(Kind::array) ? "an empty array" : kind_name(*steps)) + ")"
                                         : "no steps");
        return false;
    }
    Names embedded;
    if (Node* subs = t.find("subagent_trajectories"); subs && subs->is(Kind::array))
        subagents(*subs, child(at, "subagent_trajectories"), embedded);
    bool audio = false;
    for (std::size_t i = 0; i < steps->items.size(); ++i)
        if (!step(steps->items[i], i, child(child(at, "steps"), i), embedded, audio)) return false;
    if (Node* fm = t.find("final_metrics"); fm && fm->is(Kind::object)) final_metrics(*fm, steps->items.size(), child(at, "final_metrics"));
    if (audio) audio_label(t, at);
    return true;
}

void Walk::made(const char* id, const std::string& at, std::string message, bool lossy) {
    repairs.push_back(Repair{id, at, std::move(message), lossy});
}

void Walk::surrogate(Node& n, const std::string& at) {
    made("rows.repair.lone_surrogate", at, "a lone surrogate escape written as U+FFFD", true);
    n = Node::string(n.text);
}

void Walk::decimal(Node& n, const std::string& at) {
    if (!subset_) return;
    const double v = std::strtod(n.raw.c_str(), nullptr);
    if (!std::isfinite(v)) {
        made("rows.repair.non_finite", at, n.raw + " is beyond a double's range: written as null", true);
        n = Node::null();
    } else if (!detail::decimal_is_exact(n.raw, v)) {
        const std::string exact = repr(v);
        made("rows.repair.decimal", at, n.raw + " written as " + exact + ", the double it reads as");
        n = Node::number(exact);
    }
}

void Walk::repeated_keys(Node& n, const std::string& at) {
    std::map<std::string, std::size_t> count;
    bool repeated = false;
    for (const Member& m : n.members) repeated = ++count[m.key] > 1 || repeated;
    if (!repeated) return;
    std::vector<Member> kept;
    std::map<std::string, std::size_t> first;  // each key's place in `kept`
    std::set<std::string> differ;
    for (Member& m : n.members) {
        const auto [at_first, added] = first.emplace(m.key, kept.size());
        if (added) {
            kept.push_back(std::move(m));
            continue;
        }
        Member& earlier = kept[at_first->second];
        if (write_compact(earlier.value) != write_compact(m.value)) differ.insert(m.key);
        earlier.value = std::move(m.value);  // the last value, in the first one's place
    }
    for (const Member& m : kept) {
        const std::size_t times = count[m.key];
        if (times < 2) continue;
        const bool lossy = differ.count(m.key) != 0;
        made("rows.repair.duplicate_key", child(at, m.key),
             "key '" + detail::printable(m.key, 64) + "' given " + std::to_string(times) + " times: the last kept" +
                 (lossy ? " (the others held other values)" : " (all the same value)"),
             lossy);
    }
    n.members = std::move(kept);
}

Node& Walk::extra_of(Node& obj, const std::string& at) {
    Node* e = obj.find("extra");
    if (!e || e->is(Kind::null)) return obj.set("extra", Node::object());
    raw_extra(*e, at);
    return *e;
}

void Walk::raw_extra(Node& extra, const std::string& at) {
    if (extra.is(Kind::object) || extra.is(Kind::null)) return;
    made("rows.repair.extra", child(at, "extra"), "extra was " + std::string(kind_name(extra)) + ": kept as extra._raw");
    Node wrapped = Node::object();
    wrapped.set("_raw", std::move(extra));
    extra = std::move(wrapped);
}

std::string Walk::keep_in_extra(Node& obj, const std::string& at, const std::string& key, Node value) {
    Node& extra = extra_of(obj, at);
    Names names;
    for (const Member& m : extra.members) names.add(m.key);
    const std::string name = names.unique(key);
    extra.members.push_back(Member{name, quote(name), false, std::move(value)});
    return name;
}

void Walk::move_out(Node& obj, Role role, const std::string& at, const std::string& key, const std::string& why, const char* id) {
    Node value = obj.take(key);
    if (def(role).has_extra) {
        const std::string name = keep_in_extra(obj, at, key, std::move(value));
        made(id, child(at, key), why + ": moved into extra" + (name == key ? "" : " as '" + name + "'"));
    } else {
        made(id, child(at, key), why + ": dropped (this object has no extra)", true);
    }
}

bool Walk::coerce(Node& v, Scalar s, const std::string& at) {
    const std::string before = shown(v);
    const auto retyped = [&](Node n, const char* how) {
        made("rows.repair.type", at, before + " written as " + how + " " + shown(n));
        v = std::move(n);
        return true;
    };
    switch (s) {
        case Scalar::string:
            if (v.is(Kind::string)) return true;
            if (v.is(Kind::number)) return retyped(Node::string(v.raw), "the string");
            return false;
        case Scalar::integer:
            if (is_integer_literal(v)) return true;
            if (v.is(Kind::boolean)) return retyped(Node::integer(v.flag ? 1 : 0), "the integer");
            if (v.is(Kind::number)) {
                const double d = std::strtod(v.raw.c_str(), nullptr);
                if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18)
                    return retyped(Node::integer(static_cast<long long>(d)), "the integer");
                return false;
            }
            if (v.is(Kind::string))
                if (const auto i = integer_from_string(v.text)) return retyped(Node::number(*i), "the integer");
            return false;
        case Scalar::number:
            if (v.is(Kind::number)) return true;
            if (v.is(Kind::boolean)) return retyped(Node::number(v.flag ? "1.0" : "0.0"), "the number");
            if (v.is(Kind::string)) {
                bool non_finite = false;
                const auto d = float_from_string(v.text, non_finite);
                if (non_finite) {
                    made("rows.repair.non_finite", at, before + " written as null (JSON has no such number)", true);
                    v = Node::null();
                    return true;
                }
                if (!d) return false;
                std::string literal(stripped(v.text));
                if (!literal.empty() && literal[0] == '+') literal.erase(0, 1);
                return retyped(Node::number(json_number_syntax(literal) ? literal : repr(*d)), "the number");
            }
            return false;
        case Scalar::boolean: {
            if (v.is(Kind::boolean)) return true;
            if (v.is(Kind::number)) {
                const double d = std::strtod(v.raw.c_str(), nullptr);
                if (d == 0 || d == 1) return retyped(Node::boolean(d == 1), "the boolean");
                return false;
            }
            if (!v.is(Kind::string)) return false;
            const std::string l = lower(v.text);
            for (const char* yes : {"1", "on", "t", "true", "y", "yes"})
                if (l == yes) return retyped(Node::boolean(true), "the boolean");
            for (const char* no : {"0", "off", "f", "false", "n", "no"})
                if (l == no) return retyped(Node::boolean(false), "the boolean");
            return false;
        }
        case Scalar::none: break;
    }
    return true;
}

bool Walk::below(const Node& v, const std::optional<double>& minimum) {
    return minimum && v.is(Kind::number) && std::strtod(v.raw.c_str(), nullptr) < *minimum;
}

bool Walk::holds(Node& v, const Field& f, const Field* s, const std::string& at) {
    if (v.is(Kind::null)) return f.nullable;
    if (f.array && !v.is(Kind::array)) return false;
    if (f.free_objects) return std::all_of(v.items.begin(), v.items.end(), [](const Node& item) { return item.is(Kind::object); });
    if (f.scalar != Scalar::none) return coerce(v, f.scalar, at) && !below(v, f.minimum) && !(s && below(v, s->minimum));
    if (f.items != Scalar::none) {
        if (!v.is(Kind::array)) return false;
        bool ok = true;
        for (std::size_t i = 0; i < v.items.size(); ++i) {
            Node& item = v.items[i];
            ok = coerce(item, f.items, child(at, i)) && !item.is(Kind::null) && !below(item, f.minimum) &&
                 !(s && below(item, s->minimum)) && ok;
        }
        return ok;
    }
    return true;
}

void Walk::fields(Node& obj, Role role, const std::string& at) {
    const Definition& d = def(role);
    struct Aside {
        Member member;
        std::string why;
        const char* id;
    };
    std::vector<Member> kept;
    std::vector<Aside> aside;  // (one pass: an object of many unknown keys costs no more than its size)
    for (Member& m : obj.members) {
        Node& v = m.value;
        const Field* f = d.field(m.key);
        if (!f) {
            std::string why = "unknown key '" + detail::printable(m.key, 64) + "'";
            aside.push_back({std::move(m), std::move(why), "rows.repair.unknown_key"});
            continue;
        }
        if (f->objects && v.is(Kind::object)) {
            Node list = Node::array();
            list.items.push_back(std::move(v));
            v = std::move(list);
            made("rows.repair.list", child(at, m.key), "a single object where a list is expected: wrapped in a list");
        }
        if (m.key == "extra") raw_extra(v, at);
        const Field* s = strict(role).known ? strict(role).field(m.key) : nullptr;
        if (m.key == "extra" || holds(v, *f, s, child(at, m.key)) || !f->nullable) {
            kept.push_back(std::move(m));
            continue;
        }
        std::string why = v.is(Kind::null) ? "null" : shown(v) + " is not " +
            (f->scalar != Scalar::none ? std::string(scalar_name(f->scalar)) + (f->minimum || (s && s->minimum) ? " in range" : "")
                                       : "what the field holds");
        aside.push_back({std::move(m), std::move(why), "rows.repair.invalid_value"});
    }
    obj.members = std::move(kept);
    if (aside.empty()) return;
    if (!d.has_extra) {
        for (const Aside& a : aside) made(a.id, child(at, a.member.key), a.why + ": dropped (this object has no extra)", true);
        return;
    }
    Node& extra = extra_of(obj, at);
    Names names;
    for (const Member& m : extra.members) names.add(m.key);
    for (Aside& a : aside) {
        const std::string name = names.unique(a.member.key);
        made(a.id, child(at, a.member.key), a.why + ": moved into extra" + (name == a.member.key ? "" : " as '" + name + "'"));
        extra.members.push_back(Member{name, name == a.member.key ? std::move(a.member.raw_key) : quote(name), false, std::move(a.member.value)});
    }
}

bool Walk::string_given(Node& obj, const std::string& at, const char* key) {
    Node* v = obj.find(key);
    return v && (v->is(Kind::string) || coerce(*v, Scalar::string, child(at, key)));
}

void Walk::give_string(Node& obj, const std::string& at, const char* key, const std::string& fallback, const char* id) {
    Node* v = obj.find(key);
    const char* was = v ? (v->is(Kind::null) ? "null" : "not a string") : "missing";
    const bool kept = v && !v->is(Kind::null);
    if (kept) keep_in_extra(obj, at, key, std::move(*v));  // (v dangles from here: extra may be new)
    made(id, child(at, key), std::string(was) + ": set to \"" + fallback + "\"" + (kept ? " (the written value kept in extra)" : ""), true);
    obj.set(key, Node::string(fallback));
}

void Walk::schema_version(Node& t, const std::string& at) {
    Node* v = t.find("schema_version");
    if (!v) return;
    const std::string where = child(at, "schema_version");
    if (v->is(Kind::null)) {
        t.take("schema_version");
        made("rows.repair.schema_version", where, "null removed (an absent label reads as ATIF-v1.8)");
        return;
    }
    const std::string written = v->is(Kind::string) ? v->text : v->is(Kind::number) ? v->raw : "";
    if (v->is(Kind::string) && label_of(written) == written) return;
    if (const std::string label = label_of(written); !label.empty()) {
        made("rows.repair.schema_version", where, shown(*v) + " written as the label \"" + label + "\"");
        *v = Node::string(label);
        return;
    }
    made("rows.repair.schema_version", where, shown(*v) + " is no ATIF label: removed (read as ATIF-v1.8)", true);
    t.take("schema_version");
}

void Walk::agent(Node& a, const std::string& at) {
    fields(a, Role::agent, at);
    Node* name = a.find("name");
    if (!name || !(name->is(Kind::string) || coerce(*name, Scalar::string, child(at, "name")))) {
        refuse(child(at, "name"), "no agent name");
        return;
    }
    if (!string_given(a, at, "version")) give_string(a, at, "version", "unknown", "rows.repair.agent_version");
}

void Walk::subagents(Node& list, const std::string& at, Names& ids) {
    for (std::size_t k = 0; k < list.items.size(); ++k) {
        Node& sub = list.items[k];
        const std::string where = child(at, k);
        if (!trajectory(sub, where, false)) return;
        Node* id = sub.find("trajectory_id");
        const bool named = id && id->is(Kind::string);
        if (named && !ids.taken(id->text)) {
            ids.add(id->text);
            continue;
        }
        const std::string name = ids.unique(named ? id->text : "subagent_" + std::to_string(k + 1));
        if (named) {
            made("rows.repair.trajectory_id", child(where, "trajectory_id"),
                 "trajectory_id " + shown(*id) + " repeats an earlier subagent's: written as \"" + name + "\" (the written one kept in extra)");
            keep_in_extra(sub, where, "trajectory_id", *id);  // (id dangles from here)
        } else {
            made("rows.repair.trajectory_id", child(where, "trajectory_id"), "an embedded subagent without a trajectory_id: given \"" + name + "\"", true);
        }
        sub.set("trajectory_id", Node::string(name));
    }
}

void Walk::final_metrics(Node& fm, std::size_t steps, const std::string& at) {
    const std::string where = child(at, "total_steps");
    if (Node* total = fm.find("total_steps"); total && !total->is(Kind::null)) {
        const std::string want = std::to_string(steps);
        const bool valid = coerce(*total, Scalar::integer, where) && is_integer_literal(*total) && total->raw[0] != '-';
        if (!valid || (subset_ && total->raw != want)) {
            made("rows.repair.total_steps", where, shown(*total) + " recomputed as " + want + ", the number of steps (the written value kept in extra)");
            keep_in_extra(fm, at, "total_steps", std::move(*total));
            fm.set("total_steps", Node::number(want));
        }
    }
    fields(fm, Role::final_metrics, at);
}

void Walk::audio_label(Node& t, const std::string& at) {
    Node* v = t.find("schema_version");
    if (!v || !v->is(Kind::string) || v->text == "ATIF-v1.8") return;
    made("rows.repair.audio_label", child(at, "schema_version"), shown(*v) + " relabelled \"ATIF-v1.8\": the trajectory holds audio parts, which ATIF-v1.8 added");
    *v = Node::string("ATIF-v1.8");
}

}  // namespace sediment::rows::repair_detail
