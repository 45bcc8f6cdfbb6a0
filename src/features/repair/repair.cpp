// repair(): an ATIF trajectory brought to one Harbor's model (or NeMo Gym's subset) accepts, each
// change listed with its id (docs/atif.md, "Repairing a trajectory"). The document is read as Python's
// json reads it (tree.hpp); the field rules come from the bundled schema (model.hpp); the ATIF rules
// (step ids, tool call ids, references, agent-only fields, ...) are here. The output is then judged by
// the library's own validator: a repair never has the last word.
#include "sediment/rows/repair.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

#include "detail/isoformat.hpp"
#include "detail/relayout.hpp"
#include "detail/text.hpp"
#include "model.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/upgrade.hpp"
#include "tree.hpp"

namespace sediment::rows {
namespace repair_detail {
namespace {

using Kind = Node::Kind;

std::string child(const std::string& at, std::string_view key) {
    std::string p = at;
    detail::append_pointer_token(p, key);
    return p;
}
std::string child(const std::string& at, std::size_t i) { return at + "/" + std::to_string(i); }

/// A value as it reads in a message: its JSON text, cut to 64 bytes.
std::string shown(const Node& n) { return detail::printable(write_compact(n), 64); }

const char* kind_name(const Node& n) {
    switch (n.kind) {
        case Kind::null: return "null";
        case Kind::boolean: return "a boolean";
        case Kind::number: return "a number";
        case Kind::string: return "a string";
        case Kind::array: return "an array";
        case Kind::object: return "an object";
        case Kind::non_finite: return "a non-finite number";
    }
    return "a value";
}

bool is_integer_literal(const Node& n) { return n.is(Kind::number) && n.raw.find_first_of(".eE") == std::string::npos; }

/// Python's str.strip() of ASCII whitespace (what pydantic strips from a number's text).
std::string_view stripped(std::string_view s) {
    const char* space = " \t\n\r\f\v";
    const std::size_t from = s.find_first_not_of(space);
    if (from == std::string_view::npos) return {};
    return s.substr(from, s.find_last_not_of(space) - from + 1);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// Digits with single underscores between them, as Python's int() and float() read them; the digits
/// alone, or nothing when `s` is not such a run.
std::optional<std::string> python_digits(std::string_view s) {
    std::string digits;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] >= '0' && s[i] <= '9') {
            digits += s[i];
        } else if (s[i] != '_' || i == 0 || i + 1 == s.size() || !(s[i + 1] >= '0' && s[i + 1] <= '9')) {
            return std::nullopt;
        }
    }
    if (digits.empty()) return std::nullopt;
    return digits;
}

/// The JSON integer pydantic reads from a string: "2", " +2_0 ", "2.00" (zeros only after the point).
std::optional<std::string> integer_from_string(std::string_view text) {
    std::string_view s = stripped(text);
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) negative = s[0] == '-', s.remove_prefix(1);
    if (const std::size_t point = s.find('.'); point != std::string_view::npos) {
        const std::string_view fraction = s.substr(point + 1);
        if (fraction.empty() || fraction.find_first_not_of('0') != std::string_view::npos) return std::nullopt;
        s = s.substr(0, point);
    }
    std::optional<std::string> digits = python_digits(s);
    if (!digits) return std::nullopt;
    const std::size_t first = digits->find_first_not_of('0');
    if (first == std::string::npos) return std::string("0");
    return (negative ? "-" : "") + digits->substr(first);
}

/// Python's float() of a string: finite value, or nothing (not a number, or NaN or an infinity when
/// `non_finite` is set).
std::optional<double> float_from_string(std::string_view text, bool& non_finite) {
    std::string_view s = stripped(text);
    std::string plain;
    std::size_t i = 0;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) plain += s[i++];
    const std::string word = lower(s.substr(i));
    if (word == "nan" || word == "inf" || word == "infinity") return non_finite = true, std::nullopt;
    const std::size_t e = word.find('e');
    const std::string_view mantissa = std::string_view(word).substr(0, e);
    const std::size_t point = mantissa.find('.');
    const auto run = [](std::string_view part, bool may_be_empty) -> std::optional<std::string> {
        if (part.empty()) return may_be_empty ? std::optional<std::string>("") : std::nullopt;
        return python_digits(part);
    };
    const auto whole = run(mantissa.substr(0, point), point != std::string_view::npos);
    const auto fraction = point == std::string_view::npos ? std::optional<std::string>("") : run(mantissa.substr(point + 1), true);
    if (!whole || !fraction || whole->size() + fraction->size() == 0) return std::nullopt;
    plain += *whole + "." + *fraction;
    if (e != std::string::npos) {
        std::string_view exponent = std::string_view(word).substr(e + 1);
        std::string sign;
        if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) sign = exponent[0], exponent.remove_prefix(1);
        const auto digits = python_digits(exponent);
        if (!digits) return std::nullopt;
        plain += "e" + sign + *digits;
    }
    const double v = std::strtod(plain.c_str(), nullptr);
    if (!std::isfinite(v)) return non_finite = true, std::nullopt;
    return v;
}

/// True for JSON number syntax.
bool json_number_syntax(std::string_view s) {
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i > from;
    };
    if (i < s.size() && s[i] == '-') ++i;
    if (i < s.size() && s[i] == '0') ++i;
    else if (!digits()) return false;
    if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == s.size();
}

std::string repr(double v) {
    std::string out;
    detail::append_double(out, v);
    return out;
}

const char* scalar_name(Scalar s) {
    switch (s) {
        case Scalar::string: return "a string";
        case Scalar::integer: return "an integer";
        case Scalar::number: return "a number";
        case Scalar::boolean: return "a boolean";
        case Scalar::none: break;
    }
    return "a value";
}

/// ATIF's labels and the audio media types Harbor normalizes.
constexpr const char* kAudioAliases[][2] = {
    {"audio/mp3", "audio/mpeg"},  {"audio/mpga", "audio/mpeg"},  {"audio/x-mpeg", "audio/mpeg"}, {"audio/x-m4a", "audio/mp4"},
    {"audio/m4a", "audio/mp4"},   {"audio/x-wav", "audio/wav"},  {"audio/wave", "audio/wav"},    {"audio/vnd.wave", "audio/wav"},
    {"audio/x-aac", "audio/aac"}, {"audio/x-flac", "audio/flac"}, {"audio/x-aiff", "audio/aiff"}};
constexpr const char* kAudioTypes[] = {"audio/wav", "audio/mpeg", "audio/mp4", "audio/aac",
                                       "audio/ogg", "audio/flac", "audio/webm", "audio/aiff"};
constexpr const char* kImageTypes[] = {"image/jpeg", "image/png", "image/gif", "image/webp"};

template <std::size_t N>
bool among(std::string_view s, const char* const (&list)[N]) {
    for (const char* k : list)
        if (s == k) return true;
    return false;
}

/// The ATIF label `s` spells loosely ("atif-v1.7", "1.7", "ATIF_V1.7"), or empty.
std::string label_of(std::string_view s) {
    std::string l = lower(stripped(s));
    if (l.rfind("atif", 0) == 0) {
        l.erase(0, 4);
        if (!l.empty() && (l[0] == '-' || l[0] == '_' || l[0] == ' ')) l.erase(0, 1);
    }
    if (!l.empty() && l[0] == 'v') l.erase(0, 1);
    if (l.size() == 3 && l[0] == '1' && l[1] == '.' && l[2] >= '0' && l[2] <= '8') return "ATIF-v" + l;
    return {};
}

/// Names made unique by a suffix, as repair writes them: NAME, then NAME__2, NAME__3, ...
class Names {
public:
    bool taken(const std::string& name) const { return used_.count(name) != 0; }
    void add(const std::string& name) { used_.insert(name); }
    /// `base`, or the first of its suffixed forms not taken; taken from now on.
    std::string unique(const std::string& base) {
        std::string name = base;
        if (taken(name)) {
            int& k = next_[base];  // where the search for this base stopped (many repeats cost no more than their number)
            if (k < 2) k = 2;
            do name = base + "__" + std::to_string(k++);
            while (taken(name));
        }
        add(name);
        return name;
    }

private:
    std::set<std::string> used_;
    std::map<std::string, int> next_;
};

// ----- the walk ---------------------------------------------------------------------------------------

class Walk {
public:
    Walk(SchemaId target) : subset_(target == SchemaId::atif_v1_7) {
        for (std::size_t r = 0; r < static_cast<std::size_t>(Role::count); ++r) {
            harbor_[r] = &definition(SchemaId::atif, static_cast<Role>(r));
            strict_[r] = &definition(subset_ ? SchemaId::atif_v1_7 : SchemaId::atif, static_cast<Role>(r));
        }
    }

    std::vector<Repair> repairs;
    std::vector<Error> refusals;

    /// The lenient reading's leftovers, anywhere in the document (free-form values too): repeated
    /// keys, NaN and infinities, lone surrogates; under the subset, decimals that are not exactly the
    /// double they read as.
    void json_level(Node& n, const std::string& at) {
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

    /// The root trajectory, or an embedded one (`top` false).
    bool trajectory(Node& t, const std::string& at, bool top) {
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

private:
    const Definition& def(Role r) const { return *harbor_[static_cast<std::size_t>(r)]; }
    const Definition& strict(Role r) const { return *strict_[static_cast<std::size_t>(r)]; }

    void made(const char* id, const std::string& at, std::string message, bool lossy = false) {
        repairs.push_back(Repair{id, at, std::move(message), lossy});
    }
    void refuse(const std::string& at, std::string message) { refusals.push_back(Error{"rows.repair.refused", at, std::move(message)}); }

    void surrogate(Node& n, const std::string& at) {
        made("rows.repair.lone_surrogate", at, "a lone surrogate escape written as U+FFFD", true);
        n = Node::string(n.text);
    }

    /// Under the subset (NeMo Gym reads decimals exactly): a literal that is not the double it reads
    /// as is written as that double.
    void decimal(Node& n, const std::string& at) {
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

    void repeated_keys(Node& n, const std::string& at) {
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

    // ----- moving values aside ----------------------------------------------------------------------

    /// The object's `extra`, made an object first (created when absent or null; another value is
    /// kept in it as `_raw`).
    Node& extra_of(Node& obj, const std::string& at) {
        Node* e = obj.find("extra");
        if (e && e->is(Kind::object)) return *e;
        if (e && !e->is(Kind::null)) {
            Node wrapped = Node::object();
            wrapped.set("_raw", std::move(*e));
            made("rows.repair.extra", child(at, "extra"), "extra was " + std::string(kind_name(wrapped.members[0].value)) + ": kept as extra._raw");
            return *e = std::move(wrapped);
        }
        return obj.set("extra", Node::object());
    }

    /// Puts `value` into the object's extra as `key` (or key__2, ... when extra holds that key).
    std::string keep_in_extra(Node& obj, const std::string& at, const std::string& key, Node value) {
        Node& extra = extra_of(obj, at);
        Names names;
        for (const Member& m : extra.members) names.add(m.key);
        const std::string name = names.unique(key);
        extra.members.push_back(Member{name, quote(name), false, std::move(value)});
        return name;
    }

    /// Takes the member `key` out of `obj` for `why`: into its extra (lossless), or dropped where the
    /// object has none (lossy).
    void move_out(Node& obj, Role role, const std::string& at, const std::string& key, const std::string& why, const char* id) {
        Node value = obj.take(key);
        if (def(role).has_extra) {
            const std::string name = keep_in_extra(obj, at, key, std::move(value));
            made(id, child(at, key), why + ": moved into extra" + (name == key ? "" : " as '" + name + "'"));
        } else {
            made(id, child(at, key), why + ": dropped (this object has no extra)", true);
        }
    }

    // ----- one object's fields ------------------------------------------------------------------------

    /// `v` read as the scalar `s` the way Harbor's model coerces it (pydantic's lax mode), written in
    /// its type; false when pydantic refuses it too.
    bool coerce(Node& v, Scalar s, const std::string& at) {
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

    static bool below(const Node& v, const std::optional<double>& minimum) {
        return minimum && v.is(Kind::number) && std::strtod(v.raw.c_str(), nullptr) < *minimum;
    }

    /// The value of field `f` is of its type (after coercion) and within its bounds, here and (under
    /// the subset) in the subset's definition of the same field.
    bool holds(Node& v, const Field& f, const Field* s, const std::string& at) {
        if (v.is(Kind::null)) return f.nullable;
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

    /// Each member of `obj` as the definition of `role` has it: an unknown key moved into extra (or
    /// dropped), a single object where a list of objects is expected wrapped in one, a scalar coerced,
    /// an optional value still of the wrong type moved into extra. A required field that stays wrong is
    /// left to the caller.
    void fields(Node& obj, Role role, const std::string& at) {
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

    /// A required string field: coerced, or (lossy) given `fallback`, the written value kept in extra.
    void required_string(Node& obj, Role role, const std::string& at, const char* key, const std::string& fallback, const char* id) {
        Node* v = obj.find(key);
        if (v && (v->is(Kind::string) || coerce(*v, Scalar::string, child(at, key)))) return;
        const char* was = v ? (v->is(Kind::null) ? "null" : "not a string") : "missing";
        const bool kept = v && !v->is(Kind::null);
        if (kept) keep_in_extra(obj, at, key, std::move(*v));  // (v dangles from here: extra may be new)
        made(id, child(at, key), std::string(was) + ": set to \"" + fallback + "\"" + (kept ? " (the written value kept in extra)" : ""), true);
        obj.set(key, Node::string(fallback));
        (void)role;
    }

    // ----- the trajectory's parts ---------------------------------------------------------------------

    void schema_version(Node& t, const std::string& at) {
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

    void agent(Node& a, const std::string& at) {
        fields(a, Role::agent, at);
        Node* name = a.find("name");
        if (!name || !(name->is(Kind::string) || coerce(*name, Scalar::string, child(at, "name")))) {
            refuse(child(at, "name"), "no agent name");
            return;
        }
        required_string(a, Role::agent, at, "version", "unknown", "rows.repair.agent_version");
    }

    /// The embedded subagents: each repaired as a trajectory, each with a distinct trajectory_id;
    /// `ids` gets them.
    void subagents(Node& list, const std::string& at, Names& ids) {
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

    bool step(Node& s, std::size_t i, const std::string& at, const Names& embedded, bool& audio) {
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
        if (Node* tc = s.find("tool_calls"); tc && tc->is(Kind::array)) tool_calls(*tc, child(at, "tool_calls"), i + 1, calls);
        else if (tc && !tc->is(Kind::null)) move_out(s, Role::step, at, "tool_calls", shown(*tc) + " is not a list of tool calls", "rows.repair.invalid_value");
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

    void step_id(Node& s, std::size_t i, const std::string& at) {
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

    /// The step's source, re-cased where needed; empty (and refused) when it cannot be told.
    std::string step_source(Node& s, const std::string& at) {
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

    /// llm_call_count 0: no model call, so no reasoning or metrics (the subset: no reasoning_effort
    /// either, on any step).
    void zero_calls(Node& s, const std::string& source, const std::string& at) {
        const Node* n = s.find("llm_call_count");
        if (!n || !is_integer_literal(*n) || std::strtod(n->raw.c_str(), nullptr) != 0) return;
        if (source != "agent" && !subset_) return;
        for (const char* key : {"reasoning_content", "metrics", "reasoning_effort"}) {
            if (std::string_view(key) == "reasoning_effort" && !subset_) continue;
            if (s.given(key)) move_out(s, Role::step, at, key, std::string(key) + " beside llm_call_count 0", "rows.repair.llm_call_count");
        }
    }

    void message(Node& s, const std::string& at, bool& audio) {
        const std::string where = child(at, "message");
        Node* m = s.find("message");
        if (!m || m->is(Kind::null)) {
            made("rows.repair.message", where, std::string(m ? "null" : "missing") + ": set to \"\"", true);
            s.set("message", Node::string(""));
            return;
        }
        content(*m, where, audio);
    }

    /// A message or result content: text, or a list of parts.
    void content(Node& c, const std::string& at, bool& audio) {
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

    /// One content part: false when it goes (lossy).
    bool part(Node& p, const std::string& at, bool& audio) {
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
            if (!among(media->text, kImageTypes)) return drop(shown(*media) + " is not an image media type Harbor's model has");
            return true;
        }
        audio = true;
        if (among(media->text, kAudioTypes)) return true;
        for (const auto& alias : kAudioAliases)
            if (media->text == alias[0]) return true;
        const std::string canonical = canonical_audio(media->text);
        if (canonical.empty()) return drop(shown(*media) + " is not an audio media type Harbor's model has");
        made("rows.repair.media_type", child(where, "media_type"), shown(*media) + " written as \"" + canonical + "\", as Harbor's model reads it");
        *media = Node::string(canonical);
        return true;
    }

    /// Harbor's reading of an audio media type: stripped, lower-cased, an alias as its canonical type.
    static std::string canonical_audio(std::string_view written) {
        const std::string l = lower(stripped(written));
        if (among(l, kAudioTypes)) return l;
        for (const auto& alias : kAudioAliases)
            if (l == alias[0]) return alias[1];
        return {};
    }

    /// "image" or "audio" as a source's keys show, or empty.
    static std::string media_kind(const Node& source) {
        if (source.find("duration_sec")) return "audio";
        const Node* media = source.find("media_type");
        if (!media || !media->is(Kind::string)) return {};
        const std::string l = lower(stripped(media->text));
        if (l.rfind("image/", 0) == 0) return "image";
        if (l.rfind("audio/", 0) == 0) return "audio";
        return {};
    }

    void tool_calls(Node& list, const std::string& at, std::size_t step, Names& ids) {
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
            required_string(call, Role::tool_call, where, "function_name", "unknown_tool", "rows.repair.function_name");
            arguments(call, where);
            kept.push_back(std::move(call));
        }
        list.items = std::move(kept);
    }

    void tool_call_id(Node& call, const std::string& at, std::size_t step, std::size_t n, Names& ids) {
        const std::string where = child(at, "tool_call_id");
        Node* id = call.find("tool_call_id");
        if (id && (id->is(Kind::string) || coerce(*id, Scalar::string, where))) {
            if (!ids.taken(id->text)) return ids.add(id->text);
            const std::string name = ids.unique(id->text);
            made("rows.repair.tool_call_id", where, shown(*id) + " repeats an earlier call's id in this step: written as \"" + name + "\" (the written one kept in extra)");
            keep_in_extra(call, at, "tool_call_id", std::move(*id));
            call.set("tool_call_id", Node::string(name));
            return;
        }
        const std::string name = ids.unique("call_" + std::to_string(step) + "_" + std::to_string(n + 1));
        const char* was = id ? (id->is(Kind::null) ? "null" : "not a string") : "missing";
        const bool kept = id && !id->is(Kind::null);
        if (kept) keep_in_extra(call, at, "tool_call_id", std::move(*id));  // (id dangles from here)
        made("rows.repair.tool_call_id", where, std::string(was) + ": set to \"" + name + "\"" + (kept ? " (the written value kept in extra)" : ""), true);
        call.set("tool_call_id", Node::string(name));
    }

    void arguments(Node& call, const std::string& at) {
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

    void observation(Node& o, const std::string& at, const Names& calls, const Names& embedded, bool& audio) {
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

    void result(Node& r, const std::string& at, const Names& calls, const Names& embedded, bool& audio) {
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

    void final_metrics(Node& fm, std::size_t steps, const std::string& at) {
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

    /// Audio parts need ATIF-v1.8: a trajectory labelled below it that holds one is relabelled.
    void audio_label(Node& t, const std::string& at) {
        Node* v = t.find("schema_version");
        if (!v || !v->is(Kind::string) || v->text == "ATIF-v1.8") return;
        made("rows.repair.audio_label", child(at, "schema_version"), shown(*v) + " relabelled \"ATIF-v1.8\": the trajectory holds audio parts, which ATIF-v1.8 added");
        *v = Node::string("ATIF-v1.8");
    }

    bool subset_;
    const Definition* harbor_[static_cast<std::size_t>(Role::count)];
    const Definition* strict_[static_cast<std::size_t>(Role::count)];
};

}  // namespace
}  // namespace repair_detail

Repaired repair(std::string_view text, SchemaId schema, const RepairOptions& options) {
    using namespace repair_detail;
    if (schema != SchemaId::atif && schema != SchemaId::atif_v1_7)
        throw std::invalid_argument("repair takes ATIF trajectories: schema atif or atif-v1.7, not " + std::string(schema_info(schema).name));
    Repaired out;
    if (validate(schema, text, options.limits).errors.empty()) {
        out.text.assign(text);
        return out;
    }
    Node tree;
    std::string why;
    if (!read_lenient(text, tree, why, options.limits)) {
        out.errors.push_back(Error{"rows.repair.refused", "", "not JSON: " + why});
        return out;
    }
    Walk walk(schema);
    walk.json_level(tree, "");
    if (walk.trajectory(tree, "", true) && walk.refusals.empty()) {
        std::string repaired = write_compact(tree);
        if (schema == SchemaId::atif_v1_7) {
            const Node* label = tree.find("schema_version");
            if (!label || label->text != "ATIF-v1.7")
                walk.repairs.push_back(Repair{"rows.repair.schema_version", "/schema_version",
                                              (label ? shown(*label) : std::string("no label")) + " relabelled \"ATIF-v1.7\" for NeMo Gym's subset (each ATIF version only added fields)", false});
            Upgraded up;
            if (upgrade(repaired, "atif", SchemaId::atif_v1_7, up, out.errors, options.style, ConvertOptions{true}, options.limits)) {
                for (const Error& loss : up.losses) walk.repairs.push_back(Repair{"rows.repair.part_dropped", loss.pointer, loss.message + ": the part dropped", true});
                out.text = std::move(up.text);
            }
        } else {
            out.errors = validate(SchemaId::atif, repaired, options.limits).errors;
            if (out.errors.empty()) out.text = detail::relayout(repaired, options.style);
        }
    }
    for (Error& e : walk.refusals) out.errors.push_back(std::move(e));
    if (out.errors.empty() && !options.lossy)
        for (const Repair& r : walk.repairs)
            if (r.lossy) out.errors.push_back(Error{r.id, r.pointer, "needs --lossy: " + r.message});
    if (!out.errors.empty()) {
        out.text.clear();
        return out;
    }
    out.repairs = std::move(walk.repairs);
    return out;
}

}  // namespace sediment::rows
