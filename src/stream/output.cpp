#include "output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace sediment_rows_cli {

namespace fs = std::filesystem;

namespace {

/// The extensions of the compressions fsspec infers from a name (fsspec.utils.compressions, and those
/// it registers when their libraries are installed), compared without case.
bool compression_extension(std::string ext) {
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* known : {".gz", ".bz2", ".xz", ".zip", ".lzma", ".lz4", ".zst", ".sz"})
        if (ext == known) return true;
    return false;
}

}  // namespace

std::vector<std::string> output_names(const std::vector<std::string>& paths, const std::vector<bool>& whole) {
    std::vector<fs::path> absolute;
    for (const std::string& p : paths) absolute.push_back(fs::absolute(fs::path(p)).lexically_normal());
    // the folder that holds every input: the parts its files' folders share
    fs::path common;
    for (std::size_t i = 0; i < absolute.size(); ++i) {
        const fs::path folder = absolute[i].parent_path();
        if (i == 0) {
            common = folder;
            continue;
        }
        fs::path shared;
        for (auto a = common.begin(), b = folder.begin(); a != common.end() && b != folder.end() && *a == *b; ++a, ++b) shared /= *a;
        common = shared;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < absolute.size(); ++i) {
        fs::path name = absolute[i].lexically_relative(common);
        if (compression_extension(name.extension().string())) name.replace_extension();
        std::string text = name.generic_string();
        if (i < whole.size() && whole[i] && text.size() >= 5 && text.compare(text.size() - 5, 5, ".json") == 0) text += "l";
        names.push_back(text);
    }
    return names;
}

bool Publication::open(const std::string& path, bool replace) {
    discard();
    error_.clear();
    struct stat st {};
    const bool exists = stat(path.c_str(), &st) == 0;
    if (replace) {
        char resolved[PATH_MAX];
        if (!exists || !realpath(path.c_str(), resolved)) return fail("cannot rewrite " + path);
        target_ = resolved;  // a symbolic link's target is rewritten, the link kept
    } else {
        target_ = path;
        std::error_code ignored;
        const fs::path parent = fs::path(path).parent_path();
        if (!parent.empty()) fs::create_directories(parent, ignored);
    }
    const fs::path target(target_);
    const std::string folder = target.has_parent_path() ? target.parent_path().string() + "/" : std::string();
    temp_ = folder + "." + target.filename().string() + ".sediment-rows-XXXXXX";
    fd_ = mkstemp(temp_.data());
    if (fd_ < 0) return temp_.clear(), fail("cannot write beside " + path);
    mode_t mode = st.st_mode & 07777;
    if (!exists) {  // a new file: what open() would give it
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd_, mode) != 0) return fail("cannot write beside " + path);
    return true;
}

bool Publication::write(const std::string& bytes) {
    std::size_t done = 0;
    while (fd_ >= 0 && done < bytes.size()) {
        const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail("cannot write " + temp_);
        done += static_cast<std::size_t>(n);
    }
    return fd_ >= 0;
}

bool Publication::commit() {
    if (fd_ < 0) return false;
    if (fsync(fd_) != 0 || close(fd_) != 0) return fd_ = -1, fail("cannot write " + temp_);
    fd_ = -1;
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) return fail("cannot replace " + target_);
    temp_.clear();
    return true;
}

void Publication::discard() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    if (!temp_.empty()) unlink(temp_.c_str());
    temp_.clear();
}

bool Publication::fail(const std::string& what) {
    if (error_.empty()) error_ = what + ": " + std::strerror(errno);
    discard();
    return false;
}

}  // namespace sediment_rows_cli
