// Reading the CLI's input files: plain or gzip-compressed, or standard input.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sediment_rows_cli {

/// Whether a file found in a folder is read: *.jsonl, *.jsonl.gz, *.json or *.json.gz.
bool document_file_name(std::string_view name);

/// The files that the command line's FILE arguments name, in order: each FILE as given ("-" too), and
/// for a folder the files under it that document_file_name() takes, recursively, sorted by their path
/// under it (byte order), each named FOLDER/PATH; a name that begins with '.' (a hidden file or folder)
/// is passed over. False, with `error` set, when a folder cannot be walked or holds no such file.
bool expand_folders(const std::vector<std::string>& arguments, std::vector<std::string>& files, std::string& error);

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
    /// Reads up to `n` bytes into `out`: how many it read, 0 at the end of the input or on a read error
    /// (error()). Large reads go straight into `out`, with no copy through zlib's buffer.
    std::size_t read(char* out, std::size_t n);
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

/// A plain regular file mapped into memory whole, so that its lines are read where they are: no copy
/// into the process, and the pages are touched by the threads that parse them.
class MappedFile {
public:
    /// `path` mapped, or nothing when it is no plain regular file (standard input, a pipe, a gzip file,
    /// an empty file) or cannot be mapped: Input reads it then.
    static std::shared_ptr<const MappedFile> open(const std::string& path);
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    std::string_view bytes() const { return {data_, size_}; }
    /// The bytes readable from the start: the file's, and the zeros that fill its last page.
    std::size_t readable() const { return readable_; }
    /// Lets the pages wholly inside bytes [begin, end) go: they are no longer part of the process's
    /// resident memory (they stay in the page cache), and read again from the file if touched.
    void release(std::size_t begin, std::size_t end) const;

private:
    MappedFile(const char* data, std::size_t size, std::size_t readable) : data_(data), size_(size), readable_(readable) {}
    const char* data_;
    std::size_t size_, readable_;
};

}  // namespace sediment_rows_cli
