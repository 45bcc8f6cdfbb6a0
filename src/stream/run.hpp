// The CLI's engine: documents read from files, processed in batches on every core, and handed back in
// input order.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "input.hpp"
#include "report.hpp"
#include "sediment/rows/json.hpp"
#include "sediment/rows/lint.hpp"

namespace sediment_rows_cli {

/// One item read from the input: a document, the end of a file, a file that could not be read, or (when
/// asked for) a blank line. Inside the engine, also a run of a JSONL file's whole lines (`lines`), which
/// the thread that processes it cuts into documents as it goes: the reader does not look at every byte.
struct Document {
    enum Kind { document, end_of_file, io_error, blank_line, lines };
    Kind kind = document;
    const std::string* path = nullptr;
    std::size_t line = 0;
    std::string_view text;        ///< the document's bytes, or their start when it is too long
    bool padded = false;          ///< rows::kTextPadding readable bytes follow `text`
    std::unique_ptr<std::string> own;  ///< a .json file's text (`text` views it); a line's is in its batch's block
    std::size_t size = 0;         ///< the document's full length
    bool whole_file = false;      ///< a .json file: `text` is the whole file, not one line
    std::string metadata;         ///< convert --metadata: the line that goes with this document
    std::size_t metadata_line = 0;
    bool unterminated = false;    ///< a JSONL file's last line, which no '\n' ends
    std::string message;          ///< io_error: why
    bool compressed = false;      ///< end_of_file: the file was gzip-compressed
    std::size_t documents = 0;    ///< end_of_file: the documents the file held
    // lines: `text` is the run (its last line ends in '\n' unless the file ends there); a line that ends
    // before `padded_before` (null: every line) has kTextPadding readable bytes after it. A line longer
    // than the limit comes alone (`single`): `text` holds its first bytes, `size` its length.
    const char* padded_before = nullptr;
    bool file_start = false;      ///< lines: the run starts its file (its first line is line 1)
    bool single = false;
    std::vector<std::pair<std::string, std::size_t>> metadata_lines;  ///< lines, --metadata: each document's line and its number

    /// The text for rows::validate() and rows::lint(), read in place.
    sediment::rows::StringText string_text() const { return {text, padded}; }
};

/// What processing one item gave, in input order.
struct Outcome {
    Document::Kind kind = Document::document;
    Finding finding;              ///< where, and the errors
    std::string out;              ///< the document's output line, with its '\n'
    bool changed = false;         ///< format: the output differs from the document's bytes
    std::string message;          ///< io_error: why
    bool compressed = false;      ///< end_of_file: as in Document
    std::size_t documents = 0;    ///< end_of_file: as in Document
    std::optional<sediment::rows::SessionFacts> facts;  ///< lint: what the rules across rows need
    bool in_run = false;          ///< a line cut from a run of lines: numbered within the run until it is taken
};

/// Processes one document (kind `document`); runs on a worker thread.
using Process = std::function<void(const Document&, Outcome&)>;
/// Takes each outcome on the calling thread, in input order; false stops the run.
using Take = std::function<bool(Outcome&)>;

struct RunOptions {
    unsigned jobs = 1;
    sediment::rows::Limits limits;
    bool progress = true;         ///< a progress line on standard error when it is a terminal
    Input* metadata = nullptr;    ///< an open file whose i-th non-blank line goes with the i-th document
    bool whole_files = false;     ///< each file is one document, whatever its name (--document)
    bool blank_lines = false;     ///< hand over each blank line of a JSONL file too, in its place (format)
};

struct RunTotals {
    std::size_t documents = 0, bytes = 0;
    double seconds = 0;
};

/// True for a line that holds no document: spaces, tabs and carriage returns only (skipped).
inline bool blank_line(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

/// Why the invalid line `text` (line `number`) of a JSONL file may not be a line's document at all, or
/// empty: it holds a JSON array (of documents, most likely), or it is the first line and opens a
/// document that goes on over the next lines (pretty-printed JSON). Added to the line's first error.
std::string layout_hint(std::string_view text, std::size_t number);

/// Why `upgrade` cannot go from `from` (a schema's name, with or without a version) to `to`, `lossy` or
/// not: the command's usage error; empty when it can (a newer or the same version of one schema, or
/// Harbor's "atif" to "atif-v1.7"; --lossy where the upgrade has something to drop).
std::string upgrade_refusal(std::string_view from, const sediment::rows::SchemaInfo& to, bool lossy = false);

/// The schema `upgrade` reads when none is given: "atif" (Harbor's model, any ATIF version) for
/// "atif-v1.7"; `to`'s name without its version when its documents name their version (rows); else
/// empty: the documents' version must be given.
std::string upgrade_source(const sediment::rows::SchemaInfo& to);

/// Whether the file `path` is read as one whole document: named *.json or *.json.gz, or any file with
/// `whole_files` (--document); any other holds one document per line.
bool whole_document(const std::string& path, bool whole_files);

/// Reads every document of every file (a file whole_document() names is one document; any other holds
/// one per line, blank lines skipped), processes them in batches on `jobs` threads, and hands the
/// outcomes to `take` in input order. Memory holds the batches in flight, never a whole file: a plain
/// file is mapped, its lines read where they are and each batch's pages let go once it is done; gzip
/// files and standard input are read in 4 MiB blocks. A line that is not a JSONL document but a JSON
/// array, or the first line of a document written over several lines, gets a hint (layout_hint()).
RunTotals run_documents(const std::vector<std::string>& files, const RunOptions& options, const Process& process,
                        const Take& take);

}  // namespace sediment_rows_cli
