// Converts an ATIF trajectory into the two trainer-facing parts of a rollout row, and a rollout row
// into an ATIF trajectory, in process (docs/atif-mapping.md has the mapping).
//
//   convert examples/trajectory.json examples/rows.jsonl
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <sediment/rows.hpp>

namespace rows = sediment::rows;

namespace {
std::string read_file(const char* path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: convert TRAJECTORY.json ROWS.jsonl\n";
        return 2;
    }
    try {
        // ATIF -> row parts. Strict by default: a value a row cannot hold throws ConvertError with its
        // pointer; ConvertOptions{true} drops such values and lists them in `losses`.
        const auto trajectory = rows::decode<rows::NemoGymAtifTrajectory>(read_file(argv[1]));
        const rows::Converted<rows::RowParts> parts = rows::to_row_parts(trajectory, rows::ConvertOptions{true});
        std::cout << "turns: " << parts.value.response.turns.size() << "\n";
        for (const rows::Error& lost : parts.losses) std::cout << "not in the row: " << lost << "\n";
        std::cout << rows::encode(parts.value.response, rows::Style::sediment) << "\n";

        // Row -> ATIF -> row: the row comes back exactly.
        std::ifstream lines(argv[2], std::ios::binary);
        std::string line;
        std::getline(lines, line);
        const auto row = rows::decode<rows::NemoGymRolloutRow>(line);
        const rows::NemoGymAtifTrajectory as_atif = rows::to_atif(row);
        std::cout << "steps: " << as_atif.steps.size() << "\n";
        const bool same = rows::to_rollout_row(as_atif).value == row;
        std::cout << "row -> ATIF -> row: " << (same ? "identical" : "DIFFERENT") << "\n";
        return same ? 0 : 1;
    } catch (const rows::ConvertError& e) {
        for (const rows::Error& error : e.errors()) std::cerr << error << "\n";
    } catch (const rows::DecodeError& e) {
        for (const rows::Error& error : e.errors()) std::cerr << error << "\n";
    }
    return 1;
}
