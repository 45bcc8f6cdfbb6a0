#include "run.hpp"

#include "batch.hpp"

#include <sediment/rows/upgrade.hpp>
#include <sediment/rows/versions.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>

namespace sediment_rows_cli {

namespace rows = sediment::rows;

namespace {

using Clock = std::chrono::steady_clock;

/// "12000 documents, 250.3 MB/s" on standard error while a run lasts, when it is a terminal. It is
/// cleared before each batch's output and drawn again after it, so that it stays on screen. It is
/// redrawn at most every 250 ms; the environment variable SEDIMENT_ROWS_PROGRESS_MS sets another
/// interval (0: after every batch, which the tests use so that they do not depend on the machine's speed).
class Progress {
public:
    explicit Progress(bool wanted) : on_(wanted && isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_(start_) {
        if (const char* ms = std::getenv("SEDIMENT_ROWS_PROGRESS_MS")) interval_ = std::chrono::milliseconds(std::strtoul(ms, nullptr, 10));
    }
    void update(std::size_t documents, std::size_t bytes) {
        const auto now = Clock::now();
        if (!on_ || (!cleared_ && now - last_ < interval_)) return;
        cleared_ = false;
        last_ = now;
        std::cout.flush();  // the batch's output first, so the line never lands inside it
        const double seconds = std::chrono::duration<double>(now - start_).count();
        std::fprintf(stderr, "\r\033[K%zu documents, %.1f MB/s", documents, static_cast<double>(bytes) / seconds / 1e6);
        std::fflush(stderr);
        shown_ = true;
    }
    void clear() {
        if (!shown_) return;
        std::fputs("\r\033[K", stderr);
        std::fflush(stderr);
        shown_ = false;
        cleared_ = true;  // draw it again at the next update
    }

private:
    bool on_;
    bool shown_ = false, cleared_ = false;
    Clock::time_point start_, last_;
    std::chrono::milliseconds interval_{250};
};

/// An item saying that `path` could not be read, and why.
Document io_error(const std::string& path, std::string message) {
    Document d;
    d.kind = Document::io_error;
    d.path = &path;
    d.message = std::move(message);
    return d;
}

/// " (...)": layout_hint()'s words.
constexpr const char* kArrayHint =
    " (the line is a JSON array: JSONL holds one document per line, so write its items one per line, or read the "
    "file as one document with --document)";
constexpr const char* kOpenedHint =
    " (the line opens a document that goes on over the next lines: read the file as one document with --document)";

bool ends_with(const std::string& s, const char* suffix) {
    const std::string_view t(suffix);
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

/// One run of run_documents(): the files read here, their documents gathered into batches, each batch
/// processed on the workers (or here, on one thread), and the outcomes taken here in input order.
class Run {
public:
    Run(const RunOptions& options, const Process& process, const Take& take)
        : options_(options), keep_(options.limits.max_document_bytes), take_(take), progress_(options.progress),
          guarded_([this, &process](const Document& d, Outcome& o) {
              // a document longer than the limit is not kept whole: its error is given here, with its full size
              if (d.size > keep_) o.finding.errors = {sediment::rows::document_size_error(d.size, options_.limits)};
              else process(d, o);
          }),
          pool_(options.jobs + 1), cutting_{keep_, options.blank_lines} {
        if (options.jobs > 1) workers_.emplace(options.jobs, guarded_);
        batch_.pool = &pool_;
        batch_.cutting = &cutting_;
    }

    RunTotals operator()(const std::vector<std::string>& files) {
        const auto start = Clock::now();
        for (const std::string& path : files) {
            if (stopped_) break;
            read_file(path);
        }
        if (!stopped_ && !batch_.documents.empty()) dispatch();
        while (workers_ && !stopped_ && workers_->in_flight() > 0) hand_over(workers_->take());
        workers_.reset();
        progress_.clear();
        totals_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return totals_;
    }

private:
    static constexpr std::size_t kBatchBytes = BlockPool::kBlockBytes, kBatchDocuments = 4096;
    static constexpr std::size_t kHintBytes = 4096;  // kept of a line longer than the limit, for layout_hint()

    // ----- batches: gathered here, processed, and their outcomes taken in input order -------------

    bool full() const { return batch_.bytes >= kBatchBytes || batch_.documents.size() >= kBatchDocuments; }

    /// Takes a batch's outcomes, until take() says to stop. A run's lines were numbered from 1: here
    /// they get the number of the lines of their file before the run; and a file's end, its documents.
    void hand_over(Results r) {
        progress_.clear();
        for (Outcome& o : r.outcomes) {
            if (stopped_) break;
            if (o.kind == Document::lines) {
                lines_before_ += o.documents;
                continue;
            }
            if (o.in_run) o.finding.line += lines_before_;
            if (o.kind == Document::end_of_file) {
                o.documents = file_documents_;
                lines_before_ = file_documents_ = 0;
            }
            file_documents_ += o.kind == Document::document || (o.kind == Document::io_error && o.in_run);
            totals_.documents += o.kind == Document::document;
            stopped_ = !take_(o);
        }
        totals_.bytes += r.bytes;
        progress_.update(totals_.documents, totals_.bytes);
        // their vectors are the next batches': a batch's outcomes take hundreds of KiB, which a fresh
        // allocation would fault in again a page at a time
        r.outcomes.clear();
        spare_.emplace_back(std::move(r.outcomes), std::move(r.documents));
    }

    /// Sends the batch to be processed: here, or to the workers once fewer than two batches a worker
    /// are in flight.
    void dispatch() {
        if (!workers_) {
            hand_over(process_batch(batch_, guarded_));
        } else {
            while (!stopped_ && workers_->in_flight() >= 2 * options_.jobs) hand_over(workers_->take());
            workers_->submit(std::move(batch_));
        }
        batch_ = Batch();
        batch_.pool = &pool_;
        batch_.cutting = &cutting_;
        if (!spare_.empty()) {
            std::tie(batch_.outcomes, batch_.documents) = std::move(spare_.back());
            spare_.pop_back();
        }
    }
    void dispatch_when_full() {
        if (full()) dispatch();
    }

    /// Adds an item to the batch (a run of lines only once its block is in the batch too: see
    /// read_lines()). With --metadata, a run gets the metadata lines of its documents, in order: the
    /// reader counts them (metadata pairs each document with a line, so this pass is its own).
    void push(Document d) {
        // the next metadata line, or why there is none
        const auto next_metadata = [&](std::string& text, std::string& why) {
            std::size_t size = 0;
            bool terminated = false;
            do {
                ++metadata_line_;
                if (!options_.metadata->next_line(text, keep_, size, terminated)) {
                    why = options_.metadata->error().empty() ? options_.metadata->path() + ": no metadata line left for the next document"
                                                             : options_.metadata->error();
                    return false;
                }
            } while (blank_line(text));
            return true;
        };
        if (options_.metadata && d.kind == Document::document) {  // a whole file's
            if (next_metadata(d.metadata, d.message)) d.metadata_line = metadata_line_;
            else d.kind = Document::io_error;
        } else if (options_.metadata && d.kind == Document::lines) {
            for_each_line(d, [&](std::string_view line, std::size_t size, bool) {
                if (!holds_document(line, size, keep_) || !d.message.empty()) return;
                std::string text;
                if (next_metadata(text, d.message)) d.metadata_lines.emplace_back(std::move(text), metadata_line_);
            });
        }
        batch_.bytes += d.text.size() + (d.kind == Document::lines ? 0 : 1);
        batch_.documents.push_back(std::move(d));
    }
    void add(Document d) {
        push(std::move(d));
        dispatch_when_full();
    }

    // ----- reading ---------------------------------------------------------------------------------

    /// The documents of one file, then its end (and why it could not be read, when it could not).
    void read_file(const std::string& path) {
        Document end;
        end.kind = Document::end_of_file;
        end.path = &path;
        Input in;
        if (!in.open(path)) {
            add(io_error(path, in.error()));
            add(std::move(end));
            return;
        }
        if (whole_document(path, options_.whole_files)) {
            Document d;
            d.path = &path;
            d.line = 1;
            d.whole_file = true;
            d.own = std::make_unique<std::string>();
            if (in.rest(*d.own, keep_, d.size)) {  // even an empty one: it is not a JSON document
                d.text = *d.own;
                d.padded = d.own->capacity() - d.own->size() >= sediment::rows::kTextPadding;
                add(std::move(d));
            }
        } else if (const auto file = MappedFile::open(path)) {
            read_mapped_lines(path, file);
        } else {
            read_lines(path, in);
        }
        if (!in.error().empty()) add(io_error(path, in.error()));
        end.compressed = in.compressed();
        add(std::move(end));
    }

    /// A run of whole lines of `path` at `text` (the worker cuts it: process_lines()).
    Document run_of(const std::string& path, std::string_view text, bool file_start, const char* padded_before) {
        Document d;
        d.kind = Document::lines;
        d.path = &path;
        d.text = text;
        d.file_start = file_start;
        d.padded_before = padded_before;
        return d;
    }

    /// A plain file's lines, where they are in its mapping, in runs of about a batch's bytes: each
    /// ends at the first line end past kBatchBytes, found where it is (the reader touches a page or
    /// two of each run, not its every byte). The batch holds its part of the file.
    void read_mapped_lines(const std::string& path, const std::shared_ptr<const MappedFile>& file) {
        const std::string_view bytes = file->bytes();
        const char* padded_before = bytes.data() + file->readable() - std::min(file->readable(), sediment::rows::kTextPadding);
        for (std::size_t start = 0; start < bytes.size() && !stopped_;) {
            std::size_t end = bytes.size();
            if (bytes.size() - start > kBatchBytes) {
                const std::size_t from = start + kBatchBytes - 1;
                const auto* newline = static_cast<const char*>(std::memchr(bytes.data() + from, '\n', bytes.size() - from));
                if (newline) end = static_cast<std::size_t>(newline - bytes.data()) + 1;
            }
            push(run_of(path, bytes.substr(start, end - start), start == 0, padded_before));
            batch_.mapped.push_back({file, start, end});
            start = end;
            dispatch_when_full();
        }
    }

    /// The lines of any other input, read a block at a time: each full block's whole lines go as a run
    /// (its last line end found from the block's end), and the partial line after them starts the next
    /// block; this thread copies that partial line only, and allocates nothing per line. A block
    /// holding one line only grows, up to the limit; past it, the line's first bytes are kept for its
    /// hint, and the rest is counted and dropped.
    void read_lines(const std::string& path, Input& in) {
        Block block = pool_.take(BlockPool::kBlockBytes);
        bool file_start = true;
        const auto send = [&](Block& b, std::size_t whole) {  // the block's first `whole` bytes, whole lines
            push(run_of(path, std::string_view(b.data.get(), whole), file_start, nullptr));
            file_start = false;
            batch_.blocks.push_back(std::move(b));
            dispatch_when_full();
        };
        for (;;) {
            if (stopped_) return;
            if (block.size == block.capacity) {
                const auto* last = static_cast<const char*>(memrchr(block.data.get(), '\n', block.size));
                if (last) {  // the whole lines go; the partial one starts the next block
                    const std::size_t whole = static_cast<std::size_t>(last - block.data.get()) + 1;
                    Block next = pool_.take((block.size - whole) * 2);
                    next.size = block.size - whole;
                    std::memcpy(next.data.get(), block.data.get() + whole, next.size);
                    send(block, whole);
                    block = std::move(next);
                } else if (block.size > keep_) {  // one line, longer than the limit
                    Document d = run_of(path, {}, file_start, nullptr);
                    d.single = true;
                    d.own = std::make_unique<std::string>(block.data.get(), std::min(block.size, kHintBytes));
                    d.own->reserve(d.own->size() + sediment::rows::kTextPadding);
                    d.text = *d.own;
                    d.padded = true;
                    std::size_t size = block.size;
                    const char* newline = nullptr;
                    std::size_t n = 0;
                    while (!newline && (n = in.read(block.data.get(), block.capacity)) > 0) {
                        newline = static_cast<const char*>(std::memchr(block.data.get(), '\n', n));
                        size += newline ? static_cast<std::size_t>(newline - block.data.get()) : n;
                    }
                    if (!newline && !in.error().empty()) return;  // a read error: the line is not whole
                    d.size = size;
                    d.unterminated = !newline;
                    push(std::move(d));
                    file_start = false;
                    if (!newline) {
                        block.size = 0;
                        break;
                    }
                    const std::size_t after = static_cast<std::size_t>(newline - block.data.get()) + 1;  // what follows the line
                    std::memmove(block.data.get(), block.data.get() + after, n - after);
                    block.size = n - after;
                    continue;
                } else {  // one line, longer than the block: a larger block, up to just past the limit
                    Block larger(keep_ - block.capacity >= block.capacity ? 2 * block.capacity : keep_ + 1);
                    std::memcpy(larger.data.get(), block.data.get(), block.size);
                    larger.size = block.size;
                    pool_.give(std::move(block));
                    block = std::move(larger);
                }
            }
            const std::size_t n = in.read(block.data.get() + block.size, block.capacity - block.size);
            if (n == 0) break;
            block.size += n;
        }
        // the rest: whole lines, and a last one no '\n' ends (after a read error it may not be whole: not cut)
        std::size_t whole = block.size;
        if (!in.error().empty()) {
            const auto* last = block.size ? static_cast<const char*>(memrchr(block.data.get(), '\n', block.size)) : nullptr;
            whole = last ? static_cast<std::size_t>(last - block.data.get()) + 1 : 0;
        }
        if (whole > 0) send(block, whole);
        else pool_.give(std::move(block));
    }

    const RunOptions& options_;
    const std::size_t keep_;  // the longest document kept whole
    const Take& take_;
    Progress progress_;
    const Process guarded_;
    BlockPool pool_;  // before the workers, which give blocks back until they stop
    std::optional<Workers> workers_;
    Batch batch_;
    std::vector<std::pair<std::vector<Outcome>, std::vector<Document>>> spare_;  ///< taken batches' vectors, emptied
    bool stopped_ = false;
    RunTotals totals_;
    std::size_t metadata_line_ = 0;
    const Cutting cutting_;
    std::size_t lines_before_ = 0, file_documents_ = 0;  // of the file being taken: lines of its runs taken, documents
};

}  // namespace

bool whole_document(const std::string& path, bool whole_files) {
    return whole_files || ends_with(path, ".json") || ends_with(path, ".json.gz");
}

std::string layout_hint(std::string_view text, std::size_t number) {
    const std::size_t first = text.find_first_not_of(" \t\r");
    const std::size_t last = text.find_last_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    if (first == last && number == 1 && (text[first] == '{' || text[first] == '[')) return kOpenedHint;
    if (text[first] == '[') return kArrayHint;
    return {};
}

std::string upgrade_source(const rows::SchemaInfo& to) {
    if (to.id == rows::SchemaId::atif_v1_7) return "atif";
    return rows::schemas_named(to.base).size() < 2 ? std::string() : std::string(to.base);
}

std::string upgrade_refusal(std::string_view from, const rows::SchemaInfo& to, bool lossy) {
    if (lossy)
        if (std::string refusal = rows::lossy_upgrade_refusal(from, to.id); !refusal.empty()) return "--lossy: " + refusal;
    const rows::SchemaInfo* versioned = rows::find_schema(from);
    const std::vector<rows::SchemaId> named = rows::schemas_named(from);
    if (named.empty()) return rows::unknown_schema_message(from);
    const rows::SchemaInfo& source = versioned ? *versioned : rows::schema_info(named.front());
    if (source.id == rows::SchemaId::atif && to.id == rows::SchemaId::atif_v1_7) return {};
    if (source.base != to.base || to.version == 0 || (versioned && versioned->version > to.version))
        return "upgrade goes to a newer version of the same schema: " + std::string(from) + " to " + std::string(to.name) + " is not";
    return {};
}

RunTotals run_documents(const std::vector<std::string>& files, const RunOptions& options, const Process& process,
                        const Take& take) {
    return Run(options, process, take)(files);
}

}  // namespace sediment_rows_cli
