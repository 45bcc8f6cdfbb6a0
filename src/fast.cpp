// The fast path of decode(): simdjson parses, the generated readers (generated/fast_read.hpp) fill the
// models, and anything they do not accept goes back to the exact reader (see detail/fast.hpp).
#include "sediment/rows/generated/fast_read.hpp"

#include <algorithm>
#include <vector>

namespace sediment::rows::detail::fast {

template <class T>
bool decode_document(std::string_view text, T& out, const Limits& limits, SchemaId schema) {
    if (text.size() > limits.max_document_bytes || limits.max_depth <= kTypedDepthMargin) return false;
    // One parser and one padded copy of the text per thread, each kept at the largest size read.
    thread_local simdjson::dom::parser parser;
    thread_local std::vector<char> padded;
    if (padded.size() < text.size() + simdjson::SIMDJSON_PADDING) padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
    std::copy(text.begin(), text.end(), padded.begin());
    element root;
    if (parser.parse(padded.data(), text.size(), false).get(root)) return false;
    std::vector<Error> errors;
    Decoder d(schema, errors, limits, Decoder::Source::owned_parse);
    Reader r{d, limits};
    return read(r, root, out) && errors.empty();
}

}  // namespace sediment::rows::detail::fast
