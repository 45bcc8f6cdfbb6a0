// SWE-bench's consumer profile (swe-bench-tasks-v1): the operator's consumer config, the types Sediment
// normalizes its values with, the adapter, and the rules of the three models that their schemas do not
// say. Sources (sediment-ai/sediment at ef084b9): packages/export/sediment_export/consumer_rlvr.py
// (ConsumerSettings, SWETaskSettings, adapt_swe_rows(), validate_rlvr_consumer_rows()) and
// packages/core/sediment_core/models.py (ScalarIdentity, NonEmptyId, RepoSlug, CommitSha); created_at is
// pydantic 2's AwareDatetime (its date-time reader, speedate, and its JSON writer).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "detail/decode.hpp"
#include "detail/text.hpp"
#include "features/profile/profile_detail.hpp"
#include "generated/views.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/profile.hpp"

namespace sediment::rows {
namespace detail {
namespace {

// ----- the types of sediment_core -----------------------------------------------------------------

// The length of the code point at s[i] when Python's str.isspace() is true of it, else 0.
std::size_t space_at(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
    const unsigned c = byte(i);
    if ((c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20)) return 1;
    if (c == 0xC2) return byte(i + 1) == 0x85 || byte(i + 1) == 0xA0 ? 2 : 0;  // U+0085, U+00A0
    if (c == 0xE1) return byte(i + 1) == 0x9A && byte(i + 2) == 0x80 ? 3 : 0;  // U+1680
    if (c == 0xE3) return byte(i + 1) == 0x80 && byte(i + 2) == 0x80 ? 3 : 0;  // U+3000
    if (c != 0xE2) return 0;
    const unsigned b1 = byte(i + 1), b2 = byte(i + 2);
    if (b1 == 0x80 && ((b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF)) return 3;  // U+2000-200A, 2028, 2029, 202F
    if (b1 == 0x81 && b2 == 0x9F) return 3;                                                            // U+205F
    return 0;
}

}  // namespace

// Python's str.strip(): the characters str.isspace() is true of, gone from both ends.
std::string_view python_strip(std::string_view s) {
    while (const std::size_t n = space_at(s, 0)) s.remove_prefix(n);
    for (bool again = true; again && !s.empty();) {
        again = false;
        for (std::size_t n = 1; n <= 3 && n <= s.size(); ++n)
            if (space_at(s, s.size() - n) == n) {
                s.remove_suffix(n), again = true;
                break;
            }
    }
    return s;
}

namespace {

// Python's str.lower() of code point `cp`, appended to `out` as UTF-8 (tools/lowercase_table.py's runs).
void append_lower(char32_t cp, std::string& out) {
    struct Run {
        char32_t first, last;
        int delta, stride;
    };
    static constexpr Run kRuns[] = {
#include "features/profile/lowercase.inc"
    };
    if (cp == 0x130) {  // İ lowercases to two code points: i and a combining dot above
        out += "i\xCC\x87";
        return;
    }
    const Run* run = std::upper_bound(std::begin(kRuns), std::end(kRuns), cp, [](char32_t c, const Run& r) { return c < r.first; });
    if (run != std::begin(kRuns) && cp <= (--run)->last && (cp - run->first) % run->stride == 0) cp = char32_t(int(cp) + run->delta);
    detail::append_utf8(out, cp);
}

}  // namespace

// Python's str.lower() of UTF-8 text, but for the capital sigma, which it lowercases by context (repo_slug()
// refuses it).
std::string python_lower(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (n == 1) {
            out += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            ++i;
            continue;
        }
        char32_t cp = c & (0xFF >> (n + 1));
        for (std::size_t k = 1; k < n && i + k < text.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        append_lower(cp, out);
        i += n;
    }
    return out;
}

// RepoSlug: "" (the absent sentinel) or "owner/repo", stripped and lowercased (normalize_repo_slug()).
bool repo_slug(std::string_view value, std::string& out, std::string& why) {
    if (value.find("\xCE\xA3") != std::string_view::npos) {  // U+03A3
        why = "holds a capital sigma, which Python lowercases by its context (final or not): not read";
        return false;
    }
    out = python_lower(python_strip(value));
    if (out.empty()) return true;
    const std::size_t slash = out.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == out.size() || out.find('/', slash + 1) != std::string::npos) {
        why = "must be \"owner/repo\"";
        return false;
    }
    return true;
}

// CommitSha: 40 or 64 hex digits, stripped and lowercased (normalize_commit_sha()).
bool commit_sha(std::string_view value, std::string& out) {
    out = std::string(python_strip(value));
    for (char& c : out) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return out.size() == 40 || out.size() == 64;
}

namespace {

bool leap(long year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }
int days_in(long year, int month) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && leap(year) ? 29 : days[month - 1];
}

// The date of a count of days since 1970-01-01 (Howard Hinnant's civil_from_days).
void civil(std::int64_t days, long& year, int& month, int& day) {
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const std::int64_t doe = days - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    year = static_cast<long>(yoe + era * 400 + (month <= 2));
}

// The digits at text[at, at + n) as a number, or -1.
int digits(std::string_view text, std::size_t at, std::size_t n) {
    if (at + n > text.size()) return -1;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (text[i] < '0' || text[i] > '9') return -1;
        v = v * 10 + (text[i] - '0');
    }
    return v;
}

std::string two(int v) { return std::string(1, char('0' + v / 10)) + char('0' + v % 10); }

// pydantic's JSON form of a date-time: seconds always, microseconds when not 0, UTC as Z.
std::string written(long year, int month, int day, int hour, int minute, int second, int micro, int offset_minutes) {
    std::string out = std::to_string(year);
    out.insert(0, 4 - std::min<std::size_t>(4, out.size()), '0');
    out += "-" + two(month) + "-" + two(day) + "T" + two(hour) + ":" + two(minute) + ":" + two(second);
    if (micro) {
        std::string fraction = std::to_string(micro);
        out += "." + std::string(6 - fraction.size(), '0') + fraction;
    }
    if (offset_minutes == 0) return out + "Z";
    const int m = offset_minutes < 0 ? -offset_minutes : offset_minutes;
    return out + (offset_minutes < 0 ? "-" : "+") + two(m / 60) + ":" + two(m % 60);
}

// A Unix timestamp written as an integer ("1700000000", "-1", "+5"): seconds, or milliseconds beyond
// 2e10 in either direction (speedate's rule), in UTC.
bool timestamp(std::string_view text, std::string& out, std::string& why) {
    std::size_t i = text[0] == '+' || text[0] == '-' ? 1 : 0;
    const bool negative = text[0] == '-';
    std::int64_t n = 0;
    const std::size_t first = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (n > (INT64_MAX - 9) / 10) return false;
        n = n * 10 + (text[i] - '0');
    }
    if (i == first) return false;
    if (i < text.size() && text[i] == '.' && i + 1 < text.size()) {
        why = "a Unix timestamp with a fraction is not read: write the date-time";
        return false;
    }
    if (i < text.size() && !(text[i] == '.' && i + 1 == text.size())) return false;
    if (negative) n = -n;
    std::int64_t seconds = n, micro = 0;
    if (n > 20000000000 || n < -20000000000) {  // milliseconds
        seconds = n / 1000, micro = (n % 1000) * 1000;
        if (micro < 0) micro += 1000000, seconds -= 1;
    }
    std::int64_t days = seconds / 86400, rest = seconds % 86400;
    if (rest < 0) rest += 86400, days -= 1;
    long year;
    int month, day;
    civil(days, year, month, day);
    if (year < 1 || year > 9999) {
        why = "the timestamp is beyond the years 1 to 9999";
        return false;
    }
    out = written(year, month, day, int(rest / 3600), int(rest / 60 % 60), int(rest % 60), int(micro), 0);
    return true;
}

}  // namespace

// AwareDatetime as pydantic 2 reads a JSON string (speedate) and writes it back: `out` is the written
// form. Read: YYYY-MM-DD, then T, t, _ or a space, then HH:MM[:SS[(.|,)digits]], then Z, z or +HH[:]MM
// (below 24 hours); or a Unix timestamp as an integer. A date-time without a time zone is refused.
bool aware_datetime(std::string_view text, std::string& out, std::string& why) {
    why = "not a date-time with a time zone";
    if (text.empty()) return false;
    const int year = digits(text, 0, 4);
    if (year < 0 || text.size() < 5 || text[4] != '-') {
        std::string reason;
        if (timestamp(text, out, reason)) return true;
        if (!reason.empty()) why = reason;
        return false;
    }
    const int month = digits(text, 5, 2), day = digits(text, 8, 2);
    if (month < 0 || text.size() < 8 || text[7] != '-' || day < 0) return false;
    if (year == 0) return why = "year 0 is out of range", false;
    if (month < 1 || month > 12) return why = "month value is outside expected range of 1-12", false;
    if (day < 1 || day > days_in(year, month)) return why = "day value is outside expected range", false;
    if (text.size() < 11 || !(text[10] == 'T' || text[10] == 't' || text[10] == '_' || text[10] == ' '))
        return why = "a date without a time", false;
    const int hour = digits(text, 11, 2), minute = digits(text, 14, 2);
    if (hour < 0 || text.size() < 14 || text[13] != ':' || minute < 0) return false;
    if (hour > 23) return why = "hour value is outside expected range of 0-23", false;
    if (minute > 59) return why = "minute value is outside expected range of 0-59", false;
    std::size_t at = 16;
    int second = 0, micro = 0;
    if (at < text.size() && text[at] == ':') {
        second = digits(text, at + 1, 2);
        if (second < 0) return false;
        if (second > 59) return why = "second value is outside expected range of 0-59", false;
        at += 3;
        if (at < text.size() && (text[at] == '.' || text[at] == ',')) {
            std::size_t end = ++at;
            while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
            if (end == at) return why = "second fraction digits missing", false;
            for (std::size_t k = 0; k < 6; ++k) micro = micro * 10 + (at + k < end ? text[at + k] - '0' : 0);
            at = end;
        }
    }
    if (at >= text.size()) return why = "a date-time without a time zone", false;
    int offset = 0;
    if (text[at] == 'Z' || text[at] == 'z') {
        ++at;
    } else if (text[at] == '+' || text[at] == '-') {
        const int sign = text[at] == '-' ? -1 : 1;
        const int h = digits(text, at + 1, 2);
        std::size_t m_at = at + 3;
        if (m_at < text.size() && text[m_at] == ':') ++m_at;
        const int m = digits(text, m_at, 2);
        if (h < 0 || m < 0 || m > 59) return why = "invalid timezone", false;
        if (h > 23) return why = "timezone offset must be less than 24 hours", false;
        offset = sign * (h * 60 + m);
        at = m_at + 2;
    } else {
        return why = "invalid timezone sign", false;
    }
    if (at != text.size()) return why = "unexpected extra characters at the end", false;
    out = written(year, month, day, hour, minute, second, micro, offset);
    return true;
}

// Whether an eval_script prints SWE-bench's test-output markers (swebench.harness.constants
// START_TEST_OUTPUT and END_TEST_OUTPUT), as validate_rlvr_consumer_rows() asks.
bool test_output_markers(std::string_view script) {
    return script.find(">>>>> Start Test Output") != std::string_view::npos && script.find(">>>>> End Test Output") != std::string_view::npos;
}

namespace {

// ----- the models' rules ---------------------------------------------------------------------------

std::string_view str(const std::string& s) { return s; }
std::string_view str(std::string_view s) { return s; }

// The rules of a task's settings (`written` false: as an operator writes them in a config) or of a data
// row (`written` true: normalized, and holding what adapt_swe_rows() and the loader check refuse).
template <class Task>
bool task_rules(Decoder& d, const Task& t, bool written) {
    const std::size_t before = d.error_count();
    std::string normal, why;
    const auto id = [&](const char* key, std::string_view value) {
        const std::string_view stripped = python_strip(value);
        if (stripped.empty()) d.error("rows.decode.non_empty_id", std::string(key) + " is blank: Sediment's ids are not (NonEmptyId)");
        else if (written && stripped.size() != value.size()) d.error("rows.decode.non_empty_id", std::string(key) + " is not stripped, as Sediment writes ids");
    };
    {
        auto at = d.at("repo");
        if (!repo_slug(str(t.repo), normal, why)) d.error("rows.decode.repo_slug", "repo " + why);
        else if (written && normal != str(t.repo)) d.error("rows.decode.repo_slug", "repo is not stripped and lowercased, as Sediment writes it");
    }
    for (const auto& [key, value] : {std::pair<const char*, std::string_view>{"base_commit", str(t.base_commit)},
                                     {"environment_setup_commit", str(t.environment_setup_commit)}}) {
        auto at = d.at(key);  // (a data row's pattern says its form)
        if (!written && !commit_sha(value, normal)) d.error("rows.decode.commit_sha", std::string(key) + " is not a full commit sha (40 or 64 hex digits)");
    }
    {
        auto at = d.at("problem_statement");
        if (str(t.problem_statement).empty()) d.error("rows.decode.non_empty", "problem_statement is empty");
        else if (written && python_strip(str(t.problem_statement)).empty())
            d.error("rows.decode.non_empty", "problem_statement is blank: SWE-bench requires a repair request");
    }
    {
        auto at = d.at("created_at");
        if (!aware_datetime(str(t.created_at), normal, why)) d.error("rows.decode.aware_datetime", "created_at: " + why);
        else if (written && normal != str(t.created_at)) d.error("rows.decode.aware_datetime", "created_at is not written as pydantic writes it: " + normal);
    }
    for (const auto& [key, value] : {std::pair<const char*, std::string_view>{"version", str(t.version)}, {"image", str(t.image)},
                                     {"log_parser", str(t.log_parser)}}) {
        auto at = d.at(key);
        id(key, value);
    }
    std::set<std::string_view> failing;
    for (const auto& [key, list] : {std::pair<const char*, decltype(&t.FAIL_TO_PASS)>{"FAIL_TO_PASS", &t.FAIL_TO_PASS},
                                    {"PASS_TO_PASS", &t.PASS_TO_PASS}}) {
        auto at = d.at(key);
        const bool passing = std::string_view(key) == "PASS_TO_PASS";
        for (std::size_t i = 0; i < list->size(); ++i) {
            auto item = d.at(i);
            const std::string_view test = str((*list)[i]);
            id("a test id", test);
            if (!passing) failing.insert(python_strip(test));
            else if (written && failing.count(python_strip(test)))
                d.error("rows.decode.swe_transitions", "a test in both FAIL_TO_PASS and PASS_TO_PASS: SWE-bench test transitions overlap");
        }
    }
    {
        auto at = d.at("eval_script");
        const std::string_view script = str(t.eval_script);
        if (script.empty()) d.error("rows.decode.non_empty", "eval_script is empty");
        else if (written && !test_output_markers(script))
            d.error("rows.decode.swe_markers", "eval_script lacks SWE-bench's test-output markers (>>>>> Start Test Output, >>>>> End Test Output)");
    }
    return d.error_count() == before;
}

// A config's tasks: each key an id, each value valid under swe-task-settings.
bool config_rules(Decoder& d, const Json* tasks) {
    const std::size_t before = d.error_count();
    if (!tasks || !tasks->is_object()) return true;
    auto at = d.at("tasks");
    for (const auto& [key, value] : tasks->get_ref<const Json::object_t&>()) {
        auto member = d.at(key);
        if (python_strip(key).empty()) d.error("rows.decode.non_empty_id", "an instance id is blank: Sediment's ids are not (NonEmptyId)");
        SWETaskSettings settings;
        const Json copy = value;  // (a reader of a DOM the library parsed takes its strings)
        read(d, copy, settings);
    }
    return d.error_count() == before;
}

}  // namespace

bool check_rules(Decoder& d, const SWETaskSettings& value) { return task_rules(d, value, false); }
bool check_rules(Decoder& d, const view::SWETaskSettings& value) { return task_rules(d, value, false); }
bool check_rules(Decoder& d, const SWEBenchProfileRow& value) { return task_rules(d, value, true); }
bool check_rules(Decoder& d, const view::SWEBenchProfileRow& value) { return task_rules(d, value, true); }
bool check_rules(Decoder& d, const ConsumerConfig& value) { return config_rules(d, value.tasks ? &*value.tasks : nullptr); }
}  // namespace detail

// ----- the consumer config (ConsumerSettings, load_consumer_settings()) -----------------------------

ConsumerSettings::ConsumerSettings()
    : value_(Json{{"schema_version", 1}, {"nemo", nullptr}, {"tasks", Json::object()}}), digest_(row_sha256(value_)) {}

namespace {

// A task's settings as SWETaskSettings.model_dump(mode="json") writes them (the config is valid).
Json dumped(const Json& t) {
    std::string normal, why;
    Json out = Json::object();
    detail::repo_slug(t["repo"].get_ref<const std::string&>(), normal, why);
    out["repo"] = normal;
    detail::commit_sha(t["base_commit"].get_ref<const std::string&>(), normal);
    out["base_commit"] = normal;
    for (const char* key : {"problem_statement", "test_patch", "hints_text"}) out[key] = t[key];
    detail::aware_datetime(t["created_at"].get_ref<const std::string&>(), normal, why);
    out["created_at"] = normal;
    const auto id = [](const Json& v) { return std::string(detail::python_strip(v.get_ref<const std::string&>())); };
    out["version"] = id(t["version"]);
    detail::commit_sha(t["environment_setup_commit"].get_ref<const std::string&>(), normal);
    out["environment_setup_commit"] = normal;
    for (const char* key : {"FAIL_TO_PASS", "PASS_TO_PASS"}) {
        out[key] = Json::array();
        for (const Json& test : t[key]) out[key].push_back(id(test));
    }
    out["image"] = id(t["image"]);
    out["eval_script"] = t["eval_script"];
    out["log_parser"] = id(t["log_parser"]);
    out["eval_type"] = t["eval_type"];
    return out;
}

}  // namespace

ConsumerSettings ConsumerSettings::parse(std::string_view json) {
    std::vector<Error> errors;
    Json raw;
    ConsumerConfig typed;
    if (!rows::parse(json, raw, errors) || !decode(raw, typed, errors)) {
        const Error& e = errors.front();
        throw ProfileError("consumer config: " + (e.pointer.empty() ? std::string() : e.pointer + ": ") + e.message + " [" + e.id + "]");
    }
    ConsumerSettings out;
    if (raw.contains("nemo") && raw["nemo"].is_object()) {
        const Json& nemo = raw["nemo"];
        out.value_["nemo"] = Json{{"parallel_tool_calls", nemo["parallel_tool_calls"]}, {"tool_choice", nemo["tool_choice"]}, {"tools", nemo["tools"]}};
    }
    Json::object_t& tasks = out.value_["tasks"].get_ref<Json::object_t&>();
    if (raw.contains("tasks"))
        for (const auto& [key, task] : raw["tasks"].items()) {
            const std::string id(detail::python_strip(key));
            const auto at = out.index_.find(id);
            if (at != out.index_.end()) (tasks.begin() + static_cast<std::ptrdiff_t>(at->second))->second = dumped(task);  // the last wins
            else out.index_.emplace(id, tasks.size()), tasks.emplace_back(id, dumped(task));
        }
    out.digest_ = row_sha256(out.value_);
    return out;
}

const Json* ConsumerSettings::task(std::string_view instance_id) const {
    const auto at = index_.find(std::string(instance_id));
    if (at == index_.end()) return nullptr;
    return &(value_["tasks"].get_ref<const Json::object_t&>().begin() + static_cast<std::ptrdiff_t>(at->second))->second;
}

// ----- the adapter (adapt_swe_rows(), validate_rlvr_consumer_rows()) ---------------------------------

namespace detail {

ProfileRow adapt_swe(const Profile& p, const Json& canonical, Split split, const ConsumerSettings& consumer) {
    SWEBenchTaskRowV3 typed;
    std::vector<Error> errors;
    if (!decode(canonical, typed, errors)) throw ProfileError(std::string(p.id) + ": invalid canonical row");
    if (canonical["metadata"]["split"] != split_name(split)) throw ProfileError(std::string(p.id) + ": canonical row has unknown or altered fields");
    const std::string& instance_id = canonical["instance_id"].get_ref<const std::string&>();
    const Json* task = consumer.task(instance_id);
    if (!task) throw ProfileError("SWE-bench task configuration missing for " + instance_id);
    if ((*task)["repo"] != canonical["repo"] || (*task)["base_commit"] != canonical["base_commit"])
        throw ProfileError("SWE-bench task configuration does not match " + instance_id);
    if (python_strip((*task)["problem_statement"].get_ref<const std::string&>()).empty())
        throw ProfileError("SWE-bench requires a repair request");
    std::set<std::string> failing;
    for (const Json& test : (*task)["FAIL_TO_PASS"]) failing.insert(test.get<std::string>());
    for (const Json& test : (*task)["PASS_TO_PASS"])
        if (failing.count(test.get<std::string>())) throw ProfileError("SWE-bench test transitions overlap");
    const std::string& script = (*task)["eval_script"].get_ref<const std::string&>();
    if (!test_output_markers(script))
        throw ProfileError("SWE-bench eval_script requires test-output markers");
    Json body = *task;
    body["instance_id"] = canonical["instance_id"];
    body["patch"] = canonical["patch"];
    ProfileRow out;
    out.split = split;
    out.row_sha256 = row_sha256(body);
    out.prompt_sha256 = row_sha256(Json{{"prompt", (*task)["problem_statement"]}});
    out.data = line_form(body);
    out.evidence = line_form(Json{{"row_sha256", out.row_sha256},
                                  {"canonical_schema", canonical["metadata"]["schema_id"]},
                                  {"metadata", canonical["metadata"]},
                                  {"source_row_sha256", row_sha256(canonical)},
                                  {"prompt_sha256", out.prompt_sha256},
                                  {"task_configuration_source", "operator"},
                                  {"configuration_digest", consumer.digest()},
                                  {"captured_first_user_message", canonical["problem_statement"]}});
    return out;
}

}  // namespace detail
}  // namespace sediment::rows
