#include "input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "sediment/rows/json.hpp"

namespace sediment_rows_cli {

namespace {
constexpr std::size_t kBufferBytes = 64u << 10;

// Appends n bytes to `s`, leaving kTextPadding bytes of capacity after them (rows::StringText: the
// fast path then parses the text where it is), and doubling the capacity as it grows.
void append(std::string& s, const char* p, std::size_t n) {
    const std::size_t need = s.size() + n + sediment::rows::kTextPadding;
    if (s.capacity() < need) s.reserve(std::max(need, 2 * s.capacity()));
    s.append(p, n);
}
}

bool document_file_name(std::string_view name) {
    const auto ends = [&](std::string_view tail) { return name.size() > tail.size() && name.substr(name.size() - tail.size()) == tail; };
    return ends(".jsonl") || ends(".jsonl.gz") || ends(".json") || ends(".json.gz");
}

bool expand_folders(const std::vector<std::string>& arguments, std::vector<std::string>& files, std::string& error) {
    namespace fs = std::filesystem;
    for (const std::string& argument : arguments) {
        std::error_code code;
        if (argument == "-" || !fs::is_directory(argument, code)) {  // a file, or what open() will say cannot be read
            files.push_back(argument);
            continue;
        }
        std::vector<std::string> found;  // paths under the folder
        fs::recursive_directory_iterator walk(argument, fs::directory_options::none, code), end;
        for (; !code && walk != end; walk.increment(code)) {
            const std::string name = walk->path().filename().string();
            if (name.empty() || name[0] == '.') {  // hidden: not read, nor walked into
                if (walk->is_directory(code)) walk.disable_recursion_pending();
                code.clear();
                continue;
            }
            if (walk->is_regular_file(code) && document_file_name(name))
                found.push_back(walk->path().lexically_relative(argument).generic_string());
            code.clear();  // (an entry that cannot be looked at: the walk goes on)
        }
        if (code) {
            error = "cannot read the folder " + argument + ": " + code.message();
            return false;
        }
        if (found.empty()) {
            error = "the folder " + argument + " holds no *.jsonl, *.jsonl.gz, *.json or *.json.gz file";
            return false;
        }
        std::sort(found.begin(), found.end());
        const std::string prefix = argument.back() == '/' ? argument : argument + "/";
        for (const std::string& path : found) files.push_back(prefix + path);
    }
    return true;
}

Input::~Input() {
    if (file_) gzclose(file_);
}

bool Input::open(const std::string& path) {
    path_ = path;
    if (path == "-") {
        const int fd = dup(STDIN_FILENO);
        file_ = fd < 0 ? nullptr : gzdopen(fd, "rb");
        if (!file_ && fd >= 0) close(fd);
    } else {
        errno = 0;
        file_ = gzopen(path.c_str(), "rb");
    }
    if (!file_) {
        error_ = "cannot open " + path + ": " + (errno ? std::strerror(errno) : "out of memory");
        return false;
    }
    gzbuffer(file_, kBufferBytes);
    buffer_.resize(kBufferBytes);
    return true;
}

bool Input::compressed() const { return file_ && gzdirect(file_) == 0; }

/// Reads the next block into the buffer; false at the end of the input or on an error.
bool Input::fill() {
    begin_ = end_ = 0;
    end_ = read(buffer_.data(), buffer_.size());
    return end_ > 0;
}

std::size_t Input::read(char* out, std::size_t size) {
    if (!file_ || !error_.empty()) return 0;
    if (begin_ < end_) {  // what next_line() left in the buffer comes first
        const std::size_t n = std::min(size, end_ - begin_);
        std::memcpy(out, buffer_.data() + begin_, n);
        begin_ += n;
        return n;
    }
    const int n = gzread(file_, out, static_cast<unsigned>(std::min<std::size_t>(size, 1u << 30)));
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    if (n < 0 || (code != Z_OK && code != Z_BUF_ERROR)) {
        error_ = "cannot read " + path_ + ": " + (code == Z_ERRNO ? std::strerror(errno) : message);
        return 0;
    }
    if (n == 0 && code == Z_BUF_ERROR) {
        // zlib's word for a compressed stream that stops before its end
        error_ = "cannot read " + path_ + ": the compressed data ends early (a truncated file?)";
        return 0;
    }
    return static_cast<std::size_t>(n);
}

bool Input::next_line(std::string& line, std::size_t keep, std::size_t& size, bool& terminated) {
    line.clear();
    size = 0;
    terminated = false;
    bool any = false;
    for (;;) {
        if (begin_ == end_ && !fill()) return any && error_.empty();
        any = true;
        const char* start = buffer_.data() + begin_;
        const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
        const std::size_t n = newline ? static_cast<std::size_t>(newline - start) : end_ - begin_;
        if (line.size() < keep) append(line, start, std::min(n, keep - line.size()));
        size += n;
        begin_ += n;
        if (newline) {
            ++begin_;
            terminated = true;
            return true;
        }
    }
}

bool Input::rest(std::string& text, std::size_t keep, std::size_t& size) {
    text.clear();
    size = 0;
    for (;;) {
        if (begin_ == end_ && !fill()) return error_.empty();
        const std::size_t n = end_ - begin_;
        if (text.size() < keep) append(text, buffer_.data() + begin_, std::min(n, keep - text.size()));
        size += n;
        begin_ = end_;
    }
}

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
    if (path == "-") return nullptr;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return nullptr;
    struct stat st {};
    unsigned char magic[2] = {0, 0};
    void* data = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && pread(fd, magic, 2, 0) == 2 &&
        !(magic[0] == 0x1f && magic[1] == 0x8b))  // gzip's first bytes: Input inflates it
        data = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) return nullptr;
    const auto size = static_cast<std::size_t>(st.st_size);
    madvise(data, size, MADV_SEQUENTIAL);
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const char*>(data), size, (size + page - 1) / page * page));
}

void MappedFile::release(std::size_t begin, std::size_t end) const {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    begin = (begin + page - 1) / page * page;
    end = std::min(end, size_) / page * page;
    if (begin < end) madvise(const_cast<char*>(data_) + begin, end - begin, MADV_DONTNEED);
}

MappedFile::~MappedFile() { munmap(const_cast<char*>(data_), size_); }

}  // namespace sediment_rows_cli
