// Where the commands that write put each input's documents when given a folder (--out, and
// sediment_rows.dask's jobs), and how a file is published whole.
#pragma once

#include <string>
#include <vector>

namespace sediment_rows_cli {

/// The name of each input's output file, relative to the output folder: its path below the folder
/// that holds every input (made absolute and normal first, so that no name climbs out with ".."),
/// without the extension of a compression fsspec knows (.gz, .bz2, .xz, .zip, .lz4, .zst, ...), and a
/// whole document's (`whole`: a *.json file) *.json as *.jsonl, since it becomes a line.
std::vector<std::string> output_names(const std::vector<std::string>& paths, const std::vector<bool>& whole);

/// A file's content, written beside it under a temporary name and renamed into place once complete:
/// a reader sees the old file or the new one, never a part, and a crash leaves no half file under its
/// name. Replacing an existing file keeps its mode (and a symbolic link keeps pointing at it).
class Publication {
public:
    Publication() = default;
    Publication(const Publication&) = delete;
    Publication& operator=(const Publication&) = delete;
    ~Publication() { discard(); }

    /// Starts the new content of `path`; `replace`: the file must exist (format -i), else it is made
    /// or replaced. False, with error(), when it cannot be.
    bool open(const std::string& path, bool replace);
    /// Appends `bytes`; false, with error(), once a write failed.
    bool write(const std::string& bytes);
    /// Makes the content durable and puts it in the file's place.
    bool commit();
    /// Drops the new content; the file stays as it was.
    void discard();
    const std::string& error() const { return error_; }

private:
    bool fail(const std::string& what);
    std::string target_, temp_, error_;
    int fd_ = -1;
};

}  // namespace sediment_rows_cli
