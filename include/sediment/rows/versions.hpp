// Documents of every published version. A schema named without its version ("nemo-gym-rollout")
// stands for all of them where documents say their own (a rollout row's metadata.schema_id); rows of
// any version decode into one type, AnyRolloutRow, read under the rules of the version each names.
//
//   rows::AnyRolloutRow row;
//   if (rows::decode(line, row, errors))
//       std::visit([](const auto& r) { use(r.metadata.session_id); }, row);
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "decode.hpp"
#include "encode.hpp"
#include "schema.hpp"

namespace sediment::rows {

/// A rollout row of any published version: the alternative is the version its metadata.schema_id names.
using AnyRolloutRow = std::variant<NemoGymRolloutRowV1, NemoGymRolloutRowV2, NemoGymRolloutRowV3, NemoGymRolloutRowV4>;

/// Every bundled version of `base` ("nemo-gym-response"), oldest first; empty for an unknown base.
std::vector<SchemaId> versions_of(std::string_view base);

/// The bundled schemas that `name` stands for: the one schema of a versioned name ("nemo-gym-rollout.v4",
/// "atif-v1.7"), or every version of a base name whose documents name their version ("nemo-gym-rollout").
/// Empty for any other name: a response, create-params or CI outcome document does not say its version.
std::vector<SchemaId> schemas_named(std::string_view name);

/// The schema names nearest to `name`, at most `count` (all as near as the nearest, in bundle order):
/// bundled schemas' names, and the names without a version that schemas_named() takes. Near is a few
/// typed characters away (case aside), or a part of the name, or a name of which it is a part. Empty
/// when no other name is near.
std::vector<std::string_view> similar_schema_names(std::string_view name, std::size_t count = 3);

/// Every name a schema can be given: "any", then every bundled schema by name and version, a family's
/// name without a version (which stands for all its versions, schemas_named()) just before its
/// versions. The CLI's `schema list`, and Python's schemas().
std::vector<std::string_view> schema_names();

/// The JSON Schema (draft 2020-12) of the name `name`: a bundled schema's exact bytes (schema_text()); for
/// a name that stands for several (a family without its version, or "any"), a document whose anyOf
/// takes any of them, each embedded in its $defs byte for byte, which accepts what
/// validate(name, text, Engine::schema) accepts. Throws std::invalid_argument, with
/// unknown_schema_message(), for any other name.
std::string schema_document(std::string_view name);

/// Why `name` stands for no bundled schema, in one line: a schema whose documents do not say their
/// version, with the names to give instead; or an unknown name, with the nearest names
/// ("unknown schema 'nemo-gym-rolout'; did you mean 'nemo-gym-rollout'?").
std::string unknown_schema_message(std::string_view name);

/// The version of `base` that a document names where its schemas put it (SchemaInfo::version_pointer:
/// a rollout row's /metadata/schema_id), the schema whose $id that is. Otherwise appends one error at
/// that place (or at the object that lacks it) and returns nothing: `rows.decode.version` for a
/// schema_id that is no bundled version, `rows.decode.type` or `rows.decode.missing_key` for a document
/// that does not say. Throws std::invalid_argument when `base`'s documents do not name their version.
std::optional<SchemaId> version_named(std::string_view base, const Json& document, std::vector<Error>& errors);

/// The schema of the version `row` holds.
SchemaId schema_of(const AnyRolloutRow& row) noexcept;

/// Decodes a rollout row of any version, under the rules of the version it names (see version_named).
/// Decoding row after row into one `out` reuses its memory while the version stays the same.
bool decode(std::string_view text, AnyRolloutRow& out, std::vector<Error>& errors, const Limits& limits = {});

/// The verdict on a document of the schema `name` stands for (schemas_named()), by the typed
/// decoders. Throws std::invalid_argument for a name that stands for none.
Validated validate(std::string_view name, std::string_view text, const Limits& limits = {});

/// The same by `engine` (Engine::schema: valijson over the version the document is read as).
Validated validate(std::string_view name, std::string_view text, Engine engine, const Limits& limits = {});

/// The typed verdict on a std::string's text, read in place when its capacity allows (see StringText).
Validated validate(std::string_view name, const StringText& text, const Limits& limits = {});

/// Decodes a document of the schema `name` stands for and appends its encoding in `style` to `out`
/// (the CLI's `format`); `out` is unchanged when the verdict has errors.
Validated format(std::string_view name, std::string_view text, Style style, std::string& out, const Limits& limits = {});

namespace detail {

/// Calls `f(row)` with the alternative of `out` that `schema` is the version of, made the held one
/// (kept when it already is); false when `schema` is no rollout version. `out` is an AnyRolloutRow, or
/// a variant of what views its alternatives, in the same order.
template <class F, class V, std::size_t I = 0>
bool with_version(V& out, SchemaId schema, F&& f) {
    if constexpr (I == std::variant_size_v<AnyRolloutRow>) {
        return false;
    } else {
        using T = std::variant_alternative_t<I, AnyRolloutRow>;
        if (document_traits<T>::schema != schema) return with_version<F, V, I + 1>(out, schema, std::forward<F>(f));
        return f(out.index() == I ? std::get<I>(out) : out.template emplace<I>());
    }
}

/// The fast path of decode(AnyRolloutRow) (src/fast.cpp): true when `text` is a valid row, read into `out`.
bool fast_decode(std::string_view text, AnyRolloutRow& out, const Limits& limits);

/// The verdict on a document of a family whose documents name their version (`base`: "sft-sample"),
/// building nothing (validate()): the version of a valid document, or nothing, which sends it to the
/// exact reader. `padded`: kTextPadding readable bytes follow `text`.
std::optional<SchemaId> fast_check_named(std::string_view base, std::string_view text, const Limits& limits, bool padded = false);

}  // namespace detail

}  // namespace sediment::rows
