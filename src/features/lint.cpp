// Lint: the derivation rules of ../docs/lint.md, within a row and across rows.
#include "sediment/rows/lint.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "sediment/rows/decode.hpp"
#include "detail/fast.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows {

// ----- SHA-256 and the split -------------------------------------------------------------------

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void sha256_block(std::uint32_t h[8], const unsigned char* p) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
        w[i] = std::uint32_t(p[4 * i]) << 24 | std::uint32_t(p[4 * i + 1]) << 16 | std::uint32_t(p[4 * i + 2]) << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; ++i) {
        const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; ++i) {
        const std::uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[i] + w[i];
        const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

}  // namespace

std::array<unsigned char, 32> sha256(std::string_view bytes) {
    std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t n = bytes.size();
    for (; n >= 64; n -= 64, p += 64) sha256_block(h, p);
    unsigned char tail[128] = {};
    std::memcpy(tail, p, n);
    tail[n] = 0x80;
    const std::size_t blocks = n < 56 ? 1 : 2;
    const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
    for (int i = 0; i < 8; ++i) tail[blocks * 64 - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    for (std::size_t b = 0; b < blocks; ++b) sha256_block(h, tail + 64 * b);
    std::array<unsigned char, 32> out{};
    for (int i = 0; i < 32; ++i) out[i] = static_cast<unsigned char>(h[i / 4] >> (24 - 8 * (i % 4)));
    return out;
}

double split_score(std::string_view session_id) {
    const auto digest = sha256(session_id);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | digest[i];
    return static_cast<double>(v) / 18446744073709551616.0;  // as Python's int / 2 ** 64: correctly rounded
}

Split split_of(std::string_view session_id, double eval_fraction) {
    return split_score(session_id) < eval_fraction ? Split::eval : Split::train;
}

void check_lint_options(const LintOptions& options) {
    if (!(options.eval_fraction >= 0.0 && options.eval_fraction <= 0.5))
        throw std::invalid_argument("the eval fraction is 0.0 to 0.5");
}

// ----- the resolution algorithm ----------------------------------------------------------------
// The rules read a row as its model (lint_row) or as its view (lint() of a text: strings where the
// parser left them, free-form values in its DOM); both are the same templates.

namespace {

/// The model a value is: itself, or the model a view model views.
template <class T, class = void>
struct model_of {
    using type = T;
};
template <class T>
struct model_of<T, std::void_t<typename T::viewed_model>> {
    using type = typename T::viewed_model;
};
template <class T>
using model_t = typename model_of<T>::type;

/// A version 4 CI outcome, which may identify its repository.
template <class O>
constexpr bool kIdentifies = std::is_same_v<model_t<O>, CIOutcomeV3>;

std::string str(std::string_view s) { return std::string(s); }

template <class O>
bool identified(const O& o) {
    if constexpr (kIdentifies<O>) return o.repository_provider.has_value();
    else return false;
}

/// A lineage: org, CI provider, repository qualification (identified, repository provider and host)
/// and run_id.
using Lineage = std::tuple<std::string_view, int, bool, std::string_view, std::string_view, std::string_view>;

template <class O>
Lineage lineage_of(const O& o) {
    if constexpr (kIdentifies<O>)
        if (identified(o))
            return {o.org_id, static_cast<int>(o.provider), true, *o.repository_provider,
                    o.repository_host ? std::string_view(*o.repository_host) : std::string_view(), o.run_id};
    return {o.org_id, static_cast<int>(o.provider), false, {}, {}, o.run_id};
}

bool directional(Result r) { return r == Result::passed || r == Result::failed; }

/// The run's one non-empty value of a field, or none.
template <class O, class F>
auto the(const std::vector<const O*>& run, F field) -> decltype(field(*run.front())) {
    for (const O* o : run)
        if (const auto* v = field(*o); v && !v->empty()) return v;
    return nullptr;
}

template <class O>
CIWorkflowResolution resolve_lineage(std::vector<const O*> run) {
    std::stable_sort(run.begin(), run.end(), [](const O* a, const O* b) {
        return std::forward_as_tuple(a->run_attempt.value_or(0), a->outcome_id) <
               std::forward_as_tuple(b->run_attempt.value_or(0), b->outcome_id);
    });
    CIWorkflowResolution w;
    w.provider = run.front()->provider;
    w.run_id = run.front()->run_id;
    w.branch = run.front()->branch;
    const auto nullable = [](const auto& v) { return v ? &*v : nullptr; };
    if (const auto* v = the(run, [&](const O& o) { return nullable(o.workflow_id); })) w.workflow_id = str(*v);
    if (const auto* v = the(run, [&](const O& o) { return nullable(o.workflow_path); })) w.workflow_path = str(*v);
    if (const auto* v = the(run, [](const O& o) { return &o.workflow_name; })) w.workflow_name = *v;
    bool passed = false, failed = false, others = false;
    const O* last_verdict = nullptr;
    for (const O* o : run) {
        w.source_outcome_ids.emplace_back(o->outcome_id);
        if (directional(o->result)) {
            (o->result == Result::passed ? passed : failed) = true;
            last_verdict = o;
        } else {
            others = true;
            w.non_verdict_outcome_ids.emplace_back(o->outcome_id);
        }
    }
    w.suspected_flake = passed && failed;
    if (last_verdict) {
        w.verdict = last_verdict->result == Result::passed ? Verdict::passed : Verdict::failed;
        w.verdict_outcome_id = str(last_verdict->outcome_id);
        w.reliability = Number(w.suspected_flake ? 0.0 : 1.0);  // a non-verdict attempt's 1.0 lowers nothing
    } else if (others) {
        w.reliability = Number(1.0);
    }
    std::sort(w.source_outcome_ids.begin(), w.source_outcome_ids.end());
    std::sort(w.non_verdict_outcome_ids.begin(), w.non_verdict_outcome_ids.end());
    return w;
}

template <class O>
CommitResolution resolve(const std::vector<const O*>& outcomes) {
    std::map<Lineage, std::vector<const O*>> runs;
    for (const O* o : outcomes) runs[lineage_of(*o)].push_back(o);
    CommitResolution r;
    for (auto& [key, run] : runs) r.workflow_resolutions.push_back(resolve_lineage(run));
    const auto order = [](const CIWorkflowResolution& w) {
        const auto text = [](const Nullable<std::string>& v) { return v ? std::string_view(*v) : std::string_view(); };
        return std::make_tuple(to_string(w.provider), text(w.workflow_id), text(w.workflow_path),
                               std::string_view(w.workflow_name), std::string_view(w.run_id));
    };
    std::stable_sort(r.workflow_resolutions.begin(), r.workflow_resolutions.end(),
                     [&](const auto& a, const auto& b) { return order(a) < order(b); });
    std::set<Verdict> verdicts;
    double reliability = 1.0;
    for (const CIWorkflowResolution& w : r.workflow_resolutions) {
        if (w.verdict) verdicts.insert(*w.verdict);
        if (w.reliability) reliability = std::min(reliability, w.reliability->value());
        r.suspected_flake = r.suspected_flake || w.suspected_flake;
        r.source_outcome_ids.insert(r.source_outcome_ids.end(), w.source_outcome_ids.begin(), w.source_outcome_ids.end());
        if (w.verdict_outcome_id) r.verdict_outcome_ids.push_back(*w.verdict_outcome_id);
        r.non_verdict_outcome_ids.insert(r.non_verdict_outcome_ids.end(), w.non_verdict_outcome_ids.begin(),
                                         w.non_verdict_outcome_ids.end());
    }
    if (verdicts.size() == 1) {  // disagreeing lineages leave verdict and reliability null
        r.verdict = *verdicts.begin();
        r.reliability = Number(reliability);
    }
    for (auto* ids : {&r.source_outcome_ids, &r.verdict_outcome_ids, &r.non_verdict_outcome_ids})
        std::sort(ids->begin(), ids->end());
    return r;
}

template <class O>
CommitResolution resolve_all(const std::vector<O>& outcomes) {
    std::vector<const O*> refs;
    for (const O& o : outcomes) refs.push_back(&o);
    return refs.empty() ? CommitResolution() : resolve(refs);
}

}  // namespace

CommitResolution resolve_commit(const std::vector<CIOutcomeV1>& outcomes) { return resolve_all(outcomes); }
CommitResolution resolve_commit(const std::vector<CIOutcomeV3>& outcomes) { return resolve_all(outcomes); }

// ----- the rules within a row ------------------------------------------------------------------

namespace {

/// `s` as a JSON string literal, cut to 120 bytes of content.
std::string string_literal(std::string_view s) {
    std::string out;
    detail::Writer w(out, Style::sediment);
    if (s.size() <= 120) {
        w.string(s);
    } else {
        std::size_t cut = 117;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
        w.string(std::string(s.substr(0, cut)) + "...");
    }
    return w.finish();
}

std::string literal(const Number& n) {
    std::string out;
    detail::Writer w(out, Style::sediment);
    w.number(n);
    return w.finish();
}

template <class T>
std::string literal(const Nullable<T>& v) {
    if (!v) return "null";
    if constexpr (std::is_convertible_v<T, std::string_view>) return string_literal(*v);
    else if constexpr (std::is_same_v<T, Number>) return literal(*v);
    else return string_literal(to_string(*v));
}

template <class S>
std::string literal(const std::vector<S>& ids) {
    std::string out = "[";
    for (std::size_t i = 0; i < ids.size() && i < 4; ++i) out += (i ? ", " : "") + string_literal(ids[i]);
    if (ids.size() > 4) out += ", ... (" + std::to_string(ids.size()) + ")";
    return out + "]";
}

std::string at(std::string_view base, std::size_t i) { return std::string(base) + "/" + std::to_string(i); }

struct Findings {
    std::vector<Error>& out;
    void add(const char* id, std::string pointer, std::string message) {
        out.push_back({id, std::move(pointer), std::move(message)});
    }
};

/// Scoring text: text parts, then the string leaves of tool-call arguments (keys sorted), empty
/// items skipped, joined with "\n".
void leaves(const Json& v, std::string& out) {
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (!s.empty()) out.append(out.empty() ? "" : "\n").append(s);
    } else if (v.is_object()) {
        std::vector<const Json::object_t::value_type*> members;
        for (const auto& m : v.get_ref<const Json::object_t&>()) members.push_back(&m);
        std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
        for (const auto* m : members) leaves(m->second, out);
    } else if (v.is_array()) {
        for (const Json& x : v) leaves(x, out);
    }
}

/// The same of a free-form value in the parser's DOM.
void leaves(const detail::view::JsonView& v, std::string& out) {
    using simdjson::dom::element_type;
    const simdjson::dom::element e = v.value;
    if (e.type() == element_type::STRING) {
        const std::string_view s = e.get_string().value_unsafe();
        if (!s.empty()) out.append(out.empty() ? "" : "\n").append(s);
    } else if (e.type() == element_type::OBJECT) {
        std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
        const simdjson::dom::object object = e.get_object().value_unsafe();
        for (const auto m : object) members.emplace_back(m.key, m.value);
        std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& m : members) leaves(detail::view::JsonView{m.second}, out);
    } else if (e.type() == element_type::ARRAY) {
        const simdjson::dom::array array = e.get_array().value_unsafe();
        for (const simdjson::dom::element x : array) leaves(detail::view::JsonView{x}, out);
    }
}

/// The alternative of the union P (a model's or a view's) that is or views T.
template <class T, class P, std::size_t... I>
constexpr std::size_t alternative_of(std::index_sequence<I...>) {
    constexpr bool same[] = {std::is_same_v<T, model_t<std::variant_alternative_t<I, P>>>...};
    std::size_t i = 0;
    while (i < sizeof...(I) && !same[i]) ++i;
    return i;
}

/// The part `p` (of a model's message or a view's) as a T (TextPart, ...), or null.
template <class T, class P>
const auto* part_as(const P& p) {
    return std::get_if<alternative_of<T, P>(std::make_index_sequence<std::variant_size_v<P>>())>(&p);
}

template <class M>
std::string scoring_text(const M& output) {
    std::string out;
    for (const auto& p : output.parts)
        if (const auto* t = part_as<TextPart>(p); t && !t->content.empty())
            out.append(out.empty() ? "" : "\n").append(t->content);
    for (const auto& p : output.parts)
        if (const auto* c = part_as<ToolCallPart>(p)) leaves(c->arguments, out);
    return out;
}

template <class P, class R>
void lint_turns(const P& params, const R& response, Findings& f) {
    const auto& turns = response.turns;
    for (std::size_t k = 0; k < turns.size(); ++k) {
        const auto& turn = turns[k];
        const auto base = [k] { return at("/response/turns", k); };  // pointers are made for findings only
        std::set<std::string_view> calls;  // the calls its tool results may answer: the echoed output's
        std::size_t first = 0;             // new_messages before it hold no tool result to check
        if (k == 0) {
            const auto& input = params.input;
            const auto& got = turn.new_messages;
            std::size_t i = 0;
            while (i < input.size() && i < got.size() && input[i] == got[i]) ++i;
            if (i < input.size() || i < got.size())
                f.add("rows.lint.turns.input", i < got.size() ? at(base() + "/new_messages", i) : base() + "/new_messages",
                      i < input.size() && i < got.size()
                          ? "expected message " + std::to_string(i) + " of responses_create_params.input: turn 0's new_messages is the input"
                          : "expected the " + std::to_string(input.size()) + " messages of responses_create_params.input, got " +
                                std::to_string(got.size()));
        } else {
            const auto& previous = turns[k - 1];
            const auto prev = [k] { return at("/response/turns", k - 1); };
            if (turn.new_messages.empty() || turn.new_messages[0].role != "assistant") {
                for (const auto& c : previous.tool_calls) calls.insert(c.id);  // the output, as far as it shows
                f.add("rows.lint.turns.echo", turn.new_messages.empty() ? base() + "/new_messages" : base() + "/new_messages/0/role",
                      "expected the echo of turn " + std::to_string(k - 1) + "'s output (an assistant message) first, got " +
                          (turn.new_messages.empty() ? std::string("no message") : string_literal(turn.new_messages[0].role)));
            } else {
                const auto& echo = turn.new_messages[0];
                first = 1;
                std::vector<const typename std::decay_t<decltype(previous.tool_calls)>::value_type*> echoed;
                for (const auto& p : echo.parts)
                    if (const auto* c = part_as<ToolCallPart>(p)) echoed.push_back(c), calls.insert(c->id);
                std::size_t i = 0;
                while (i < echoed.size() && i < previous.tool_calls.size() && *echoed[i] == previous.tool_calls[i]) ++i;
                if (i < echoed.size() || i < previous.tool_calls.size()) {
                    const std::string what = "the tool-call parts of its output, echoed in turn " + std::to_string(k);
                    if (i < echoed.size() && i < previous.tool_calls.size())
                        f.add("rows.lint.turns.tool_calls", at(prev() + "/tool_calls", i),
                              "expected tool call " + string_literal(echoed[i]->id) + " (" + what + "), got " + string_literal(previous.tool_calls[i].id) +
                                  (echoed[i]->id == previous.tool_calls[i].id ? " with other name or arguments" : ""));
                    else
                        f.add("rows.lint.turns.tool_calls", prev() + "/tool_calls",
                              "expected " + std::to_string(echoed.size()) + " tool calls (" + what + "), got " +
                                  std::to_string(previous.tool_calls.size()));
                }
                const std::string expected = scoring_text(echo);
                if (expected != previous.completion)
                    f.add("rows.lint.turns.completion", prev() + "/completion",
                          "expected " + string_literal(expected) + " (the scoring text of its output, echoed in turn " + std::to_string(k) +
                              "), got " + string_literal(previous.completion));
            }
        }
        for (std::size_t m = first; m < turn.new_messages.size(); ++m) {
            const auto& parts = turn.new_messages[m].parts;
            for (std::size_t p = 0; p < parts.size(); ++p) {
                if (const auto* r = part_as<ToolCallResponsePart>(parts[p]); r && !calls.count(r->id)) {
                    f.add("rows.lint.turns.tool_result", at(at(base() + "/new_messages", m) + "/parts", p) + "/id",
                          "expected the id of a call " +
                              (k == 0 ? std::string("of an earlier input message") : "of turn " + std::to_string(k - 1)) +
                              " (the turn this one follows), got " + string_literal(r->id));
                }
                if (const auto* c = part_as<ToolCallPart>(parts[p]); c && k == 0) calls.insert(c->id);
            }
        }
    }
}

/// Whether outcome `o` is of the resolution's commit: its sha, and its repository (identity, else name).
template <class O, class C>
bool of_commit(const O& o, const C& ci) {
    if (o.commit_sha != ci.commit_sha) return false;
    if constexpr (kIdentifies<O>) {
        const auto& id = ci.repository_identity;
        if (id) return identified(o) && o.repository_host == id->host && o.repository_id == id->repository_id;
        return !identified(o) && o.repo == ci.repo;
    } else {
        return o.repo == ci.repo;
    }
}

/// A commit's repository-qualified identity, for grouping outcomes by commit.
template <class O>
std::string commit_key(const O& o) {
    if constexpr (kIdentifies<O>)
        if (identified(o))
            return str(o.commit_sha) + '\0' + str(o.repository_host.value_or("")) + '\0' + str(o.repository_id.value_or("")) + '\1';
    return str(o.commit_sha) + '\0' + str(o.repo);
}

template <class S>
void compare_ids(const std::vector<std::string>& expected, const std::vector<S>& got, const std::string& base, const char* field, Findings& f) {
    std::size_t i = 0;
    while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
    if (i == expected.size() && i == got.size()) return;
    const std::string pointer = base + "/" + field;
    if (i < expected.size() && i < got.size())
        f.add("rows.lint.ci_resolution", at(pointer, i), "expected " + string_literal(expected[i]) + ", got " + string_literal(got[i]));
    else
        f.add("rows.lint.ci_resolution", pointer, "expected " + literal(expected) + ", got " + literal(got));
}

void compare_flag(bool expected, bool got, const std::string& base, const char* field, Findings& f) {
    if (expected != got)
        f.add("rows.lint.ci_resolution", base + "/" + field, std::string("expected ") + (expected ? "true" : "false") + ", got " + (got ? "true" : "false"));
}

template <class T, class U>
void compare_value(const Nullable<T>& expected, const Nullable<U>& got, const std::string& base, const char* field, Findings& f) {
    bool same = expected.is_null() == got.is_null();
    if constexpr (std::is_same_v<T, Number>) same = same && (!got || got->value() == expected->value());
    else same = same && (!got || *got == *expected);
    if (!same) f.add("rows.lint.ci_resolution", base + "/" + field, "expected " + literal(expected) + ", got " + literal(got));
}

template <class W>
void compare_workflow(const CIWorkflowResolution& e, const W& g, const std::string& p, Findings& f) {
    if (e.provider != g.provider || e.run_id != g.run_id) {
        f.add("rows.lint.ci_resolution", p,
              "expected the resolution of " + std::string(to_string(e.provider)) + " run " + string_literal(e.run_id) +
                  " here (sorted by provider, workflow_id, workflow_path, workflow_name, run_id), got " +
                  std::string(to_string(g.provider)) + " run " + string_literal(g.run_id));
        return;
    }
    compare_value(e.workflow_id, g.workflow_id, p, "workflow_id", f);
    if (e.workflow_name != g.workflow_name)
        f.add("rows.lint.ci_resolution", p + "/workflow_name", "expected " + string_literal(e.workflow_name) + ", got " + string_literal(g.workflow_name));
    compare_value(e.workflow_path, g.workflow_path, p, "workflow_path", f);
    if (e.branch != g.branch)
        f.add("rows.lint.ci_resolution", p + "/branch", "expected " + string_literal(e.branch) + ", got " + string_literal(g.branch));
    compare_value(e.verdict, g.verdict, p, "verdict", f);
    compare_value(e.reliability, g.reliability, p, "reliability", f);
    compare_flag(e.suspected_flake, g.suspected_flake, p, "suspected_flake", f);
    compare_ids(e.source_outcome_ids, g.source_outcome_ids, p, "source_outcome_ids", f);
    compare_value(e.verdict_outcome_id, g.verdict_outcome_id, p, "verdict_outcome_id", f);
    compare_ids(e.non_verdict_outcome_ids, g.non_verdict_outcome_ids, p, "non_verdict_outcome_ids", f);
}

template <class C>
void compare_resolution(const CommitResolution& e, const C& g, Findings& f) {
    const std::string p = "/metadata/ci_resolution";
    compare_value(e.verdict, g.verdict, p, "verdict", f);
    compare_value(e.reliability, g.reliability, p, "reliability", f);
    compare_flag(e.suspected_flake, g.suspected_flake, p, "suspected_flake", f);
    if (e.workflow_resolutions.size() != g.workflow_resolutions.size())
        f.add("rows.lint.ci_resolution", p + "/workflow_resolutions",
              "expected " + std::to_string(e.workflow_resolutions.size()) + " workflow resolutions (one per CI run of the commit), got " +
                  std::to_string(g.workflow_resolutions.size()));
    else
        for (std::size_t i = 0; i < e.workflow_resolutions.size(); ++i)
            compare_workflow(e.workflow_resolutions[i], g.workflow_resolutions[i], at(p + "/workflow_resolutions", i), f);
    compare_ids(e.source_outcome_ids, g.source_outcome_ids, p, "source_outcome_ids", f);
    compare_ids(e.verdict_outcome_ids, g.verdict_outcome_ids, p, "verdict_outcome_ids", f);
    compare_ids(e.non_verdict_outcome_ids, g.non_verdict_outcome_ids, p, "non_verdict_outcome_ids", f);
}

template <class M>
void lint_outcomes(const M& md, Findings& f) {
    const auto& results = md.verifier_results;
    using O = typename std::decay_t<decltype(results)>::value_type;
    std::map<Lineage, std::size_t> runs;  // lineage -> first outcome
    for (std::size_t i = 0; i < results.size(); ++i) {
        const O& o = results[i];
        const auto p = [i] { return at("/metadata/verifier_results", i); };
        if (i > 0 && !(results[i - 1].outcome_id < o.outcome_id))
            f.add("rows.lint.verifier_results.order", p() + "/outcome_id",
                  "expected an outcome_id after " + string_literal(results[i - 1].outcome_id) + " (sorted, each once), got " + string_literal(o.outcome_id));
        if (o.org_id != md.org_id)
            f.add("rows.lint.verifier_results.org", p() + "/org_id", "expected the row's org " + string_literal(md.org_id) + ", got " + string_literal(o.org_id));
        if constexpr (kIdentifies<O>) {
            const int set = o.repository_provider.has_value() + o.repository_host.has_value() + o.repository_id.has_value();
            if (set != 0 && set != 3)
                f.add("rows.lint.ci_outcome.repository", p(),
                      "expected repository_provider, repository_host and repository_id all set or all null, got " + std::to_string(set) + " of 3 set");
            else if (set == 3 && o.schema_version == 1)
                f.add("rows.lint.ci_outcome.payload_version", p() + "/repository_provider",
                      "expected null: a payload of schema_version 1 was stored before repository identity existed, got " +
                          literal(o.repository_provider));
        }
        // the attempts of one run agree on its branch and its one non-empty workflow id, name and path
        const auto [it, fresh] = runs.emplace(lineage_of(o), i);
        if (fresh) continue;
        const O& a = results[it->second];
        const auto differs = [](const auto& x, const auto& y) {
            const auto text = [](const auto& v) -> std::string_view {
                if constexpr (std::is_convertible_v<decltype(v), std::string_view>) return v;
                else return v ? std::string_view(*v) : std::string_view();
            };
            return !text(x).empty() && !text(y).empty() && text(x) != text(y);
        };
        const char* field = a.branch != o.branch ? "branch"
                            : differs(a.workflow_id, o.workflow_id)     ? "workflow_id"
                            : differs(a.workflow_name, o.workflow_name) ? "workflow_name"
                            : differs(a.workflow_path, o.workflow_path) ? "workflow_path"
                                                                        : nullptr;
        if (field)
            f.add("rows.lint.verifier_results.run", p() + "/" + field,
                  "expected the " + std::string(field) + " of run " + string_literal(o.run_id) + "'s other attempt (" + at("/metadata/verifier_results", it->second) +
                      "): one run has one");
    }
}

template <class M>
void lint_resolution(const M& md, const std::optional<Number>& reward, Findings& f) {
    using O = typename decltype(md.verifier_results)::value_type;
    const auto& ci = md.ci_resolution;
    const bool passed = ci && ci->verdict == Verdict::passed, failed = ci && ci->verdict == Verdict::failed;
    // reward, reward_source and the verdict
    if (passed || failed) {
        const char* verdict = passed ? "\"passed\"" : "\"failed\"";
        const double want = passed ? 1.0 : 0.0;
        if (!reward)
            f.add("rows.lint.reward", "", std::string("expected reward ") + (passed ? "1.0" : "0.0") + " for verdict " + verdict + ", got none");
        else if (reward->kind() != Number::Kind::floating || reward->value() != want || std::signbit(reward->value()))
            f.add("rows.lint.reward", "/reward", std::string("expected ") + (passed ? "1.0" : "0.0") + " for verdict " + verdict + ", got " + literal(*reward));
        const RewardSource source = passed ? RewardSource::resolved_ci_pass : RewardSource::resolved_ci_fail;
        if (!md.reward_source)
            f.add("rows.lint.reward_source", "/metadata",
                  "expected reward_source " + string_literal(to_string(source)) + " for verdict " + verdict + ", got none");
        else if (*md.reward_source != source)
            f.add("rows.lint.reward_source", "/metadata/reward_source",
                  "expected " + string_literal(to_string(source)) + " for verdict " + verdict + ", got " + string_literal(to_string(*md.reward_source)));
    } else {
        const std::string without = ci ? "without a directional verdict" : "without a ci_resolution";
        if (ci)
            f.add("rows.lint.ci_resolution.verdict", "/metadata/ci_resolution/verdict",
                  "expected \"passed\" or \"failed\": a row carries a ci_resolution only with a directional verdict, got " + literal(ci->verdict));
        if (reward) f.add("rows.lint.reward", "/reward", "expected no reward " + without + ", got " + literal(*reward));
        if (md.reward_source)
            f.add("rows.lint.reward_source", "/metadata/reward_source",
                  "expected no reward_source " + without + ", got " + string_literal(to_string(*md.reward_source)));
    }
    if (!ci) {
        // no attributed commit of the session resolves to a verdict, or the row would carry its resolution
        std::map<std::string, std::vector<const O*>> commits;
        std::set<std::string_view> claimed;  // names an identified outcome holds: a legacy outcome of one is declined
        for (const O& o : md.verifier_results) {
            if (identified(o)) claimed.insert(o.repo);
            commits[commit_key(o)].push_back(&o);
        }
        for (const auto& [key, outcomes] : commits) {
            const O& o = *outcomes.front();
            if (!identified(o) && claimed.count(o.repo)) continue;
            const CommitResolution r = resolve(outcomes);
            if (r.verdict == Verdict::passed || r.verdict == Verdict::failed) {
                f.add("rows.lint.ci_resolution.missing", "/metadata",
                      "expected a ci_resolution: commit " + string_literal(o.commit_sha) + " of " + string_literal(o.repo) + " resolves to " +
                          literal(r.verdict) + " from verifier_results, got none");
                break;
            }
        }
        return;
    }
    const std::string p = "/metadata/ci_resolution";
    if (ci->org_id != md.org_id)
        f.add("rows.lint.ci_resolution.org", p + "/org_id", "expected the row's org " + string_literal(md.org_id) + ", got " + string_literal(ci->org_id));
    if (ci->provenance.quarantine_revision != md.provenance.quarantine_revision)
        f.add("rows.lint.ci_resolution.quarantine", p + "/provenance/quarantine_revision",
              "expected the row's quarantine revision " + std::to_string(md.provenance.quarantine_revision) + ", got " +
                  std::to_string(ci->provenance.quarantine_revision));
    std::vector<const O*> outcomes;
    for (const O& o : md.verifier_results)
        if (of_commit(o, *ci)) outcomes.push_back(&o);
    if (outcomes.empty()) {
        f.add("rows.lint.ci_resolution.outcomes", p + "/commit_sha",
              "expected a commit with CI outcomes in verifier_results, got " + string_literal(ci->commit_sha) + " of " + string_literal(ci->repo) + ", which has none");
        return;
    }
    if constexpr (kIdentifies<O>) {
        for (const O* o : outcomes)
            if (ci->repository_identity && o->repo < ci->repo) {
                f.add("rows.lint.ci_resolution.repo", p + "/repo",
                      "expected the smallest observed name of its repository, at most " + string_literal(o->repo) + " (an outcome's), got " + string_literal(ci->repo));
                break;
            }
    }
    compare_resolution(resolve(outcomes), *ci, f);
}

template <class R>
void lint(const R& row, std::vector<Error>& out, const LintOptions& options) {
    Findings f{out};
    const auto& md = row.metadata;
    const std::string instance = str(md.org_id) + "-" + str(md.session_id) + "-seg" + std::to_string(md.segment_index);
    if (md.instance_id != instance)
        f.add("rows.lint.instance_id", "/metadata/instance_id", "expected " + string_literal(instance) + " (org_id-session_id-segN), got " + string_literal(md.instance_id));
    const double score = split_score(md.session_id);
    const Split split = score < options.eval_fraction ? Split::eval : Split::train;
    if (md.split != split) {
        f.add("rows.lint.split", "/metadata/split",
              "expected " + string_literal(to_string(split)) + " (score " + literal(Number(score)) + (split == Split::eval ? " < " : " >= ") +
                  "eval fraction " + literal(Number(options.eval_fraction)) + "), got " + string_literal(to_string(md.split)));
    }
    lint_outcomes(md, f);
    lint_resolution(md, row.reward, f);
    lint_turns(row.responses_create_params, row.response, f);
    using M = model_t<std::decay_t<decltype(md)>>;
    if constexpr (M::schema_version >= 3) {
        const auto& ids = md.session_commit_observation_ids;
        if (!md.ci_resolution && !ids.empty())
            f.add("rows.lint.observation_ids.without_resolution", "/metadata/session_commit_observation_ids",
                  "expected [] without a ci_resolution, got " + literal(ids));
        for (std::size_t i = 1; i < ids.size(); ++i)
            if (!(ids[i - 1] < ids[i])) {
                f.add("rows.lint.observation_ids.order", at("/metadata/session_commit_observation_ids", i),
                      "expected an id after " + string_literal(ids[i - 1]) + " (sorted, each once), got " + string_literal(ids[i]));
                break;
            }
    }
    if constexpr (M::schema_version >= 4) {
        using Identity = std::decay_t<decltype(md.repository_identity)>;
        const Identity want = md.ci_resolution ? md.ci_resolution->repository_identity : Identity();
        if (md.repository_identity != want) {
            const auto text = [](const Identity& v) { return v ? string_literal(v->host) + "/" + string_literal(v->repository_id) : std::string("null"); };
            f.add("rows.lint.repository_identity", "/metadata/repository_identity",
                  std::string("expected ") + (md.ci_resolution ? "ci_resolution's repository_identity " + text(want) : "null without a ci_resolution") +
                      ", got " + text(md.repository_identity));
        }
    }
}

}  // namespace

void lint_row(const NemoGymRolloutRowV1& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const NemoGymRolloutRowV2& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const NemoGymRolloutRowV3& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const NemoGymRolloutRowV4& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const AnyRolloutRow& row, std::vector<Error>& findings, const LintOptions& options) {
    std::visit([&](const auto& r) { lint(r, findings, options); }, row);
}

// ----- the rules across rows -------------------------------------------------------------------

namespace {

/// A 64-bit digest of bytes (not cryptographic: it tells apart the values of one session's rows).
std::uint64_t digest(std::string_view s) {
    const auto step = [](std::uint64_t h, std::uint64_t w) {
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        return h ^ (h >> 31);
    };
    const auto word = [](const char* at) {
        std::uint64_t w;
        std::memcpy(&w, at, 8);
        return w;
    };
    const char* p = s.data();
    std::size_t n = s.size();
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    if (n >= 32) {  // four words at a time, in four independent lanes
        std::uint64_t lanes[4] = {h, 0x632be59bd9b4e019ull, 0x8cb92ba72f3d8dd7ull, 0xd6e8feb86659fd93ull};
        for (; n >= 32; n -= 32, p += 32)
            for (int lane = 0; lane < 4; ++lane) lanes[lane] = step(lanes[lane], word(p + 8 * lane));
        h = step(step(step(lanes[0], lanes[1]), lanes[2]), lanes[3]);
    }
    for (; n >= 8; n -= 8, p += 8) h = step(h, word(p));
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = step(h, w ^ (std::uint64_t(n) << 56));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

// A value's digest: its JSON value, whatever the text's layout and key order, numbers by value (1
// and 1.0 apart), read from the parser's DOM (a row on the fast path) or from the exact reader's Json
// (any other row, re-encoded), which give the same digest for the same value.

std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

enum Tag : std::uint64_t { null_tag = 1, false_tag, true_tag, negative_tag, integer_tag, double_tag, big_tag, string_tag, array_tag, object_tag };

std::uint64_t double_digest(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return mix(double_tag, bits);
}

/// An integer's, whether it is read as signed or unsigned.
std::uint64_t integer_digest(std::int64_t v) { return v < 0 ? mix(negative_tag, static_cast<std::uint64_t>(v)) : mix(integer_tag, static_cast<std::uint64_t>(v)); }
std::uint64_t unsigned_digest(std::uint64_t v) { return mix(integer_tag, v); }

/// A member's, which its object sums: members in any order give the same sum.
std::uint64_t member_digest(std::string_view key, std::uint64_t value) { return mix(mix(string_tag, digest(key)), value) * 0x9E3779B97F4A7C15ull; }

std::uint64_t value_digest(simdjson::dom::element e) {
    using simdjson::dom::element_type;
    switch (e.type()) {
        case element_type::NULL_VALUE: return null_tag;
        case element_type::BOOL: return e.get_bool().value_unsafe() ? true_tag : false_tag;
        case element_type::INT64: return integer_digest(e.get_int64().value_unsafe());
        case element_type::UINT64: return unsigned_digest(e.get_uint64().value_unsafe());
        case element_type::DOUBLE: return double_digest(e.get_double().value_unsafe());
        case element_type::STRING: return mix(string_tag, digest(e.get_string().value_unsafe()));
        case element_type::ARRAY: {
            std::uint64_t h = array_tag;
            const simdjson::dom::array array = e.get_array().value_unsafe();
            for (const simdjson::dom::element item : array) h = mix(h, value_digest(item));
            return h;
        }
        case element_type::OBJECT: {
            std::uint64_t sum = 0;
            const simdjson::dom::object object = e.get_object().value_unsafe();
            for (const auto m : object) sum += member_digest(m.key, value_digest(m.value));
            return mix(object_tag, sum);
        }
    }
    return 0;
}

std::uint64_t value_digest(const Json& j) {
    switch (j.type()) {
        case Json::value_t::null: return null_tag;
        case Json::value_t::boolean: return j.get<bool>() ? true_tag : false_tag;
        case Json::value_t::number_integer: return integer_digest(j.get<std::int64_t>());
        case Json::value_t::number_unsigned: return unsigned_digest(j.get<std::uint64_t>());
        case Json::value_t::number_float: return double_digest(j.get<double>());
        case Json::value_t::string: return mix(string_tag, digest(j.get_ref<const std::string&>()));
        case Json::value_t::binary: {  // a big integer's digits (never on the fast path, which refuses them)
            const auto& digits = j.get_binary();
            return mix(big_tag, digest(std::string_view(reinterpret_cast<const char*>(digits.data()), digits.size())));
        }
        case Json::value_t::array: {
            std::uint64_t h = array_tag;
            for (const Json& item : j) h = mix(h, value_digest(item));
            return h;
        }
        case Json::value_t::object: {
            std::uint64_t sum = 0;
            for (const auto& [key, value] : j.get_ref<const Json::object_t&>()) sum += member_digest(key, value_digest(value));
            return mix(object_tag, sum);
        }
        default: return 0;
    }
}

constexpr const char* kFieldIds[SessionFacts::kFields] = {
    "rows.lint.session.verifier_results", "rows.lint.session.ci_resolution", "rows.lint.session.reward",
    "rows.lint.session.split", "rows.lint.session.attribution_source", "rows.lint.session.verification",
    "rows.lint.session.provenance", "rows.lint.session.session_commit_observation_ids",
    "rows.lint.session.repository_identity"};
constexpr const char* kFieldPointers[SessionFacts::kFields] = {
    "/metadata/verifier_results", "/metadata/ci_resolution", "/reward", "/metadata/split", "/metadata/attribution_source",
    "/metadata/verification", "/metadata/provenance", "/metadata/session_commit_observation_ids",
    "/metadata/repository_identity"};
constexpr const char* kFieldNames[SessionFacts::kFields] = {
    "verifier_results", "ci_resolution", "reward and reward_source", "split", "attribution_source", "verification",
    "provenance", "session_commit_observation_ids", "repository_identity"};

/// What the rules across rows keep of `row`, whose values' digests `digest_at(pointer)` gives (0:
/// absent).
template <class R, class DigestAt>
SessionFacts facts_of(const R& row, DigestAt digest_at) {
    const auto& md = row.metadata;
    SessionFacts s;
    s.org_id = md.org_id;
    s.session_id = md.session_id;
    s.instance_id = md.instance_id;
    s.segment_index = md.segment_index;
    for (int field = 0; field < SessionFacts::kFields; ++field) s.digests[field] = digest_at(kFieldPointers[field]);
    s.digests[SessionFacts::reward] = mix(s.digests[SessionFacts::reward], digest_at("/metadata/reward_source")) | 1;
    return s;
}

}  // namespace

SessionFacts session_facts(const AnyRolloutRow& row) {
    thread_local std::string text;
    text.clear();
    std::visit([&](const auto& r) { encode(r, text); }, row);
    Json document;
    std::vector<Error> errors;
    Limits limits;
    limits.max_document_bytes = limits.max_depth = limits.max_string_bytes = std::numeric_limits<std::size_t>::max();
    parse(text, document, errors, limits);  // what encode() writes parses (it throws for what it cannot write)
    return std::visit([&](const auto& r) {
        return facts_of(r, [&](const char* pointer) -> std::uint64_t {
            const Json::json_pointer at(pointer);
            return document.contains(at) ? value_digest(document.at(at)) | 1 : 0;
        });
    }, row);
}

Linter::Linter(LintOptions options) : options_(options) { check_lint_options(options_); }

void Linter::begin_file(std::string name) { files_.push_back(std::move(name)); }

std::string Linter::describe(const Where& w) const {
    const std::uint32_t current = files_.empty() ? 0 : static_cast<std::uint32_t>(files_.size() - 1);
    if (w.file == current || files_.empty()) return (files_.empty() ? "row " : "line ") + std::to_string(w.line);
    return files_[w.file] + ":" + std::to_string(w.line);
}

void Linter::add(const AnyRolloutRow& row, std::vector<Error>& findings) {
    lint_row(row, findings, options_);
    add(session_facts(row), findings);
}

void Linter::add(SessionFacts facts, std::vector<Error>& findings) {
    ++rows_;
    const Where here{files_.empty() ? 0 : static_cast<std::uint32_t>(files_.size() - 1), facts.line ? facts.line : rows_};
    std::string key = facts.org_id;
    key += '\0';
    key += facts.session_id;
    auto [it, fresh] = sessions_.try_emplace(std::move(key));
    Session& s = it->second;
    bool duplicate_segment = false;
    if (fresh) {
        s.first = here, s.digests = facts.digests;
        s.order = sessions_.size();
    } else {
        for (int field = 0; field < SessionFacts::kFields; ++field)
            if (s.digests[field] != facts.digests[field])
                findings.push_back({kFieldIds[field], kFieldPointers[field],
                                    std::string("expected the ") + kFieldNames[field] + " of the session's first row (" + describe(s.first) +
                                        "): every segment of a session repeats it, got other values"});
        for (const Segment& seg : s.segments)
            if (seg.index == facts.segment_index) {
                findings.push_back({"rows.lint.session.segment_index", "/metadata/segment_index",
                                    "expected a segment index new to the session, got " + std::to_string(seg.index) + ", which " +
                                        describe(seg.where) + " has"});
                duplicate_segment = true;
                break;
            }
    }
    // instance ids: a derived one collides only through a duplicate segment (found above) or two
    // sessions that spell "{org_id}-{session_id}" alike; any other id is kept to compare
    const std::string spelling = facts.org_id + "-" + facts.session_id;
    const bool derived = facts.instance_id == spelling + "-seg" + std::to_string(facts.segment_index);
    s.segments.push_back({facts.segment_index, here, derived});
    std::optional<Where> earlier;
    if (auto o = other_ids_.find(facts.instance_id); o != other_ids_.end()) earlier = o->second;
    const auto sp = spellings_.try_emplace(spelling, &s).first;
    const std::size_t cut = facts.instance_id.rfind("-seg");
    const auto owner = derived ? sp : cut == std::string::npos ? spellings_.end() : spellings_.find(facts.instance_id.substr(0, cut));
    if (!earlier && owner != spellings_.end() && (!derived || owner->second != &s)) {
        // an earlier row of the session that spells the id's prefix, whose own id is derived and equal
        const std::string_view suffix = std::string_view(facts.instance_id).substr(cut + 4);
        for (const Segment& seg : owner->second->segments)
            if (seg.derived && !(seg.where.file == here.file && seg.where.line == here.line) && suffix == std::to_string(seg.index)) {
                earlier = seg.where;
                break;
            }
    }
    if (!derived) other_ids_.try_emplace(facts.instance_id, here);
    if (earlier && !duplicate_segment)
        findings.push_back({"rows.lint.session.instance_id", "/metadata/instance_id",
                            "expected an instance_id no other row has, got " + string_literal(facts.instance_id) + ", which " + describe(*earlier) + " has"});
}

std::vector<LintFinding> Linter::finish() {
    std::vector<LintFinding> out;
    if (!options_.sessions_complete) return out;
    std::vector<const std::pair<const std::string, Session>*> order;  // by org_id '\0' session_id
    for (const auto& entry : sessions_) order.push_back(&entry);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->second.order < b->second.order; });
    for (const auto* entry : order) {
        const Session* s = &entry->second;
        const std::string_view session_id = std::string_view(entry->first).substr(entry->first.find('\0') + 1);
        std::vector<std::int64_t> indexes;
        for (const Segment& seg : s->segments) indexes.push_back(seg.index);
        std::sort(indexes.begin(), indexes.end());
        indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
        std::int64_t missing = 0;
        while (missing < static_cast<std::int64_t>(indexes.size()) && indexes[missing] == missing) ++missing;
        if (missing == static_cast<std::int64_t>(indexes.size())) continue;
        out.push_back({files_.empty() ? std::string() : files_[s->first.file], s->first.line,
                       {"rows.lint.session.incomplete", "/metadata/segment_index",
                        "expected segments 0.." + std::to_string(indexes.size() - 1) + " of session " + string_literal(session_id) +
                            " (--sessions-complete), got " + std::to_string(s->segments.size()) + " rows without segment " +
                            std::to_string(missing)}});
    }
    return out;
}

// ----- text ------------------------------------------------------------------------------------

namespace {

/// The rollout versions `name` stands for: nemo-gym-rollout.vN, or every version.
std::vector<SchemaId> rollout_versions(std::string_view name) {
    std::vector<SchemaId> schemas = schemas_named(name);
    if (schemas.empty() || schema_info(schemas.front()).base != "nemo-gym-rollout")
        throw std::invalid_argument("lint reads rollout rows: '" + std::string(name) + "' is not nemo-gym-rollout[.vN]");
    return schemas;
}

std::optional<SchemaId> lint_text(std::string_view name, std::string_view text, bool padded, std::vector<Error>& findings,
                                  SessionFacts& facts, const LintOptions& options, const Limits& limits) {
    const std::vector<SchemaId> schemas = rollout_versions(name);
    // a valid row is linted where the parser left it; anything else is decoded by the exact reader
    thread_local detail::fast::AnyRolloutRowView view;
    simdjson::dom::element root;
    const std::optional<SchemaId> named = schemas.size() > 1 ? std::nullopt : std::optional<SchemaId>(schemas.front());
    if (detail::fast::view_row(text, padded, limits, named, view, root)) {
        return std::visit([&](const auto& row) {
            lint(row, findings, options);
            facts = facts_of(row, [&](const char* pointer) -> std::uint64_t {
                simdjson::dom::element value;
                return root.at_pointer(pointer).get(value) ? 0 : value_digest(value) | 1;
            });
            return document_traits<model_t<std::decay_t<decltype(row)>>>::schema;
        }, view);
    }
    thread_local AnyRolloutRow row;
    if (!lint(name, text, row, findings, options, limits)) return std::nullopt;
    facts = session_facts(row);
    return schema_of(row);
}

}  // namespace

std::optional<SchemaId> lint(std::string_view name, std::string_view text, AnyRolloutRow& row, std::vector<Error>& findings,
                             const LintOptions& options, const Limits& limits) {
    const std::vector<SchemaId> schemas = rollout_versions(name);
    const bool valid = schemas.size() > 1 ? decode(text, row, findings, limits)
                                          : detail::with_version(row, schemas.front(), [&](auto& r) {
                                                return decode(text, r, findings, schemas.front(), limits);
                                            });
    if (!valid) return std::nullopt;
    lint_row(row, findings, options);
    return schema_of(row);
}

std::optional<SchemaId> lint(std::string_view name, std::string_view text, std::vector<Error>& findings, SessionFacts& facts,
                             const LintOptions& options, const Limits& limits) {
    return lint_text(name, text, false, findings, facts, options, limits);
}

std::optional<SchemaId> lint(std::string_view name, const StringText& text, std::vector<Error>& findings, SessionFacts& facts,
                             const LintOptions& options, const Limits& limits) {
    return lint_text(name, text.text(), text.padded(), findings, facts, options, limits);
}

Validated lint(std::string_view name, std::string_view text, const LintOptions& options, const Limits& limits) {
    Validated c;
    SessionFacts facts;
    c.schema = lint(name, text, c.errors, facts, options, limits);
    return c;
}

}  // namespace sediment::rows
