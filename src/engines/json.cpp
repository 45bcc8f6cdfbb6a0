// The strict JSON reader: nlohmann's SAX lexer, a DOM builder that keeps key order, and the checks
// nlohmann does not make (duplicate keys, depth, string size, integers beyond 64 bits).
#include "sediment/rows/json.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_set>

#include "detail/text.hpp"

namespace sediment::rows {
namespace {

// Objects larger than this check duplicate keys with a hash set instead of a scan.
constexpr std::size_t kLinearKeyScan = 32;

// A token or key of the input in a message: at most 40 bytes, always valid UTF-8.
std::string quote_limited(std::string_view s) { return detail::quoted(s, 40); }

// U+FEFF in UTF-8. JSON text never starts with one (RFC 8259, section 8.1), and Sediment never writes
// one; nlohmann's lexer would skip it at the start of the text.
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string bom_message(std::size_t offset) {
    return "a byte-order mark (bytes EF BB BF) at byte " + std::to_string(offset) +
           ": JSON text never holds one outside a string; save the file as UTF-8 without a BOM";
}

class DomBuilder {
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    DomBuilder(Json& root, std::vector<Error>& errors, const Limits& limits, Decimals decimals, std::string_view text)
        : root_(root), errors_(errors), limits_(limits), decimals_(decimals), text_(text) {}

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool v) { return add(Json(v)); }
    bool number_integer(number_integer_t v) { return add(Json(v)); }
    bool number_unsigned(number_unsigned_t v) { return add(Json(v)); }
    bool number_float(number_float_t v, const string_t& text) {
        // nlohmann reads an integer beyond 64 bits as a double; keep its digits instead.
        if (text.find_first_of(".eE") == string_t::npos) return add(big_integer(text));
        if (decimals_ == Decimals::exact && !detail::decimal_is_exact(text, v)) {
            std::string nearest;
            detail::append_double(nearest, v);
            return fail("rows.parse.inexact_decimal",
                        "decimal " + quote_limited(text) + " is not exactly a double (it reads as " + nearest + ")", true);
        }
        return add(Json(v));
    }
    bool string(string_t& s) {
        if (s.size() > limits_.max_string_bytes) return string_too_long(s.size(), true);
        return add(Json(std::move(s)));
    }
    bool binary(binary_t&) { return fail("rows.parse.syntax", "binary values are not JSON", true); }  // never called for text

    bool start_object(std::size_t) { return open(Json::object()); }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(string_t& k) {
        Frame& f = frames_.back();
        auto& obj = f.value->get_ref<Json::object_t&>();
        if (k.size() > limits_.max_string_bytes) return string_too_long(k.size(), false);
        bool duplicate = false;
        if (obj.size() < kLinearKeyScan) {
            for (const auto& member : obj) duplicate = duplicate || member.first == k;
        } else {
            if (!f.keys) {
                f.keys = std::make_unique<std::unordered_set<std::string>>();
                for (const auto& member : obj) f.keys->insert(member.first);
            }
            duplicate = !f.keys->insert(k).second;
        }
        if (duplicate) return fail("rows.parse.duplicate_key", "duplicate key " + quote_limited(k), false);
        obj.emplace_back(std::move(k), Json());
        f.awaiting_value = true;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& ex) {
        if (!errors_.empty() && failed_) return false;  // our own check stopped the parser
        std::string what = ex.what();
        if (ex.id == 406) {
            const bool integer = last_token.find_first_of(".eE") == std::string::npos;
            return fail("rows.parse.number_range",
                        integer ? "integer " + quote_limited(last_token) + " has more than 308 digits"
                                : "number " + quote_limited(last_token) + " overflows a double",
                        true);
        }
        // nlohmann: "... syntax error while parsing value - invalid literal; last read: '<token>'; expected ..."
        const std::size_t dash = what.find(" - ");
        std::string reason = dash == std::string::npos ? what : what.substr(dash + 3);
        const std::string full_token = "last read: '" + last_token + "'";
        const std::size_t at = reason.find(full_token);
        if (at != std::string::npos) reason.replace(at, full_token.size(), "last read: " + quote_limited(last_token));
        // nlohmann counts the bytes it has read; the offending byte is the last of them (0-based offset).
        // One past the last byte: the text ended inside the document.
        const std::size_t offset = std::min(position == 0 ? 0 : position - 1, text_.size());
        if (text_.compare(offset, kByteOrderMark.size(), kByteOrderMark) == 0) return fail("rows.parse.bom", bom_message(offset), true);
        if (offset == text_.size()) reason += ": the text ends inside the document (a truncated line?)";
        return fail("rows.parse.syntax", "invalid JSON at byte " + std::to_string(offset) + ": " + reason, true);
    }

    bool failed() const { return failed_; }

private:
    struct Frame {
        Json* value;
        bool awaiting_value = false;
        std::unique_ptr<std::unordered_set<std::string>> keys;  // only for large objects
    };

    bool add(Json&& v) {
        place(std::move(v));
        return true;
    }

    Json* place(Json&& v) {
        if (frames_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Frame& f = frames_.back();
        if (f.value->is_array()) {
            auto& arr = f.value->get_ref<Json::array_t&>();
            arr.push_back(std::move(v));
            return &arr.back();
        }
        auto& slot = f.value->get_ref<Json::object_t&>().back().second;
        slot = std::move(v);
        f.awaiting_value = false;
        return &slot;
    }

    bool open(Json&& container) {
        if (frames_.size() >= limits_.max_depth)
            return fail("rows.parse.depth",
                        "nesting deeper than " + std::to_string(limits_.max_depth) + " levels (limit max_depth)", true);
        frames_.push_back(Frame{place(std::move(container)), false, {}});
        return true;
    }

    bool close() {
        frames_.pop_back();
        if (!frames_.empty()) frames_.back().awaiting_value = false;
        return true;
    }

    bool string_too_long(std::size_t size, bool as_value) {
        return fail("rows.parse.size",
                    "string of " + std::to_string(size) + " bytes exceeds " + std::to_string(limits_.max_string_bytes) +
                        " (limit max_string_bytes)",
                    as_value);
    }

    // Records the error at the current place: inside the innermost container, at the member or
    // element being read when `at_value` (else at the container itself), and stops the parser.
    bool fail(const char* id, std::string message, bool at_value) {
        std::string pointer;
        for (std::size_t i = 0; i < frames_.size(); ++i) {
            const Frame& f = frames_[i];
            const bool last = i + 1 == frames_.size();
            if (last && !at_value) break;
            if (f.value->is_array()) {
                const std::size_t n = f.value->size();
                pointer += '/';
                pointer += std::to_string(last ? n : n - 1);
            } else if (!last || f.awaiting_value) {
                const auto& obj = f.value->get_ref<const Json::object_t&>();
                if (!obj.empty()) detail::append_pointer_token(pointer, obj.back().first);
            }
        }
        detail::make_printable(message);  // nlohmann's own text quotes the bytes it read
        errors_.push_back(Error{id, std::move(pointer), std::move(message)});
        failed_ = true;
        return false;
    }

    Json& root_;
    std::vector<Error>& errors_;
    Limits limits_;
    Decimals decimals_;
    std::string_view text_;
    std::vector<Frame> frames_;
    bool failed_ = false;
};

}  // namespace

Error document_size_error(std::size_t bytes, const Limits& limits) {
    return Error{"rows.parse.size", "",
                 "document of " + std::to_string(bytes) + " bytes exceeds " + std::to_string(limits.max_document_bytes) +
                     " (limit max_document_bytes)"};
}

bool parse(std::string_view text, Json& out, std::vector<Error>& errors, const Limits& limits, Decimals decimals) {
    if (text.size() > limits.max_document_bytes) {
        errors.push_back(document_size_error(text.size(), limits));
        return false;
    }
    if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
        errors.push_back(Error{"rows.parse.bom", "", bom_message(0)});
        return false;
    }
    // A line of a CR LF file ends in CR: whitespace after a document, but not part of a document that
    // ends early (a string cut short would be said to hold a raw CR).
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    // nlohmann's lexer takes a NUL byte for the end of input. JSON text never holds one (strings
    // escape it), so read up to it and report it where it stands.
    const std::size_t nul = text.find('\0');
    const std::size_t before = errors.size();
    DomBuilder builder(out, errors, limits, decimals, text);
    const std::string_view readable = text.substr(0, nul);
    const bool ok = Json::sax_parse(readable.begin(), readable.end(), &builder, nlohmann::detail::input_format_t::json, true);
    if (ok && !builder.failed() && nul == std::string_view::npos) return true;
    const std::string at_nul = "invalid JSON at byte " + std::to_string(nul) + ": unexpected NUL byte";
    if (errors.size() == before) errors.push_back(Error{"rows.parse.syntax", "", nul == std::string_view::npos ? "invalid JSON" : at_nul});
    else if (nul != std::string_view::npos && errors.back().id == "rows.parse.syntax") errors.back().message = at_nul;
    out = Json();
    return false;
}

Json parse(std::string_view text, const Limits& limits, Decimals decimals) {
    Json out;
    std::vector<Error> errors;
    if (!parse(text, out, errors, limits, decimals)) throw DecodeError(std::move(errors));
    return out;
}

}  // namespace sediment::rows
