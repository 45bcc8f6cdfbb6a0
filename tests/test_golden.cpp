// Generated code for odd schemas (tests/generator/odd*.schema.json), compiled and exercised: C++
// keywords as names, a deep chain of $refs, a nullable bounded integer, an enum whose values are
// keywords, and a rule that one of two schemas sharing a model carries.
#include <catch2/catch.hpp>

#include "sediment/rows/json.hpp"
#include "sediment/rows/generated/read_impl.hpp"
#include "sediment/rows/generated/write.hpp"

using namespace sediment::rows;

namespace {

template <class T>
std::vector<Error> decode_as(SchemaId schema, const std::string& text, T& out) {
    std::vector<Error> errors;
    Json doc;
    if (!parse(text, doc, errors)) return errors;
    detail::Decoder d(schema, errors, Limits{}, detail::Decoder::Source::owned_parse);
    detail::read(d, doc, out);
    return errors;
}

template <class T>
std::string encode_compact(const T& value) {
    std::string out;
    detail::Writer w(out, Style::compact);
    detail::write(w, value);
    return w.finish();
}

}  // namespace

TEST_CASE("golden: keywords become members with a trailing underscore") {
    const std::string text =
        R"({"class":"c","namespace":{"next":{"next":{"template":"abc","operator":true}}},"default":null,"kind-of":"delete"})";
    Odd odd;
    CHECK(decode_as(SchemaId::odd, text, odd).empty());
    CHECK(odd.class_ == "c");
    CHECK(odd.namespace_.next.next.operator_);
    CHECK(odd.namespace_.next.next.template_ == "abc");
    CHECK(odd.default_.is_null());
    CHECK(odd.kind_of == KindOf::delete_);
    CHECK(to_string(KindOf::a_b) == "a-b");
    CHECK(encode_compact(odd) == text);
}

TEST_CASE("golden: a rule held by one schema of two applies to that schema's documents only") {
    Deep3 deep;
    const std::string text = R"({"template":"abcd","operator":false})";
    const auto in_odd = decode_as(SchemaId::odd, text, deep);
    REQUIRE(in_odd.size() == 1);
    CHECK(in_odd[0].id == "rows.decode.max_length");
    CHECK(in_odd[0].pointer == "/template");
    CHECK(decode_as(SchemaId::odd_deep, text, deep).empty());
    CHECK(document_traits<Deep3>::schema == SchemaId::odd_deep);
}

TEST_CASE("golden: a nullable integer's bounds apply to its value") {
    Odd odd;
    const auto errors = decode_as(SchemaId::odd,
        R"({"class":"c","namespace":{"next":{"next":{"operator":true}}},"default":-1})", odd);
    REQUIRE(errors.size() == 1);
    CHECK(to_string(errors[0]) == "[rows.decode.range] (/default) -1 is less than the minimum 0");
}
