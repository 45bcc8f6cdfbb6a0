// libFuzzer target (fuzz-rows, main.cpp): conversion both ways on arbitrary bytes read as an ATIF
// trajectory and as a rollout row. Whatever decodes converts without crashing; a row comes back from
// ATIF exactly; a trajectory's lossy conversion gives parts that come back from ATIF exactly, and
// strict mode fails with exactly the lossy list; convert() by name (the trajectory's view, read once)
// gives the API's text, losses and errors, both ways.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

#include "check.hpp"
#include "targets.hpp"

namespace rows = sediment::rows;

namespace fuzz::convert {

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<rows::Error> errors;
    rows::NemoGymAtifTrajectory trajectory;
    rows::ConvertedText by_name;
    const bool trajectory_ok = rows::decode(text, trajectory, errors);
    check_printable(errors);
    for (const char* from : {"atif", "atif-v1.7"}) {  // by name, from either model: errors in valid UTF-8 too
        std::vector<rows::Error> by_name_errors;
        rows::convert(text, from, "nemo-gym-rollout.v4", by_name, by_name_errors, rows::Style::compact, rows::ConvertOptions{true});
        check_printable(by_name_errors);
    }
    if (trajectory_ok) {
        std::optional<rows::Converted<rows::RowParts>> lossy;
        std::vector<rows::Error> refused;
        try {
            lossy = rows::to_row_parts(trajectory, rows::ConvertOptions{true});
        } catch (const rows::ConvertError& e) {
            // only an invalid sediment_rows extension stops a lossy conversion, with its place
            SEDIMENT_CHECK(!e.errors().empty());
            for (const rows::Error& error : e.errors()) SEDIMENT_CHECK(error.id.rfind("rows.convert.loss", 0) != 0);
            refused = e.errors();
        }
        std::vector<rows::Error> by_name_errors;
        const bool converted = rows::convert(text, "atif-v1.7", "nemo-gym-response.v2", by_name, by_name_errors,
                                             rows::Style::compact, rows::ConvertOptions{true});
        SEDIMENT_CHECK(converted == lossy.has_value());
        if (lossy) {
            SEDIMENT_CHECK(by_name.text == rows::encode(lossy->value.response));
            SEDIMENT_CHECK(by_name.losses == lossy->losses);
        } else {
            SEDIMENT_CHECK(by_name_errors == refused);
        }
        if (lossy) {
            std::vector<rows::Error> strict;
            try {
                rows::to_row_parts(trajectory);
            } catch (const rows::ConvertError& e) {
                strict = e.errors();
            }
            SEDIMENT_CHECK(strict == lossy->losses);
            const rows::NemoGymAtifTrajectory back = rows::to_atif(lossy->value);
            SEDIMENT_CHECK(rows::to_row_parts(back).value == lossy->value);
        }
    }
    errors.clear();
    rows::AnyRolloutRow row;  // of any version, as it names
    const bool row_ok = rows::decode(text, row, errors);
    check_printable(errors);
    if (row_ok) {
        std::optional<rows::NemoGymAtifTrajectory> atif;
        try {
            atif = rows::to_atif(row);
            SEDIMENT_CHECK(rows::to_any_rollout_row(*atif).value == row);
        } catch (const rows::ConvertError& e) {
            SEDIMENT_CHECK(e.errors().at(0).id == "rows.convert.empty");
        }
        std::vector<rows::Error> by_name_errors;
        const bool converted = rows::convert(text, "nemo-gym-rollout", "atif-v1.7", by_name, by_name_errors);
        SEDIMENT_CHECK(converted == atif.has_value());
        if (atif) SEDIMENT_CHECK(by_name.text == rows::encode(*atif));
    }
    return 0;
}

}  // namespace fuzz::convert
