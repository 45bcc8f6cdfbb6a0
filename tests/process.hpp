// Runs a command line in a shell and captures its exit status, standard output and standard error.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace test {

#ifdef SEDIMENT_ROWS_SOURCE_DIR
/// The project's source folder (tests/CMakeLists.txt).
inline const std::string kSourceDir = SEDIMENT_ROWS_SOURCE_DIR;
#endif
#ifdef SEDIMENT_ROWS_PYTHON
/// The Python interpreter the tests run, by its path, quoted for a shell (tests/CMakeLists.txt).
inline const std::string kPython = "'" + std::string(SEDIMENT_ROWS_PYTHON) + "'";
#endif

struct Run {
    int status = -1;
    std::string out;
    std::string err;
};

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

/// A fresh directory under the system's temporary folder, removed with the object.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "sediment-rows-test-XXXXXX").string();
        path_ = mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// Runs `command` with /bin/sh; standard error goes to a file so both streams are kept apart.
inline Run run(const std::string& command) {
    TempDir dir;
    const auto err = dir / "stderr";
    Run r;
    FILE* pipe = popen((command + " 2>'" + err.string() + "'").c_str(), "r");
    if (!pipe) return r;
    std::array<char, 65536> buf;
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_file(err);
    return r;
}

inline std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace test
