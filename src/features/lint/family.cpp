// Lint of Sediment's other training-row families (docs/lint.md, "Other families"): the rules within
// one row of each family, and the facts the rules across rows need (SessionFacts' family members).
// A row is read as its JSON value once it is schema-valid: every rule names values by pointer.
#include "features/lint/family.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include <simdjson.h>

#include "detail/fast_dom.hpp"
#include "detail/tape.hpp"
#include "features/lint/digest.hpp"
#include "features/lint/split.hpp"
#include "detail/text.hpp"
#include "detail/writer.hpp"
#include "sediment/rows/encode.hpp"
#include "sediment/rows/versions.hpp"

namespace sediment::rows {

namespace {

/// The prompt_sha256 of the prompt that `write_prompt` writes with a Writer: the SHA-256 of `{"prompt":
/// ...}` in Sediment's digest form (compact, keys sorted, UTF-8 as it is: the compact style writes
/// strings and numbers as Python's json.dumps(ensure_ascii=False) does); nothing when it cannot write it.
template <class WritePrompt>
std::optional<std::array<unsigned char, 32>> prompt_digest(WritePrompt&& write_prompt) {
    thread_local std::string form;  // (its capacity kept from row to row)
    form.clear();
    {
        detail::Writer w(form, Style::compact);
        w.begin_object();
        w.key("prompt");
        if (!write_prompt(w)) return std::nullopt;
        w.end_object();
    }
    return sha256(form);
}

}  // namespace

std::string prompt_sha256(const Json& prompt) {
    return detail::hex(*prompt_digest([&](detail::Writer& w) { return w.json(prompt, true), true; }));
}

std::string_view identity_pointer(std::string_view family) {
    if (family == "sft-sample") return "/metadata/completion_id";  // one sample per completion (project_sft)
    if (family == "dpo-pair") return "/metadata/rejected_completion_id";
    if (family == "diff-sft-sample") return "/metadata/commit_sha";  // a row per (call, commit)
    return "/instance_id";
}

namespace {

/// A schema-valid row as its JSON value (rows::Json): any row, big integers too. The rules read it by
/// pointer; a pointer they ask for is in the row, as its schema requires.
class JsonRow {
public:
    explicit JsonRow(const Json& row) : row_(row) {}
    bool has(std::string_view p) const { return row_.contains(pointer(p)); }
    std::string_view text(std::string_view p) const { return at(p).get_ref<const std::string&>(); }
    double number(std::string_view p) const { return at(p).get<double>(); }
    std::int64_t integer(std::string_view p) const { return at(p).get<std::int64_t>(); }
    bool is_null(std::string_view p) const { return at(p).is_null(); }
    std::string literal(std::string_view p) const { return encode(at(p)); }
    bool digest_form(std::string_view p, detail::Writer& w) const { return w.json(at(p), true), true; }
    std::optional<bool> same(std::string_view p, std::string_view q) const { return form(p) == form(q); }
    std::optional<FactKey> key(std::string_view p) const { return digests(at(p)); }
    bool complete() const { return true; }

private:
    std::string form(std::string_view p) const {
        std::string out;
        detail::Writer w(out, Style::compact);
        w.json(at(p), true);
        return w.finish();
    }
    /// The key of the JSON value `j` (detail::digests: members in any order, 1 and 1.0 apart):
    /// SessionFacts::prompt_key.
    static FactKey digests(const Json& j) {
        using namespace detail::digests;
        switch (j.type()) {
            case Json::value_t::null: return key_leaf(null_tag);
            case Json::value_t::boolean: return key_leaf(j.get<bool>() ? true_tag : false_tag);
            case Json::value_t::number_integer: return key_leaf(integer_digest(j.get<std::int64_t>()));
            case Json::value_t::number_unsigned: return key_leaf(unsigned_digest(j.get<std::uint64_t>()));
            case Json::value_t::number_float: return key_leaf(double_digest(j.get<double>()));
            case Json::value_t::string: return key_text(string_tag, j.get_ref<const std::string&>());
            case Json::value_t::binary: {  // a big integer's digits
                const auto& digits = j.get_binary();
                return key_text(big_tag, std::string_view(reinterpret_cast<const char*>(digits.data()), digits.size()));
            }
            case Json::value_t::array: {
                FactKey h = key_leaf(array_tag);
                for (const Json& item : j) h = key_item(h, digests(item));
                return h;
            }
            case Json::value_t::object: {
                FactKey sum{};
                for (const auto& [k, value] : j.get_ref<const Json::object_t&>()) key_member(sum, k, digests(value));
                return key_object(sum);
            }
            default: return {};
        }
    }
    static Json::json_pointer pointer(std::string_view p) { return Json::json_pointer(std::string(p)); }
    const Json& at(std::string_view p) const { return row_.at(pointer(p)); }
    const Json& row_;
};

/// The same, of simdjson's DOM: what lint reads a row as, where the fast path that checked it left it.
/// An integer beyond 64 bits stands there as a marker (detail::BigIntegers): written as its literal,
/// and where a rule reads it as a number, complete() is false. A -0 it cannot tell apart as Python does
/// (an integer or a decimal: negative_zero()) makes digest_form() false. Either way the row is then
/// read as a JsonRow.
class DomRow {
public:
    DomRow(std::string_view text, simdjson::dom::element root, const detail::BigIntegers& big, detail::TokenStarts tokens)
        : text_(text), root_(root), big_(big), tokens_(tokens) {}
    bool has(std::string_view p) const { return find(p).error() == simdjson::SUCCESS; }
    std::string_view text(std::string_view p) const { return at(p).get_string().value_unsafe(); }
    double number(std::string_view p) const {
        const simdjson::dom::element e = at(p);
        if (e.is_string()) return complete_ = false, 0;  // a marker
        return e.is_double() ? e.get_double().value_unsafe() : e.is_int64() ? static_cast<double>(e.get_int64().value_unsafe())
                                                                             : static_cast<double>(e.get_uint64().value_unsafe());
    }
    std::int64_t integer(std::string_view p) const {
        const simdjson::dom::element e = at(p);
        if (!e.is_int64()) return complete_ = false, 0;  // beyond int64: a marker, or a uint64
        return e.get_int64().value_unsafe();
    }
    bool is_null(std::string_view p) const { return at(p).is_null(); }
    std::string literal(std::string_view p) const {
        std::string out;
        detail::Writer w(out, Style::compact);
        write(w, at(p), false);
        return w.finish();
    }
    bool digest_form(std::string_view p, detail::Writer& w) const { return write(w, at(p), true); }
    /// Whether the values at `p` and `q` have the same digest form: compared where they are, up to
    /// their first difference; nothing when only the exact reader can tell.
    std::optional<bool> same(std::string_view p, std::string_view q) const {
        if (const std::optional<bool> equal = same(at(p), at(q))) return equal;
        std::string a, b;  // a -0 met: the digest forms, where negative_zero() tells
        detail::Writer wa(a, Style::compact), wb(b, Style::compact);
        if (!write(wa, at(p), true) || !write(wb, at(q), true)) return std::nullopt;
        return wa.finish() == wb.finish();
    }
    /// The key of the value at `p` (SessionFacts::prompt_key); nothing where a -0 is met that
    /// negative_zero() cannot tell apart.
    std::optional<FactKey> key(std::string_view p) const {
        if (FactKey k; digests(detail::tape::value_of(at(p)), k)) return k;
        return std::nullopt;
    }
    /// False when a rule read, as a number, a value only the exact reader holds.
    bool complete() const { return complete_; }

private:
    /// The value at `p`, a pointer of members whose names need no escape ("/metadata/split"): a key
    /// at a time, as simdjson's at_key() finds it, with no pointer to parse. The metadata's members (the
    /// rules read a dozen of them) are listed once, at the first of them, and looked up in the list.
    simdjson::simdjson_result<simdjson::dom::element> find(std::string_view p) const {
        constexpr std::string_view kMetadata = "/metadata/";
        if (p.substr(0, kMetadata.size()) == kMetadata) {
            if (!metadata_listed_) {
                metadata_.clear();
                simdjson::dom::object metadata;
                if (!root_["metadata"].get(metadata))
                    for (const auto m : metadata) metadata_.emplace_back(m.key, m.value);
                metadata_listed_ = true;
            }
            const std::string_view key = p.substr(kMetadata.size());
            for (const Member& m : metadata_)
                if (m.first == key) return simdjson::dom::element(m.second);
            return simdjson::NO_SUCH_FIELD;
        }
        simdjson::simdjson_result<simdjson::dom::element> e{simdjson::dom::element(root_)};
        while (!p.empty() && e.error() == simdjson::SUCCESS) {
            p.remove_prefix(1);  // the '/'
            const std::size_t end = std::min(p.find('/'), p.size());
            e = e.value_unsafe().get_object().at_key(p.substr(0, end));
            p.remove_prefix(end);
        }
        return e;
    }
    simdjson::dom::element at(std::string_view p) const { return find(p).value_unsafe(); }
    /// Writes `e`; with `digest`, keys sorted, and false for a -0 that negative_zero() cannot tell apart.
    bool write(detail::Writer& w, simdjson::dom::element e, bool digest) const {
        using Type = simdjson::dom::element_type;
        switch (e.type()) {
            case Type::NULL_VALUE: return w.null(), true;
            case Type::BOOL: return w.boolean(e.get_bool().value_unsafe()), true;
            case Type::INT64: return w.integer(e.get_int64().value_unsafe()), true;
            case Type::UINT64: return w.unsigned_integer(e.get_uint64().value_unsafe()), true;
            case Type::DOUBLE: {
                const double d = e.get_double().value_unsafe();
                if (digest && minus_zero(d)) {  // Python's integer 0 ("-0"), or its float -0.0?
                    const Zero zero = negative_zero();
                    if (zero == Zero::either) return false;
                    return zero == Zero::integer ? w.integer(0) : w.floating(d), true;
                }
                return w.floating(d), true;
            }
            case Type::STRING: {
                const std::string_view s = e.get_string().value_unsafe();
                if (!big_.empty() && detail::marker_form(s)) return w.big_integer(big_[detail::marker_index(s)].first), true;
                return w.string(s), true;
            }
            case Type::ARRAY: {
                w.begin_array();
                const simdjson::dom::array items = e.get_array().value_unsafe();  // (a copy: the result is a temporary)
                for (const simdjson::dom::element item : items)
                    if (!write(w, item, digest)) return false;
                return w.end_array(), true;
            }
            case Type::OBJECT: {
                // its members on the thread's stack of them (by place: a member's value pushes more),
                // sorted for the digest form (a few, as a rule: by insertion)
                std::vector<Member>& members = members_;
                const std::size_t first = members.size();
                const simdjson::dom::object object = e.get_object().value_unsafe();  // (a copy: the result is a temporary)
                for (const auto m : object) members.emplace_back(m.key, m.value);
                const std::size_t last = members.size();
                const auto by_key = [](const Member& a, const Member& b) { return a.first < b.first; };
                if (digest && last - first > 8) std::sort(members.begin() + static_cast<std::ptrdiff_t>(first), members.end(), by_key);
                else if (digest)
                    for (std::size_t i = first + 1; i < last; ++i)
                        for (std::size_t j = i; j > first && by_key(members[j], members[j - 1]); --j) std::swap(members[j], members[j - 1]);
                bool written = true;
                w.begin_object();
                for (std::size_t i = first; written && i < last; ++i) {
                    w.key(members[i].first);
                    written = write(w, members[i].second, digest);
                }
                members.resize(first);
                return written && (w.end_object(), true);
            }
        }
        return false;
    }
    /// JsonRow::digests() of the value `v` stands for, in `key`, read off the tape (a prompt's walk is a
    /// tenth of lint's time on SFT rows); false where a -0 is met that negative_zero() cannot tell apart.
    bool digests(detail::tape::Value v, FactKey& key) const {
        using namespace detail::digests;
        switch (v.type()) {
            case 'n': return key = key_leaf(null_tag), true;
            case 't': return key = key_leaf(true_tag), true;
            case 'f': return key = key_leaf(false_tag), true;
            case 'l': return key = key_leaf(integer_digest(v.number<std::int64_t>())), true;
            case 'u': return key = key_leaf(unsigned_digest(v.number<std::uint64_t>())), true;
            case 'd': {
                const double d = v.number<double>();
                if (minus_zero(d)) {  // Python's integer 0 ("-0"), or its float -0.0?
                    const Zero zero = negative_zero();
                    if (zero == Zero::either) return false;
                    if (zero == Zero::integer) return key = key_leaf(integer_digest(0)), true;
                }
                return key = key_leaf(double_digest(d)), true;
            }
            case '"': {
                const std::string_view s = v.string();
                if (!big_.empty() && detail::marker_form(s)) return key = key_text(big_tag, big_[detail::marker_index(s)].first), true;
                return key = key_text(string_tag, s), true;
            }
            case '[': {
                key = key_leaf(array_tag);
                FactKey item_key;
                for (detail::tape::Value item = v.first(); item.at < v.close(); item = item.with(item.next())) {
                    if (!digests(item, item_key)) return false;
                    key = key_item(key, item_key);
                }
                return true;
            }
            case '{': {
                FactKey sum{}, value_key;
                for (detail::tape::Value name = v.first(); name.at < v.close();) {  // a key (a string), then its value
                    const detail::tape::Value value = name.with(name.at + 1);
                    if (!digests(value, value_key)) return false;
                    key_member(sum, name.string(), value_key);
                    name = name.with(value.next());
                }
                return key = key_object(sum), true;
            }
        }
        return false;
    }
    /// same() of two values; nothing where a -0 is met.
    std::optional<bool> same(simdjson::dom::element x, simdjson::dom::element y) const {
        using Type = simdjson::dom::element_type;
        const auto is_minus_zero = [](simdjson::dom::element e) { return e.is_double() && minus_zero(e.get_double().value_unsafe()); };
        if (is_minus_zero(x) || is_minus_zero(y)) return std::nullopt;
        if (x.type() != y.type()) return false;  // (an integer has one type for its value; 1 and 1.0 differ)
        switch (x.type()) {
            case Type::NULL_VALUE: return true;
            case Type::BOOL: return x.get_bool().value_unsafe() == y.get_bool().value_unsafe();
            case Type::INT64: return x.get_int64().value_unsafe() == y.get_int64().value_unsafe();
            case Type::UINT64: return x.get_uint64().value_unsafe() == y.get_uint64().value_unsafe();
            case Type::DOUBLE: return x.get_double().value_unsafe() == y.get_double().value_unsafe();
            case Type::STRING: {
                std::string_view a = x.get_string().value_unsafe(), b = y.get_string().value_unsafe();
                if (!big_.empty() && detail::marker_form(a)) a = big_[detail::marker_index(a)].first;  // a big integer's literal
                if (!big_.empty() && detail::marker_form(b)) b = big_[detail::marker_index(b)].first;
                return a == b;
            }
            case Type::ARRAY: {
                const simdjson::dom::array a = x.get_array().value_unsafe(), b = y.get_array().value_unsafe();
                auto i = a.begin(), j = b.begin();
                for (; i != a.end() && j != b.end(); ++i, ++j)
                    if (const std::optional<bool> equal = same(*i, *j); !equal || !*equal) return equal;
                return i == a.end() && j == b.end();
            }
            case Type::OBJECT: {  // the same keys, each with the same value, in any order
                const simdjson::dom::object a = x.get_object().value_unsafe(), b = y.get_object().value_unsafe();
                if (a.size() != b.size()) return false;
                for (const auto m : a) {
                    simdjson::dom::element other;
                    if (b.at_key(m.key).get(other)) return false;
                    if (const std::optional<bool> equal = same(m.value, other); !equal || !*equal) return equal;
                }
                return true;
            }
        }
        return std::nullopt;
    }
    /// What the text's negative zero literals are: every one is "-0" alone (an integer to Python), or
    /// every one is a decimal ("-0.0", "-0e3"); a -0 of the DOM is one of them. A literal starts at one
    /// of the parser's token starts (a '-' there begins a number, never an exponent).
    enum class Zero { integer, decimal, either };
    static bool minus_zero(double d) { return d == 0 && std::signbit(d); }
    Zero negative_zero() const {
        if (!zero_) zero_ = scan_negative_zeros();
        return *zero_;
    }
    Zero scan_negative_zeros() const {
        bool integer = false, decimal = false;
        for (std::size_t i = 0; i < tokens_.size; ++i) {  // a number's first byte is a token's
            const std::size_t at = tokens_.offsets[i];
            if (at + 1 >= text_.size() || text_[at] != '-' || text_[at + 1] != '0') continue;
            const char next = at + 2 < text_.size() ? text_[at + 2] : ' ';
            (next == '.' || next == 'e' || next == 'E' ? decimal : integer) = true;
        }
        return integer && decimal ? Zero::either : integer ? Zero::integer : Zero::decimal;
    }
    using Member = std::pair<std::string_view, simdjson::dom::element>;
    static std::vector<Member>& thread_members() {
        thread_local std::vector<Member> members;
        return members;
    }
    std::string_view text_;
    simdjson::dom::element root_;
    const detail::BigIntegers& big_;
    detail::TokenStarts tokens_;
    std::vector<Member>& members_ = thread_members();  // what write() sorts objects' members in
    static std::vector<Member>& thread_metadata() {
        thread_local std::vector<Member> members;
        return members;
    }
    std::vector<Member>& metadata_ = thread_metadata();  // the metadata's members, once find() lists them
    mutable bool metadata_listed_ = false;
    mutable std::optional<Zero> zero_;  // negative_zero(), once it is asked
    mutable bool complete_ = true;
};

/// The rules within a row of each family (docs/lint.md), and its facts, over a JsonRow or a DomRow.
/// run() is false when the row must be read as a JsonRow instead (DomRow::digest_form(), complete()).
template <class Row>
class FamilyRules {
public:
    FamilyRules(const Row& row, const SchemaInfo& schema, std::vector<Error>& findings, SessionFacts& facts, const LintOptions& options)
        : row_(row), schema_(schema), findings_(findings), facts_(facts), options_(options) {}

    bool run() { return rules() && row_.complete(); }

private:
    bool rules() {
        const std::string_view family = schema_.base;
        facts_.family = std::string(family);
        facts_.split_pointer = row_.has("/metadata/split") ? "/metadata/split" : "/split";
        if (row_.has(facts_.split_pointer)) facts_.row_split = row_.text(facts_.split_pointer) == "eval" ? Split::eval : Split::train;
        if (family == "sft-sample") return sft();
        if (family == "dpo-pair") return dpo();
        if (family == "diff-sft-sample") return diff_sft();
        if (family == "recovery-row") return recovery();
        if (family == "sediment-rlvr-rollout") return rlvr_rollout();
        if (family == "sediment-rlvr-task" || family == "swe-bench-task") return task();
        return true;
    }

    void add(const char* id, std::string pointer, std::string message) { findings_.push_back({id, std::move(pointer), std::move(message)}); }
    /// `out` set to the texts at `pointers` joined by U+0000 (an identity, a bucket), in one allocation.
    std::string& join(std::string& out, std::initializer_list<std::string_view> pointers) const {
        out.clear();
        bool first = true;
        for (const std::string_view p : pointers) {
            if (!first) out.push_back('\0');
            first = false;
            out.append(row_.text(p));
        }
        return out;
    }
    /// The prompt's key and, for an eval row (the one a finding names it at), its prompt_sha256.
    bool prompt(std::string_view p) {
        const std::optional<FactKey> key = row_.key(p);
        if (!key) return false;
        facts_.prompt_key = *key;
        if (facts_.row_split != Split::eval) return true;
        const auto digest = prompt_digest([&](detail::Writer& w) { return row_.digest_form(p, w); });
        if (!digest) return false;
        facts_.prompt_sha256 = detail::hex(*digest);
        return true;
    }
    bool sft() {
        const std::string_view recipe = row_.text("/metadata/recipe_id"), source = row_.text("/metadata/eligibility_source");
        // sft.py _eligibility_source(): sft_verified admits a clean resolved CI pass only; sft_curated an
        // explicit accept or a strong edit retention
        const bool allowed = recipe == "sft_verified" ? source == "resolved_ci_pass" : source == "explicit_accept" || source == "edit_retention";
        if (!allowed)
            add("rows.lint.sft.eligibility_source", "/metadata/eligibility_source",
                "expected " + std::string(recipe == "sft_verified" ? "\"resolved_ci_pass\"" : "\"explicit_accept\" or \"edit_retention\"") +
                    " for recipe " + row_.literal("/metadata/recipe_id") + ", got " + row_.literal("/metadata/eligibility_source"));
        if (recipe == "sft_verified" && row_.is_null("/metadata/ci_reliability"))
            add("rows.lint.sft.ci_reliability", "/metadata/ci_reliability",
                "expected the reliability of the CI resolution that recipe \"sft_verified\" requires, got null");
        if (row_.number("/metadata/label_confidence") < options_.min_confidence)  // project_sft(): below_confidence_floor
            add("rows.lint.sft.min_confidence", "/metadata/label_confidence",
                "expected at least the SFT policy's minimum confidence " + encode(Json(options_.min_confidence)) + " (--min-confidence), got " +
                    row_.literal("/metadata/label_confidence"));
        facts_.identity = row_.text("/metadata/completion_id");  // one sample per completion (project_sft)
        facts_.order_key = facts_.identity;  // rows in completion_id order
        return prompt("/prompt");
    }

    bool dpo() {
        const bool human = row_.text("/metadata/recipe_id") == "dpo_human";
        // dpo.py _classify_with_source(): dpo_human pairs an explicit accept with an explicit reject,
        // dpo_outcome a clean CI pass with a clean CI failure
        const char* chosen = human ? "explicit_accept" : "resolved_ci_pass";
        const char* rejected = human ? "explicit_reject" : "resolved_ci_fail";
        if (row_.text("/metadata/chosen_label_source") != chosen)
            add("rows.lint.dpo.label_source", "/metadata/chosen_label_source",
                "expected \"" + std::string(chosen) + "\" for recipe " + row_.literal("/metadata/recipe_id") + ", got " +
                    row_.literal("/metadata/chosen_label_source"));
        if (row_.text("/metadata/rejected_label_source") != rejected)
            add("rows.lint.dpo.label_source", "/metadata/rejected_label_source",
                "expected \"" + std::string(rejected) + "\" for recipe " + row_.literal("/metadata/recipe_id") + ", got " +
                    row_.literal("/metadata/rejected_label_source"));
        if (row_.text("/metadata/chosen_completion_id") == row_.text("/metadata/rejected_completion_id"))  // the self-pair guard
            add("rows.lint.dpo.self_pair", "/metadata/rejected_completion_id",
                "expected another completion than the chosen one, got " + row_.literal("/metadata/rejected_completion_id"));
        // label_confidence is the lower member confidence, confidence_margin chosen minus rejected, each
        // confidence in [0, 1]: the higher one, label_confidence + |margin|, is at most 1
        if (row_.number("/metadata/label_confidence") + std::fabs(row_.number("/metadata/confidence_margin")) > 1.0 + 1e-9)
            add("rows.lint.dpo.confidence_margin", "/metadata/confidence_margin",
                "expected a margin that leaves both member confidences in [0, 1]: label_confidence (the lower, " +
                    row_.literal("/metadata/label_confidence") + ") plus |margin| is at most 1, got " + row_.literal("/metadata/confidence_margin"));
        if (!human && row_.is_null("/metadata/ci_reliability"))
            add("rows.lint.dpo.ci_reliability", "/metadata/ci_reliability",
                "expected the reliability of the CI resolutions that recipe \"dpo_outcome\" requires, got null");
        const std::optional<bool> same = row_.same("/chosen", "/rejected");  // project_dpo(): _response_key()
        if (!same) return false;
        if (*same)
            add("rows.lint.dpo.identical_responses", "/rejected", "expected a response that differs from the chosen one, got the same messages");
        join(facts_.identity, {"/metadata/chosen_completion_id", "/metadata/rejected_completion_id"});
        if (!prompt("/prompt")) return false;
        std::string bucket;
        join(bucket, {"/metadata/org_id", "/metadata/source_model"}).push_back('\0');
        bucket.append(reinterpret_cast<const char*>(facts_.prompt_key.data()), sizeof facts_.prompt_key);
        facts_.bucket_key = fact_key(bucket);
        return true;
    }

    bool diff_sft() {
        session_split(row_.text("/metadata/session_id"), "/metadata/split");
        join(facts_.identity, {"/metadata/completion_id", "/metadata/commit_sha"});  // a row per (call, commit)
        return prompt("/prompt");
    }

    bool recovery() {
        if (row_.text("/failed_commit_sha") == row_.text("/fixed_commit_sha"))
            add("rows.lint.recovery.commits", "/fixed_commit_sha",
                "expected a fixing commit other than the failed one, got " + row_.literal("/fixed_commit_sha"));
        return true;
    }

    bool rlvr_rollout() {
        const std::string_view session = row_.text("/session_id");
        const std::string expected = std::string(row_.text("/org_id")).append("-").append(session).append("-seg") + std::to_string(row_.integer("/segment_index"));
        if (row_.text("/instance_id") != expected)
            add("rows.lint.rlvr.instance_id", "/instance_id",
                "expected " + encode(Json(expected)) + " ({org_id}-{session_id}-seg{segment_index}), got " + row_.literal("/instance_id"));
        session_split(session, "/split");
        facts_.identity = row_.text("/instance_id");
        return true;
    }

    bool task() {
        facts_.identity = row_.text("/instance_id");
        return schema_.base != "swe-bench-task" || prompt("/problem_statement");  // consumer_rlvr.py: {"prompt": problem_statement}
    }

    /// The split Sediment derives for a row of one session (split.py): eval when the session's score is
    /// below the eval fraction.
    void session_split(std::string_view session_id, const char* pointer) {
        const double score = split_score(session_id);
        const Split expected = score < options_.eval_fraction ? Split::eval : Split::train;
        const char* name = expected == Split::eval ? "eval" : "train";
        if (row_.text(pointer) != name)
            add("rows.lint.split", pointer, "expected \"" + std::string(name) + "\" (score " + encode(Json(score)) +
                                                 (expected == Split::eval ? " < " : " >= ") + "eval fraction " +
                                                 encode(Json(options_.eval_fraction)) + "), got " + row_.literal(pointer));
    }

    const Row& row_;
    const SchemaInfo& schema_;
    std::vector<Error>& findings_;
    SessionFacts& facts_;
    const LintOptions& options_;
};

}  // namespace

std::optional<SchemaId> lint_family_text(std::string_view name, std::string_view text, bool padded, std::vector<Error>& findings,
                                         SessionFacts& facts, const LintOptions& options, const Limits& limits) {
    // the fast path checks the row and lends its DOM: the rules read the row there, with no second parse
    std::optional<simdjson::dom::element> dom;
    thread_local detail::BigIntegers big;  // (a copy: the fast path's own is gone once it returns)
    big.clear();
    detail::TokenStarts tokens;
    std::optional<SchemaId> version = detail::fast_check_dom(
        name, text, limits, padded,
        [&](simdjson::dom::element root, const detail::BigIntegers& b, detail::TokenStarts t) { dom = root, big = b, tokens = t; }, true);
    if (!version) {  // the exact reader's verdict
        Validated v = validate(name, StringText(text, padded), limits);
        if (!v.errors.empty() || !v.schema) {
            findings.insert(findings.end(), std::make_move_iterator(v.errors.begin()), std::make_move_iterator(v.errors.end()));
            return std::nullopt;
        }
        version = v.schema;
    }
    if (schema_info(*version).base == "nemo-gym-rollout") return version;  // the caller lints it as one
    const std::size_t before = findings.size();
    if (!dom || !FamilyRules<DomRow>(DomRow(text, *dom, big, tokens), schema_info(*version), findings, facts, options).run()) {
        findings.resize(before);  // read again, exactly
        facts = SessionFacts{};
        const Json document = parse(text, limits);  // (valid under them)
        FamilyRules<JsonRow>(JsonRow(document), schema_info(*version), findings, facts, options).run();
    }
    if (!facts.identity.empty()) facts.identity_key = fact_key(facts.identity);  // (here, on the thread that lints the row)
    return version;
}

}  // namespace sediment::rows
