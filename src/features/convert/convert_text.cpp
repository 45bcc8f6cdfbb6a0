// Conversion by schema name, text to text: what `sediment-rows convert` does to each document, and
// what the Python module's convert() calls (see convert.hpp).
#include <algorithm>
#include <stdexcept>
#include <variant>

#include "sediment/rows/convert.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "sediment/rows/upgrade.hpp"

namespace sediment::rows {
namespace {

/// A conversion check_conversion() allows, by the schemas its two names stand for.
struct Conversion {
    const SchemaInfo& from;
    const SchemaInfo& to;
    bool from_versioned;  ///< `from` names one version (else each row names its own)
    bool to_versioned;
    bool from_atif() const { return from.id == SchemaId::atif_v1_7 || from.id == SchemaId::atif; }
    bool to_row() const { return to.base == "nemo-gym-rollout"; }
    bool to_response() const { return to.base == "nemo-gym-response"; }
};

Conversion conversion(std::string_view from, std::string_view to) {
    const std::vector<SchemaId> f = schemas_named(from), t = schemas_named(to);
    if (f.empty()) throw std::invalid_argument(unknown_schema_message(from));
    if (t.empty()) throw std::invalid_argument(unknown_schema_message(to));
    const Conversion c{schema_info(f.front()), schema_info(t.front()), find_schema(from) != nullptr, find_schema(to) != nullptr};
    if (c.from_atif() ? !(c.to_row() || c.to_response() || c.to.base == "nemo-gym-responses-create-params")
                      : c.from.base != "nemo-gym-rollout" || c.to.id != SchemaId::atif_v1_7)
        throw std::invalid_argument(
            "convert goes from atif or atif-v1.7 to nemo-gym-rollout[.vN], nemo-gym-response.vN or "
            "nemo-gym-responses-create-params.vN, or from nemo-gym-rollout[.vN] to atif-v1.7");
    return c;
}

}  // namespace

void check_conversion(std::string_view from, std::string_view to) { conversion(from, to); }

namespace {
constexpr std::string_view kLossPrefix = "rows.convert.loss.";  // and then the kind
}  // namespace

bool lossy_would_drop(const Error& error) {
    return error.id.compare(0, kLossPrefix.size(), kLossPrefix) == 0 || error.id == "rows.upgrade.underivable";
}

std::string loss_kind(const Error& loss) {
    if (loss.id.compare(0, kLossPrefix.size(), kLossPrefix) == 0) return loss.id.substr(kLossPrefix.size());
    std::string member;  // the pointer's last token, unescaped (RFC 6901)
    for (std::size_t i = loss.pointer.rfind('/') + 1; i < loss.pointer.size(); ++i) {
        const bool escape = loss.pointer[i] == '~' && i + 1 < loss.pointer.size();
        member += escape ? (loss.pointer[++i] == '1' ? '/' : '~') : loss.pointer[i];
    }
    return member;
}

bool convert(std::string_view text, std::string_view from, std::string_view to, ConvertedText& out,
             std::vector<Error>& errors, Style style, const ConvertOptions& options,
             std::optional<std::string_view> metadata, const Limits& limits) {
    const Conversion c = conversion(from, to);
    if (metadata && !c.to_row()) throw std::invalid_argument("metadata goes with a rollout row as the target");
    out.clear();  // its memory kept for this document
    std::vector<Error> found;
    try {
        if (!c.from_atif()) {
            // of the version `from` names, or of its own; one per thread, whose memory the next row reuses
            thread_local AnyRolloutRow row;
            const bool read = c.from_versioned
                                  ? detail::with_version(row, c.from.id, [&](auto& r) { return decode(text, r, found, limits); })
                                  : decode(text, row, found, limits);
            if (read) detail::to_atif_text(row, style, out.text, limits);
        } else {
            using Kind = detail::AtifTarget::Kind;
            const detail::AtifTarget target{c.to_row() ? Kind::row : c.to_response() ? Kind::response : Kind::create_params,
                                            c.to_versioned ? std::optional<SchemaId>(c.to.id) : std::nullopt, metadata};
            // A trajectory of the subset; from `atif`, one of any version upgraded to it first (lossy, its
            // audio parts dropped and listed first).
            if (c.from.id == SchemaId::atif_v1_7) {
                detail::from_atif_text(text, target, out, found, style, options, limits);
            } else {
                Upgraded upgraded = upgrade(text, "atif", SchemaId::atif_v1_7, Style::compact, options, limits);
                detail::from_atif_text(upgraded.text, target, out, found, style, options, detail::written_limits(limits));
                out.losses.insert(out.losses.begin(), upgraded.losses.begin(), upgraded.losses.end());
            }
        }
    } catch (const DecodeError& e) {
        found = e.errors();
    } catch (const ConvertError& e) {
        found = e.errors();
    } catch (const EncodeError& e) {
        found = {e.error()};
    }
    if (found.empty()) return true;
    out.text.clear();
    out.losses.clear();
    if (!options.lossy && !out.metadata_fault && std::all_of(found.begin(), found.end(), lossy_would_drop)) {
        // what lossy mode would drop, all of it: a trajectory's audio parts (the upgrade) stop the strict
        // run before the conversion finds what a row cannot hold
        ConvertedText lossy;
        std::vector<Error> ignored;
        if (convert(text, from, to, lossy, ignored, style, ConvertOptions{true}, metadata, limits)) out.losses = std::move(lossy.losses);
    }
    errors.insert(errors.end(), found.begin(), found.end());
    return false;
}

}  // namespace sediment::rows
