// libFuzzer target: conversion both ways on arbitrary bytes read as an ATIF trajectory and as a
// rollout row. Whatever decodes converts without crashing; a row comes back from ATIF exactly; a
// trajectory's lossy conversion gives parts that come back from ATIF exactly, and strict mode fails
// with exactly the lossy list.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

#include "check.hpp"

namespace rows = sediment::rows;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<rows::Error> errors;
    rows::AtifTrajectory trajectory;
    if (rows::decode(text, trajectory, errors)) {
        std::optional<rows::Converted<rows::RowParts>> lossy;
        try {
            lossy = rows::to_row_parts(trajectory, rows::ConvertOptions{true});
        } catch (const rows::ConvertError& e) {
            // only an invalid sediment_rows extension stops a lossy conversion, with its place
            SEDIMENT_CHECK(!e.errors().empty());
            for (const rows::Error& error : e.errors()) SEDIMENT_CHECK(error.id.rfind("rows.convert.loss", 0) != 0);
        }
        if (lossy) {
            std::vector<rows::Error> strict;
            try {
                rows::to_row_parts(trajectory);
            } catch (const rows::ConvertError& e) {
                strict = e.errors();
            }
            SEDIMENT_CHECK(strict == lossy->losses);
            const rows::AtifTrajectory back = rows::to_atif(lossy->value);
            SEDIMENT_CHECK(rows::to_row_parts(back).value == lossy->value);
        }
    }
    errors.clear();
    rows::NemoGymRolloutRow row;
    if (rows::decode(text, row, errors)) {
        try {
            SEDIMENT_CHECK(rows::to_rollout_row(rows::to_atif(row)).value == row);
        } catch (const rows::ConvertError& e) {
            SEDIMENT_CHECK(e.errors().at(0).id == "rows.convert.empty");
        }
    }
    return 0;
}
