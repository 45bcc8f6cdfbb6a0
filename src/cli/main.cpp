// sediment-rows: validate, format and inspect documents of the bundled schemas.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <fstream>
#include <functional>
#include <optional>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows.hpp"

namespace rows = sediment::rows;

namespace {

constexpr int kExitValid = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

const char* const kUsage = R"(usage: sediment-rows COMMAND [OPTIONS] [FILE...]

Commands:
  validate --schema NAME [--format text|jsonl] [--engine typed|schema] FILE...
      Checks every document. The typed engine decodes into the C++ models; the schema engine
      runs valijson over the bundled JSON Schema.
  format --schema NAME [--style compact|sediment] FILE...
      Decodes every document strictly and writes it again, one line per document.
  convert --from NAME --to NAME [--metadata FILE] [--lossy] [--style compact|sediment] FILE...
      Converts ATIF trajectories to rollout rows or their parts, and rollout rows to ATIF, one
      output line per document (docs/atif-mapping.md):
        --from atif-v1.7 --to nemo-gym-rollout.v2 | nemo-gym-response.v2 |
                              nemo-gym-responses-create-params.v2
        --from nemo-gym-rollout.v2 --to atif-v1.7
      A rollout row needs metadata: the trajectory's own (written by --to atif-v1.7), or line i of
      --metadata FILE for the i-th trajectory, an object {"metadata": {...}, "reward": 1.0}
      ("reward" optional). A value the target cannot hold fails the document with the full list;
      --lossy drops exactly those values and lists them on stderr.
  schema list
      Lists the bundled schemas.
  schema show NAME
      Prints a bundled schema, byte for byte.
  --version
      Prints the version.

FILE is a path or - for standard input. A .json file holds one document; any other file holds one
document per line (blank lines are skipped). Files are read as a stream: memory holds the documents
in flight, not the file.

  -j, --jobs N   threads (default: every core); output stays in input order.
  --max-depth N, --max-document-bytes N, --max-string-bytes N
                 limits on one document (defaults 1000, 268435456, 67108864); exceeding one is an
                 error that names it.
On a terminal, a progress line (documents, MB/s) shows on standard error while a command runs.

Exit status: 0 when every document is valid, 1 when any is invalid, 2 on a usage or I/O error.
)";

int usage_error(const std::string& message) {
    std::cerr << "sediment-rows: " << message << "\n" << "Try 'sediment-rows --help'.\n";
    return kExitUsage;
}

/// Escapes `s` as the body of a JSON string (the output is JSON; the input may be anything).
std::string json_string(std::string_view s) {
    std::string out;
    rows::detail::Writer w(out, rows::Style::sediment);
    std::string valid;
    // File names and messages may hold bytes that are not UTF-8: replace them rather than fail.
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = rows::detail::utf8_sequence(s, i);
        if (n == 0) {
            valid += "\xEF\xBF\xBD";
            ++i;
        } else {
            valid.append(s.substr(i, n));
            i += n;
        }
    }
    w.string(valid);
    return w.finish();
}

/// `FILE:LINE: POINTER: message`, one line per error; the document's root is `(root)`.
void print_errors(std::ostream& out, const std::string& path, std::size_t line, const std::vector<rows::Error>& errors) {
    for (const rows::Error& e : errors)
        out << path << ":" << line << ": " << (e.pointer.empty() ? "(root)" : e.pointer) << ": " << e.message << "\n";
}

struct Options {
    std::string command;
    const rows::SchemaInfo* schema = nullptr;
    std::string format = "text";
    std::string engine = "typed";
    rows::Style style = rows::Style::compact;
    const rows::SchemaInfo* to = nullptr;  // convert: --from is `schema`
    std::string metadata;
    bool lossy = false;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    rows::Limits limits;
    std::vector<std::string> files;
};

// ----- documents in, results out, in order, on every core --------------------------------------

/// One document: where it is, its text, and (convert --metadata) the metadata line that goes with it.
struct Document {
    const std::string* path = nullptr;
    std::size_t line = 0;
    std::string text;
    std::string metadata;
    std::size_t metadata_line = 0;
    std::string io_error;  // set instead of text when the file or the metadata could not be read

    static Document of(const std::string& path, std::size_t line, std::string text) {
        Document d;
        d.path = &path, d.line = line, d.text = std::move(text);
        return d;
    }
    static Document failure(const std::string& path, std::string message) {
        Document d;
        d.path = &path, d.io_error = std::move(message);
        return d;
    }
};

/// What one document gives: text for standard output and for standard error, and its verdict.
struct Outcome {
    std::string out, err;
    bool ok = true;
};

using Process = std::function<Outcome(const Document&)>;

struct Batch {
    std::vector<Document> documents;
    std::size_t bytes = 0;
};

struct Results {
    std::string out, err;
    std::size_t ok = 0, failed = 0, documents = 0, bytes = 0;
    bool io_error = false;
};

Results process_batch(const Batch& batch, const Process& process) {
    Results r;
    for (const Document& d : batch.documents) {
        if (!d.io_error.empty()) {
            r.err += d.io_error;
            r.io_error = true;
            continue;
        }
        Outcome o = process(d);
        r.out += o.out;
        r.err += o.err;
        ++(o.ok ? r.ok : r.failed);
        ++r.documents;
    }
    r.bytes = batch.bytes;
    return r;
}

/// "12000 documents, 250.3 MB/s" on standard error while a run lasts, when it is a terminal.
class Progress {
public:
    Progress() : on_(isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_(start_) {}
    void update(std::size_t documents, std::size_t bytes) {
        const auto now = Clock::now();
        if (!on_ || now - last_ < std::chrono::milliseconds(250)) return;
        last_ = now;
        const double seconds = std::chrono::duration<double>(now - start_).count();
        std::fprintf(stderr, "\r\033[K%zu documents, %.1f MB/s", documents, static_cast<double>(bytes) / seconds / 1e6);
        std::fflush(stderr);
        shown_ = true;
    }
    void clear() {
        if (shown_) std::fputs("\r\033[K", stderr);
        shown_ = false;
    }

private:
    using Clock = std::chrono::steady_clock;
    bool on_;
    bool shown_ = false;
    Clock::time_point start_, last_;
};

/// The next non-blank line of the --metadata file, for the next document.
struct MetadataLines {
    std::ifstream in;
    std::string path;
    std::size_t line = 0;

    bool next(Document& d) {
        std::string text;
        while (std::getline(in, text)) {
            ++line;
            if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
            d.metadata = std::move(text);
            d.metadata_line = line;
            return true;
        }
        d.io_error = path + ": no metadata line left for the next document\n";
        return false;
    }
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
                if (todo_.empty()) return;
                slot = todo_.front();
                todo_.pop_front();
            }
            Results r = process_batch(slot->batch, process_);
            slot->batch = Batch();
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

/// Reads every document of every file (a .json file is one document, any other file one per line),
/// processes them in batches on `o.jobs` threads, and writes the results in input order. Memory holds
/// the batches in flight (at most two per thread), never a whole file.
Results run_documents(const Options& o, const Process& process, MetadataLines* metadata) {
    constexpr std::size_t kBatchBytes = 4u << 20, kBatchDocuments = 4096;
    Results total;
    Progress progress;
    std::optional<Workers> workers;
    if (o.jobs > 1) workers.emplace(o.jobs, process);
    const auto emit = [&](Results r) {
        progress.clear();
        std::cout << r.out;
        std::cout.flush();
        std::cerr << r.err;
        total.ok += r.ok, total.failed += r.failed, total.documents += r.documents, total.bytes += r.bytes;
        total.io_error |= r.io_error;
        progress.update(total.documents, total.bytes);
    };
    Batch batch;
    const auto dispatch = [&] {
        if (!workers) {
            emit(process_batch(batch, process));
        } else {
            while (workers->in_flight() >= 2 * o.jobs) emit(workers->take());
            workers->submit(std::move(batch));
        }
        batch = Batch();
    };
    const auto add = [&](Document d) {
        if (metadata && d.io_error.empty()) metadata->next(d);
        batch.bytes += d.text.size() + 1;
        batch.documents.push_back(std::move(d));
        if (batch.bytes >= kBatchBytes || batch.documents.size() >= kBatchDocuments) dispatch();
    };
    for (const std::string& path : o.files) {
        std::ifstream file;
        std::istream* in = &std::cin;
        if (path != "-") {
            file.open(path, std::ios::binary);
            if (!file) {
                add(Document::failure(path, "sediment-rows: cannot open " + path + "\n"));
                continue;
            }
            in = &file;
        }
        if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
            add(Document::of(path, 1, std::string(std::istreambuf_iterator<char>(*in), std::istreambuf_iterator<char>())));
        } else {
            std::string line;
            for (std::size_t number = 1; std::getline(*in, line); ++number) {
                if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
                add(Document::of(path, number, std::move(line)));
                line = std::string();
            }
        }
        if (in->bad()) add(Document::failure(path, "sediment-rows: cannot read " + path + "\n"));
    }
    if (!batch.documents.empty()) dispatch();
    while (workers && workers->in_flight() > 0) emit(workers->take());
    progress.clear();
    return total;
}

std::string error_lines(const Document& d, const std::vector<rows::Error>& errors) {
    std::ostringstream out;
    print_errors(out, *d.path, d.line, errors);
    return out.str();
}

// ----- the commands ------------------------------------------------------------------------------

int exit_status(const Results& r) {
    if (r.io_error) return kExitUsage;
    return r.failed ? kExitInvalid : kExitValid;
}

int run_validate(const Options& o) {
    const Results r = run_documents(o, [&](const Document& d) {
        const std::vector<rows::Error> errors =
            o.engine == "schema" ? rows::validate(o.schema->id, d.text, o.limits) : rows::check(o.schema->id, d.text, o.limits);
        Outcome out;
        out.ok = errors.empty();
        if (o.format != "jsonl") {
            out.out = error_lines(d, errors);
            return out;
        }
        out.out = "{\"file\": " + json_string(*d.path) + ", \"line\": " + std::to_string(d.line) +
                  ", \"valid\": " + (errors.empty() ? "true" : "false") + ", \"errors\": [";
        for (std::size_t i = 0; i < errors.size(); ++i)
            out.out += std::string(i ? ", " : "") + "{\"pointer\": " + json_string(errors[i].pointer) +
                       ", \"message\": " + json_string(errors[i].message) + "}";
        out.out += "]}\n";
        return out;
    }, nullptr);
    std::cerr << r.ok << " valid, " << r.failed << " invalid\n";
    return exit_status(r);
}

int run_format(const Options& o) {
    const Results r = run_documents(o, [&](const Document& d) {
        Outcome out;
        std::vector<rows::Error> errors;
        out.ok = rows::reencode(o.schema->id, d.text, o.style, out.out, errors, o.limits);
        if (out.ok) out.out += '\n';
        else out.out.clear(), out.err = error_lines(d, errors);
        return out;
    }, nullptr);
    return exit_status(r);
}

int run_convert(const Options& o) {
    using rows::SchemaId;
    const SchemaId from = o.schema->id, to = o.to->id;
    const bool from_atif = from == SchemaId::atif_v1_7;
    if (from_atif ? to == SchemaId::atif_v1_7 || to == SchemaId::ci_outcome_v1
                  : from != SchemaId::nemo_gym_rollout_v2 || to != SchemaId::atif_v1_7)
        return usage_error("convert goes from atif-v1.7 to nemo-gym-rollout.v2, nemo-gym-response.v2 or "
                           "nemo-gym-responses-create-params.v2, or from nemo-gym-rollout.v2 to atif-v1.7");
    if (!o.metadata.empty() && to != SchemaId::nemo_gym_rollout_v2)
        return usage_error("--metadata goes with --to nemo-gym-rollout.v2");
    MetadataLines metadata;
    if (!o.metadata.empty()) {
        metadata.path = o.metadata;
        metadata.in.open(o.metadata, std::ios::binary);
        if (!metadata.in) {
            std::cerr << "sediment-rows: cannot open " << o.metadata << "\n";
            return kExitUsage;
        }
    }
    const rows::ConvertOptions options{o.lossy};
    const Results r = run_documents(o, [&](const Document& d) {
        Outcome out;
        std::vector<rows::Error> errors, losses;
        try {
            if (!from_atif) {
                rows::encode(rows::to_atif(rows::decode<rows::NemoGymRolloutRow>(d.text, o.limits)), out.out, o.style);
            } else {
                const auto trajectory = rows::decode<rows::AtifTrajectory>(d.text, o.limits);
                std::optional<rows::RowMetadata> given;
                if (!o.metadata.empty()) {
                    std::vector<rows::Error> metadata_errors;
                    if (!rows::decode(d.metadata, given.emplace(), metadata_errors)) {
                        std::ostringstream err;
                        print_errors(err, o.metadata, d.metadata_line, metadata_errors);
                        out.err = err.str();
                        out.ok = false;
                        return out;
                    }
                }
                if (to == SchemaId::nemo_gym_rollout_v2) {
                    auto row = rows::to_rollout_row(trajectory, given, options);
                    rows::encode(row.value, out.out, o.style);
                    losses = std::move(row.losses);
                } else {
                    auto parts = rows::to_row_parts(trajectory, options);
                    if (to == SchemaId::nemo_gym_response_v2) rows::encode(parts.value.response, out.out, o.style);
                    else rows::encode(parts.value.responses_create_params, out.out, o.style);
                    losses = std::move(parts.losses);
                    errors = rows::check(to, out.out);  // the create-params schema's own tool-call id rule
                }
            }
        } catch (const rows::DecodeError& e) {
            errors = e.errors();
        } catch (const rows::ConvertError& e) {
            errors = e.errors();
        } catch (const rows::EncodeError& e) {
            errors = {e.error()};
        }
        for (rows::Error& e : losses) e.message = "dropped: " + e.message;
        out.err = error_lines(d, losses) + error_lines(d, errors);
        out.ok = errors.empty();
        if (out.ok) out.out += '\n';
        else out.out.clear();
        return out;
    }, o.metadata.empty() ? nullptr : &metadata);
    std::cerr << r.ok << " converted, " << r.failed << " failed\n";
    return exit_status(r);
}

int run_schema(const std::vector<std::string>& args) {
    if (args.size() == 1 && args[0] == "list") {
        for (const rows::SchemaInfo& s : rows::kSchemas) std::cout << s.name << "\t" << s.uri << "\n";
        return kExitValid;
    }
    if (args.size() == 2 && args[0] == "show") {
        const rows::SchemaInfo* s = rows::find_schema(args[1]);
        if (!s) return usage_error("unknown schema '" + args[1] + "' (see 'sediment-rows schema list')");
        std::cout << rows::schema_text(s->id);
        return kExitValid;
    }
    return usage_error("usage: sediment-rows schema list | sediment-rows schema show NAME");
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usage_error("no command");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kUsage;
        return kExitValid;
    }
    if (args[0] == "--version" || args[0] == "version") {
        std::cout << "sediment-rows " << rows::library_version() << "\n";
        return kExitValid;
    }
    if (args[0] == "schema") return run_schema({args.begin() + 1, args.end()});

    Options o;
    o.command = args[0];
    if (o.command != "validate" && o.command != "format" && o.command != "convert")
        return usage_error("unknown command '" + o.command + "'");
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&](std::string& out) {
            if (i + 1 >= args.size()) return false;
            out = args[++i];
            return true;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return kExitValid;
        } else if (a == (o.command == "convert" ? "--from" : "--schema") || (a == "--to" && o.command == "convert")) {
            if (!value(v)) return usage_error(a + " needs a NAME");
            (a == "--to" ? o.to : o.schema) = rows::find_schema(v);
            if (!(a == "--to" ? o.to : o.schema))
                return usage_error("unknown schema '" + v + "' (see 'sediment-rows schema list')");
        } else if (a == "--metadata" && o.command == "convert") {
            if (!value(o.metadata)) return usage_error("--metadata needs a FILE");
        } else if (a == "--lossy" && o.command == "convert") {
            o.lossy = true;
        } else if (a == "--format" && o.command == "validate") {
            if (!value(o.format) || (o.format != "text" && o.format != "jsonl"))
                return usage_error("--format is text or jsonl");
        } else if (a == "--engine" && o.command == "validate") {
            if (!value(o.engine) || (o.engine != "typed" && o.engine != "schema"))
                return usage_error("--engine is typed or schema");
        } else if (a == "--max-depth" || a == "--max-document-bytes" || a == "--max-string-bytes") {
            if (!value(v) || v.empty() || v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos ||
                std::stoull(v) == 0)
                return usage_error(a + " needs a positive number");
            const std::size_t n = std::stoull(v);
            (a == "--max-depth" ? o.limits.max_depth : a == "--max-document-bytes" ? o.limits.max_document_bytes
                                                                                 : o.limits.max_string_bytes) = n;
        } else if (a == "--jobs" || a == "-j") {
            if (!value(v) || v.find_first_not_of("0123456789") != std::string::npos || v.empty() || v.size() > 4 ||
                std::stoul(v) == 0)
                return usage_error(a + " needs a number of threads, 1 or more");
            o.jobs = static_cast<unsigned>(std::stoul(v));
        } else if (a == "--style" && (o.command == "format" || o.command == "convert")) {
            if (!value(v) || (v != "compact" && v != "sediment")) return usage_error("--style is compact or sediment");
            o.style = v == "sediment" ? rows::Style::sediment : rows::Style::compact;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usage_error("unknown option '" + a + "' for " + o.command);
        } else {
            o.files.push_back(a);
        }
    }
    if (o.command == "convert" && (!o.schema || !o.to)) return usage_error("convert needs --from NAME and --to NAME");
    if (!o.schema) return usage_error(o.command + " needs --schema NAME");
    if (o.files.empty()) return usage_error(o.command + " needs at least one FILE (- for standard input)");
    if (o.command == "convert") return run_convert(o);
    return o.command == "validate" ? run_validate(o) : run_format(o);
}
