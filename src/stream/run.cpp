#include "run.hpp"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace sediment_rows_cli {

namespace {

using Clock = std::chrono::steady_clock;

struct Batch {
    std::vector<Document> documents;
    std::size_t bytes = 0;
};

struct Results {
    std::vector<Outcome> outcomes;
    std::size_t bytes = 0;
};

Results process_batch(Batch& batch, const Process& process) {
    Results r;
    r.outcomes.resize(batch.documents.size());
    for (std::size_t i = 0; i < batch.documents.size(); ++i) {
        Document& d = batch.documents[i];
        Outcome& o = r.outcomes[i];
        o.kind = d.kind;
        o.finding.path = d.path;
        o.finding.line = d.line;
        o.message = std::move(d.message);
        o.layout_line = d.layout_line;
        o.compressed = d.compressed;
        o.documents = d.documents;
        if (d.kind != Document::document) continue;
        process(d, o);
        if (!d.whole_file && !o.finding.errors.empty() && o.finding.path == d.path)  // (not the errors of a --metadata line)
            o.finding.errors.front().message += layout_hint(d.text, d.line);
    }
    r.bytes = batch.bytes;
    batch = Batch();
    return r;
}

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

/// Batches processed by `jobs` threads while the caller reads ahead; results come back in the order
/// the batches went in.
class Workers {
public:
    Workers(unsigned jobs, const Process& process) : process_(process) {
        for (unsigned i = 0; i < jobs; ++i) threads_.emplace_back([this] { work(); });
    }
    ~Workers() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        work_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    /// Batches in flight (queued or being processed, or done and not yet taken).
    std::size_t in_flight() {
        std::lock_guard<std::mutex> lock(mutex_);
        return order_.size();
    }
    void submit(Batch batch) {
        auto slot = std::make_shared<Slot>();
        slot->batch = std::move(batch);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            order_.push_back(slot);
            todo_.push_back(slot);
        }
        work_.notify_one();
    }
    /// The results of the oldest batch, once it is done.
    Results take() {
        std::unique_lock<std::mutex> lock(mutex_);
        std::shared_ptr<Slot> slot = order_.front();
        done_.wait(lock, [&] { return slot->done; });
        order_.pop_front();
        return std::move(slot->results);
    }

private:
    struct Slot {
        Batch batch;
        Results results;
        bool done = false;
    };
    void work() {
        for (;;) {
            std::shared_ptr<Slot> slot;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                work_.wait(lock, [&] { return stopping_ || !todo_.empty(); });
                if (stopping_) return;  // the run ended or was stopped: what is queued is not wanted
                slot = todo_.front();
                todo_.pop_front();
            }
            Results r = process_batch(slot->batch, process_);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                slot->results = std::move(r);
                slot->done = true;
            }
            done_.notify_all();
        }
    }

    const Process& process_;
    std::mutex mutex_;
    std::condition_variable work_, done_;
    std::deque<std::shared_ptr<Slot>> order_, todo_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
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

}  // namespace

std::string layout_hint(std::string_view text, std::size_t number) {
    const std::size_t first = text.find_first_not_of(" \t\r");
    const std::size_t last = text.find_last_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    if (first == last && number == 1 && (text[first] == '{' || text[first] == '[')) return kOpenedHint;
    if (text[first] == '[') return kArrayHint;
    return {};
}

RunTotals run_documents(const std::vector<std::string>& files, const RunOptions& options, const Process& process,
                        const Take& take) {
    constexpr std::size_t kBatchBytes = 4u << 20, kBatchDocuments = 4096;
    const auto start = Clock::now();
    const std::size_t keep = options.limits.max_document_bytes;
    RunTotals totals;
    Progress progress(options.progress);
    // A document longer than the limit is not kept whole: its error is given here, with its full size.
    const Process guarded = [&](const Document& d, Outcome& o) {
        if (d.size > keep) o.finding.errors = {sediment::rows::document_size_error(d.size, options.limits)};
        else process(d, o);
    };
    std::optional<Workers> workers;
    if (options.jobs > 1) workers.emplace(options.jobs, guarded);
    bool stopped = false;
    const auto hand_over = [&](Results r) {
        progress.clear();
        for (Outcome& o : r.outcomes) {
            if (stopped) break;
            totals.documents += o.kind == Document::document;
            stopped = !take(o);
        }
        totals.bytes += r.bytes;
        progress.update(totals.documents, totals.bytes);
    };
    Batch batch;
    const auto dispatch = [&] {
        if (!workers) {
            hand_over(process_batch(batch, guarded));
        } else {
            while (!stopped && workers->in_flight() >= 2 * options.jobs) hand_over(workers->take());
            workers->submit(std::move(batch));
        }
        batch = Batch();
    };

    Input* const metadata = options.metadata;
    std::size_t metadata_line = 0;
    const auto add = [&](Document d) {
        if (metadata && d.kind == Document::document) {
            std::size_t size = 0;
            bool terminated = false;
            do {
                ++metadata_line;
                if (!metadata->next_line(d.metadata, keep, size, terminated)) {
                    d.kind = Document::io_error;
                    d.message = metadata->error().empty() ? metadata->path() + ": no metadata line left for the next document"
                                                          : metadata->error();
                    break;
                }
            } while (blank_line(d.metadata));
            d.metadata_line = metadata_line;
        }
        batch.bytes += d.text.size() + 1;
        batch.documents.push_back(std::move(d));
        if (batch.bytes >= kBatchBytes || batch.documents.size() >= kBatchDocuments) dispatch();
    };
    for (const std::string& path : files) {
        if (stopped) break;
        Document end;
        end.kind = Document::end_of_file;
        end.path = &path;
        Input in;
        if (!in.open(path)) {
            add(io_error(path, in.error()));
            add(std::move(end));
            continue;
        }
        Document d;
        d.path = &path;
        if (options.whole_files || ends_with(path, ".json") || ends_with(path, ".json.gz")) {
            d.line = 1;
            d.whole_file = true;
            if (in.rest(d.text, keep, d.size)) {  // even an empty one: it is not a JSON document
                add(std::move(d));
                ++end.documents;
            }
        } else {
            bool terminated = true;
            for (std::size_t number = 1; !stopped && in.next_line(d.text, keep, d.size, terminated); ++number) {
                if (blank_line(d.text) && d.size == d.text.size()) {
                    if (!end.layout_line) end.layout_line = number;  // a blank line: format drops it
                    continue;
                }
                if (!terminated && !end.layout_line) end.layout_line = number;
                d.line = number;
                add(std::move(d));
                ++end.documents;
                d = Document();
                d.path = &path;
            }
        }
        if (!in.error().empty()) add(io_error(path, in.error()));
        end.compressed = in.compressed();
        add(std::move(end));
    }
    if (!stopped && !batch.documents.empty()) dispatch();
    while (workers && !stopped && workers->in_flight() > 0) hand_over(workers->take());
    workers.reset();
    progress.clear();
    totals.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return totals;
}

}  // namespace sediment_rows_cli
