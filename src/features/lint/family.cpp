// Lint of Sediment's other training-row families (docs/lint.md, "Other families"): the rules within
// one row of each family, and the facts the rules across rows need (SessionFacts' family members).
// A row is read as its JSON value once it is schema-valid: every rule names values by pointer.
#include "features/lint/family.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <simdjson.h>

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
    bool digest_form(std::string_view p, std::string& out) const { return append_digest_form(out, at(p)), true; }

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
        const simdjson::dom::element e = at(p);
        if (e.is_string()) return encode(Json(std::string(e.get_string().value_unsafe())));
        std::string out;
        if (e.is_double()) detail::append_double(out, e.get_double().value_unsafe());
        else out = simdjson::minify(e);
        return out;
    }
    bool digest_form(std::string_view p, std::string& out) const { return append(out, at(p)); }

private:
    simdjson::dom::element at(std::string_view p) const { return root_.at_pointer(p).value_unsafe(); }
    static bool append(std::string& out, simdjson::dom::element e) {
        using Type = simdjson::dom::element_type;
        switch (e.type()) {
            case Type::NULL_VALUE: out += "null"; return true;
            case Type::BOOL: out += e.get_bool().value_unsafe() ? "true" : "false"; return true;
            case Type::INT64: out += std::to_string(e.get_int64().value_unsafe()); return true;
            case Type::UINT64: out += std::to_string(e.get_uint64().value_unsafe()); return true;
            case Type::DOUBLE: {
                const double d = e.get_double().value_unsafe();
                if (d == 0 && std::signbit(d)) return false;  // "-0" (Python: the integer 0) or "-0.0": the exact reader tells
                detail::append_double(out, d);
                return true;
            }
            case Type::STRING: append_digest_string(out, e.get_string().value_unsafe()); return true;
            case Type::ARRAY: {
                out += '[';
                bool first = true;
                const simdjson::dom::array items = e.get_array().value_unsafe();  // (a copy: the result is a temporary)
                for (const simdjson::dom::element item : items) {
                    if (!first) out += ',';
                    first = false;
                    if (!append(out, item)) return false;
                }
                out += ']';
                return true;
            }
            case Type::OBJECT: {
                std::vector<std::pair<std::string_view, simdjson::dom::element>> members;  // sorted by key, as sort_keys
                const simdjson::dom::object object = e.get_object().value_unsafe();
                for (const auto m : object) members.emplace_back(m.key, m.value);
                std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
                out += '{';
                for (std::size_t i = 0; i < members.size(); ++i) {
                    if (i) out += ',';
                    append_digest_string(out, members[i].first);
                    out += ':';
                    if (!append(out, members[i].second)) return false;
                }
                out += '}';
                return true;
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
        std::string form = "{\"prompt\":";
        if (!row_.digest_form(p, form)) return false;
        form += '}';
        facts_.prompt_sha256 = hex_digest(sha256(form));
        return true;
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
                "expected at least the SFT policy's minimum confidence " + json_text(Json(options_.min_confidence)) + " (--min-confidence), got " +
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
        std::string chosen_form, rejected_form;  // project_dpo(): identical responses decline the pair
        if (!row_.digest_form("/chosen", chosen_form) || !row_.digest_form("/rejected", rejected_form)) return false;
        if (chosen_form == rejected_form)
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
                "expected " + json_text(Json(expected)) + " ({org_id}-{session_id}-seg{segment_index}), got " + row_.literal("/instance_id"));
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
            add("rows.lint.split", pointer, "expected \"" + std::string(name) + "\" (score " + json_text(Json(score)) +
                                                 (expected == Split::eval ? " < " : " >= ") + "eval fraction " +
                                                 json_text(Json(options_.eval_fraction)) + "), got " + row_.literal(pointer));
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
