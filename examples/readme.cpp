#include <iostream>
#include <sediment/rows.hpp>

namespace rows = sediment::rows;

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::vector<rows::Error> errors;
        rows::NemoGymRolloutRow row;
        if (!rows::decode(line, row, errors)) {               // strict: unknown keys, bad values...
            for (const rows::Error& e : errors)                // ...each with a JSON Pointer
                std::cerr << e.pointer << ": " << e.message << "\n";
            continue;
        }
        if (row.reward) row.reward = *row.reward * 0.5;        // optional: absent or a value
        if (row.metadata.ci_resolution && row.metadata.ci_resolution->verdict.is_null())
            std::cerr << row.metadata.instance_id << ": no verdict\n";  // required, nullable
        std::cout << rows::encode(row, rows::Style::sediment) << "\n";  // Sediment's exact bytes
    }
}
