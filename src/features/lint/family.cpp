// Lint of Sediment's other training-row families (docs/lint.md, "Other families"): the rules within
// one row of each family, and the facts the rules across rows need (SessionFacts' family members).
// A row is read as its JSON value once it is schema-valid: every rule names values by pointer.
#include "features/lint/family.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include <simdjson.h>

#include "detail/text.hpp"
#include "detail/writer.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows {

namespace {

std::string hex_digest(const std::array<unsigned char, 32>& digest) {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char b : digest) out += kHex[b >> 4], out += kHex[b & 0xf];
    return out;
}

/// The prompt_sha256 of the prompt that `write_prompt` writes with a Writer: the SHA-256 of `{"prompt":
/// ...}` in Sediment's digest form (compact, keys sorted, UTF-8 as it is: the compact style writes
/// strings and numbers as Python's json.dumps(ensure_ascii=False) does). "" when it cannot write it.
template <class WritePrompt>
std::string prompt_digest(WritePrompt&& write_prompt) {
    std::string form;
    {
        detail::Writer w(form, Style::compact);
        w.begin_object();
        w.key("prompt");
        if (!write_prompt(w)) return "";
        w.end_object();
    }
    return hex_digest(sha256(form));
}

}  // namespace

std::string prompt_sha256(const Json& prompt) {
    return prompt_digest([&](detail::Writer& w) { return w.json(prompt, true), true; });
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

private:
    static Json::json_pointer pointer(std::string_view p) { return Json::json_pointer(std::string(p)); }
    const Json& at(std::string_view p) const { return row_.at(pointer(p)); }
    const Json& row_;
};

/// The same, of simdjson's DOM: what lint reads a row as, parsed in a few microseconds. A number it
/// cannot tell apart as Python does (-0, an integer or a decimal) makes digest_form() false: the row
/// is then read as a JsonRow.
class DomRow {
public:
    explicit DomRow(simdjson::dom::element root) : root_(root) {}
    bool has(std::string_view p) const { return root_.at_pointer(p).error() == simdjson::SUCCESS; }
    std::string_view text(std::string_view p) const { return at(p).get_string().value_unsafe(); }
    double number(std::string_view p) const {
        const simdjson::dom::element e = at(p);
        return e.is_double() ? e.get_double().value_unsafe() : e.is_int64() ? static_cast<double>(e.get_int64().value_unsafe())
                                                                             : static_cast<double>(e.get_uint64().value_unsafe());
    }
    std::int64_t integer(std::string_view p) const { return at(p).get_int64().value_unsafe(); }
    bool is_null(std::string_view p) const { return at(p).is_null(); }
    std::string literal(std::string_view p) const {
        std::string out;
        detail::Writer w(out, Style::compact);
        write(w, at(p), false);
        return w.finish();
    }
    bool digest_form(std::string_view p, detail::Writer& w) const { return write(w, at(p), true); }

private:
    simdjson::dom::element at(std::string_view p) const { return root_.at_pointer(p).value_unsafe(); }
    /// Writes `e`; with `digest`, keys sorted, and false for -0 (Python's integer 0 or its float -0.0:
    /// the DOM does not tell them apart).
    static bool write(detail::Writer& w, simdjson::dom::element e, bool digest) {
        using Type = simdjson::dom::element_type;
        switch (e.type()) {
            case Type::NULL_VALUE: return w.null(), true;
            case Type::BOOL: return w.boolean(e.get_bool().value_unsafe()), true;
            case Type::INT64: return w.integer(e.get_int64().value_unsafe()), true;
            case Type::UINT64: return w.unsigned_integer(e.get_uint64().value_unsafe()), true;
            case Type::DOUBLE: {
                const double d = e.get_double().value_unsafe();
                if (digest && d == 0 && std::signbit(d)) return false;
                return w.floating(d), true;
            }
            case Type::STRING: return w.string(e.get_string().value_unsafe()), true;
            case Type::ARRAY: {
                w.begin_array();
                const simdjson::dom::array items = e.get_array().value_unsafe();  // (a copy: the result is a temporary)
                for (const simdjson::dom::element item : items)
                    if (!write(w, item, digest)) return false;
                return w.end_array(), true;
            }
            case Type::OBJECT: {
                std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
                const simdjson::dom::object object = e.get_object().value_unsafe();
                for (const auto m : object) members.emplace_back(m.key, m.value);
                if (digest) std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
                w.begin_object();
                for (const auto& [key, value] : members) {
                    w.key(key);
                    if (!write(w, value, digest)) return false;
                }
                return w.end_object(), true;
            }
        }
        return false;
    }
    simdjson::dom::element root_;
};

/// The rules within a row of each family (docs/lint.md), and its facts, over a JsonRow or a DomRow.
/// run() is false when the row must be read as a JsonRow instead (DomRow::digest_form()).
template <class Row>
class FamilyRules {
public:
    FamilyRules(const Row& row, const SchemaInfo& schema, std::vector<Error>& findings, SessionFacts& facts, const LintOptions& options)
        : row_(row), schema_(schema), findings_(findings), facts_(facts), options_(options) {}

    bool run() {
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

private:
    void add(const char* id, std::string pointer, std::string message) { findings_.push_back({id, std::move(pointer), std::move(message)}); }
    std::string text(std::string_view p) const { return std::string(row_.text(p)); }
    bool prompt(std::string_view p) {
        facts_.prompt_sha256 = prompt_digest([&](detail::Writer& w) { return row_.digest_form(p, w); });
        return !facts_.prompt_sha256.empty();
    }
    /// `p`'s value in the digest form, or nothing when only the exact reader can write it.
    std::optional<std::string> digest_form(std::string_view p) const {
        std::string out;
        detail::Writer w(out, Style::compact);
        if (!row_.digest_form(p, w)) return std::nullopt;
        return w.finish();
    }

    bool sft() {
        const std::string recipe = text("/metadata/recipe_id"), source = text("/metadata/eligibility_source");
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
        facts_.identity = text("/metadata/completion_id");  // one sample per completion (project_sft)
        facts_.identity_pointer = "/metadata/completion_id";
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
        const auto chosen_form = digest_form("/chosen"), rejected_form = digest_form("/rejected");  // project_dpo(): _response_key()
        if (!chosen_form || !rejected_form) return false;
        if (*chosen_form == *rejected_form)
            add("rows.lint.dpo.identical_responses", "/rejected", "expected a response that differs from the chosen one, got the same messages");
        facts_.identity = text("/metadata/chosen_completion_id") + '\0' + text("/metadata/rejected_completion_id");
        facts_.identity_pointer = "/metadata/rejected_completion_id";
        if (!prompt("/prompt")) return false;
        facts_.bucket = text("/metadata/org_id") + '\0' + text("/metadata/source_model") + '\0' + facts_.prompt_sha256;
        return true;
    }

    bool diff_sft() {
        session_split(text("/metadata/session_id"), "/metadata/split");
        facts_.identity = text("/metadata/completion_id") + '\0' + text("/metadata/commit_sha");  // a row per (call, commit)
        facts_.identity_pointer = "/metadata/commit_sha";
        return prompt("/prompt");
    }

    bool recovery() {
        if (row_.text("/failed_commit_sha") == row_.text("/fixed_commit_sha"))
            add("rows.lint.recovery.commits", "/fixed_commit_sha",
                "expected a fixing commit other than the failed one, got " + row_.literal("/fixed_commit_sha"));
        return true;
    }

    bool rlvr_rollout() {
        const std::string session = text("/session_id");
        const std::string expected = text("/org_id") + "-" + session + "-seg" + std::to_string(row_.integer("/segment_index"));
        if (row_.text("/instance_id") != expected)
            add("rows.lint.rlvr.instance_id", "/instance_id",
                "expected " + encode(Json(expected)) + " ({org_id}-{session_id}-seg{segment_index}), got " + row_.literal("/instance_id"));
        session_split(session, "/split");
        facts_.identity = text("/instance_id");
        facts_.identity_pointer = "/instance_id";
        return true;
    }

    bool task() {
        facts_.identity = text("/instance_id");
        facts_.identity_pointer = "/instance_id";
        return schema_.base != "swe-bench-task" || prompt("/problem_statement");  // consumer_rlvr.py: {"prompt": problem_statement}
    }

    /// The split Sediment derives for a row of one session (split.py): eval when the session's score is
    /// below the eval fraction.
    void session_split(const std::string& session_id, const char* pointer) {
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

void lint_family_row(std::string_view text, bool padded, SchemaId schema, std::vector<Error>& findings, SessionFacts& facts,
                     const LintOptions& options, const Limits& limits) {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element root;
    const std::size_t before = findings.size();
    if (!parser.parse(text.data(), text.size(), !padded).get(root)) {
        const DomRow row(root);
        if (FamilyRules<DomRow>(row, schema_info(schema), findings, facts, options).run()) return;
        findings.resize(before);  // read again, exactly
        facts = SessionFacts{};
    }
    const Json document = parse(text, limits);  // (valid under them)
    const JsonRow row(document);
    FamilyRules<JsonRow>(row, schema_info(schema), findings, facts, options).run();
}

}  // namespace sediment::rows
