// Lint of Sediment's other training-row families (docs/lint.md, "Other families"): the rules within
// one row of each family, and the facts the rules across rows need (SessionFacts' family members).
// A row is read as its JSON value once it is schema-valid: every rule names values by pointer.
#include "features/lint/family.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "detail/text.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment::rows {

namespace {

/// `s` as Python's json.dumps(ensure_ascii=False) writes a string.
void append_digest_string(std::string& out, std::string_view s) {
    out += '"';
    std::size_t plain = 0;  // the bytes before s[i] that need no escape, appended at once
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s.data() + plain, i - plain);
        plain = i + 1;
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default: {  // another control character
                static const char kHex[] = "0123456789abcdef";
                out += "\\u00";
                out += kHex[(c >> 4) & 0xf];
                out += kHex[c & 0xf];
            }
        }
    }
    out.append(s.data() + plain, s.size() - plain);
    out += '"';
}

/// `v` in Sediment's digest form: json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":")).
void append_digest_form(std::string& out, const Json& v) {
    switch (v.type()) {
        case Json::value_t::null: out += "null"; break;
        case Json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; break;
        case Json::value_t::number_integer: out += std::to_string(v.get<std::int64_t>()); break;
        case Json::value_t::number_unsigned: out += std::to_string(v.get<std::uint64_t>()); break;
        case Json::value_t::number_float: detail::append_double(out, v.get<double>()); break;
        case Json::value_t::string: append_digest_string(out, v.get_ref<const std::string&>()); break;
        case Json::value_t::array: {
            out += '[';
            bool first = true;
            for (const Json& item : v) {
                if (!first) out += ',';
                first = false;
                append_digest_form(out, item);
            }
            out += ']';
            break;
        }
        case Json::value_t::object: {
            std::vector<const std::pair<const std::string, Json>*> members;  // sorted by key: code point order is UTF-8's byte order
            for (const auto& m : v.get_ref<const Json::object_t&>()) members.push_back(&m);
            std::sort(members.begin(), members.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
            out += '{';
            for (std::size_t i = 0; i < members.size(); ++i) {
                if (i) out += ',';
                append_digest_string(out, members[i]->first);
                out += ':';
                append_digest_form(out, members[i]->second);
            }
            out += '}';
            break;
        }
        default:  // a big integer: its digits
            out += is_big_integer(v) ? std::string(big_integer_digits(v)) : std::string("null");
    }
}

std::string hex_digest(const std::array<unsigned char, 32>& digest) {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char b : digest) out += kHex[b >> 4], out += kHex[b & 0xf];
    return out;
}

std::string json_text(const Json& v) { return encode(v); }

}  // namespace

std::string prompt_sha256(const Json& prompt) {
    std::string text = "{\"prompt\":";
    append_digest_form(text, prompt);
    text += '}';
    return hex_digest(sha256(text));
}

namespace {

/// The rules within a row of each family (docs/lint.md), and its facts.
class FamilyRules {
public:
    FamilyRules(const Json& row, const SchemaInfo& schema, std::vector<Error>& findings, SessionFacts& facts, const LintOptions& options)
        : row_(row), schema_(schema), findings_(findings), facts_(facts), options_(options) {}

    void run() {
        const std::string_view family = schema_.base;
        facts_.family = std::string(family);
        const bool metadata_split = row_.contains("metadata") && row_["metadata"].contains("split");
        facts_.split_pointer = metadata_split ? "/metadata/split" : "/split";
        if (const Json* split = at(facts_.split_pointer)) facts_.row_split = split->get<std::string>() == "eval" ? Split::eval : Split::train;
        if (family == "sft-sample") sft();
        else if (family == "dpo-pair") dpo();
        else if (family == "diff-sft-sample") diff_sft();
        else if (family == "recovery-row") recovery();
        else if (family == "sediment-rlvr-rollout") rlvr_rollout();
        else if (family == "sediment-rlvr-task" || family == "swe-bench-task") task();
    }

private:
    const Json* at(const std::string& pointer) const {
        const Json::json_pointer p(pointer);
        return row_.contains(p) ? &row_.at(p) : nullptr;
    }
    const Json& md() const { return row_.at("metadata"); }
    void add(const char* id, std::string pointer, std::string message) { findings_.push_back({id, std::move(pointer), std::move(message)}); }
    void prompt(const Json& prompt) { facts_.prompt_sha256 = prompt_sha256(prompt); }

    void sft() {
        const Json& m = md();
        const std::string recipe = m["recipe_id"].get<std::string>(), source = m["eligibility_source"].get<std::string>();
        // sft.py _eligibility_source(): sft_verified admits a clean resolved CI pass only; sft_curated an
        // explicit accept or a strong edit retention
        const bool allowed = recipe == "sft_verified" ? source == "resolved_ci_pass" : source == "explicit_accept" || source == "edit_retention";
        if (!allowed)
            add("rows.lint.sft.eligibility_source", "/metadata/eligibility_source",
                "expected " + std::string(recipe == "sft_verified" ? "\"resolved_ci_pass\"" : "\"explicit_accept\" or \"edit_retention\"") +
                    " for recipe " + json_text(m["recipe_id"]) + ", got " + json_text(m["eligibility_source"]));
        if (recipe == "sft_verified" && m["ci_reliability"].is_null())
            add("rows.lint.sft.ci_reliability", "/metadata/ci_reliability",
                "expected the reliability of the CI resolution that recipe \"sft_verified\" requires, got null");
        const double confidence = m["label_confidence"].get<double>();
        if (confidence < options_.min_confidence)  // project_sft(): below_confidence_floor
            add("rows.lint.sft.min_confidence", "/metadata/label_confidence",
                "expected at least the SFT policy's minimum confidence " + json_text(Json(options_.min_confidence)) + " (--min-confidence), got " +
                    json_text(m["label_confidence"]));
        facts_.identity = m["completion_id"].get<std::string>();  // one sample per completion (project_sft)
        facts_.identity_pointer = "/metadata/completion_id";
        facts_.order_key = facts_.identity;  // rows in completion_id order
        prompt(row_["prompt"]);
    }

    void dpo() {
        const Json& m = md();
        const std::string recipe = m["recipe_id"].get<std::string>();
        const bool human = recipe == "dpo_human";
        // dpo.py _classify_with_source(): dpo_human pairs an explicit accept with an explicit reject,
        // dpo_outcome a clean CI pass with a clean CI failure
        const char* chosen = human ? "explicit_accept" : "resolved_ci_pass";
        const char* rejected = human ? "explicit_reject" : "resolved_ci_fail";
        if (m["chosen_label_source"] != chosen)
            add("rows.lint.dpo.label_source", "/metadata/chosen_label_source",
                "expected \"" + std::string(chosen) + "\" for recipe " + json_text(m["recipe_id"]) + ", got " + json_text(m["chosen_label_source"]));
        if (m["rejected_label_source"] != rejected)
            add("rows.lint.dpo.label_source", "/metadata/rejected_label_source",
                "expected \"" + std::string(rejected) + "\" for recipe " + json_text(m["recipe_id"]) + ", got " + json_text(m["rejected_label_source"]));
        if (m["chosen_completion_id"] == m["rejected_completion_id"])  // the self-pair guard
            add("rows.lint.dpo.self_pair", "/metadata/rejected_completion_id",
                "expected another completion than the chosen one, got " + json_text(m["rejected_completion_id"]));
        // label_confidence is the lower member confidence, confidence_margin chosen minus rejected, each
        // confidence in [0, 1]: the higher one, label_confidence + |margin|, is at most 1
        const double confidence = m["label_confidence"].get<double>(), margin = m["confidence_margin"].get<double>();
        if (confidence + std::fabs(margin) > 1.0 + 1e-9)
            add("rows.lint.dpo.confidence_margin", "/metadata/confidence_margin",
                "expected a margin that leaves both member confidences in [0, 1]: label_confidence (the lower, " + json_text(m["label_confidence"]) +
                    ") plus |margin| is at most 1, got " + json_text(m["confidence_margin"]));
        if (!human && m["ci_reliability"].is_null())
            add("rows.lint.dpo.ci_reliability", "/metadata/ci_reliability",
                "expected the reliability of the CI resolutions that recipe \"dpo_outcome\" requires, got null");
        std::string chosen_text, rejected_text;  // project_dpo(): identical responses decline the pair
        append_digest_form(chosen_text, row_["chosen"]);
        append_digest_form(rejected_text, row_["rejected"]);
        if (chosen_text == rejected_text)
            add("rows.lint.dpo.identical_responses", "/rejected", "expected a response that differs from the chosen one, got the same messages");
        facts_.identity = m["chosen_completion_id"].get<std::string>() + '\0' + m["rejected_completion_id"].get<std::string>();
        facts_.identity_pointer = "/metadata/rejected_completion_id";
        prompt(row_["prompt"]);
        facts_.bucket = m["org_id"].get<std::string>() + '\0' + m["source_model"].get<std::string>() + '\0' + facts_.prompt_sha256;
    }

    void diff_sft() {
        const Json& m = md();
        session_split(m["session_id"].get<std::string>(), "/metadata/split", m["split"]);
        facts_.identity = m["completion_id"].get<std::string>() + '\0' + m["commit_sha"].get<std::string>();  // a row per (call, commit)
        facts_.identity_pointer = "/metadata/commit_sha";
        prompt(row_["prompt"]);
    }

    void recovery() {
        if (row_["failed_commit_sha"] == row_["fixed_commit_sha"])
            add("rows.lint.recovery.commits", "/fixed_commit_sha",
                "expected a fixing commit other than the failed one, got " + json_text(row_["fixed_commit_sha"]));
    }

    void rlvr_rollout() {
        const std::string org = row_["org_id"].get<std::string>(), session = row_["session_id"].get<std::string>();
        const std::string expected = org + "-" + session + "-seg" + std::to_string(row_["segment_index"].get<std::int64_t>());
        if (row_["instance_id"] != expected)
            add("rows.lint.rlvr.instance_id", "/instance_id", "expected " + json_text(Json(expected)) + " ({org_id}-{session_id}-seg{segment_index}), got " +
                                                                   json_text(row_["instance_id"]));
        session_split(session, "/split", row_["split"]);
        facts_.identity = row_["instance_id"].get<std::string>();
        facts_.identity_pointer = "/instance_id";
    }

    void task() {
        facts_.identity = row_["instance_id"].get<std::string>();
        facts_.identity_pointer = "/instance_id";
        if (schema_.base == "swe-bench-task") prompt(row_["problem_statement"]);  // consumer_rlvr.py: {"prompt": problem_statement}
    }

    /// The split Sediment derives for a row of one session (split.py): eval when the session's score is
    /// below the eval fraction.
    void session_split(const std::string& session_id, const char* pointer, const Json& split) {
        const double score = split_score(session_id);
        const Split expected = score < options_.eval_fraction ? Split::eval : Split::train;
        const char* name = expected == Split::eval ? "eval" : "train";
        if (split != name)
            add("rows.lint.split", pointer, "expected \"" + std::string(name) + "\" (score " + json_text(Json(score)) +
                                                 (expected == Split::eval ? " < " : " >= ") + "eval fraction " +
                                                 json_text(Json(options_.eval_fraction)) + "), got " + json_text(split));
    }

    const Json& row_;
    const SchemaInfo& schema_;
    std::vector<Error>& findings_;
    SessionFacts& facts_;
    const LintOptions& options_;
};

}  // namespace

void lint_family_row(const Json& row, SchemaId schema, std::vector<Error>& findings, SessionFacts& facts, const LintOptions& options) {
    FamilyRules(row, schema_info(schema), findings, facts, options).run();
}

}  // namespace sediment::rows
