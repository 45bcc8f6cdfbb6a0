// The fast path of decode(): simdjson parses, the generated readers (generated/fast_read.hpp) fill the
// models, and anything they do not accept goes back to the exact reader (see detail/fast.hpp).
#include "generated/fast_read.hpp"
#include "detail/decode.hpp"
#include "detail/fast_dom.hpp"
#include "detail/fast_parser.hpp"
#include "detail/tape.hpp"
#include "detail/text.hpp"
#include "sediment/rows/versions.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace sediment::rows::detail::fast {
namespace {

constexpr std::size_t kMaxParserDepth = 1 << 16;

static_assert(kTextPadding >= simdjson::SIMDJSON_PADDING);

/// A text simdjson parsed: its DOM's root, the parser, whose structural indexes say where each value
/// starts in the text (decimals_exact() reads them), and the integers beyond 64 bits it holds as
/// markers (mark_big_integers()).
struct Document {
    std::string_view text;
    element root;
    const simdjson::dom::parser* parser = nullptr;
    std::vector<std::pair<std::string_view, bool>> big_integers;

    /// What a Reader of this document is given: its markers, where it has any.
    std::vector<std::pair<std::string_view, bool>>* markers() { return big_integers.empty() ? nullptr : &big_integers; }
};

// The number literal whose first byte is at `at` of `text` (a structural index): the run of the
// characters a number is written with; empty where no number starts. (Inlined: the scans call it
// for every structural index.)
inline __attribute__((always_inline)) std::string_view number_at(std::string_view text, std::size_t at) {
    const auto in_number = [](char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; };
    if (at >= text.size() || !(text[at] == '-' || (text[at] >= '0' && text[at] <= '9'))) return {};
    std::size_t end = at;
    while (end < text.size() && in_number(text[end])) ++end;
    return text.substr(at, end - at);
}

// The integer literal at `at` of `text` (a structural index) when it is beyond 64 bits, which the
// DOM refuses; empty for any other value. A literal ends where the JSON grammar lets a value end.
std::string_view big_integer_at(std::string_view text, std::size_t at) {
    const std::string_view literal = number_at(text, at);
    const std::size_t end = at + literal.size();
    const std::string_view ends = " \t\n\r,]}";
    if (end < text.size() && ends.find(text[end]) == std::string_view::npos) return {};  // not where a value ends
    if (!valid_big_integer(literal)) return {};  // no number, a decimal, or malformed
    std::int64_t negative = 0;
    std::uint64_t positive = 0;
    const char* last = literal.data() + literal.size();
    const bool fits = literal[0] == '-' ? std::from_chars(literal.data(), last, negative).ec == std::errc()
                                        : std::from_chars(literal.data(), last, positive).ec == std::errc();
    return fits ? std::string_view{} : literal;
}

// The shortest integer beyond 64 bits, -9223372036854775809 or 18446744073709551616.
constexpr std::size_t kShortestBigInteger = 20;
static_assert(kShortestBigInteger == 8 + kMarkerDigits);  // '"', "\\u0000", the digits, '"'

// simdjson's DOM refuses a text with an integer beyond 64 bits as it refuses a malformed number. Each
// such literal of `copy` (the text's padded copy, which stage 1 indexed) becomes a marker: a string
// of the literal's length, "\u0000" and the literal's index in `out`, which the readers of free-form
// values read back as the literal (fast.hpp, take_marked()) and every other reader refuses. False when
// there is nothing to mark: the error was another one, for the exact reader to judge.
bool mark_big_integers(std::string_view text, char* copy, const simdjson::internal::dom_parser_implementation& stage1,
                       std::vector<std::pair<std::string_view, bool>>& out) {
    const std::uint32_t* indexes = stage1.structural_indexes.get();
    const std::uint32_t count = stage1.n_structural_indexes;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::size_t at = indexes[i];
        const std::size_t next = i + 1 < count ? indexes[i + 1] : text.size();
        if (at >= text.size() || next - at < kShortestBigInteger) continue;  // most values: no load of the text
        const std::string_view literal = big_integer_at(text, at);
        if (literal.empty()) continue;
        const std::string index = std::to_string(out.size());  // the shortest literal leaves kMarkerDigits
        char* marker = copy + at;
        std::memcpy(marker, "\"\\u0000", 7);
        std::memset(marker + 7, '0', literal.size() - 8 - index.size());
        std::memcpy(marker + literal.size() - 1 - index.size(), index.data(), index.size());
        marker[literal.size() - 1] = '"';
        out.emplace_back(literal, false);
    }
    return !out.empty();
}

// Parses `text` into the DOM of `p`; false for anything the exact reader must judge. A `padded` text
// (kTextPadding readable bytes follow it) is parsed where it is. With `mark`, a text with integers
// beyond 64 bits is parsed with markers in their place (mark_big_integers()): only the readers of
// decode and check know them, not the view models, which hand the DOM to their callers.
bool parse_dom(Parser& p, std::string_view text, const Limits& limits, Document& out, bool padded = false, bool mark = false) {
    if (!prepare(p, text, limits)) return false;
    simdjson::dom::parser& parser = p.parser;
    std::vector<char>& buffer = p.buffer;
    out = Document{text, {}, &parser, {}};
    if (!padded) padded_copy(p, text);
    const simdjson::error_code error = parser.parse(padded ? text.data() : buffer.data(), text.size(), false).get(out.root);
    if (error != simdjson::NUMBER_ERROR || !mark) return !error;
    if (padded) padded_copy(p, text);
    if (!mark_big_integers(text, buffer.data(), *parser.implementation, out.big_integers)) return false;
    // Stage 1 indexed the same structure: a marker starts where its literal did. A padded text was
    // indexed where it is, and the copy is indexed anew.
    if (padded) return !parser.parse(buffer.data(), text.size(), false).get(out.root);
    if (parser.implementation->stage2(p.parser.doc)) return false;
    out.root = parser.doc.root();
    return true;
}

// The same into the thread's DOM.
bool parse_dom(std::string_view text, const Limits& limits, Document& out, bool padded = false, bool mark = false) {
    return parse_dom(thread_parser(), text, limits, out, padded, mark);
}

// A decimal literal the subset's loader accepts: exactly the double it reads as (see
// detail::decimal_is_exact). One of at most 15 significant digits in the normal range always is
// (DBL_DIG), which spares the comparison for nearly every literal.
bool decimal_is_exact(std::string_view literal) {
    double v = 0;
    const char* begin = literal.data() + (literal[0] == '-');  // from_chars reads no sign of its own
    const char* end = literal.data() + literal.size();
    if (std::from_chars(begin, end, v).ec != std::errc()) return false;
    if (literal[0] == '-') v = -v;
    const char* digits_end = std::find_if(begin, end, [](char c) { return c == 'e' || c == 'E'; });
    const char* first = std::find_if(begin, digits_end, [](char c) { return c >= '1' && c <= '9'; });
    const char* last = digits_end;
    while (last > first && (last[-1] == '0' || last[-1] == '.')) --last;
    const auto significant = std::count_if(first, last, [](char c) { return c != '.'; });
    if ((significant <= DBL_DIG && std::fabs(v) >= DBL_MIN) || (significant == 0 && v == 0)) return true;
    return detail::decimal_is_exact(literal, v);
}

// True when the `count` decimal literals of the parsed document are each exactly a double. Every
// value's first byte is one of the parser's structural indexes, in the text's order (number_at()).
// (An integer, and token ids come by the thousand, costs a look at each of its bytes: no call.)
bool decimals_exact(const Document& doc, std::size_t count) {
    const auto& stage1 = doc.parser->implementation;
    if (!stage1) return false;
    const auto decimal = [](char c) { return c == '.' || c == 'e' || c == 'E'; };
    for (std::uint32_t i = 0; i < stage1->n_structural_indexes && count > 0; ++i) {
        const std::string_view literal = number_at(doc.text, stage1->structural_indexes[i]);
        if (std::none_of(literal.begin(), literal.end(), decimal)) continue;  // an integer, or no number
        if (!decimal_is_exact(literal)) return false;
        --count;
    }
    return count == 0;  // fewer literals than the DOM held: never for valid JSON
}

// Runs `reader(r)` over the parsed `text` as a document of `schema`: true when it accepts the document
// and no rule recorded an error. The DOM keeps the doubles, not their literals: a schema of exact
// decimals (the ATIF subset) reads them again from the text, where the parser found them.
// `in_order`, when given, says whether every object's keys were in the order of its model's fields.
template <class ReadOrCheck>
bool accepts(Document& doc, const Limits& limits, SchemaId schema, ReadOrCheck reader, bool* in_order = nullptr) {
    std::vector<Error> errors;
    Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
    Reader r{d, limits, 0, doc.markers(), false, &thread_spare()};
    const auto all_taken = [&] {
        return std::all_of(doc.big_integers.begin(), doc.big_integers.end(), [](const auto& big) { return big.second; });
    };
    const bool accepted = reader(r) && errors.empty() && all_taken() &&
                          (r.decimals == 0 || !schema_info(schema).exact_decimals || decimals_exact(doc, r.decimals));
    if (in_order) *in_order = !r.reordered;
    return accepted;
}

// Reads the parsed document into `out`.
template <class T>
bool read_document(Document& doc, T& out, const Limits& limits, SchemaId schema) {
    return accepts(doc, limits, schema, [&](Reader& r) { return read(r, doc.root, out); });
}

// The same verdict as read_document(), building nothing.
template <class T>
bool check_read(Document& doc, type_tag<T> type, const Limits& limits, SchemaId schema, bool* in_order = nullptr) {
    return accepts(doc, limits, schema, [&](Reader& r) { return check(r, doc.root, type); }, in_order);
}

// The version of a document of kind `held` (the base name of the versions), which `root` names; for
// a document that names none or an unknown one, nothing: the exact reader gives the verdict.
const SchemaInfo* version_named(element root, const SchemaInfo& held) {
    std::string_view uri;
    return root.at_pointer(held.version_pointer).get(uri) ? nullptr : version_with_uri(held, uri);
}

}  // namespace

// The levels of nesting the parser admits for `limits`: what the exact reader allows, up to
// kMaxParserDepth (past it the exact reader judges).
std::size_t parser_depth(const Limits& limits) { return std::min(limits.max_depth, kMaxParserDepth); }

// Readies `p` for `text` under `limits` (false for a text the exact reader must judge): its depth
// (simdjson's depth N admits N - 1 levels) and a capacity of the text's size at least.
bool prepare(Parser& p, std::string_view text, const Limits& limits) {
    if (text.size() > limits.max_document_bytes || limits.max_depth == 0) return false;
    simdjson::dom::parser& parser = p.parser;
    const std::size_t depth = parser_depth(limits) + 1;
    return (parser.capacity() >= text.size() && parser.max_depth() == depth) ||
           !parser.allocate(std::max(parser.capacity(), text.size()), depth);
}

// `text` copied into the padded buffer of `p`.
const char* padded_copy(Parser& p, std::string_view text) {
    if (p.buffer.size() < text.size() + simdjson::SIMDJSON_PADDING) p.buffer.resize(text.size() + simdjson::SIMDJSON_PADDING);
    std::copy(text.begin(), text.end(), p.buffer.begin());
    return p.buffer.data();
}

// The parser of this thread's DOM, which every document the fast path reads goes through.
Parser& thread_parser() {
    thread_local Parser parser;
    return parser;
}

// The memory of the free-form values this thread's readers replaced (SpareJson), for the next ones.
SpareJson& thread_spare() {
    thread_local SpareJson spare;
    return spare;
}

// The version of kind `held` (the base name of the versions) whose URI is `uri`; nothing for another.
const SchemaInfo* version_with_uri(const SchemaInfo& held, std::string_view uri) {
    for (const SchemaInfo& version : kSchemas)
        if (version.uri == uri && version.base == held.base) return &version;
    return nullptr;
}

// The first version of each family that names its version in its documents.
const std::vector<const SchemaInfo*>& families_naming_versions() {
    static const std::vector<const SchemaInfo*> families = [] {
        std::vector<const SchemaInfo*> out;
        for (const SchemaInfo& s : kSchemas)
            if (!s.version_pointer.empty() && (out.empty() || out.back()->base != s.base)) out.push_back(&s);
        return out;
    }();
    return families;
}

template <class T>
bool check_document(std::string_view text, type_tag<T> root, const Limits& limits, SchemaId schema, bool padded) {
    if (detail::tokens_check(text, root, limits, schema, padded)) return true;
    Document doc;
    return parse_dom(text, limits, doc, padded, true) && check_read(doc, root, limits, schema);
}

template <class T>
bool decode_document(std::string_view text, T& out, const Limits& limits, SchemaId schema, bool padded) {
    if (detail::tokens_decode(text, out, limits, schema, padded)) return true;
    Document doc;
    return parse_dom(text, limits, doc, padded, true) && read_document(doc, out, limits, schema);
}

bool view_document(std::string_view text, const Limits& limits, view::NemoGymAtifTrajectory& out) {
    thread_local Parser parser;  // its own: a view outlives the documents read while it is mapped
    Document doc;
    return parse_dom(parser, text, limits, doc) && read_document(doc, out, limits, SchemaId::atif_v1_7);
}

bool view_row(std::string_view text, bool padded, const Limits& limits, std::optional<SchemaId> schema,
              AnyRolloutRowView& out, element& root) {
    thread_local Parser parser;  // its own: the view is linted while other documents are read
    Document doc;
    if (!parse_dom(parser, text, limits, doc, padded)) return false;
    const SchemaInfo* version = schema ? &schema_info(*schema) : version_named(doc.root, schema_info(SchemaId::nemo_gym_rollout_v1));
    if (!version) return false;
    root = doc.root;
    return with_version(out, version->id, [&](auto& row) { return read_document(doc, row, limits, version->id); });
}

template <class T>
bool read_value(element e, T& out, SchemaId schema) {
    std::vector<Error> errors;
    const Limits limits;  // the exact reader's, for a DOM of the caller's
    Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
    Reader r{d, limits};
    return read(r, e, out) && errors.empty();
}

// What a trajectory's extension holds (src/convert.cpp).
template bool read_value(element, std::string&, SchemaId);
template bool read_value(element, Json&, SchemaId);
template bool read_value(element, Number&, SchemaId);
template bool read_value(element, std::vector<ToolCallPart>&, SchemaId);
template bool read_value(element, std::vector<RLVRInferenceMessageRow>&, SchemaId);
template bool read_value(element, std::vector<RLVRDecisionRow>&, SchemaId);
template bool read_value(element, NemoGymMetadataV1&, SchemaId);
template bool read_value(element, NemoGymMetadataV2&, SchemaId);
template bool read_value(element, NemoGymMetadataV3&, SchemaId);
template bool read_value(element, NemoGymMetadataV4&, SchemaId);

}  // namespace sediment::rows::detail::fast

namespace sediment::rows::detail {

namespace view {

// As nlohmann compares the Json the exact reader builds: objects member by member in order; numbers by
// value across integers, unsigned integers and doubles (converted as nlohmann converts them). On the
// tape: the two values' words side by side.
namespace {

bool equal(tape::Value x, tape::Value y) {
    const char type = x.type(), other = y.type();
    if (type != other) {
        const auto number = [](char t) { return t == 'l' || t == 'u' || t == 'd'; };
        if (!number(type) || !number(other)) return false;
        const auto as_double = [](tape::Value v) {
            return v.type() == 'd' ? v.number<double>() : v.type() == 'l' ? static_cast<double>(v.number<std::int64_t>())
                                                                           : static_cast<double>(v.number<std::uint64_t>());
        };
        if (type == 'd' || other == 'd') return as_double(x) == as_double(y);
        return x.number<std::uint64_t>() == y.number<std::uint64_t>();  // as nlohmann: the int64's bits as unsigned
    }
    switch (type) {
        case 'l': case 'u': return x.number<std::uint64_t>() == y.number<std::uint64_t>();
        case 'd': return x.number<double>() == y.number<double>();
        case '"': return x.string() == y.string();
        case '[': {  // items in order (an array's count saturates: no shortcut)
            tape::Value i = x.first(), j = y.first();
            for (; i.at < x.close() && j.at < y.close(); i = i.with(i.next()), j = j.with(j.next()))
                if (!equal(i, j)) return false;
            return i.at == x.close() && j.at == y.close();
        }
        case '{': {  // members in order: key, then value
            tape::Value i = x.first(), j = y.first();
            for (; i.at < x.close() && j.at < y.close(); i = i.with(i.with(i.at + 1).next()), j = j.with(j.with(j.at + 1).next()))
                if (i.string() != j.string() || !equal(i.with(i.at + 1), j.with(j.at + 1))) return false;
            return i.at == x.close() && j.at == y.close();
        }
        default: return true;  // null, true, false: the type is the value
    }
}

}  // namespace

bool operator==(const JsonView& a, const JsonView& b) { return equal(tape::value_of(a.value), tape::value_of(b.value)); }

}  // namespace view

bool fast_decode(std::string_view text, AnyRolloutRow& out, const Limits& limits) {
    fast::Document doc;
    if (!fast::parse_dom(text, limits, doc, false, true)) return false;
    const SchemaInfo* version = fast::version_named(doc.root, schema_info(schema_of(out)));
    return version && with_version(out, version->id, [&](auto& row) { return fast::read_document(doc, row, limits, version->id); });
}

bool fast_parse(std::string_view text, Json& out) {
    fast::Document doc;
    const Limits limits;
    if (!fast::parse_dom(text, limits, doc, false, true)) return false;
    std::vector<Error> errors;
    Decoder d(SchemaId::nemo_gym_rollout_v2, errors, limits, Decoder::Source::owned_parse);  // no rule reads the schema
    fast::Reader r{d, limits, 0, doc.markers()};
    return fast::read(r, doc.root, out);
}

namespace {

// The version of the parsed document under `name` (a schema's name, a family's, or "any") when the
// fast path accepts it; `in_order` as in accepts().
std::optional<SchemaId> checked_version(fast::Document& doc, std::string_view name, const Limits& limits, bool* in_order = nullptr) {
    const SchemaInfo* version = find_schema(name);
    if (!version)
        for (const SchemaInfo* family : fast::families_naming_versions())
            if (!version && (name == "any" || family->base == name)) version = fast::version_named(doc.root, *family);
    if (!version || !visit_schema(version->id, [&](auto root) { return fast::check_read(doc, root, limits, version->id, in_order); }))
        return std::nullopt;
    return version->id;
}

}  // namespace

std::optional<SchemaId> fast_check_named(std::string_view base, std::string_view text, const Limits& limits, bool padded) {
    if (const std::optional<SchemaId> version = tokens_check_named(base, text, limits, padded)) return version;  // over tokens first
    fast::Document doc;
    if (!fast::parse_dom(text, limits, doc, padded, true)) return std::nullopt;
    return checked_version(doc, base, limits);
}

bool fast_parse_dom(std::string_view text, const Limits& limits, bool padded, const DomLook& look) {
    fast::Document doc;
    if (!fast::parse_dom(text, limits, doc, padded, true)) return false;
    const auto& stage1 = *doc.parser->implementation;  // (what parse_dom() last indexed: this text)
    look(doc.root, doc.big_integers, TokenStarts{stage1.structural_indexes.get(), stage1.n_structural_indexes});
    return true;
}

std::optional<SchemaId> fast_check_dom(std::string_view name, std::string_view text, const Limits& limits, bool padded,
                                       const DomLook& look, bool any_order) {
    fast::Document doc;
    if (!fast::parse_dom(text, limits, doc, padded, true)) return std::nullopt;
    bool in_order = false;
    const std::optional<SchemaId> version = checked_version(doc, name, limits, any_order ? nullptr : &in_order);
    if (version && (in_order || any_order)) {
        const auto& stage1 = *doc.parser->implementation;  // (what parse_dom() last indexed: this text)
        look(doc.root, doc.big_integers, TokenStarts{stage1.structural_indexes.get(), stage1.n_structural_indexes});
    }
    return version;
}

}  // namespace sediment::rows::detail
