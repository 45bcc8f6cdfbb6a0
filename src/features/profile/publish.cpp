// A profile folder published as Sediment publishes it (compatibility.py aligned_rows(),
// publish_compatible_rows(); jsonl.py write_jsonl()): rows in Sediment's order, Sediment's refusals, the
// files written in a private staging folder beside the destination and renamed to it at once.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <system_error>

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

// What both writers check and count before a file is written: the overlap refusal, an existing
// destination, and the manifest's first members (publish_compatible_rows()).
Json manifest_of(const Profile& p, const std::vector<Split>& splits, const std::vector<std::string_view>& prompts, const fs::path& out,
                 const ProfileOptions& options) {
    std::size_t overlap = 0;
    Json diagnostics = detail::diagnostics(splits, prompts, {}, overlap);  // SFT/DPO rows have no reward
    if (options.split && overlap)
        throw ProfileError("consumer export has " + std::to_string(overlap) + " exact prompts in both train and eval; select a coherent cohort");
    std::error_code ec;
    if (fs::exists(fs::symlink_status(out, ec))) throw ProfileError("consumer destination already exists: " + out.string());
    Json manifest = Json::object();
    manifest["profile"] = profile_entry(p);
    manifest["rows"] = splits.size();
    manifest["skipped"] = Json::object();
    if (options.canonical_skipped) manifest["canonical_skipped"] = *options.canonical_skipped;
    manifest["diagnostics"] = std::move(diagnostics);
    return manifest;
}

// Sediment's order: split ("eval" first), the data row's digest, then (where those tie) the evidence's
// digest form without row_sha256, which `evidence_of(i)` gives.
template <class Key, class Evidence>
void sort_indexes(std::vector<std::size_t>& order, const Key& key, const Evidence& evidence_of) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto [sa, da] = key(a);
        const auto [sb, db] = key(b);
        if (sa != sb) return detail::split_name(sa) < detail::split_name(sb);
        if (da != db) return da < db;
        const std::string ka = detail::evidence_key(parse(evidence_of(a)));  // (evidence_of(b) may reuse a's text)
        const std::string kb = detail::evidence_key(parse(evidence_of(b)));
        return ka < kb;
    });
}

}  // namespace

Json write_profile(const Profile& p, std::vector<ProfileRow> rows, const fs::path& out, const ProfileOptions& options) {
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) order[i] = i;
    sort_indexes(order, [&](std::size_t i) { return std::pair<Split, std::string_view>(rows[i].split, rows[i].row_sha256); },
                 [&](std::size_t i) { return std::string_view(rows[i].evidence); });
    std::vector<Split> splits;
    std::vector<std::string_view> prompts;
    for (const std::size_t i : order) splits.push_back(rows[i].split), prompts.push_back(rows[i].prompt_sha256);
    Json manifest = manifest_of(p, splits, prompts, out, options);
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
    std::uint32_t file;
    std::uint32_t line;
    std::string_view text;
    Split split;
    bool fast;  // the fast path accepted it (the second pass parses it without checking)
    std::string row_sha256, prompt_sha256;
};

// Each canonical row of `files`, mapped, to `f(found, row)`: each file mapped while it is read.
template <class F>
void each_row(const std::vector<fs::path>& files, std::vector<std::unique_ptr<detail::MappedFile>>& maps, F f) {
    std::string spare;
    for (std::size_t k = 0; k < files.size(); ++k) {
        auto map = std::make_unique<detail::MappedFile>();
        if (!map->open(files[k])) fail("cannot read", files[k], errno ? errno : EIO);
        maps.push_back(std::move(map));
        const detail::MappedFile& file = *maps.back();
        const std::optional<Split> named = split_of_name(files[k]);
        detail::each_line(file.text(), [&](std::size_t number, std::string_view line) {
            try {
                f(k, number, line, file.line(line, spare), named);
            } catch (const ProfileError& e) {
                throw ProfileError(detail::printable(files[k].string()) + ":" + std::to_string(number) + ": " + e.what());
            } catch (const EncodeError& e) {
                throw ProfileError(detail::printable(files[k].string()) + ":" + std::to_string(number) + ": " + e.error().pointer + ": " +
                                   e.error().message);
            }
        });
    }
}

}  // namespace

Json write_profile_files(const Profile& p, const std::vector<fs::path>& files, const fs::path& out, const ProfileOptions& options) {
    // First pass: every row checked and mapped to its digests (Sediment refuses the export at the first
    // row it refuses); the files stay mapped for the second pass, which writes the rows in order.
    std::vector<std::unique_ptr<detail::MappedFile>> maps;
    std::vector<Found> found;
    ProfileRow row;
    each_row(files, maps, [&](std::size_t k, std::size_t number, std::string_view line, const StringText& text, std::optional<Split> named) {
        detail::adapt_text(p, text, named, row, /*lines=*/false);
        const bool fast = row.data.empty();  // the fast path mapped it (the Json path writes its lines)
        found.push_back(Found{static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(number), line, row.split, fast, row.row_sha256,
                              row.prompt_sha256});
    });
    std::string spare;
    const auto mapped = [&](std::size_t i) -> ProfileRow& {  // the second pass's mapping of row i
        const Found& f = found[i];
        detail::adapt_text(p, maps[f.file]->line(f.text, spare), f.split, row, true, f.fast);
        return row;
    };
    std::vector<std::size_t> order(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) order[i] = i;
    std::string tie;
    sort_indexes(order, [&](std::size_t i) { return std::pair<Split, std::string_view>(found[i].split, found[i].row_sha256); },
                 [&](std::size_t i) { return tie = mapped(i).evidence, std::string_view(tie); });
    std::vector<Split> splits;
    std::vector<std::string_view> prompts;
    for (const std::size_t i : order) splits.push_back(found[i].split), prompts.push_back(found[i].prompt_sha256);
    Json manifest = manifest_of(p, splits, prompts, out, options);
    if (found.empty()) return manifest;
    Publisher publisher(out, options.split);
    for (const std::size_t i : order) {
        const ProfileRow& r = mapped(i);
        publisher.add(r.split, r.data, r.evidence);
    }
    return publisher.finish(std::move(manifest), out);
}

}  // namespace sediment::rows
