// Reading the CLI's input files: plain or gzip-compressed, or standard input.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <string>
#include <vector>

namespace sediment_rows_cli {

/// A file read as a stream of bytes: plain or gzip-compressed (zlib tells them apart by their first
/// bytes, whatever the name), or standard input for "-".
class Input {
public:
    Input() = default;
    Input(const Input&) = delete;
    Input& operator=(const Input&) = delete;
    ~Input();

    /// Opens `path` ("-" is standard input); false, with error() set, when it cannot be opened.
    bool open(const std::string& path);
    /// True when the bytes read so far were gzip-compressed.
    bool compressed() const;
    /// Reads the next line: its first `keep` bytes into `line` (without the '\n'), its full length into
    /// `size`, and whether a '\n' ended it. False at the end of the input or on a read error (error()).
    /// `line` (and `text` in rest()) keeps rows::kTextPadding bytes of capacity after what it holds.
    bool next_line(std::string& line, std::size_t keep, std::size_t& size, bool& terminated);
    /// Reads the rest of the input: its first `keep` bytes into `text` and its full length into `size`.
    /// False on a read error (error()).
    bool rest(std::string& text, std::size_t keep, std::size_t& size);
    /// The path given to open().
    const std::string& path() const { return path_; }
    /// Why opening or reading failed, or empty.
    const std::string& error() const { return error_; }

private:
    bool fill();

    gzFile file_ = nullptr;
    std::string path_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    std::string error_;
};

}  // namespace sediment_rows_cli
