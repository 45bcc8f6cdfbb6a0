// sediment-rows-gen: JSON Schemas -> intermediate model -> C++ headers.
//
//   sediment-rows-gen --out DIR [--internal DIR2] [--python DIR3] SCHEMA...
//       write the headers into DIR: the public ones (models.hpp, schemas.hpp), and the library's own
//       (readers, writers, views) into DIR2; and the Python package's types.py into DIR3
//   sediment-rows-gen --check DIR [--internal DIR2] [--python DIR3] SCHEMA...
//       exit 1 when a file differs from what would be written
//   sediment-rows-gen --embed FILE SCHEMA...  write a C++ source holding the schemas' exact bytes
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "emit_cpp.hpp"
#include "emit_python.hpp"
#include "loader.hpp"

namespace {

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    out = s.str();
    return true;
}

bool write_if_changed(const std::string& path, const std::string& text) {
    std::string old;
    if (read_file(path, old) && old == text) return true;
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

int usage() {
    std::cerr << "usage: sediment-rows-gen (--out DIR | --check DIR) [--internal DIR2] [--python DIR3] SCHEMA...\n"
                 "       sediment-rows-gen --embed FILE SCHEMA...\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) return usage();
    const std::string mode = argv[1];
    const std::string target = argv[2];
    int first = 3;
    std::string internal = target;  // the library's own headers: beside the public ones unless told
    std::string python;             // types.py: not written unless told
    while (mode != "--embed" && first + 2 < argc && (std::string(argv[first]) == "--internal" || std::string(argv[first]) == "--python")) {
        (std::string(argv[first]) == "--internal" ? internal : python) = argv[first + 1];
        first += 2;
    }
    const std::vector<std::string> files(argv + first, argv + argc);
    if (mode != "--out" && mode != "--check" && mode != "--embed") return usage();

    std::vector<gen::Problem> problems;
    const gen::Module module = gen::load_schemas(files, problems);
    auto headers = gen::emit_headers(module, problems);
    if (!problems.empty()) {
        for (const gen::Problem& p : problems) std::cerr << p.where << ": " << p.what << "\n";
        std::cerr << problems.size() << " schema problem(s); nothing written\n";
        return 1;
    }

    if (mode == "--embed") {
        std::vector<std::string> bytes(files.size());
        for (std::size_t i = 0; i < files.size(); ++i) read_file(files[i], bytes[i]);
        if (!write_if_changed(target, gen::emit_embedded_schemas(module, bytes))) {
            std::cerr << "cannot write " << target << "\n";
            return 1;
        }
        return 0;
    }

    if (!python.empty()) headers["types.py"] = gen::emit_python_types(module);
    int stale = 0;
    for (const auto& [name, text] : headers) {
        const bool is_public = name == "models.hpp" || name == "schemas.hpp";
        const std::string path = (name == "types.py" ? python : is_public ? target : internal) + "/" + name;
        if (mode == "--out") {
            if (!write_if_changed(path, text)) {
                std::cerr << "cannot write " << path << "\n";
                return 1;
            }
            continue;
        }
        std::string current;
        if (!read_file(path, current) || current != text) {
            std::cerr << path << " is not what the generator writes from the schemas\n";
            ++stale;
        }
    }
    if (stale) {
        std::cerr << "regenerate them with: cmake --build build --target regenerate\n";
        return 1;
    }
    return 0;
}
