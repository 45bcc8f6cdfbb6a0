// A profile folder published as Sediment publishes it (compatibility.py aligned_rows(),
// publish_compatible_rows(); jsonl.py write_jsonl()): rows in Sediment's order, Sediment's refusals, the
// files written in a private staging folder beside the destination and renamed to it at once.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <system_error>
#include <thread>
#include <tuple>

#include "detail/text.hpp"
#include "detail/writer.hpp"
#include "features/lint/split.hpp"
#include "features/profile/profile_detail.hpp"
#include "sediment/rows/json.hpp"

namespace sediment::rows {

namespace fs = std::filesystem;

namespace detail {

// ----- reading ----------------------------------------------------------------------------------------

MappedFile::~MappedFile() {
    if (map_) ::munmap(map_, mapped_);
}

bool MappedFile::open(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const int error = S_ISDIR(st.st_mode) ? EISDIR : errno;
        ::close(fd);
        errno = error;
        return false;
    }
    size_ = static_cast<std::size_t>(st.st_size);
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    mapped_ = (size_ + page - 1) / page * page;
    if (size_) {
        map_ = ::mmap(nullptr, mapped_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (map_ == MAP_FAILED) {
            const int error = errno;
            map_ = nullptr;
            ::close(fd);
            errno = error;
            return false;
        }
    }
    ::close(fd);
    return true;
}

StringText MappedFile::line(std::string_view line, std::string& spare) const {
    const std::size_t end = static_cast<std::size_t>(line.data() - static_cast<const char*>(map_)) + line.size();
    if (end + kTextPadding <= mapped_) return StringText(line, true);
    spare.reserve(line.size() + kTextPadding);
    spare.assign(line);
    return StringText(spare);
}

// ----- Sediment's order and counts --------------------------------------------------------------------

std::string evidence_key(const Json& evidence) {
    Json rest = evidence;
    rest.erase("row_sha256");
    return digest_form(rest);
}

Json diagnostics(const std::vector<Split>& splits, const std::vector<std::string_view>& prompts, const std::vector<std::string>& rewards,
                 std::size_t& overlap) {
    std::map<std::string, std::size_t> by_split, by_reward;
    std::set<std::string_view> seen[2];
    for (std::size_t i = 0; i < splits.size(); ++i) {
        ++by_split[std::string(split_name(splits[i]))];
        if (i < prompts.size() && !prompts[i].empty()) seen[splits[i] == Split::eval].insert(prompts[i]);
        if (i < rewards.size() && !rewards[i].empty()) ++by_reward[rewards[i]];
    }
    overlap = 0;
    for (const std::string_view p : seen[1]) overlap += seen[0].count(p);
    Json out = Json::object();
    out["rows_by_split"] = Json::object();
    for (const auto& [split, n] : by_split) out["rows_by_split"][split] = n;
    out["reward_counts"] = Json::object();
    for (const auto& [reward, n] : by_reward) out["reward_counts"][reward] = n;
    out["exact_prompt_overlap"] = overlap;
    out["semantic_task_overlap"] = "not_assessed";
    return out;
}

std::string python_str(const Json& v) {
    if (v.is_number_float()) {
        std::string out;
        Writer w(out, Style::compact);
        w.json(v);
        return std::move(w.finish());
    }
    return v.dump();
}

}  // namespace detail

namespace {

// ----- writing ----------------------------------------------------------------------------------------

[[noreturn]] void fail(const char* what, const fs::path& path, int error) {
    throw fs::filesystem_error(what, path, std::error_code(error, std::generic_category()));
}

// A file of the staging folder, 0600, written through a buffer and hashed as it is written.
class Sink {
public:
    explicit Sink(fs::path path) : path_(std::move(path)) {
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd_ < 0) fail("cannot write", path_, errno);
        buffer_.reserve(kBuffer);
    }
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;
    ~Sink() {
        if (fd_ >= 0) ::close(fd_);
    }
    void add(std::string_view bytes) {
        if (buffer_.size() + bytes.size() > kBuffer) flush();
        if (bytes.size() > kBuffer) return put(bytes);
        buffer_.append(bytes);
    }
    // Closes the file (0600, on disk): its {"sha256", "bytes"}.
    Json finish() {
        flush();
        if (::fchmod(fd_, 0600) != 0 || ::fsync(fd_) != 0) fail("cannot write", path_, errno);
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail("cannot write", path_, errno);
        return Json{{"sha256", detail::hex(hash_.finish())}, {"bytes", bytes_}};
    }

private:
    static constexpr std::size_t kBuffer = 1u << 20;
    void flush() {
        put(buffer_);
        buffer_.clear();
    }
    void put(std::string_view bytes) {
        hash_.update(bytes);
        bytes_ += bytes.size();
        while (!bytes.empty()) {
            const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) fail("cannot write", path_, errno);
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
    }
    fs::path path_;
    int fd_ = -1;
    std::string buffer_;
    detail::Sha256 hash_;
    std::size_t bytes_ = 0;
};

// The staging folder beside `out`: the rows go in as they come (in Sediment's order), and finish()
// writes the manifest and renames the folder to `out`. Destroyed unfinished, it removes the folder.
class Publisher {
public:
    Publisher(const fs::path& out, bool split) : split_(split) {
        target_ = fs::absolute(out).lexically_normal();
        if (target_.filename().empty()) target_ = target_.parent_path();
        const fs::path parent = target_.parent_path();
        fs::create_directories(parent);
        std::string pattern = (parent / ("." + target_.filename().string() + "-XXXXXX")).string();
        if (!::mkdtemp(pattern.data())) fail("cannot make a staging folder", parent, errno);
        staging_ = pattern;
    }
    Publisher(const Publisher&) = delete;
    Publisher& operator=(const Publisher&) = delete;
    ~Publisher() {
        sinks_.clear();
        std::error_code ignored;
        if (!done_) fs::remove_all(staging_, ignored);
    }
    void add(Split split, std::string_view data, std::string_view evidence) {
        const int side = split_ ? (split == Split::eval ? 1 : 0) : 2;
        sink("data", side).add(data);
        sink("evidence", side).add(evidence);
    }
    Json finish(Json manifest, const fs::path& out) {
        Json files = Json::object();
        for (auto& [name, sink] : sinks_) files[name] = sink->finish();
        manifest["files"] = std::move(files);
        Json ordered = Json::object();  // the manifest's keys as Sediment builds it (its digest form sorts them)
        for (const char* key : {"profile", "rows", "skipped", "canonical_skipped", "fragmented", "files"})
            if (manifest.contains(key)) ordered[key] = std::move(manifest[key]);
        ordered["training_execution"] = "not_run";
        ordered["tool_definitions"] = "not_inferred";
        ordered["diagnostics"] = std::move(manifest["diagnostics"]);
        Sink file(staging_ / "compatibility.json");
        file.add(digest_form(ordered) + "\n");
        file.finish();
        std::error_code ec;
        if (fs::exists(fs::symlink_status(target_, ec))) throw ProfileError("consumer destination already exists: " + out.string());
        fs::rename(staging_, target_);
        done_ = true;
        return ordered;
    }

private:
    Sink& sink(const char* stem, int side) {
        static const char* const kSides[] = {".train.jsonl", ".eval.jsonl", ".jsonl"};
        const std::string name = std::string(stem) + kSides[side];
        auto found = sinks_.find(name);
        if (found == sinks_.end()) found = sinks_.emplace(name, std::make_unique<Sink>(staging_ / name)).first;
        return *found->second;
    }
    bool split_;
    fs::path target_, staging_;
    std::map<std::string, std::unique_ptr<Sink>> sinks_;  // by name: the manifest lists them sorted
    bool done_ = false;
};

// What both writers do before a file is written (aligned_rows(), publish_compatible_rows()): the rows put
// in Sediment's order, the overlap refusal, an existing destination refused, and the manifest's first
// members. `row(i)` gives row i's split, data row digest and prompt digest; `evidence_of(i)` its evidence
// line, read only where two rows tie.
template <class RowOf, class Evidence>
std::vector<std::size_t> plan(std::size_t n, const RowOf& row, const Evidence& evidence_of, const Profile& p, const fs::path& out,
                              const ProfileOptions& options, Json& manifest) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto [split_a, digest_a, prompt_a] = row(a);
        const auto [split_b, digest_b, prompt_b] = row(b);
        return detail::sorts_before(detail::split_name(split_a), digest_a, [&] { return evidence_of(a); }, detail::split_name(split_b),
                                    digest_b, [&] { return evidence_of(b); });
    });
    std::vector<Split> splits;
    std::vector<std::string_view> prompts;
    for (const std::size_t i : order) {
        const auto [split, digest, prompt] = row(i);
        splits.push_back(split), prompts.push_back(prompt);
    }
    std::size_t overlap = 0;
    Json diagnostics = detail::diagnostics(splits, prompts, {}, overlap);  // SFT/DPO rows have no reward
    if (options.split && overlap)
        throw ProfileError("consumer export has " + std::to_string(overlap) + " exact prompts in both train and eval; select a coherent cohort");
    std::error_code ec;
    if (fs::exists(fs::symlink_status(out, ec))) throw ProfileError("consumer destination already exists: " + out.string());
    manifest = Json::object();
    manifest["profile"] = profile_entry(p);
    manifest["rows"] = n;
    manifest["skipped"] = Json::object();
    if (options.canonical_skipped) manifest["canonical_skipped"] = *options.canonical_skipped;
    if (p.objective == "rlvr") manifest["fragmented"] = options.fragmented ? *options.fragmented : Json::object();
    else if (options.fragmented) throw ProfileError("only RLVR exports count fragmented rows");
    manifest["diagnostics"] = std::move(diagnostics);
    return order;
}

}  // namespace

Json write_profile(const Profile& p, std::vector<ProfileRow> rows, const fs::path& out, const ProfileOptions& options) {
    Json manifest;
    const std::vector<std::size_t> order = plan(
        rows.size(),
        [&](std::size_t i) { return std::tuple<Split, std::string_view, std::string_view>(rows[i].split, rows[i].row_sha256, rows[i].prompt_sha256); },
        [&](std::size_t i) { return std::string_view(rows[i].evidence); }, p, out, options, manifest);
    if (rows.empty()) return manifest;
    Publisher publisher(out, options.split);
    for (const std::size_t i : order) publisher.add(rows[i].split, rows[i].data, rows[i].evidence);
    return publisher.finish(std::move(manifest), out);
}

namespace {

// The split a canonical export's file name gives (sft.train.jsonl, dpo.eval.jsonl), else none.
std::optional<Split> split_of_name(const fs::path& path) {
    const std::string name = path.filename().string();
    if (name.find(".train.") != std::string::npos) return Split::train;
    if (name.find(".eval.") != std::string::npos) return Split::eval;
    return std::nullopt;
}

// One canonical row as the first pass leaves it: where it is, its split and digests.
struct Found {
    std::uint32_t file = 0;
    std::uint32_t line = 0;
    std::string_view text;
    Split split = Split::train;
    bool fast = false;  // the fast path accepted it (the second pass parses it without checking)
    std::string row_sha256, prompt_sha256;
};

// Runs `work(t, first, last)` on up to `jobs` threads over [0, n) cut in as many ranges, the first here.
// What a thread throws is thrown here, once every thread is done.
template <class F>
void on_threads(unsigned jobs, std::size_t n, F work) {
    jobs = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(jobs, n / 64 + 1)));  // each has rows to do
    std::vector<std::exception_ptr> thrown(jobs);
    const auto run = [&](unsigned t) {
        try {
            work(t, n * t / jobs, n * (t + 1) / jobs);
        } catch (...) {
            thrown[t] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(run, t);
    run(0);
    for (std::thread& thread : threads) thread.join();
    for (const std::exception_ptr& e : thrown)
        if (e) std::rethrow_exception(e);
}

}  // namespace

Json write_profile_files(const Profile& p, const std::vector<fs::path>& files, const fs::path& out, const ProfileOptions& options) {
    const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
    // The files mapped, and their lines (the first pass reads them on every thread, the second in order).
    std::vector<std::unique_ptr<detail::MappedFile>> maps;
    std::vector<Found> found;
    std::vector<std::optional<Split>> named;
    for (std::size_t k = 0; k < files.size(); ++k) {
        auto map = std::make_unique<detail::MappedFile>();
        if (!map->open(files[k])) fail("cannot read", files[k], errno ? errno : EIO);
        detail::each_line(map->text(), [&](std::size_t number, std::string_view line) {
            Found f;
            f.file = static_cast<std::uint32_t>(k), f.line = static_cast<std::uint32_t>(number), f.text = line;
            found.push_back(std::move(f));
        });
        maps.push_back(std::move(map));
        named.push_back(split_of_name(files[k]));
    }
    const auto where = [&](const Found& f) { return detail::printable(files[f.file].string()) + ":" + std::to_string(f.line) + ": "; };
    // First pass: every row checked and mapped to its digests. Sediment refuses the export at the first row
    // it refuses: each thread stops at its first, and the earliest is the export's.
    std::vector<std::pair<std::size_t, std::string>> refused(jobs, {SIZE_MAX, std::string()});
    on_threads(jobs, found.size(), [&](unsigned t, std::size_t first, std::size_t last) {
        ProfileRow row;
        std::string spare;
        for (std::size_t i = first; i < last; ++i) {
            Found& f = found[i];
            try {
                detail::adapt_text(p, maps[f.file]->line(f.text, spare), named[f.file], row, /*lines=*/false, options.consumer);
            } catch (const ProfileError& e) {
                refused[t] = {i, where(f) + e.what()};
                return;
            } catch (const EncodeError& e) {
                refused[t] = {i, where(f) + e.error().pointer + ": " + e.error().message};
                return;
            }
            f.split = row.split;
            f.fast = row.data.empty();  // the fast path mapped it (the Json path writes its lines)
            f.row_sha256 = std::move(row.row_sha256), f.prompt_sha256 = std::move(row.prompt_sha256);
        }
    });
    const auto first_refused = std::min_element(refused.begin(), refused.end());
    if (first_refused->first != SIZE_MAX) throw ProfileError(first_refused->second);

    // The second pass's mapping of row i, into `row` (its strings reused).
    const auto mapped = [&](std::size_t i, ProfileRow& row, std::string& spare) -> ProfileRow& {
        const Found& f = found[i];
        detail::adapt_text(p, maps[f.file]->line(f.text, spare), f.split, row, true, options.consumer, f.fast);
        return row;
    };
    ProfileRow tie;
    std::string tie_spare;
    Json manifest;
    const std::vector<std::size_t> order = plan(
        found.size(),
        [&](std::size_t i) { return std::tuple<Split, std::string_view, std::string_view>(found[i].split, found[i].row_sha256, found[i].prompt_sha256); },
        [&](std::size_t i) { return std::string_view(mapped(i, tie, tie_spare).evidence); }, p, out, options, manifest);
    if (found.empty()) return manifest;

    // Second pass: the rows mapped again, a batch at a time on every thread, and written in order.
    Publisher publisher(out, options.split);
    struct Lines {
        std::string data, evidence;
        ProfileRow row;
        std::string spare;
    };
    std::vector<Lines> lines(jobs);
    constexpr std::size_t kBatch = 2048;
    for (std::size_t start = 0; start < order.size();) {
        std::size_t end = std::min(order.size(), start + kBatch);
        if (options.split)  // a batch of one partition (eval's rows come first)
            for (std::size_t i = start + 1; i < end; ++i)
                if (found[order[i]].split != found[order[start]].split) end = i;
        for (Lines& l : lines) l.data.clear(), l.evidence.clear();
        on_threads(jobs, end - start, [&](unsigned t, std::size_t first, std::size_t last) {
            Lines& l = lines[t];
            for (std::size_t k = start + first; k < start + last; ++k) {
                const ProfileRow& r = mapped(order[k], l.row, l.spare);
                l.data += r.data, l.evidence += r.evidence;
            }
        });
        for (const Lines& l : lines) publisher.add(found[order[start]].split, l.data, l.evidence);
        start = end;
    }
    return publisher.finish(std::move(manifest), out);
}

}  // namespace sediment::rows
