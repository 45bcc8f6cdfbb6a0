// How Python's json and Harbor's pydantic models read a value, for repair(): the lax coercions, ATIF's
// labels and media types, and the names repair gives. (Pydantic 2's readings were recorded from
// pydantic 2.13.4 itself.)
#include "readings.hpp"

#include <cmath>
#include <cstdlib>

#include "detail/text.hpp"

namespace sediment::rows::repair_detail {

using Kind = Node::Kind;

std::string child(const std::string& at, std::string_view key) {
    std::string p = at;
    detail::append_pointer_token(p, key);
    return p;
}
std::string child(const std::string& at, std::size_t i) { return at + "/" + std::to_string(i); }

/// A value as it reads in a message: its JSON text, cut to 64 bytes.
std::string shown(const Node& n) { return detail::printable(write_compact(n), 64); }

const char* kind_name(const Node& n) {
    switch (n.kind) {
        case Kind::null: return "null";
        case Kind::boolean: return "a boolean";
        case Kind::number: return "a number";
        case Kind::string: return "a string";
        case Kind::array: return "an array";
        case Kind::object: return "an object";
        case Kind::non_finite: return "a non-finite number";
    }
    return "a value";
}

bool is_integer_literal(const Node& n) { return n.is(Kind::number) && n.raw.find_first_of(".eE") == std::string::npos; }

/// Python's str.strip() of ASCII whitespace (what pydantic strips from a number's text).
std::string_view stripped(std::string_view s) {
    const char* space = " \t\n\r\f\v";
    const std::size_t from = s.find_first_not_of(space);
    if (from == std::string_view::npos) return {};
    return s.substr(from, s.find_last_not_of(space) - from + 1);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

namespace {

/// Digits with single underscores between them, as Python's int() and float() read them; the digits
/// alone, or nothing when `s` is not such a run.
std::optional<std::string> python_digits(std::string_view s) {
    std::string digits;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] >= '0' && s[i] <= '9') {
            digits += s[i];
        } else if (s[i] != '_' || i == 0 || i + 1 == s.size() || !(s[i + 1] >= '0' && s[i + 1] <= '9')) {
            return std::nullopt;
        }
    }
    if (digits.empty()) return std::nullopt;
    return digits;
}

}  // namespace

/// The JSON integer pydantic reads from a string: "2", " +2_0 ", "2.00" (zeros only after the point).
std::optional<std::string> integer_from_string(std::string_view text) {
    std::string_view s = stripped(text);
    bool negative = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) negative = s[0] == '-', s.remove_prefix(1);
    if (const std::size_t point = s.find('.'); point != std::string_view::npos) {
        const std::string_view fraction = s.substr(point + 1);
        if (fraction.empty() || fraction.find_first_not_of('0') != std::string_view::npos) return std::nullopt;
        s = s.substr(0, point);
    }
    std::optional<std::string> digits = python_digits(s);
    if (!digits) return std::nullopt;
    const std::size_t first = digits->find_first_not_of('0');
    if (first == std::string::npos) return std::string("0");
    return (negative ? "-" : "") + digits->substr(first);
}

/// Python's float() of a string: finite value, or nothing (not a number, or NaN or an infinity when
/// `non_finite` is set).
std::optional<double> float_from_string(std::string_view text, bool& non_finite) {
    std::string_view s = stripped(text);
    std::string plain;
    std::size_t i = 0;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) plain += s[i++];
    const std::string word = lower(s.substr(i));
    if (word == "nan" || word == "inf" || word == "infinity") return non_finite = true, std::nullopt;
    const std::size_t e = word.find('e');
    const std::string_view mantissa = std::string_view(word).substr(0, e);
    const std::size_t point = mantissa.find('.');
    const auto run = [](std::string_view part, bool may_be_empty) -> std::optional<std::string> {
        if (part.empty()) return may_be_empty ? std::optional<std::string>("") : std::nullopt;
        return python_digits(part);
    };
    const auto whole = run(mantissa.substr(0, point), point != std::string_view::npos);
    const auto fraction = point == std::string_view::npos ? std::optional<std::string>("") : run(mantissa.substr(point + 1), true);
    if (!whole || !fraction || whole->size() + fraction->size() == 0) return std::nullopt;
    plain += *whole + "." + *fraction;
    if (e != std::string::npos) {
        std::string_view exponent = std::string_view(word).substr(e + 1);
        std::string sign;
        if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) sign = exponent[0], exponent.remove_prefix(1);
        const auto digits = python_digits(exponent);
        if (!digits) return std::nullopt;
        plain += "e" + sign + *digits;
    }
    const double v = std::strtod(plain.c_str(), nullptr);
    if (!std::isfinite(v)) return non_finite = true, std::nullopt;
    return v;
}

/// True for JSON number syntax.
bool json_number_syntax(std::string_view s) {
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i > from;
    };
    if (i < s.size() && s[i] == '-') ++i;
    if (i < s.size() && s[i] == '0') ++i;
    else if (!digits()) return false;
    if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == s.size();
}

std::string repr(double v) {
    std::string out;
    detail::append_double(out, v);
    return out;
}

const char* scalar_name(Scalar s) {
    switch (s) {
        case Scalar::string: return "a string";
        case Scalar::integer: return "an integer";
        case Scalar::number: return "a number";
        case Scalar::boolean: return "a boolean";
        case Scalar::none: break;
    }
    return "a value";
}

namespace {

/// The media types Harbor's model has: images as written, audio's canonical types and their aliases.
constexpr const char* kAudioAliases[][2] = {
    {"audio/mp3", "audio/mpeg"},  {"audio/mpga", "audio/mpeg"},  {"audio/x-mpeg", "audio/mpeg"}, {"audio/x-m4a", "audio/mp4"},
    {"audio/m4a", "audio/mp4"},   {"audio/x-wav", "audio/wav"},  {"audio/wave", "audio/wav"},    {"audio/vnd.wave", "audio/wav"},
    {"audio/x-aac", "audio/aac"}, {"audio/x-flac", "audio/flac"}, {"audio/x-aiff", "audio/aiff"}};
constexpr const char* kAudioTypes[] = {"audio/wav", "audio/mpeg", "audio/mp4", "audio/aac",
                                       "audio/ogg", "audio/flac", "audio/webm", "audio/aiff"};
constexpr const char* kImageTypes[] = {"image/jpeg", "image/png", "image/gif", "image/webp"};

template <std::size_t N>
bool among(std::string_view s, const char* const (&list)[N]) {
    for (const char* k : list)
        if (s == k) return true;
    return false;
}

}  // namespace

bool image_media_type(std::string_view s) { return among(s, kImageTypes); }

bool audio_media_type(std::string_view s) {
    if (among(s, kAudioTypes)) return true;
    for (const auto& alias : kAudioAliases)
        if (s == alias[0]) return true;
    return false;
}

/// The ATIF label `s` spells loosely ("atif-v1.7", "1.7", "ATIF_V1.7"), or empty.
std::string label_of(std::string_view s) {
    std::string l = lower(stripped(s));
    if (l.rfind("atif", 0) == 0) {
        l.erase(0, 4);
        if (!l.empty() && (l[0] == '-' || l[0] == '_' || l[0] == ' ')) l.erase(0, 1);
    }
    if (!l.empty() && l[0] == 'v') l.erase(0, 1);
    if (l.size() == 3 && l[0] == '1' && l[1] == '.' && l[2] >= '0' && l[2] <= '8') return "ATIF-v" + l;
    return {};
}


std::string canonical_audio(std::string_view written) {
    const std::string l = lower(stripped(written));
    if (among(l, kAudioTypes)) return l;
    for (const auto& alias : kAudioAliases)
        if (l == alias[0]) return alias[1];
    return {};
}

std::string media_kind(const Node& source) {
    if (source.find("duration_sec")) return "audio";
    const Node* media = source.find("media_type");
    if (!media || !media->is(Kind::string)) return {};
    const std::string l = lower(stripped(media->text));
    if (l.rfind("image/", 0) == 0) return "image";
    if (l.rfind("audio/", 0) == 0) return "audio";
    return {};
}

}  // namespace sediment::rows::repair_detail
