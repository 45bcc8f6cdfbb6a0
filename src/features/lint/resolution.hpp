// The CI resolution algorithm of docs/lint.md: resolve_commit(), and what the rules (rules.hpp)
// expect a row's ci_resolution to be. Templates over a model or its view, as the rules are: they read
// a row as its model (lint_row) or as its view (lint() of a text: strings where the parser left them,
// free-form values in its DOM).
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "detail/scoring_text.hpp"  // model_t
#include "sediment/rows/lint.hpp"

namespace sediment::rows::lint_rules {

using detail::model_t;

/// A version 4 CI outcome, which may identify its repository.
template <class O>
constexpr bool kIdentifies = std::is_same_v<model_t<O>, CIOutcomeV3>;

inline std::string str(std::string_view s) { return std::string(s); }

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

inline bool directional(Result r) { return r == Result::passed || r == Result::failed; }

/// The run's one non-empty value of a field, or none.
template <class It, class F>
auto the(It first, It last, F field) -> decltype(field(**first)) {
    for (; first != last; ++first)
        if (const auto* v = field(**first); v && !v->empty()) return v;
    return nullptr;
}

/// Sets `to` to `ids` (strings or views), keeping its strings' memory.
template <class S>
void assign_ids(std::vector<std::string>& to, const std::vector<S>& ids) {
    to.resize(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) to[i].assign(ids[i]);
}

/// Sets `to` to `v`, or null where `v` is.
template <class S>
void assign_text(Nullable<std::string>& to, const S* v) {
    if (!v) to = nullptr;
    else if (to) to->assign(*v);
    else to.emplace(*v);
}

/// Sets every field of `w` to the resolution of one lineage's attempts, [first, last) in attempt order
/// (`w` is reused from row to row: a field added to CIWorkflowResolution must be set here too).
template <class O, class It>
void resolve_lineage(It first, It last, CIWorkflowResolution& w) {
    thread_local std::vector<std::string_view> sources, non_verdicts;
    sources.clear(), non_verdicts.clear();
    const O& head = **first;
    w.provider = head.provider;
    w.run_id.assign(head.run_id);
    w.branch.assign(head.branch);
    const auto nullable = [](const auto& v) { return v ? &*v : nullptr; };
    assign_text(w.workflow_id, the(first, last, [&](const O& o) { return nullable(o.workflow_id); }));
    assign_text(w.workflow_path, the(first, last, [&](const O& o) { return nullable(o.workflow_path); }));
    const auto* name = the(first, last, [](const O& o) { return &o.workflow_name; });
    w.workflow_name.assign(name ? std::string_view(*name) : std::string_view());
    bool passed = false, failed = false, others = false;
    const O* last_verdict = nullptr;
    for (It at = first; at != last; ++at) {
        const O* o = *at;
        sources.emplace_back(o->outcome_id);
        if (directional(o->result)) {
            (o->result == Result::passed ? passed : failed) = true;
            last_verdict = o;
        } else {
            others = true;
            non_verdicts.emplace_back(o->outcome_id);
        }
    }
    w.suspected_flake = passed && failed;
    w.verdict = nullptr, w.reliability = nullptr;
    assign_text(w.verdict_outcome_id, last_verdict ? &last_verdict->outcome_id : nullptr);
    if (last_verdict) {
        w.verdict = last_verdict->result == Result::passed ? Verdict::passed : Verdict::failed;
        w.reliability = Number(w.suspected_flake ? 0.0 : 1.0);  // a non-verdict attempt's 1.0 lowers nothing
    } else if (others) {
        w.reliability = Number(1.0);
    }
    std::sort(sources.begin(), sources.end());
    std::sort(non_verdicts.begin(), non_verdicts.end());
    assign_ids(w.source_outcome_ids, sources);
    assign_ids(w.non_verdict_outcome_ids, non_verdicts);
}

/// Sets `r` to the resolution of one commit's `outcomes` (not empty), keeping the memory `r` holds:
/// lineages in (lineage, run_attempt or 0, outcome_id) order, each resolved, then sorted as Sediment
/// sorts them.
template <class O>
void resolve(const std::vector<const O*>& outcomes, CommitResolution& r) {
    thread_local std::vector<const O*> order;
    order.assign(outcomes.begin(), outcomes.end());
    std::stable_sort(order.begin(), order.end(), [](const O* a, const O* b) {
        const auto attempt = [](const O* o) { return o->run_attempt.value_or(0); };
        const Lineage x = lineage_of(*a), y = lineage_of(*b);
        return x != y ? x < y : std::forward_as_tuple(attempt(a), a->outcome_id) < std::forward_as_tuple(attempt(b), b->outcome_id);
    });
    std::size_t runs = 0;
    for (auto first = order.begin(); first != order.end(); ++runs) {
        const Lineage lineage = lineage_of(**first);
        auto last = first;
        while (last != order.end() && lineage_of(**last) == lineage) ++last;
        if (runs == r.workflow_resolutions.size()) r.workflow_resolutions.emplace_back();
        resolve_lineage<O>(first, last, r.workflow_resolutions[runs]);
        first = last;
    }
    r.workflow_resolutions.resize(runs);
    const auto key = [](const CIWorkflowResolution& w) {
        const auto text = [](const Nullable<std::string>& v) { return v ? std::string_view(*v) : std::string_view(); };
        return std::make_tuple(to_string(w.provider), text(w.workflow_id), text(w.workflow_path),
                               std::string_view(w.workflow_name), std::string_view(w.run_id));
    };
    std::stable_sort(r.workflow_resolutions.begin(), r.workflow_resolutions.end(),
                     [&](const auto& a, const auto& b) { return key(a) < key(b); });
    thread_local std::vector<std::string_view> sources, verdicts, non_verdicts;
    sources.clear(), verdicts.clear(), non_verdicts.clear();
    std::set<Verdict> found;
    double reliability = 1.0;
    r.suspected_flake = false;
    for (const CIWorkflowResolution& w : r.workflow_resolutions) {
        if (w.verdict) found.insert(*w.verdict);
        if (w.reliability) reliability = std::min(reliability, w.reliability->value());
        r.suspected_flake = r.suspected_flake || w.suspected_flake;
        sources.insert(sources.end(), w.source_outcome_ids.begin(), w.source_outcome_ids.end());
        if (w.verdict_outcome_id) verdicts.emplace_back(*w.verdict_outcome_id);
        non_verdicts.insert(non_verdicts.end(), w.non_verdict_outcome_ids.begin(), w.non_verdict_outcome_ids.end());
    }
    r.verdict = nullptr, r.reliability = nullptr;
    if (found.size() == 1) {  // disagreeing lineages leave verdict and reliability null
        r.verdict = *found.begin();
        r.reliability = Number(reliability);
    }
    for (auto* ids : {&sources, &verdicts, &non_verdicts}) std::sort(ids->begin(), ids->end());
    assign_ids(r.source_outcome_ids, sources);
    assign_ids(r.verdict_outcome_ids, verdicts);
    assign_ids(r.non_verdict_outcome_ids, non_verdicts);
}

template <class O>
CommitResolution resolve_all(const std::vector<O>& outcomes) {
    std::vector<const O*> refs;
    for (const O& o : outcomes) refs.push_back(&o);
    CommitResolution r;
    if (!refs.empty()) resolve(refs, r);
    return r;
}

}  // namespace sediment::rows::lint_rules
