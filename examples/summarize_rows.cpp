// Reads NeMo Gym rollout rows (JSONL, or - for standard input) and prints a summary: the kind of
// loop a trainer pipeline runs before it feeds rows to a model.
//
//   summarize_rows examples/rows.jsonl
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <variant>

#include <sediment/rows.hpp>

namespace rows = sediment::rows;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: summarize_rows FILE.jsonl\n";
        return 2;
    }
    std::ifstream file;
    std::istream& in = std::string(argv[1]) == "-" ? std::cin : (file.open(argv[1]), file);
    if (!in) {
        std::cerr << "cannot open " << argv[1] << "\n";
        return 2;
    }

    std::size_t line_number = 0, valid = 0, invalid = 0, turns = 0, tool_calls = 0, rewarded = 0;
    double reward_sum = 0;
    std::map<std::string, std::size_t> harnesses;
    std::string line;
    while (std::getline(in, line)) {
        ++line_number;
        rows::NemoGymRolloutRow row;
        std::vector<rows::Error> errors;
        if (!rows::decode(line, row, errors)) {
            ++invalid;
            std::cerr << argv[1] << ":" << line_number << ": " << rows::to_string(errors.front()) << "\n";
            continue;
        }
        ++valid;
        turns += row.response.turns.size();
        for (const rows::RLVRTurnRow& turn : row.response.turns) {
            tool_calls += turn.tool_calls.size();
            for (const rows::RLVRDecisionRow& d : turn.decisions) ++harnesses[std::string(rows::to_string(d.agent_harness))];
        }
        if (row.reward) {  // optional: absent without a CI verdict
            ++rewarded;
            reward_sum += *row.reward;
        }
    }
    std::cout << valid << " rows (" << invalid << " invalid), " << turns << " turns, " << tool_calls << " tool calls\n";
    std::cout << rewarded << " rows with a reward";
    if (rewarded) std::cout << ", mean " << reward_sum / static_cast<double>(rewarded);
    std::cout << "\n";
    for (const auto& [harness, count] : harnesses) std::cout << "  " << harness << ": " << count << " decisions\n";
    return invalid ? 1 : 0;
}
