// bench/compile_time.sh: the baseline, a translation unit that includes nlohmann/json and parses one document.
#include <nlohmann/json.hpp>
#include <iostream>
int main() {
    std::string line;
    std::getline(std::cin, line);
    auto row = nlohmann::json::parse(line);
    std::cout << row["metadata"]["session_id"].get<std::string>() << "\n";
}
