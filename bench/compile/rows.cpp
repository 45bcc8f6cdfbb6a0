// bench/compile_time.sh: a translation unit that includes the whole library and decodes one row.
#include <sediment/rows.hpp>
#include <iostream>
int main() {
    std::string line;
    std::getline(std::cin, line);
    auto row = sediment::rows::decode<sediment::rows::NemoGymRolloutRow>(line);
    std::cout << row.metadata.session_id << "\n";
}
