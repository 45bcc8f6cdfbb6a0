// Every published version: names with and without a version, the version a document names, and the
// verdicts under a name (see versions.hpp).
#include "sediment/rows/versions.hpp"

#include <algorithm>
#include <stdexcept>

#include "detail/decode.hpp"
#include "engines/schema_engine.hpp"
#include "detail/encode.hpp"

namespace sediment::rows {
namespace {

constexpr std::string_view kRollout = "nemo-gym-rollout";  // the family AnyRolloutRow holds
constexpr std::string_view kAny = "any";                   // a document of any family that names its version

// The bundled version of `base` whose documents name their version, or nullptr.
const SchemaInfo* named_family(std::string_view base) {
    for (const SchemaInfo& s : kSchemas)
        if (s.base == base && !s.version_pointer.empty()) return &s;
    return nullptr;
}

[[noreturn]] void unknown_name(std::string_view name) { throw std::invalid_argument(unknown_schema_message(name)); }

// The edit distance between `a` and `b` (insertions, deletions, substitutions and swaps of two
// neighbours, each 1), ASCII letters compared without case; stops counting past `limit`.
std::size_t distance(std::string_view a, std::string_view b, std::size_t limit) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const bool same = lower(a[i - 1]) == lower(b[j - 1]);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + !same});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

// Runs `versioned(id)` for a versioned name; for a name of every version, finds the version the
// document names first (the typed engine reads rows of any version itself).
template <class Versioned, class Any>
Validated under(std::string_view name, Versioned versioned, Any any) {
    if (const SchemaInfo* s = find_schema(name)) return versioned(s->id);
    if (!named_family(name) && name != kAny) unknown_name(name);
    return any();
}

}  // namespace

std::vector<std::string_view> similar_schema_names(std::string_view name, std::size_t count) {
    std::vector<std::string_view> names{kAny};  // every name a schema can be given, in bundle order
    for (const SchemaInfo& s : kSchemas) {
        if (!s.version_pointer.empty() && std::find(names.begin(), names.end(), s.base) == names.end()) names.push_back(s.base);
        names.push_back(s.name);
    }
    // a typo costs one edit per few characters; a part of a name (or a name inside it) of 4 or more
    // characters is near too, behind every typo
    const std::size_t limit = std::max<std::size_t>(2, name.size() / 4);
    std::vector<std::pair<std::size_t, std::string_view>> near;
    for (const std::string_view candidate : names) {
        std::size_t d = distance(name, candidate, limit);
        const bool part = name.size() >= 4 && candidate.size() >= 4 &&
                          (candidate.find(name) != std::string_view::npos || name.find(candidate) != std::string_view::npos);
        if (d > limit && part) d = limit + 1 + (candidate.size() > name.size() ? candidate.size() - name.size() : name.size() - candidate.size());
        if (d <= limit || part) near.emplace_back(d, candidate);
    }
    near.erase(std::remove_if(near.begin(), near.end(), [&](const auto& n) { return n.second == name; }), near.end());
    // the nearest only: one typo away from one name, it is that name, not also the two typos to others
    std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < near.size() && out.size() < count && near[i].first == near.front().first; ++i) out.push_back(near[i].second);
    return out;
}

std::string unknown_schema_message(std::string_view name) {
    const std::vector<SchemaId> versions = versions_of(name);
    std::string names;
    for (std::size_t i = 0; i < versions.size(); ++i)
        names += (i == 0 ? "" : i + 1 == versions.size() ? " or " : ", ") + std::string(schema_info(versions[i]).name);
    if (!versions.empty()) return std::string(name) + " documents do not name their version: name one of " + names;
    std::string message = "unknown schema " + detail::quoted(name, 100);
    const std::vector<std::string_view> near = similar_schema_names(name);
    for (std::size_t i = 0; i < near.size(); ++i)
        message += (i == 0 ? "; did you mean " : i + 1 == near.size() ? " or " : ", ") + detail::quoted(near[i]);
    return message + (near.empty() ? "" : "?");
}

std::vector<SchemaId> versions_of(std::string_view base) {
    std::vector<SchemaId> out;
    for (const SchemaInfo& s : kSchemas)
        if (s.base == base && s.version > 0) out.push_back(s.id);
    std::sort(out.begin(), out.end(), [](SchemaId a, SchemaId b) { return schema_info(a).version < schema_info(b).version; });
    return out;
}

std::vector<std::string_view> schema_names() {
    struct Entry { std::string_view base; int version; std::string_view name; };
    std::vector<Entry> list;  // a family's name without a version (version 0) comes before its versions
    for (const SchemaInfo& s : kSchemas) {
        if (named_family(s.base) == &s) list.push_back({s.base, 0, s.base});
        list.push_back({s.base, static_cast<int>(s.version), s.name});
    }
    std::stable_sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) {
        return a.base != b.base ? a.base < b.base : a.version < b.version;
    });
    std::vector<std::string_view> names{kAny};
    for (const Entry& e : list) names.push_back(e.name);
    return names;
}

std::string schema_document(std::string_view name) {
    if (const SchemaInfo* s = find_schema(name)) return std::string(schema_text(s->id));
    const std::vector<SchemaId> ids = schemas_named(name);
    if (ids.empty()) unknown_name(name);
    std::string refs, defs, listed;
    for (const SchemaId id : ids) {
        const SchemaInfo& s = schema_info(id);
        std::string_view text = schema_text(id);
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
        refs += std::string(refs.empty() ? "" : ", ") + "{\"$ref\": " + Json(std::string(s.uri)).dump() + "}";
        defs += std::string(defs.empty() ? "" : ",\n    ") + Json(std::string(s.name)).dump() + ": " + std::string(text);
        listed += std::string(listed.empty() ? "" : ", ") + std::string(s.name);
    }
    const std::string what = name == kAny ? "A document of any family and version" : "A document of any version of " + std::string(name);
    const std::string description = what + ", read as the one its schema_id names: " + listed +
                                    " (each embedded in $defs as it is bundled).";
    return "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": " +
           Json("urn:sediment-rows:schemas:" + std::string(name)).dump() + ",\n  \"description\": " + Json(description).dump() +
           ",\n  \"anyOf\": [" + refs + "],\n  \"$defs\": {\n    " + defs + "\n  }\n}\n";
}

std::vector<SchemaId> schemas_named(std::string_view name) {
    if (const SchemaInfo* s = find_schema(name)) return {s->id};
    if (named_family(name)) return versions_of(name);
    std::vector<SchemaId> out;
    if (name == kAny)
        for (const SchemaInfo& s : kSchemas)
            if (!s.version_pointer.empty()) out.push_back(s.id);
    return out;
}

std::optional<SchemaId> version_named(std::string_view base, const Json& document, std::vector<Error>& errors) {
    if (base == kAny) {  // the family whose version pointer holds one of its own $ids
        std::string places;
        for (const SchemaInfo& s : kSchemas) {
            if (s.version_pointer.empty() || named_family(s.base) != &s) continue;
            std::vector<Error> ignored;
            if (document.is_object() && document.contains(Json::json_pointer(std::string(s.version_pointer))))
                if (const std::optional<SchemaId> id = version_named(s.base, document, ignored)) return id;
            const std::string place = "'" + std::string(s.version_pointer) + "'";
            if (places.find(place) == std::string::npos) places += (places.empty() ? "" : " or ") + place;
        }
        errors.push_back({"rows.decode.version", "",
                          "the document names no published version of a family at " + places + " (see 'sediment-rows schema list')"});
        return std::nullopt;
    }
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
                      detail::quoted(uri, 200) + " is not the $id of a published " + std::string(base) + " version (" + names + ")"});
    return std::nullopt;
}

namespace detail {

std::optional<Error> other_version(SchemaId schema, const Json& document, std::string_view at, bool converting) {
    if (!document.is_object()) return std::nullopt;
    const SchemaInfo& asked = schema_info(schema);
    std::string pointer(at), message;
    if (schema == SchemaId::atif_v1_7) {  // NeMo Gym's subset; Harbor's model reads every label
        const auto label = document.find("schema_version");
        AtifVersion version{};
        if (label == document.end() || !label->is_string() || !from_string(label->get_ref<const std::string&>(), version) ||
            version == AtifVersion::ATIF_v1_7)
            return std::nullopt;
        pointer += "/schema_version";
        message = "the trajectory is " + label->get<std::string>() +
                  ", not ATIF-v1.7: read it as atif (Harbor's model, every ATIF version), or upgrade it to atif-v1.7";
    } else if (!asked.version_pointer.empty()) {  // "/metadata/schema_id"
        std::vector<Error> unnamed;  // a document that names no version gets its errors from the decoder
        const std::optional<SchemaId> id = version_named(asked.base, document, unnamed);
        if (!id || *id == schema) return std::nullopt;
        const SchemaInfo& named = schema_info(*id);
        pointer += asked.version_pointer;
        const std::string is(named.name), base(asked.base), want(asked.name);
        const bool newer = named.version > asked.version;
        if (converting)
            message = "the metadata is " + is + "'s, not " + want + "'s: convert to " + base +
                      " (a row of the version its metadata names)" +
                      (newer ? "; a conversion does not go back to an older version" : ", then upgrade it to " + want);
        else
            message = "the row is " + is + ", not " + want + ": read it as " + base +
                      " (each row as the version it names)" +
                      (newer ? "; a row does not go back to an older version" : ", or upgrade it to " + want);
    } else {
        return std::nullopt;  // the document does not say its version
    }
    return Error{"rows.decode.other_version", std::move(pointer), std::move(message)};
}

void put_first(std::vector<Error>& errors, std::size_t first, std::optional<Error> e) {
    if (!e || errors.size() <= first) return;
    errors.erase(std::remove_if(errors.begin() + static_cast<std::ptrdiff_t>(first), errors.end(),
                                [&](const Error& x) { return x.pointer == e->pointer; }),
                 errors.end());
    errors.insert(errors.begin() + static_cast<std::ptrdiff_t>(first), std::move(*e));
}

}  // namespace detail

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

// The version a document of the family `base` names, from a parse of it (the slow path: the fast one
// found none, or the document is invalid); nothing after appending the errors.
std::optional<SchemaId> version_of_text(std::string_view base, std::string_view text, std::vector<Error>& errors, const Limits& limits) {
    Json document;
    if (!parse(text, document, errors, limits, Decimals::nearest)) return std::nullopt;
    return version_named(base, document, errors);
}

Validated validate_named(std::string_view name, std::string_view text, bool padded, const Limits& limits) {
    return under(
        name, [&](SchemaId id) { return detail::validate_schema_text(id, text, padded, limits); },
        [&] {
            Validated v;
            if ((v.schema = detail::fast_check_named(name, text, limits, padded))) return v;
            if (name == kRollout) {  // the rows decode() reads as AnyRolloutRow
                AnyRolloutRow row;
                read_any(text, row, v.errors, limits, v.schema);
                return v;
            }
            v.schema = version_of_text(name, text, v.errors, limits);
            if (v.schema) v.errors = detail::validate_schema_text(*v.schema, text, padded, limits).errors;
            return v;
        });
}

}  // namespace

bool decode(std::string_view text, AnyRolloutRow& out, std::vector<Error>& errors, const Limits& limits) {
    std::optional<SchemaId> version;
    return read_any(text, out, errors, limits, version);
}

Validated validate(std::string_view name, std::string_view text, const Limits& limits) { return validate_named(name, text, false, limits); }

Validated validate(std::string_view name, const StringText& text, const Limits& limits) {
    return validate_named(name, text.text(), text.padded(), limits);
}

Validated validate(std::string_view name, std::string_view text, Engine engine, const Limits& limits) {
    if (engine == Engine::typed) return validate(name, text, limits);
    return under(
        name, [&](SchemaId id) { return validate(id, text, engine, limits); },
        [&] {
            Validated v;
            Json document;
            if (!parse(text, document, v.errors, limits, Decimals::nearest)) return v;
            v.schema = version_named(name, document, v.errors);
            if (v.schema) v.errors = detail::schema_engine(*v.schema, document);
            return v;
        });
}

Validated format(std::string_view name, std::string_view text, Style style, std::string& out, const Limits& limits) {
    return under(
        name, [&](SchemaId id) { return format(id, text, style, out, limits); },
        [&] {
            Validated v;
            if (name != kRollout) {
                std::optional<SchemaId> version = detail::fast_check_named(name, text, limits);
                if (!version) version = version_of_text(name, text, v.errors, limits);
                return version ? format(*version, text, style, out, limits) : v;
            }
            AnyRolloutRow row;
            if (!read_any(text, row, v.errors, limits, v.schema)) return v;
            std::visit([&](const auto& r) { detail::append_encoding(r, style, out, v.errors); }, row);
            return v;
        });
}

}  // namespace sediment::rows
