// Lint's rules within a row, as templates over a model or its view (the CI resolution algorithm is
// in resolution.hpp): the rules of docs/lint.md within a row. src/features/lint/lint.cpp instantiates
// them for every rollout version, and for the views the fast path reads.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "detail/encode.hpp"
#include "detail/fast.hpp"
#include "detail/scoring_text.hpp"
#include "features/lint/resolution.hpp"
#include "sediment/rows/lint.hpp"

namespace sediment::rows::lint_rules {

using detail::Joined;
using detail::JoinedMatch;
using detail::part_as;
using detail::scoring_text;

// ----- the rules within a row ------------------------------------------------------------------


/// `s` as a JSON string literal, cut to 120 bytes of content.
inline std::string string_literal(std::string_view s) {
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

inline std::string literal(const Number& n) {
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

inline std::string at(std::string_view base, std::size_t i) { return std::string(base) + "/" + std::to_string(i); }

struct Findings {
    std::vector<Error>& out;
    void add(const char* id, std::string pointer, std::string message) {
        out.push_back({id, std::move(pointer), std::move(message)});
    }
};

/// The ids of the calls a turn's tool results may answer: a vector, searched in order while its
/// unsorted tail is short, and merged into its sorted head when the tail grows.
class CallIds {
public:
    void clear() { ids_.clear(), sorted_ = 0; }
    void insert(std::string_view id) { ids_.push_back(id); }
    bool contains(std::string_view id) {
        if (ids_.size() - sorted_ > 16) {
            std::sort(ids_.begin() + sorted_, ids_.end());
            std::inplace_merge(ids_.begin(), ids_.begin() + sorted_, ids_.end());
            sorted_ = ids_.size();
        }
        return std::binary_search(ids_.begin(), ids_.begin() + sorted_, id) || std::find(ids_.begin() + sorted_, ids_.end(), id) != ids_.end();
    }

private:
    std::vector<std::string_view> ids_;
    std::size_t sorted_ = 0;
};

template <class P, class R>
void lint_turns(const P& params, const R& response, Findings& f) {
    const auto& turns = response.turns;
    thread_local CallIds calls;     // the calls its tool results may answer: the echoed output's
    for (std::size_t k = 0; k < turns.size(); ++k) {
        const auto& turn = turns[k];
        const auto base = [k] { return at("/response/turns", k); };  // pointers are made for findings only
        calls.clear();
        std::size_t first = 0;  // new_messages before it hold no tool result to check
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
                thread_local std::vector<const typename std::decay_t<decltype(previous.tool_calls)>::value_type*> echoed;
                echoed.clear();
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
                JoinedMatch match{previous.completion};
                scoring_text(echo, match);
                if (!match.equal()) {
                    std::string expected;
                    Joined text{expected};
                    scoring_text(echo, text);
                    f.add("rows.lint.turns.completion", prev() + "/completion",
                          "expected " + string_literal(expected) + " (the scoring text of its output, echoed in turn " + std::to_string(k) +
                              "), got " + string_literal(previous.completion));
                }
            }
        }
        for (std::size_t m = first; m < turn.new_messages.size(); ++m) {
            const auto& parts = turn.new_messages[m].parts;
            for (std::size_t p = 0; p < parts.size(); ++p) {
                if (const auto* r = part_as<ToolCallResponsePart>(parts[p]); r && !calls.contains(r->id)) {
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

/// Where a resolution's fields are: "/metadata/ci_resolution", or one of its workflow resolutions;
/// spelled as a pointer for a finding only.
struct Place {
    std::ptrdiff_t workflow = -1;
    std::string operator+(std::string_view field) const {
        std::string p = "/metadata/ci_resolution";
        if (workflow >= 0) p = at(p + "/workflow_resolutions", static_cast<std::size_t>(workflow));
        return p.append(field);
    }
};

template <class S>
void compare_ids(const std::vector<std::string>& expected, const std::vector<S>& got, Place base, const char* field, Findings& f) {
    std::size_t i = 0;
    while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
    if (i == expected.size() && i == got.size()) return;
    const std::string pointer = base + "/" + field;
    if (i < expected.size() && i < got.size())
        f.add("rows.lint.ci_resolution", at(pointer, i), "expected " + string_literal(expected[i]) + ", got " + string_literal(got[i]));
    else
        f.add("rows.lint.ci_resolution", pointer, "expected " + literal(expected) + ", got " + literal(got));
}

inline void compare_flag(bool expected, bool got, Place base, const char* field, Findings& f) {
    if (expected != got)
        f.add("rows.lint.ci_resolution", base + "/" + field, std::string("expected ") + (expected ? "true" : "false") + ", got " + (got ? "true" : "false"));
}

template <class T, class U>
void compare_value(const Nullable<T>& expected, const Nullable<U>& got, Place base, const char* field, Findings& f) {
    bool same = expected.is_null() == got.is_null();
    if constexpr (std::is_same_v<T, Number>) same = same && (!got || got->value() == expected->value());
    else same = same && (!got || *got == *expected);
    if (!same) f.add("rows.lint.ci_resolution", base + "/" + field, "expected " + literal(expected) + ", got " + literal(got));
}

template <class W>
void compare_workflow(const CIWorkflowResolution& e, const W& g, Place p, Findings& f) {
    if (e.provider != g.provider || e.run_id != g.run_id) {
        f.add("rows.lint.ci_resolution", p + "",
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
    const Place p;
    compare_value(e.verdict, g.verdict, p, "verdict", f);
    compare_value(e.reliability, g.reliability, p, "reliability", f);
    compare_flag(e.suspected_flake, g.suspected_flake, p, "suspected_flake", f);
    if (e.workflow_resolutions.size() != g.workflow_resolutions.size())
        f.add("rows.lint.ci_resolution", p + "/workflow_resolutions",
              "expected " + std::to_string(e.workflow_resolutions.size()) + " workflow resolutions (one per CI run of the commit), got " +
                  std::to_string(g.workflow_resolutions.size()));
    else
        for (std::size_t i = 0; i < e.workflow_resolutions.size(); ++i)
            compare_workflow(e.workflow_resolutions[i], g.workflow_resolutions[i], Place{static_cast<std::ptrdiff_t>(i)}, f);
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
            thread_local CommitResolution r;
            resolve(outcomes, r);
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
    thread_local std::vector<const O*> outcomes;
    outcomes.clear();
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
    thread_local CommitResolution expected;
    resolve(outcomes, expected);
    compare_resolution(expected, *ci, f);
}

template <class R>
void lint(const R& row, std::vector<Error>& out, const LintOptions& options) {
    Findings f{out};
    const auto& md = row.metadata;
    thread_local std::string instance;
    char index[24];
    const char* index_end = std::to_chars(index, index + sizeof index, md.segment_index).ptr;
    instance.assign(md.org_id).append("-").append(md.session_id).append("-seg").append(index, static_cast<std::size_t>(index_end - index));
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

}  // namespace sediment::rows::lint_rules
