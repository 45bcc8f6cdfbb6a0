// ATIF timestamps: PythonIsoformat against python3's own datetime.fromisoformat (NeMo Gym's rule),
// on the spec's examples and on 40,000 strings mutated from valid timestamps.
#include <random>

#include <catch2/catch.hpp>

#include "process.hpp"
#include "detail/isoformat.hpp"
#include "sediment/rows/json.hpp"

using sediment::rows::Json;
using sediment::rows::detail::PythonIsoformat;

namespace {


/// python3's verdicts on `texts`, in order.
std::vector<bool> python_verdicts(const std::vector<std::string>& texts) {
    test::TempDir dir;
    std::string lines;
    for (const std::string& t : texts) lines += Json(t).dump() + "\n";
    test::write_file(dir / "in.jsonl", lines);
    const auto r = test::run(test::kPython + " " + test::quote(test::kSourceDir + "/tests/reference/fromisoformat_verdicts.py") + " < " +
                             test::quote((dir / "in.jsonl").string()));
    REQUIRE(r.status == 0);
    std::vector<bool> out;
    for (const char c : r.out)
        if (c == '0' || c == '1') out.push_back(c == '1');
    REQUIRE(out.size() == texts.size());
    return out;
}

}  // namespace

TEST_CASE("atif timestamp: the spec's examples") {
    for (const char* ok : {"2026-08-24", "2026-08-24T12:00:00", "2026-08-24 12:00:00", "2026-08-24T12:00:00.123456789",
                           "2026-08-24T12:00:00+05:30", "2026-08-24T12:00:00Z", "2026-08-24T12:00:00.5Z", "20260824T1200",
                           "2026-W34-1", "2024-02-29T00:00"}) {
        INFO(ok);
        CHECK(PythonIsoformat::accepts_atif_timestamp(ok));
    }
    for (const char* bad : {"", "not-a-timestamp", "2026-13-01T00:00:00", "2026-02-30T00:00:00", "2026-08-24T12:00:00ZZ",
                            "1724500000", "2026-08-24T24:00:00", "2026-08-24T12:00:00+24:00", "2026-W54", "0000-01-01"}) {
        INFO(bad);
        CHECK_FALSE(PythonIsoformat::accepts_atif_timestamp(bad));
    }
}

TEST_CASE("atif timestamp: the same verdicts as python3 on mutated timestamps") {
    const std::vector<std::string> seeds = {
        "2026-08-24T12:00:00Z", "2026-08-24", "2026-08-24T12:00:00", "2026-08-24 12:00:00.1234567+05:30",
        "20260824T120000", "2026-W34-1T12:00", "2026W341", "2026-W53", "2020-W53-7", "2026-08-24T12",
        "2026-02-28T23:59:59.999999-23:59", "2026-08-24T12:00:00,5", "2026-08-24T120000.5+0530",
        "2026-08-24T12:00:00+05:30:15.5", "0001-01-01T00:00:00", "9999-12-31T23:59:59"};
    const std::vector<std::string> units = {"0", "1", "2", "3", "5", "9", "-", ":", "T", " ", ".", ",", "+", "Z", "z",
                                            "W", std::string(1, '\0'), "x", "\xC3\xA9", "\xE2\x80\xA8", "\xF0\x9F\x98\x80"};
    std::mt19937 random(2026);
    std::vector<std::string> texts = seeds;
    for (int n = 0; n < 40000; ++n) {
        std::string s = seeds[random() % seeds.size()];
        for (int edits = 1 + static_cast<int>(random() % 3); edits > 0; --edits) {
            const std::size_t pos = random() % (s.size() + 1);
            const std::string& unit = units[random() % units.size()];
            switch (random() % 3) {
                case 0: s.insert(pos, unit); break;
                case 1: if (pos < s.size()) s.erase(pos, 1); break;
                default: if (pos < s.size()) s.replace(pos, 1, unit);
            }
        }
        if (sediment::rows::detail::utf8_error_offset(s) == std::string_view::npos) texts.push_back(s);
    }
    const std::vector<bool> expected = python_verdicts(texts);
    std::size_t accepted = 0, disagreements = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const bool ours = PythonIsoformat::accepts_atif_timestamp(texts[i]);
        accepted += expected[i];
        if (ours != expected[i] && ++disagreements <= 10) FAIL_CHECK(Json(texts[i]).dump() << ": python says " << expected[i]);
    }
    CHECK(disagreements == 0);
    CHECK(accepted > 2000);  // the corpus exercises both verdicts
}
