// The CLI engine's batches (run.cpp reads them, batch.cpp processes them): the blocks a batch's lines
// are read into, how a run of lines is cut, and the worker threads that process batches in parallel.
// Internal to the CLI.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "run.hpp"

namespace sediment_rows_cli {

/// Bytes read at once from a JSONL file, whole lines: the documents cut from them view them in place,
/// and rows::kTextPadding bytes of slack follow them (so the fast path parses each line where it is).
struct Block {
    std::unique_ptr<char[]> data;
    std::size_t size = 0, capacity = 0;

    Block() = default;
    explicit Block(std::size_t n) : data(new char[n + sediment::rows::kTextPadding]), capacity(n) {}
};

/// Blocks whose lines are done, read into again: the reader touches no new pages, and memory holds the
/// blocks in flight and at most `max` spare ones. Shared by the reader and the workers.
class BlockPool {
public:
    static constexpr std::size_t kBlockBytes = 4u << 20;  ///< read at once from a JSONL file

    explicit BlockPool(std::size_t max) : max_(max) {}
    /// A block of at least `at_least` bytes, empty.
    Block take(std::size_t at_least) {
        if (at_least <= kBlockBytes) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!spare_.empty()) {
                Block b = std::move(spare_.back());
                spare_.pop_back();
                b.size = 0;
                return b;
            }
        }
        return Block(std::max(at_least, kBlockBytes));
    }
    /// Takes back a block no document views any more (a larger one is freed).
    void give(Block&& b) {
        if (b.capacity != kBlockBytes) return;
        std::lock_guard<std::mutex> lock(mutex_);
        if (spare_.size() < max_) spare_.push_back(std::move(b));
    }

private:
    std::mutex mutex_;
    std::vector<Block> spare_;
    std::size_t max_;
};

/// How a run of lines is cut into documents (RunOptions's words).
struct Cutting {
    std::size_t keep;   ///< the longest document kept whole
    bool blank_lines;   ///< hand over each blank line too
};

struct Batch {
    std::vector<Document> documents;
    std::vector<Outcome> outcomes;  ///< room for its outcomes (an earlier batch's, emptied)
    std::vector<Block> blocks;  ///< the bytes its lines view
    struct Mapped {
        std::shared_ptr<const MappedFile> file;
        std::size_t begin, end;
    };
    std::vector<Mapped> mapped;  ///< or the bytes of mapped files they view, let go once they are done
    BlockPool* pool = nullptr;  ///< where the blocks go once the documents are done
    const Cutting* cutting = nullptr;
    std::size_t bytes = 0;
};

struct Results {
    std::vector<Outcome> outcomes;
    std::size_t bytes = 0;
    std::vector<Document> documents;  ///< the batch's, emptied: room for a later batch's
};


/// True for a line that holds a document (not a blank one, or a blank one past the limit: its size error).
inline bool holds_document(std::string_view text, std::size_t size, std::size_t keep) { return !blank_line(text) || size > keep; }

/// Calls `f(text, size, terminated)` for each line of the run of lines `run`, in order: its text, its
/// length, whether a '\n' ends it (a single line longer than the limit: its first bytes and its length).
template <class F>
void for_each_line(const Document& run, F&& f) {
    if (run.single) return f(run.text, run.size, !run.unterminated);
    const std::string_view bytes = run.text;
    for (std::size_t start = 0; start < bytes.size();) {
        const auto* newline = static_cast<const char*>(std::memchr(bytes.data() + start, '\n', bytes.size() - start));
        const std::size_t end = newline ? static_cast<std::size_t>(newline - bytes.data()) : bytes.size();
        f(bytes.substr(start, end - start), end - start, newline != nullptr);
        start = end + 1;
    }
}

/// Processes every item of `batch` (a run of lines cut as it goes: process_lines()), gives its blocks
/// back to their pool and lets its mapped pages go; `batch` is left empty.
Results process_batch(Batch& batch, const Process& process);

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


}  // namespace sediment_rows_cli
