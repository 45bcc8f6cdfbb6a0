// Running the command-line tool from a test.
#pragma once

#include <string>

#include "process.hpp"
#include "support.hpp"

namespace test {

inline const std::string kCli = SEDIMENT_ROWS_CLI;

/// Runs `sediment-rows ARGS` (ARGS quoted by the caller).
inline Run cli(const std::string& args) { return run(quote(kCli) + " " + args); }

/// The example rollout row on one line.
inline std::string row_line() { return sediment::rows::Json::parse(kRow).dump(); }

}  // namespace test
