// Every published version: names with and without a version, the version a document names, and the
// verdicts under a name (see versions.hpp).
#include "sediment/rows/versions.hpp"

#include <algorithm>
#include <stdexcept>

namespace sediment::rows {
namespace {

// The bundled version of `base` whose documents name their version, or nullptr.
const SchemaInfo* named_family(std::string_view base) {
    for (const SchemaInfo& s : kSchemas)
        if (s.base == base && !s.version_pointer.empty()) return &s;
    return nullptr;
}

[[noreturn]] void unknown_name(std::string_view name) {
    throw std::invalid_argument("no bundled schema is called '" + std::string(name) + "'");
}

// Runs `versioned(id)` for a versioned name; for a name of every version, finds the version the
// document names first (the typed engine reads rows of any version itself).
template <class Versioned, class Any>
Checked under(std::string_view name, Versioned versioned, Any any) {
    if (const SchemaInfo* s = find_schema(name)) return Checked{s->id, versioned(s->id)};
    if (!named_family(name)) unknown_name(name);
    return any();
}

}  // namespace

std::vector<SchemaId> versions_of(std::string_view base) {
    std::vector<SchemaId> out;
    for (const SchemaInfo& s : kSchemas)
        if (s.base == base && s.version > 0) out.push_back(s.id);
    std::sort(out.begin(), out.end(), [](SchemaId a, SchemaId b) { return schema_info(a).version < schema_info(b).version; });
    return out;
}

std::vector<SchemaId> schemas_named(std::string_view name) {
    if (const SchemaInfo* s = find_schema(name)) return {s->id};
    if (named_family(name)) return versions_of(name);
    return {};
}

std::optional<SchemaId> version_named(std::string_view base, const Json& document, std::vector<Error>& errors) {
    const SchemaInfo* family = named_family(base);
    if (!family) throw std::invalid_argument("'" + std::string(base) + "' documents do not name their version");
    const std::string_view pointer = family->version_pointer;  // "/metadata/schema_id"
    const Json* at = &document;
    std::string where;
    for (std::size_t start = 1; start <= pointer.size();) {
        std::size_t end = pointer.find('/', start);
        if (end == std::string_view::npos) end = pointer.size();
        const std::string key(pointer.substr(start, end - start));
        if (!at->is_object()) {
            errors.push_back({"rows.decode.type", where, std::string("expected an object, got ") + detail::json_type_name(*at)});
            return std::nullopt;
        }
        const auto it = at->find(key);
        if (it == at->end()) {
            errors.push_back({"rows.decode.missing_key", where,
                              "missing key '" + key + "': a " + std::string(base) + " document names its version at " + std::string(pointer)});
            return std::nullopt;
        }
        at = &*it;
        detail::append_pointer_token(where, key);
        start = end + 1;
    }
    if (!at->is_string()) {
        errors.push_back({"rows.decode.type", where, std::string("expected a string, got ") + detail::json_type_name(*at)});
        return std::nullopt;
    }
    const std::string& uri = at->get_ref<const std::string&>();
    std::string names;
    for (const SchemaId id : versions_of(base)) {
        if (schema_info(id).uri == uri) return id;
        names += (names.empty() ? "" : ", ") + std::string(schema_info(id).name);
    }
    errors.push_back({"rows.decode.version", where,
                      "'" + uri.substr(0, 200) + "' is not the $id of a published " + std::string(base) + " version (" + names + ")"});
    return std::nullopt;
}

SchemaId schema_of(const AnyRolloutRow& row) noexcept {
    return std::visit([](const auto& r) { return document_traits<std::decay_t<decltype(r)>>::schema; }, row);
}

namespace {

// decode(AnyRolloutRow): whether the row is valid, and `version` the version it was read as (none when
// it is not JSON or names no bundled version).
bool read_any(std::string_view text, AnyRolloutRow& out, std::vector<Error>& errors, const Limits& limits,
              std::optional<SchemaId>& version) {
    if (detail::fast_decode(text, out, limits)) {
        version = schema_of(out);
        return true;
    }
    Json document;
    if (!parse(text, document, errors, limits, Decimals::nearest)) return false;
    version = version_named(schema_info(schema_of(out)).base, document, errors);
    return version && detail::with_version(out, *version, [&](auto& row) {
        row = std::decay_t<decltype(row)>();
        detail::Decoder d(*version, errors, limits, detail::Decoder::Source::owned_parse);
        return detail::read(d, document, row);
    });
}

Checked check_text(std::string_view name, std::string_view text, bool padded, const Limits& limits) {
    return under(
        name,
        [&](SchemaId id) {
            return visit_schema(id, [&](auto tag) { return detail::check<typename decltype(tag)::type>(text, padded, id, limits); });
        },
        [&] {
            Checked v;
            if ((v.schema = detail::fast_check_row(text, limits, padded))) return v;
            AnyRolloutRow row;
            read_any(text, row, v.errors, limits, v.schema);
            return v;
        });
}

}  // namespace

bool decode(std::string_view text, AnyRolloutRow& out, std::vector<Error>& errors, const Limits& limits) {
    std::optional<SchemaId> version;
    return read_any(text, out, errors, limits, version);
}

Checked check(std::string_view name, std::string_view text, const Limits& limits) { return check_text(name, text, false, limits); }

Checked check(std::string_view name, const StringText& text, const Limits& limits) {
    return check_text(name, text.text(), text.padded(), limits);
}

Checked validate(std::string_view name, std::string_view text, const Limits& limits) {
    return under(
        name, [&](SchemaId id) { return validate(id, text, limits); },
        [&] {
            Checked v;
            Json document;
            if (!parse(text, document, v.errors, limits, Decimals::nearest)) return v;
            v.schema = version_named(name, document, v.errors);
            if (v.schema) v.errors = validate_document(*v.schema, document);
            return v;
        });
}

Checked reencode(std::string_view name, std::string_view text, Style style, std::string& out, const Limits& limits) {
    return under(
        name,
        [&](SchemaId id) {
            std::vector<Error> errors;
            reencode(id, text, style, out, errors, limits);
            return errors;
        },
        [&] {
            Checked v;
            AnyRolloutRow row;
            if (!read_any(text, row, v.errors, limits, v.schema)) return v;
            try {
                std::string encoded;
                std::visit([&](const auto& r) { encode(r, encoded, style); }, row);
                out += encoded;
            } catch (const EncodeError& e) {
                v.errors.push_back(e.error());
            }
            return v;
        });
}

}  // namespace sediment::rows
