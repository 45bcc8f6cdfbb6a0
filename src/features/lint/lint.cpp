// Lint: the derivation rules of docs/lint.md: the rules within a rollout row (rules.hpp) for each
// version, the rules across rows, and the entry points (SHA-256 and the split: split.cpp; the other
// families' rules within a row: family.cpp).
#include "sediment/rows/lint.hpp"

#include "detail/decode.hpp"
#include "features/lint/digest.hpp"
#include "features/lint/family.hpp"
#include "features/lint/rules.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "sediment/rows/decode.hpp"
#include "detail/fast.hpp"
#include "detail/tape.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows {

using namespace lint_rules;

void check_lint_options(const LintOptions& options) {
    if (!(options.eval_fraction >= 0.0 && options.eval_fraction <= 0.5))
        throw std::invalid_argument("the eval fraction is 0.0 to 0.5");
    if (!(options.min_confidence >= 0.0 && options.min_confidence <= 1.0))
        throw std::invalid_argument("the minimum confidence is 0.0 to 1.0");
    if (options.max_pairs_per_bucket < 1) throw std::invalid_argument("the pairs per bucket are at least 1");
}


CommitResolution resolve_commit(const std::vector<CIOutcomeV1>& outcomes) { return resolve_all(outcomes); }
CommitResolution resolve_commit(const std::vector<CIOutcomeV3>& outcomes) { return resolve_all(outcomes); }


void lint_row(const NemoGymRolloutRowV1& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const NemoGymRolloutRowV2& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const NemoGymRolloutRowV3& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const NemoGymRolloutRowV4& row, std::vector<Error>& findings, const LintOptions& options) { lint(row, findings, options); }
void lint_row(const AnyRolloutRow& row, std::vector<Error>& findings, const LintOptions& options) {
    std::visit([&](const auto& r) { lint(r, findings, options); }, row);
}

// ----- the rules across rows -------------------------------------------------------------------

namespace {

using namespace detail::digests;

std::uint64_t value_digest(detail::tape::Value v) {
    switch (v.type()) {
        case 'n': return null_tag;
        case 't': return true_tag;
        case 'f': return false_tag;
        case 'l': return integer_digest(v.number<std::int64_t>());
        case 'u': return unsigned_digest(v.number<std::uint64_t>());
        case 'd': return double_digest(v.number<double>());
        case '"': return mix(string_tag, digest(v.string()));
        case '[': {
            std::uint64_t h = array_tag;
            for (detail::tape::Value item = v.first(); item.at < v.close(); item = item.with(item.next())) h = mix(h, value_digest(item));
            return h;
        }
        case '{': {
            std::uint64_t sum = 0;
            detail::tape::each_member(v, [&](std::string_view key, detail::tape::Value value) { sum += member_digest(key, value_digest(value)); });
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
/// The pointer of each field, and of reward_source (digested with the reward) at kFields.
constexpr const char* pointer_of(int field) { return field < SessionFacts::kFields ? kFieldPointers[field] : "/metadata/reward_source"; }
constexpr int kDigested = SessionFacts::kFields + 1;
constexpr std::size_t kMaxValues = 65535;  // distinct values of a field that a session keeps apart (Linter::Segment::value)

/// The member of the metadata each field is (one level down, no escapes), or "" for a field elsewhere.
constexpr std::array<std::string_view, kDigested> kMetadataMembers = [] {
    constexpr std::string_view in_metadata = "/metadata/";
    std::array<std::string_view, kDigested> members{};
    for (int field = 0; field < kDigested; ++field) {
        const std::string_view pointer = pointer_of(field);
        if (pointer.substr(0, in_metadata.size()) == in_metadata && pointer.find_first_of("/~", in_metadata.size()) == std::string_view::npos)
            members[field] = pointer.substr(in_metadata.size());
    }
    return members;
}();

constexpr const char* kFieldNames[SessionFacts::kFields] = {
    "verifier_results", "ci_resolution", "reward and reward_source", "split", "attribution_source", "verification",
    "provenance", "session_commit_observation_ids", "repository_identity"};

/// What the rules across rows keep of `row`, whose values' digests `digest_at(field)` gives (0:
/// absent) for each field of pointer_of().
template <class R, class DigestAt>
SessionFacts facts_of(const R& row, DigestAt digest_at) {
    const auto& md = row.metadata;
    SessionFacts s;
    s.org_id = md.org_id;
    s.session_id = md.session_id;
    s.instance_id = md.instance_id;
    s.segment_index = md.segment_index;
    s.row_split = md.split;
    s.split_pointer = "/metadata/split";
    for (int field = 0; field < SessionFacts::kFields; ++field) s.digests[field] = digest_at(field);
    s.digests[SessionFacts::reward] = mix(s.digests[SessionFacts::reward], digest_at(SessionFacts::kFields)) | 1;
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
        return facts_of(r, [&](int field) -> std::uint64_t {
            const Json::json_pointer at(pointer_of(field));
            return document.contains(at) ? value_digest(document.at(at)) | 1 : 0;
        });
    }, row);
}

Linter::Linter(LintOptions options) : options_(options) { check_lint_options(options_); }

void Linter::begin_file(std::string name) {
    // Sediment's layout: NAME.train.jsonl and NAME.eval.jsonl (gzip too) hold the rows of one split
    const std::size_t slash = name.find_last_of('/');
    const std::string_view base = std::string_view(name).substr(slash == std::string::npos ? 0 : slash + 1);
    const auto ends = [&](std::string_view tail) { return base.size() > tail.size() && base.substr(base.size() - tail.size()) == tail; };
    file_split_.reset();
    if (ends(".train.jsonl") || ends(".train.jsonl.gz")) file_split_ = Split::train;
    else if (ends(".eval.jsonl") || ends(".eval.jsonl.gz")) file_split_ = Split::eval;
    last_order_key_.clear();
    files_.push_back(std::move(name));
}

std::string Linter::describe_fully(const Where& w) const {
    return files_.empty() ? "row " + std::to_string(w.line) : files_[w.file] + ":" + std::to_string(w.line);
}

std::string Linter::describe(const Where& w) const {
    const std::uint32_t current = files_.empty() ? 0 : static_cast<std::uint32_t>(files_.size() - 1);
    if (w.file == current || files_.empty()) return (files_.empty() ? "row " : "line ") + std::to_string(w.line);
    return files_[w.file] + ":" + std::to_string(w.line);
}

void Linter::add(const AnyRolloutRow& row, std::vector<Error>& findings) {
    lint_row(row, findings, options_);
    add(session_facts(row), findings);
}

namespace detail {

namespace {
// A table of kHugeTable bytes or more takes whole 2 MiB pages: on a virtual machine a 4 KiB page's first
// write is a fault of about 10 µs, and a growing table made a thousand of them for 10,000 SFT rows
// (bench/README.md, lint of the other families).
constexpr std::size_t kHugePage = std::size_t(2) << 20, kHugeTable = kHugePage / 8;
}  // namespace

void* table_allocate(std::size_t bytes) {
    if (bytes < kHugeTable) return ::operator new(bytes);
    const std::size_t size = (bytes + kHugePage - 1) / kHugePage * kHugePage;  // whole pages: one a part covers is not given
    void* p = std::aligned_alloc(kHugePage, size);
    if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);  // (advice: without it, 4 KiB pages)
#endif
    return p;
}

void table_deallocate(void* p, std::size_t bytes) noexcept {
    if (bytes < kHugeTable) ::operator delete(p);
    else std::free(p);
}

}  // namespace detail

FactKey fact_key(std::string_view value) { return detail::digests::key_text(detail::digests::string_tag, value); }

Linter::FamilyTables& Linter::tables_of(std::string_view family) {
    for (auto& [name, tables] : families_)
        if (name == family) return tables;
    return families_.emplace_back(std::string(family), FamilyTables{}).second;
}

void Linter::add_family(const SessionFacts& facts, const Where& here, std::vector<Error>& findings) {
    FamilyTables& t = tables_of(facts.family);
    bool copy = false;  // a second copy counts toward nothing else
    if (!facts.identity.empty()) {  // the same completion, pair, task or instance twice
        const FactKey key = !detail::zero_key(facts.identity_key) ? facts.identity_key : fact_key(facts.identity);
        const auto [first, fresh] = t.identities.try_emplace(key, here);
        if ((copy = !fresh)) {
            std::string shown = facts.identity;
            std::replace(shown.begin(), shown.end(), '\0', ' ');
            findings.push_back({"rows.lint.duplicate", std::string(identity_pointer(facts.family)),
                                "expected one " + facts.family + " row of " + string_literal(shown) + ", got a second copy of " +
                                    describe(*first)});
        }
    }
    if (!detail::zero_key(facts.prompt_key) && facts.row_split) {  // the same prompt in train and eval: blamed in finish()
        if (*facts.row_split == Split::train) t.train_prompts.try_emplace(facts.prompt_key, here);
        else t.eval_prompts.push_back({facts.prompt_key, here, facts.prompt_sha256});
    }
    if (!detail::zero_key(facts.bucket_key) && !copy) {  // DPO: at most max_pairs_per_bucket pairs per (org, model, prompt)
        auto& [pairs, first] = *t.buckets.try_emplace(facts.bucket_key, {0, here}).first;
        if (++pairs > options_.max_pairs_per_bucket)
            findings.push_back({"rows.lint.dpo.bucket", "/prompt",
                                "expected at most " + std::to_string(options_.max_pairs_per_bucket) +
                                    " pairs for one org, model and prompt, got pair " + std::to_string(pairs) + " (the first at " +
                                    describe(first) + ")"});
    }
    if (!facts.order_key.empty()) {  // SFT: rows in completion_id order
        if (facts.order_key < last_order_key_)
            findings.push_back({"rows.lint.sft.order", "/metadata/completion_id",
                                "expected rows in completion_id order, as Sediment writes them: got " + string_literal(facts.order_key) +
                                    " after " + string_literal(last_order_key_)});
        last_order_key_ = facts.order_key;
    }
}

void Linter::add(SessionFacts facts, std::vector<Error>& findings) {
    ++rows_;
    const Where here{files_.empty() ? 0 : static_cast<std::uint32_t>(files_.size() - 1), facts.line ? facts.line : rows_};
    if (facts.row_split && file_split_ && *facts.row_split != *file_split_)
        findings.push_back({"rows.lint.split.file", facts.split_pointer,
                            std::string("expected \"") + (*file_split_ == Split::eval ? "eval" : "train") +
                                "\", the split the file's name gives (" + files_.back() + "), got \"" +
                                (*facts.row_split == Split::eval ? "eval" : "train") + "\""});
    if (!facts.family.empty()) return add_family(facts, here, findings);
    // the keys are spelled in scratch strings: a row of a known session allocates nothing here
    key_.assign(facts.org_id).append(1, '\0').append(facts.session_id);
    auto it = sessions_.find(key_);
    const bool fresh = it == sessions_.end();
    if (fresh) it = sessions_.try_emplace(key_).first;
    Session& s = it->second;
    bool duplicate_segment = false;
    // each field's value: counted now, and blamed in finish(), where the session's majority is known
    std::array<std::uint16_t, SessionFacts::kFields> value{};
    for (int field = 0; field < SessionFacts::kFields; ++field) {
        std::vector<Value>& values = s.values[field];
        std::size_t v = 0;
        while (v < values.size() && values[v].digest != facts.digests[field]) ++v;
        if (v == values.size()) {
            if (v == kMaxValues) --v;  // (a field with 65,535 values in one session: the last is "any other")
            else values.push_back({facts.digests[field], 0, s.segments.size()});
        }
        ++values[v].rows;
        value[field] = static_cast<std::uint16_t>(v);
    }
    if (fresh) {
        s.first = here;
        s.order = sessions_.size();
    } else {
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
    spelling_.assign(facts.org_id).append("-").append(facts.session_id);
    const std::string& spelling = spelling_;
    char digits[24];
    const std::string_view index(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, facts.segment_index).ptr - digits));
    const std::string_view id = facts.instance_id;
    const bool derived = id.size() == spelling.size() + 4 + index.size() && id.substr(0, spelling.size()) == spelling &&
                         id.substr(spelling.size(), 4) == "-seg" && id.substr(spelling.size() + 4) == index;
    s.segments.push_back({facts.segment_index, here, derived, value});
    std::optional<Where> earlier;
    if (auto o = other_ids_.find(facts.instance_id); o != other_ids_.end()) earlier = o->second;
    auto sp = spellings_.find(spelling);
    if (sp == spellings_.end()) sp = spellings_.try_emplace(spelling, &s).first;
    const std::size_t cut = facts.instance_id.rfind("-seg");
    const auto owner = derived ? sp : cut == std::string::npos ? spellings_.end() : spellings_.find(key_.assign(facts.instance_id, 0, cut));
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
    std::vector<std::pair<Where, LintFinding>> out;
    const auto add = [&](const Where& where, Error error) {
        out.push_back({where, {files_.empty() ? std::string() : files_[where.file], where.line, std::move(error)}});
    };
    std::vector<const std::pair<const std::string, Session>*> order;  // by org_id '\0' session_id
    for (const auto& entry : sessions_) order.push_back(&entry);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->second.order < b->second.order; });
    // the rows that differ from their session's majority (on a tie, the value that came first)
    for (const auto* entry : order) {
        const Session& s = entry->second;
        for (int field = 0; field < SessionFacts::kFields; ++field) {
            const std::vector<Value>& values = s.values[field];
            if (values.size() < 2) continue;
            std::size_t majority = 0;
            for (std::size_t v = 1; v < values.size(); ++v)
                if (values[v].rows > values[majority].rows) majority = v;
            const Value& most = values[majority];
            for (const Segment& seg : s.segments)
                if (seg.value[field] != majority)
                    add(seg.where, {kFieldIds[field], kFieldPointers[field],
                                    std::string("expected the ") + kFieldNames[field] +
                                        (most.rows == 1 ? " of the session's first row (" + describe_fully(s.segments[most.first].where)
                                                        : " that " + std::to_string(most.rows) + " of the session's " + std::to_string(s.segments.size()) +
                                                              " rows hold (the first at " + describe_fully(s.segments[most.first].where)) +
                                        "): every segment of a session repeats it, got another value"});
        }
    }
    // an exact prompt in both train and eval: at each eval row, naming the first train row
    for (const auto& [family, t] : families_)
        for (const FamilyTables::EvalPrompt& e : t.eval_prompts)
            if (const Where* train = t.train_prompts.find(e.key))
                add(e.where, {"rows.lint.prompt.train_and_eval", family == "swe-bench-task" ? "/problem_statement" : "/prompt",
                              "expected a prompt that no train row holds (Sediment refuses an exact prompt in both train and eval), got the prompt of " +
                                  describe_fully(*train) + " (prompt_sha256 " + e.sha256 + ")"});
    for (const auto* entry : options_.sessions_complete ? order : decltype(order){}) {
        const Session* s = &entry->second;
        const std::string_view session_id = std::string_view(entry->first).substr(entry->first.find('\0') + 1);
        std::vector<std::int64_t> indexes;
        for (const Segment& seg : s->segments) indexes.push_back(seg.index);
        std::sort(indexes.begin(), indexes.end());
        indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
        std::int64_t missing = 0;
        while (missing < static_cast<std::int64_t>(indexes.size()) && indexes[missing] == missing) ++missing;
        if (missing == static_cast<std::int64_t>(indexes.size())) continue;
        add(s->first, {"rows.lint.session.incomplete", "/metadata/segment_index",
                        "expected segments 0.." + std::to_string(indexes.size() - 1) + " of session " + string_literal(session_id) +
                            " (--sessions-complete), got " + std::to_string(s->segments.size()) + " rows without segment " +
                            std::to_string(missing)});
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first.file, a.first.line) < std::tie(b.first.file, b.first.line);
    });
    std::vector<LintFinding> findings;
    for (auto& [where, finding] : out) findings.push_back(std::move(finding));
    return findings;
}

// ----- text ------------------------------------------------------------------------------------

namespace {

constexpr std::string_view kRollout = "nemo-gym-rollout";
constexpr std::string_view kLinted[] = {kRollout, "sft-sample", "dpo-pair", "diff-sft-sample", "recovery-row",
                                        "sediment-rlvr-rollout", "sediment-rlvr-task", "swe-bench-task"};

bool rollout_name(std::string_view name) {
    const std::vector<SchemaId> schemas = schemas_named(name);
    return !schemas.empty() && std::all_of(schemas.begin(), schemas.end(), [](SchemaId s) { return schema_info(s).base == kRollout; });
}

/// The schemas `name` stands for, and whether they are rollout versions only. (Asked for every row:
/// the last name's answer is kept.) Throws std::invalid_argument for a name lint does not read.
const std::pair<std::vector<SchemaId>, bool>& linted_schemas(std::string_view name) {
    thread_local std::string last_name;
    thread_local std::pair<std::vector<SchemaId>, bool> schemas;
    if (!schemas.first.empty() && name == last_name) return schemas;
    if (!lints(name)) {
        schemas.first.clear();
        throw std::invalid_argument("lint reads Sediment's rows: '" + std::string(name) +
                                    "' is none of nemo-gym-rollout, sft-sample, dpo-pair, diff-sft-sample, recovery-row, "
                                    "sediment-rlvr-rollout, sediment-rlvr-task, swe-bench-task (each with or without its version) or any");
    }
    schemas = {schemas_named(name), rollout_name(name)};
    last_name.assign(name.data(), name.size());
    return schemas;
}

/// lint_text() of a rollout row under `name`, one of the rollout rows' names, which stands for `schemas`.
std::optional<SchemaId> lint_rollout_text(std::string_view name, const std::vector<SchemaId>& schemas, std::string_view text, bool padded,
                                          std::vector<Error>& findings, SessionFacts& facts, const LintOptions& options, const Limits& limits) {
    // a valid row is linted where the parser left it; anything else is decoded by the exact reader
    thread_local detail::fast::AnyRolloutRowView view;
    simdjson::dom::element root;
    const std::optional<SchemaId> named = schemas.size() > 1 ? std::nullopt : std::optional<SchemaId>(schemas.front());
    if (detail::fast::view_row(text, padded, limits, named, view, root)) {
        return std::visit([&](const auto& row) {
            lint(row, findings, options);
            // the digests in one pass over the metadata's members (a valid row has it); any other field
            // from the root
            std::uint64_t digests[kDigested] = {};
            simdjson::dom::object metadata;
            if (!root["metadata"].get(metadata))
                for (const auto m : metadata)
                    for (int field = 0; field < kDigested; ++field)
                        if (!kMetadataMembers[field].empty() && m.key == kMetadataMembers[field]) {
                            digests[field] = value_digest(detail::tape::value_of(m.value)) | 1;
                            break;
                        }
            for (int field = 0; field < kDigested; ++field) {
                simdjson::dom::element value;
                if (kMetadataMembers[field].empty() && root.at_pointer(pointer_of(field)).get(value) == simdjson::SUCCESS)
                    digests[field] = value_digest(detail::tape::value_of(value)) | 1;
            }
            facts = facts_of(row, [&](int field) { return digests[field]; });
            return document_traits<model_t<std::decay_t<decltype(row)>>>::schema;
        }, view);
    }
    thread_local AnyRolloutRow row;
    if (!lint(name, text, row, findings, options, limits)) return std::nullopt;
    facts = session_facts(row);
    return schema_of(row);
}

std::optional<SchemaId> lint_text(std::string_view name, std::string_view text, bool padded, std::vector<Error>& findings,
                                  SessionFacts& facts, const LintOptions& options, const Limits& limits) {
    const auto& looked_up = linted_schemas(name);
    if (looked_up.second) return lint_rollout_text(name, looked_up.first, text, padded, findings, facts, options, limits);
    // another family, or any
    static const std::vector<SchemaId> rollouts = schemas_named(kRollout);
    // under "any", a row that looks like a rollout row (its schema_id names one) is read as one first:
    // one parse where the fast path takes it, instead of a check as any row and then another
    if (name == "any" && text.find("/nemo-gym-rollout/v") != std::string_view::npos) {
        const std::size_t before = findings.size();
        if (const auto version = lint_rollout_text(kRollout, rollouts, text, padded, findings, facts, options, limits)) return version;
        findings.resize(before);  // not one after all, or not valid: read as any row
        facts = SessionFacts{};
    }
    const std::optional<SchemaId> version = lint_family_text(name, text, padded, findings, facts, options, limits);
    if (version && schema_info(*version).base == kRollout)
        return lint_rollout_text(schema_info(*version).name, {*version}, text, padded, findings, facts, options, limits);
    return version;
}

}  // namespace

bool lints(std::string_view name) {
    const std::vector<SchemaId> schemas = schemas_named(name);
    return !schemas.empty() && std::all_of(schemas.begin(), schemas.end(), [](SchemaId s) {
        return std::find(std::begin(kLinted), std::end(kLinted), schema_info(s).base) != std::end(kLinted);
    });
}

std::optional<SchemaId> lint(std::string_view name, std::string_view text, AnyRolloutRow& row, std::vector<Error>& findings,
                             const LintOptions& options, const Limits& limits) {
    const auto& looked_up = linted_schemas(name);  // (no structured binding: a lambda below uses it)
    const std::vector<SchemaId>& schemas = looked_up.first;
    if (!looked_up.second) throw std::invalid_argument("lint reads rollout rows into an AnyRolloutRow: '" + std::string(name) + "' is not nemo-gym-rollout[.vN]");
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
