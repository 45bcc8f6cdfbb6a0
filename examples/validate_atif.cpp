// Validates ATIF v1.7 trajectories (one JSON document per file) under the subset NeMo Gym accepts and
// prints each verdict, with every error's JSON Pointer.
//
//   validate_atif examples/trajectory.json
#include <fstream>
#include <iostream>
#include <sstream>

#include <sediment/rows.hpp>

namespace rows = sediment::rows;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: validate_atif FILE.json...\n";
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        std::ifstream file(argv[i], std::ios::binary);
        if (!file) {
            std::cerr << argv[i] << ": cannot open\n";
            return 2;
        }
        std::ostringstream text;
        text << file.rdbuf();
        rows::NemoGymAtifTrajectory trajectory;
        std::vector<rows::Error> errors;
        if (rows::decode(text.str(), trajectory, errors)) {
            std::cout << argv[i] << ": valid, " << trajectory.steps.size() << " steps, agent " << trajectory.agent.name << "\n";
            continue;
        }
        status = 1;
        for (const rows::Error& e : errors) std::cout << argv[i] << ": " << e << "\n";
    }
    return status;
}
