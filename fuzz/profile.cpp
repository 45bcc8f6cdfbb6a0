// libFuzzer target (fuzz-rows, main.cpp): consumer profiles on arbitrary bytes read as a canonical row.
// For each SFT/DPO profile, the adapter of the text (from simdjson's tape where the fast path reads it)
// and of its Json (the exact path) agree: the same refusal, or the same lines and digests, whose data
// line and evidence are in Sediment's line form and valid under their models. And for any JSON text, the
// line form's byte scan says what the writer says: in line form exactly when it gives the text back.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

#include "check.hpp"
#include "features/profile/forms.hpp"
#include "targets.hpp"

namespace rows = sediment::rows;

namespace fuzz::profile {

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    rows::Json json;
    std::vector<rows::Error> errors;
    const bool parsed = rows::parse(text, json, errors);
    if (parsed) {
        std::string formed;
        bool writable = true;
        try {
            formed = rows::line_form(json);
            formed.pop_back();
        } catch (const rows::EncodeError&) {
            writable = false;  // (a string the parser let through that no writer can write: not in line form)
        }
        if (writable) SEDIMENT_CHECK(rows::detail::in_line_form(text) == (formed == text));
    }
    std::string padded(text);
    padded.reserve(padded.size() + rows::kTextPadding);
    for (const char* id : {"hf-trl-sft-v1", "fireworks-sft-v1", "hf-trl-dpo-v2", "fireworks-dpo-v2"}) {
        const rows::Profile& p = rows::profile(id);
        std::string fast_refusal, exact_refusal;
        rows::ProfileRow fast, exact;
        try {
            fast = rows::adapt_row(p, rows::StringText(padded), rows::Split::train);
        } catch (const rows::ProfileError& e) {
            fast_refusal = e.what();
        }
        if (!parsed) {
            SEDIMENT_CHECK(!fast_refusal.empty());  // text that is not JSON is refused
            continue;
        }
        try {
            exact = rows::adapt_row(p, json, rows::Split::train);
        } catch (const rows::ProfileError& e) {
            exact_refusal = e.what();
        }
        SEDIMENT_CHECK(fast_refusal == exact_refusal);
        if (!exact_refusal.empty()) continue;
        SEDIMENT_CHECK(fast.data == exact.data && fast.evidence == exact.evidence);
        SEDIMENT_CHECK(fast.row_sha256 == exact.row_sha256 && fast.prompt_sha256 == exact.prompt_sha256);
        const std::string_view data_line(exact.data.data(), exact.data.size() - 1), evidence_line(exact.evidence.data(), exact.evidence.size() - 1);
        SEDIMENT_CHECK(rows::detail::in_line_form(data_line) && rows::detail::in_line_form(evidence_line));
        SEDIMENT_CHECK(rows::validate(*p.data, data_line).valid());
        SEDIMENT_CHECK(rows::validate(*p.evidence, evidence_line).valid());
        SEDIMENT_CHECK(rows::row_sha256(rows::parse(data_line)) == exact.row_sha256);
    }
    return 0;
}

}  // namespace fuzz::profile
