// The fast path of decode(): simdjson parses, the generated readers (generated/fast_read.hpp) fill the
// models, and anything they do not accept goes back to the exact reader (see detail/fast.hpp).
#include "sediment/rows/generated/fast_read.hpp"
#include "sediment/rows/detail/text.hpp"
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

/// A simdjson parser and a padded copy of the text, each kept at the largest size read.
struct Parser {
    simdjson::dom::parser parser;
    std::vector<char> buffer;
};

// Parses `text` into the DOM of `p`; false for anything the exact reader must judge. A `padded` text
// (kTextPadding readable bytes follow it) is parsed where it is.
bool parse_dom(Parser& p, std::string_view text, const Limits& limits, element& root, bool padded = false) {
    if (text.size() > limits.max_document_bytes || limits.max_depth == 0) return false;
    simdjson::dom::parser& parser = p.parser;
    std::vector<char>& buffer = p.buffer;
    // The parser refuses what nests deeper than the exact reader allows (simdjson's depth N admits
    // N - 1 levels). Past kMaxParserDepth levels the exact reader judges.
    const std::size_t depth = std::min(limits.max_depth, kMaxParserDepth) + 1;
    if (parser.max_depth() != depth && parser.allocate(std::max(parser.capacity(), text.size()), depth)) return false;
    if (padded) return !parser.parse(text.data(), text.size(), false).get(root);
    if (buffer.size() < text.size() + simdjson::SIMDJSON_PADDING) buffer.resize(text.size() + simdjson::SIMDJSON_PADDING);
    std::copy(text.begin(), text.end(), buffer.begin());
    return !parser.parse(buffer.data(), text.size(), false).get(root);
}

// The same into the thread's DOM, which every document the fast path reads goes through.
bool parse_dom(std::string_view text, const Limits& limits, element& root, bool padded = false) {
    thread_local Parser parser;
    return parse_dom(parser, text, limits, root, padded);
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

// True when the first `count` decimal literals of `text` are each exactly a double: `text` is valid
// JSON (simdjson parsed it) holding `count` decimals, which keeps the scan simple: strings are
// skipped (detail::string_end), and a number is a run of its characters.
bool decimals_exact(std::string_view text, std::size_t count) {
    static constexpr auto kinds = [] {  // 1: a string opens, 2: a number starts, 0: anything else
        std::array<unsigned char, 256> k{};
        k['"'] = 1;
        k['-'] = 2;
        for (char c = '0'; c <= '9'; ++c) k[static_cast<unsigned char>(c)] = 2;
        return k;
    }();
    const auto in_number = [](char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; };
    const char* p = text.data();
    const char* const end = p + text.size();
    while (count > 0) {
        while (p < end && kinds[static_cast<unsigned char>(*p)] == 0) ++p;
        if (p == end) return false;  // fewer literals than the DOM held: never for valid JSON
        if (*p == '"') {
            p = text.data() + string_end(text, static_cast<std::size_t>(p - text.data()));
            continue;
        }
        const char* start = p;
        bool decimal = false;
        for (; p < end && in_number(*p); ++p) decimal = decimal || *p == '.' || *p == 'e' || *p == 'E';
        if (!decimal) continue;
        if (!decimal_is_exact(std::string_view(start, static_cast<std::size_t>(p - start)))) return false;
        --count;
    }
    return true;
}

// Runs `reader(r)` over the parsed `text` as a document of `schema`: true when it accepts the document
// and no rule recorded an error. The DOM keeps the doubles, not their literals: a schema of exact
// decimals (the ATIF subset) reads them again from the text.
template <class ReadOrCheck>
bool accepts(std::string_view text, const Limits& limits, SchemaId schema, ReadOrCheck reader) {
    std::vector<Error> errors;
    Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
    Reader r{d, limits};
    return reader(r) && errors.empty() &&
           (r.decimals == 0 || !schema_info(schema).exact_decimals || decimals_exact(text, r.decimals));
}

// Reads the parsed `text` into `out`.
template <class T>
bool read_document(std::string_view text, element root, T& out, const Limits& limits, SchemaId schema) {
    return accepts(text, limits, schema, [&](Reader& r) { return read(r, root, out); });
}

// The same verdict as read_document(), building nothing.
template <class T>
bool check_read(std::string_view text, element root, type_tag<T> type, const Limits& limits, SchemaId schema) {
    return accepts(text, limits, schema, [&](Reader& r) { return check(r, root, type); });
}

// The version of a rollout row of kind `held` (the base name of the versions), which `root` names; for
// a row that names none or an unknown one, nothing: the exact reader gives the verdict.
const SchemaInfo* version_named(element root, const SchemaInfo& held) {
    std::string_view uri;
    if (root.at_pointer(held.version_pointer).get(uri)) return nullptr;
    for (const SchemaInfo& version : kSchemas)
        if (version.uri == uri && version.base == held.base) return &version;
    return nullptr;
}

}  // namespace

template <class T>
bool check_document(std::string_view text, type_tag<T> root, const Limits& limits, SchemaId schema, bool padded) {
    element dom;
    return parse_dom(text, limits, dom, padded) && check_read(text, dom, root, limits, schema);
}

template <class T>
bool decode_document(std::string_view text, T& out, const Limits& limits, SchemaId schema) {
    element root;
    return parse_dom(text, limits, root) && read_document(text, root, out, limits, schema);
}

bool view_document(std::string_view text, const Limits& limits, view::AtifTrajectory& out) {
    thread_local Parser parser;  // its own: a view outlives the documents read while it is mapped
    element root;
    return parse_dom(parser, text, limits, root) && read_document(text, root, out, limits, SchemaId::atif_v1_7);
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
template bool read_value(element, NemoGymMetadata&, SchemaId);
template bool read_value(element, NemoGymMetadataV3&, SchemaId);
template bool read_value(element, NemoGymMetadataV4&, SchemaId);

}  // namespace sediment::rows::detail::fast

namespace sediment::rows::detail {

bool fast_decode(std::string_view text, AnyRolloutRow& out, const Limits& limits) {
    fast::element root;
    if (!fast::parse_dom(text, limits, root)) return false;
    const SchemaInfo* version = fast::version_named(root, schema_info(schema_of(out)));
    return version && with_version(out, version->id, [&](auto& row) { return fast::read_document(text, root, row, limits, version->id); });
}

bool fast_parse(std::string_view text, Json& out) {
    fast::element root;
    const Limits limits;
    if (!fast::parse_dom(text, limits, root)) return false;
    std::vector<Error> errors;
    Decoder d(SchemaId::nemo_gym_rollout_v2, errors, limits, Decoder::Source::owned_parse);  // no rule reads the schema
    fast::Reader r{d, limits};
    return fast::read(r, root, out);
}

std::optional<SchemaId> fast_check_row(std::string_view text, const Limits& limits, bool padded) {
    fast::element root;
    if (!fast::parse_dom(text, limits, root, padded)) return std::nullopt;
    const SchemaInfo* version = fast::version_named(root, schema_info(document_traits<std::variant_alternative_t<0, AnyRolloutRow>>::schema));
    if (!version || !visit_schema(version->id, [&](auto row) { return fast::check_read(text, root, row, limits, version->id); }))
        return std::nullopt;
    return version->id;
}

}  // namespace sediment::rows::detail
