// The fast path of decode(): simdjson parses, the generated readers (generated/fast_read.hpp) fill the
// models, and anything they do not accept goes back to the exact reader (see detail/fast.hpp).
#include "sediment/rows/generated/fast_read.hpp"
#include "sediment/rows/versions.hpp"

#include <algorithm>
#include <vector>

namespace sediment::rows::detail::fast {
namespace {

// Parses `text` into the thread's simdjson DOM; false for anything the exact reader must judge.
bool parse_dom(std::string_view text, const Limits& limits, element& root) {
    if (text.size() > limits.max_document_bytes || limits.max_depth <= kTypedDepthMargin) return false;
    // One parser and one padded copy of the text per thread, each kept at the largest size read.
    thread_local simdjson::dom::parser parser;
    thread_local std::vector<char> padded;
    if (padded.size() < text.size() + simdjson::SIMDJSON_PADDING) padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
    std::copy(text.begin(), text.end(), padded.begin());
    return !parser.parse(padded.data(), text.size(), false).get(root);
}

template <class T>
bool read_document(element root, T& out, const Limits& limits, SchemaId schema) {
    std::vector<Error> errors;
    Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
    Reader r{d, limits};
    return read(r, root, out) && errors.empty();
}

}  // namespace

template <class T>
bool decode_document(std::string_view text, T& out, const Limits& limits, SchemaId schema) {
    element root;
    return parse_dom(text, limits, root) && read_document(root, out, limits, schema);
}

}  // namespace sediment::rows::detail::fast

namespace sediment::rows::detail {

bool fast_decode(std::string_view text, AnyRolloutRow& out, const Limits& limits) {
    fast::element root;
    if (!fast::parse_dom(text, limits, root)) return false;
    // the version the row names (version_named() gives the verdict on a row that names none)
    const SchemaInfo& held = schema_info(schema_of(out));
    std::string_view uri;
    if (root.at_pointer(held.version_pointer).get(uri)) return false;
    for (const SchemaInfo& version : kSchemas)
        if (version.uri == uri && version.base == held.base)
            return with_version(out, version.id, [&](auto& row) { return fast::read_document(root, row, limits, version.id); });
    return false;
}

}  // namespace sediment::rows::detail
