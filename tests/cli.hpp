// Running the command-line tool from a test.
#pragma once

#include <string>

#include "process.hpp"
#include "support.hpp"

namespace test {

inline const std::string kCli = SEDIMENT_ROWS_CLI;

/// Runs `sediment-rows ARGS` (ARGS quoted by the caller).
inline Run cli(const std::string& args) { return run(quote(kCli) + " " + args); }

/// The record that --format jsonl writes after the documents of `file`: {"file", "summary": {"documents",
/// "valid", "invalid"[, "read_as"]}} (`read_as`: its members, for a --schema without a version).
inline std::string summary_record(const std::string& file, int valid, int invalid, const std::string& read_as = "") {
    return "{\"file\": " + sediment::rows::Json(file).dump() + ", \"summary\": {\"documents\": " + std::to_string(valid + invalid) +
           ", \"valid\": " + std::to_string(valid) + ", \"invalid\": " + std::to_string(invalid) +
           (read_as.empty() ? "" : ", \"read_as\": {" + read_as + "}") + "}}\n";
}

/// The example rollout row on one line.
inline std::string row_line() { return sediment::rows::Json::parse(kRow).dump(); }

}  // namespace test
