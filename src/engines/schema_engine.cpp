// The `schema` engine: valijson 1.0 over the embedded schemas, with the corrections documented in
// schema.hpp. valijson stays an implementation detail of this file.
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "engines/schema_engine.hpp"

#include "detail/text.hpp"
#include "sediment/rows/schema.hpp"

namespace sediment::rows {
namespace {

// Keywords valijson would evaluate inexactly are renamed to these, evaluated by our checks.
constexpr const char* kPatternKeyword = "x-sediment-pattern";
constexpr const char* kFormatKeyword = "x-sediment-format";

std::string context_pointer(const std::vector<std::string>& context) {
    std::string pointer;
    for (std::size_t i = 1; i < context.size(); ++i) {  // context[0] is "<root>"
        const std::string& step = context[i];           // "[key]" or "[index]"
        detail::append_pointer_token(pointer, std::string_view(step).substr(1, step.size() - 2));
    }
    return pointer;
}

/// A string check evaluated by the library's own code; `Check` gives the verdict and the message.
template <class Check>
class StringConstraint : public valijson::constraints::PolyConstraint {
public:
    explicit StringConstraint(std::string argument) : argument_(std::move(argument)) {}

    bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                  valijson::ValidationResults* results) const override {
        if (!target.isString()) return true;  // the keyword applies to strings only
        const std::string value = target.asString();
        if (Check::holds(argument_, value)) return true;
        if (results) results->pushError(context, Check::message(argument_, value));
        return false;
    }

private:
    Constraint* cloneInto(void* where) const override { return new (where) StringConstraint(*this); }
    std::size_t sizeOf() const override { return sizeof(StringConstraint); }

    std::string argument_;
};

struct PatternCheck {
    static bool holds(const std::string& pattern, const std::string& value) {
        return detail::matches_pattern(pattern.c_str(), value);
    }
    static std::string message(const std::string& pattern, const std::string&) {
        return "does not match the pattern " + pattern;
    }
};

struct FormatCheck {
    static bool holds(const std::string& format, const std::string& value) {
        return format != "date-time" || detail::is_rfc3339_date_time(value);
    }
    static std::string message(const std::string&, const std::string& value) {
        return detail::quoted(value, 64) + " is not an RFC 3339 date-time";
    }
};

template <class Check>
class StringConstraintBuilder : public valijson::ConstraintBuilder {
public:
    valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
        return new StringConstraint<Check>(value.asString());
    }
};

// Renames `pattern` and `format` where they are keywords of a (sub)schema, never where they are
// property names.
void rename_keywords(nlohmann::json& schema) {
    if (!schema.is_object()) return;
    for (const auto& [from, to] : {std::pair{"pattern", kPatternKeyword}, std::pair{"format", kFormatKeyword}}) {
        const auto it = schema.find(from);
        if (it != schema.end() && it->is_string()) {
            schema[to] = *it;
            schema.erase(from);
        }
    }
    for (const char* map : {"properties", "$defs", "definitions", "patternProperties"})
        if (schema.contains(map))
            for (auto& sub : schema[map]) rename_keywords(sub);
    for (const char* one : {"items", "additionalProperties", "not", "contains", "if", "then", "else"})
        if (schema.contains(one)) rename_keywords(schema[one]);
    for (const char* many : {"anyOf", "allOf", "oneOf", "prefixItems"})
        if (schema.contains(many))
            for (auto& sub : schema[many]) rename_keywords(sub);
}

// The document as valijson should see it: an integral number in the 64-bit range is an integer (as
// draft 2020-12 says of 3.0), and an integer beyond the signed 64-bit range is not one where the
// schema asks for a number (the typed models hold 64-bit integers and doubles).
nlohmann::json to_valijson(const Json& j, bool strict) {
    switch (j.type()) {
        case Json::value_t::array: {
            nlohmann::json out = nlohmann::json::array();
            for (const Json& item : j) out.push_back(to_valijson(item, strict));
            return out;
        }
        case Json::value_t::object: {
            nlohmann::json out = nlohmann::json::object();
            for (const auto& [key, value] : j.get_ref<const Json::object_t&>()) out[key] = to_valijson(value, strict);
            return out;
        }
        case Json::value_t::number_float: {
            const double d = j.get<double>();
            if (strict) return nlohmann::json(d);  // 1.0 stays a float: not an integer in a strict schema
            if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
                return nlohmann::json(static_cast<std::int64_t>(d));
            return nlohmann::json(d);
        }
        case Json::value_t::number_unsigned: {
            const auto u = j.get<std::uint64_t>();
            if (u <= static_cast<std::uint64_t>(INT64_MAX)) return nlohmann::json(static_cast<std::int64_t>(u));
            if (strict) return nlohmann::json(INT64_MAX);
            return nlohmann::json(static_cast<double>(u));
        }
        case Json::value_t::binary:
            // A big integer. In a strict-number schema it is an integer of any size: it compares with
            // every 64-bit bound as the 64-bit extreme of its sign does. Elsewhere it is fine where any
            // JSON goes, and outside the 64-bit domain where the schema wants a number (a string fails).
            if (strict) return nlohmann::json(big_integer_digits(j).front() == '-' ? INT64_MIN : INT64_MAX);
            return nlohmann::json(std::string(big_integer_digits(j)));
        default: return nlohmann::json(j);
    }
}

struct Prepared {
    std::once_flag once;
    valijson::Schema schema;
};

const valijson::Schema& prepared(SchemaId id) {
    static std::array<Prepared, std::size(kSchemas)> cache;
    Prepared& p = cache[static_cast<std::size_t>(id)];
    std::call_once(p.once, [&] {
        nlohmann::json doc = nlohmann::json::parse(schema_text(id));
        rename_keywords(doc);
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        parser.addConstraintBuilder(kPatternKeyword, new StringConstraintBuilder<PatternCheck>);  // owned by parser
        parser.addConstraintBuilder(kFormatKeyword, new StringConstraintBuilder<FormatCheck>);
        parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(doc), p.schema);
    });
    return p.schema;
}

}  // namespace

std::vector<Error> detail::schema_engine(SchemaId schema, const Json& document) {
    const nlohmann::json doc = to_valijson(document, schema_info(schema).strict_numbers);
    valijson::Validator validator;
    valijson::ValidationResults results;
    std::vector<Error> errors;
    if (validator.validate(prepared(schema), valijson::adapters::NlohmannJsonAdapter(doc), &results)) return errors;
    std::set<std::pair<std::string, std::string>> seen;
    valijson::ValidationResults::Error e;
    while (results.popError(e)) {
        std::string pointer = context_pointer(e.context);
        if (!seen.emplace(pointer, e.description).second) continue;
        errors.push_back(Error{"rows.schema.invalid", std::move(pointer), e.description});
        detail::make_printable(errors.back().pointer);  // a caller's document may hold keys that are not UTF-8
        detail::make_printable(errors.back().message);
    }
    if (errors.empty()) errors.push_back(Error{"rows.schema.invalid", "", "the document does not match the schema"});
    return errors;
}

}  // namespace sediment::rows
