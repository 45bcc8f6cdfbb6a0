// libFuzzer target (fuzz-rows, main.cpp): documents of every version. On any bytes:
//   - a rollout row of any version: what the fast path reads, the exact reader of the version the row
//     names reads too, to the same value; the check-only fast path accepts exactly what the fast path
//     does, as the same version; both engines give the same verdict and read the same version;
//   - lint reads a row as schema-valid exactly when validate() does, as the same version, and a valid row
//     (which it lints as a view of the text when the fast path reads it) gets the findings and session
//     digests of its model;
//   - a valid row upgrades to v4, or fails naming what it cannot derive (or what v4 refuses), and lossy
//     mode succeeds wherever strict mode does, with the same bytes; an upgraded row is a valid v4 row
//     that upgrades to itself; it converts to ATIF and back exactly;
//   - the parts of the versions other fuzz targets do not read: the fast path against the exact reader,
//     and the check-only fast path against the fast path.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

#include "check.hpp"
#include "targets.hpp"
#include "detail/decode.hpp"  // the fast path and the exact reader, each on its own

namespace rows = sediment::rows;
using rows::SchemaId;

namespace fuzz::versions {

namespace {

template <class T>
void fast_against_exact(std::string_view text, SchemaId schema) {
    T fast, exact;
    std::vector<rows::Error> errors;
    const bool exact_ok = rows::detail::exact_decode(text, exact, errors, rows::Limits{}, schema);
    SEDIMENT_CHECK(exact_ok == errors.empty());
    const bool fast_ok = rows::detail::fast_decode(text, fast, rows::Limits{}, schema);
    if (fast_ok) SEDIMENT_CHECK(exact_ok && fast == exact);
    SEDIMENT_CHECK(rows::detail::fast_check(text, rows::type_tag<T>{}, rows::Limits{}, schema) == fast_ok);
}

void upgrades(std::string_view text) {
    const SchemaId v4 = SchemaId::nemo_gym_rollout_v4;
    rows::Upgraded strict, lossy;
    std::vector<rows::Error> errors, lossy_errors;
    const bool ok = rows::upgrade(text, "nemo-gym-rollout", v4, strict, errors);
    const bool lossy_ok = rows::upgrade(text, "nemo-gym-rollout", v4, lossy, lossy_errors, rows::Style::compact, rows::ConvertOptions{true});
    SEDIMENT_CHECK(ok == errors.empty());
    check_printable(errors);
    check_printable(lossy_errors);
    if (ok) SEDIMENT_CHECK(lossy_ok && lossy.text == strict.text && lossy.losses.empty());
    for (const rows::Error& e : errors) SEDIMENT_CHECK(e.id == "rows.upgrade.underivable" || e.id == "rows.decode.pattern");
    if (!lossy_ok) return;
    SEDIMENT_CHECK(rows::validate(v4, lossy.text).errors.empty());
    rows::Upgraded again;
    std::vector<rows::Error> again_errors;
    SEDIMENT_CHECK(rows::upgrade(lossy.text, "nemo-gym-rollout.v4", v4, again, again_errors) && again.text == lossy.text);
}

}  // namespace

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    rows::AnyRolloutRow fast;
    const bool fast_ok = rows::detail::fast_decode(text, fast, rows::Limits{});
    const std::optional<SchemaId> checked = rows::detail::fast_check_named("nemo-gym-rollout", text, rows::Limits{});
    SEDIMENT_CHECK(checked.has_value() == fast_ok);
    if (fast_ok) SEDIMENT_CHECK(*checked == rows::schema_of(fast));
    const rows::Validated typed = rows::validate("nemo-gym-rollout", text);
    const rows::Validated schema = rows::validate("nemo-gym-rollout", text, rows::Engine::schema);
    SEDIMENT_CHECK(typed.errors.empty() == schema.errors.empty());
    check_printable(typed.errors);
    check_printable(schema.errors);
    SEDIMENT_CHECK(typed.schema == schema.schema);
    std::vector<rows::Error> findings;
    rows::SessionFacts facts;
    const std::optional<SchemaId> linted = rows::lint("nemo-gym-rollout", text, findings, facts);
    SEDIMENT_CHECK(linted.has_value() == typed.errors.empty());
    check_printable(findings);
    if (linted) SEDIMENT_CHECK(linted == typed.schema);
    if (fast_ok) {
        SEDIMENT_CHECK(typed.errors.empty() && typed.schema == rows::schema_of(fast));
        std::visit([&](const auto& row) {
            std::decay_t<decltype(row)> exact;
            std::vector<rows::Error> errors;
            SEDIMENT_CHECK(rows::detail::exact_decode(text, exact, errors, rows::Limits{}, *typed.schema) && exact == row);
        }, fast);
    }
    if (typed.errors.empty()) {
        upgrades(text);
        rows::AnyRolloutRow row;
        std::vector<rows::Error> errors;
        SEDIMENT_CHECK(rows::decode(text, row, errors));
        std::vector<rows::Error> of_model;
        rows::lint_row(row, of_model);
        SEDIMENT_CHECK(of_model == findings);
        SEDIMENT_CHECK(rows::session_facts(row).digests == facts.digests);
        try {
            const rows::NemoGymAtifTrajectory t = rows::to_atif(row);
            SEDIMENT_CHECK(rows::to_any_rollout_row(t, rows::schema_of(row)).value == row);
        } catch (const rows::ConvertError& e) {
            SEDIMENT_CHECK(e.errors().at(0).id == "rows.convert.empty");  // a row ATIF cannot hold: no step
        }
    }

    fast_against_exact<rows::NemoGymResponse>(text, SchemaId::nemo_gym_response_v1);
    fast_against_exact<rows::NemoGymResponse>(text, SchemaId::nemo_gym_response_v3);
    fast_against_exact<rows::NemoGymResponsesCreateParams>(text, SchemaId::nemo_gym_responses_create_params_v1);
    fast_against_exact<rows::CIOutcomeV1>(text, SchemaId::ci_outcome_v2);
    fast_against_exact<rows::CIOutcomeV3>(text, SchemaId::ci_outcome_v3);
    return 0;
}

}  // namespace fuzz::versions
