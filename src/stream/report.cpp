#include "report.hpp"

#include <algorithm>
#include <cstdio>

#include "detail/text.hpp"
#include "detail/writer.hpp"
#include "sediment/rows/encode.hpp"

namespace sediment_rows_cli {

namespace rows = sediment::rows;

namespace {

constexpr std::size_t kAnnotations = 10;  // GitHub shows 10 error and 10 warning annotations per step

/// `s` escaped for a GitHub workflow command: its message, or (`property`) a value such as file=.
std::string github_escape(std::string_view s, bool property) {
    std::string out;
    for (const char c : s) {
        switch (c) {
            case '%': out += "%25"; break;
            case '\r': out += "%0D"; break;
            case '\n': out += "%0A"; break;
            case ':': out += property ? "%3A" : ":"; break;
            case ',': out += property ? "%2C" : ","; break;
            default: out += c;
        }
    }
    return out;
}

std::string pointer_name(const std::string& pointer) { return pointer.empty() ? "(root)" : pointer; }

/// `s` on one line, valid UTF-8 and safe for a terminal: control characters (a key may hold a newline
/// or an escape sequence) are written as JSON escapes, bytes that are not UTF-8 as \xNN (printable()).
std::string one_line(std::string_view text) {
    const std::string s = rows::detail::printable(text);
    std::string out;
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
            out += escaped;
        }
    }
    return out;
}

}  // namespace

std::string json_string(std::string_view s) {
    std::string out;
    rows::detail::Writer w(out, rows::Style::sediment);
    w.string(rows::detail::printable(s));  // a file name may hold bytes that are not UTF-8
    return w.finish();
}

std::string json_errors(const std::vector<rows::Error>& errors, std::size_t count, bool ids) {
    std::string out = "[";
    for (std::size_t i = 0; i < count && i < errors.size(); ++i)
        out += std::string(i ? ", " : "") + "{" + (ids ? "\"id\": " + json_string(errors[i].id) + ", " : "") + "\"pointer\": " + json_string(errors[i].pointer) +
               ", \"message\": " + json_string(errors[i].message) + "}";
    return out + "]";
}

std::string json_repairs(const std::vector<rows::Repair>& repairs) {
    std::string out = "[";
    for (const rows::Repair& r : repairs)
        out += std::string(out.size() > 1 ? ", " : "") + "{\"id\": " + json_string(r.id) + ", \"pointer\": " + json_string(r.pointer) +
               ", \"message\": " + json_string(r.message) + ", \"lossy\": " + (r.lossy ? "true" : "false") + "}";
    return out + "]";
}

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : rows::detail::printable(path); }

bool Reporter::take_error() {
    if (o_.max_errors && errors_ >= o_.max_errors) {
        stopped_ = true;
        return false;
    }
    ++errors_;
    return true;
}

void Reporter::write(const std::string& name, std::size_t line, const std::string* pointer, const std::string& message,
                     bool warning, const std::string* id) {
    const std::string text = one_line((pointer ? pointer_name(*pointer) + ": " : std::string()) + message +
                                      (id && o_.ids ? " [" + *id + "]" : std::string()));
    if (o_.format == Format::text) {
        out_ << one_line(name) << ":" << line << ": " << text << "\n";
        return;
    }
    if (annotated_[warning] == kAnnotations) {
        ++unannotated_[warning];
        return;
    }
    ++annotated_[warning];
    out_ << (warning ? "::warning" : "::error") << " file=" << github_escape(one_line(name), true) << ",line=" << line
         << "::" << github_escape(text, false) << "\n";
}

void Reporter::report(const Finding& f, std::string_view fields) {
    if (stopped_) return;
    if (f.ok() && f.dropped.empty() && f.repairs.empty() && !o_.every_document && o_.format != Format::jsonl) return;  // nothing to say
    const std::string name = display_name(*f.path);
    std::size_t shown = 0;  // errors within the --max-errors budget
    while (shown < f.errors.size() && take_error()) ++shown;
    const bool problem = !f.problem.empty() && take_error();
    if (o_.format == Format::jsonl) {
        const std::string problem_field = f.problem.empty() ? "" : "\"problem\": " + json_string(f.problem) + ", ";
        out_ << "{\"file\": " << json_string(name) << ", \"line\": " << f.line << ", \"valid\": "
             << (f.errors.empty() ? "true" : "false") << ", " << fields << problem_field
             << "\"errors\": " << json_errors(f.errors, shown, o_.ids) << "}\n";
    } else {
        for (std::size_t i = 0; i < shown; ++i) write(name, f.line, &f.errors[i].pointer, f.errors[i].message, false, &f.errors[i].id);
        if (problem) write(name, f.line, nullptr, f.problem, false);
        if (!o_.quiet)  // what repair changed: "POINTER: what changed [rows.repair.ID]"
            for (const rows::Repair& r : f.repairs) write(name, f.line, &r.pointer, r.message + " [" + r.id + "]", true);
        if (!o_.quiet)  // what --lossy dropped, or (a document that failed) what it would drop, beside the errors
            for (const rows::Error& e : f.dropped)
                if (f.ok() || std::find(f.errors.begin(), f.errors.end(), e) == f.errors.end())
                    write(name, f.line, &e.pointer, (f.ok() ? "dropped: " : "--lossy would drop: ") + e.message, true);
        if (o_.every_document && o_.format == Format::text && f.ok())
            out_ << one_line(name) << ":" << f.line << ": valid" << (f.read_as.empty() ? "" : " (" + f.read_as + ")") << "\n";
    }
    if (!f.ok() && o_.fail_fast) stopped_ = true;
    if (o_.max_errors && errors_ >= o_.max_errors) stopped_ = true;
}

void Reporter::file_summary(const std::string& path, std::string_view fields) {
    if (o_.format == Format::jsonl) out_ << "{\"file\": " << json_string(display_name(path)) << ", \"summary\": {" << fields << "}}\n";
}

void Reporter::finish() {
    const std::size_t errors = unannotated_[0], warnings = unannotated_[1];
    if (errors + warnings == 0) return;
    out_ << "sediment-rows: " << (errors ? std::to_string(errors) + " more errors" : "")
         << (errors && warnings ? " and " : "") << (warnings ? std::to_string(warnings) + " more warnings" : "")
         << " not annotated (GitHub shows " << kAnnotations << " of each per step); --format text lists them all\n";
}

std::string Reporter::stop_reason() const {
    if (!stopped_) return {};
    if (o_.max_errors && errors_ >= o_.max_errors)
        return "stopped after " + std::to_string(errors_) + " errors (--max-errors " + std::to_string(o_.max_errors) + ")";
    return "stopped at the first document that failed (--fail-fast)";
}

}  // namespace sediment_rows_cli
