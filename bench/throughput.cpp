// Throughput of the row library on a JSONL corpus, each stage timed over the same lines in one run
// (best of --repeat runs), so that the ratios between stages hold on a noisy machine.
//
//   throughput FILE.jsonl [--repeat N] [--schema NAME] [--valijson-rows N] [--only WORDS] [--simdjson-only 1]
//              [--versions FILE2.jsonl NAME2]
//   throughput --parse-many FILE.jsonl
//   throughput --parse-many-streamed FILE.jsonl
//
// --only WORDS times only the stages whose name contains one of WORDS, separated by commas (for a
// profiler, or one question), after decoding once.
// --simdjson-only 1 leaves out the lines simdjson's DOM refuses (integers beyond 64 bits, which the
// library reads), so that parse_many, which stops at the first, is a baseline over the same rows.
// --versions times the typed verdict, validate(), on FILE (under --schema) and on FILE2 (under NAME2)
// in alternating rounds, and by the name without a version, and gives the ratio: the same rows in two
// versions (rowgen.py --version).
// --parse-many loads FILE and parses every document into simdjson's DOM with parse_many, and prints
// how many: the ceiling of a whole process that reads a file (bench/run.sh times it as it times the CLI).
// --parse-many-streamed does the same reading the file in 4 MiB blocks into one reused buffer, each
// block's whole lines parsed with parse_many and the partial last line carried into the next: a
// streaming reader's ceiling, which cuts no lines and checks nothing (issue 52's baseline).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <simdjson.h>

#include <sediment/rows.hpp>

#include "detail/decode.hpp"  // the exact reader alone

namespace rows = sediment::rows;

namespace {

double seconds_of(const std::function<void()>& f, int repeat) {
    double best = 1e300;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

std::string only;  // --only: the stages to time
double parse_many_seconds = 0;  // the time of "simdjson parse_many", decode()'s baseline, when it was timed
double in_place_seconds = 0;    // the time of "simdjson parse each line in place", the other baseline

bool timed(const char* stage) {
    if (only.empty()) return true;
    for (std::size_t from = 0; from <= only.size();) {
        const std::size_t to = std::min(only.find(',', from), only.size());
        if (std::string(stage).find(only.substr(from, to - from)) != std::string::npos) return true;
        from = to + 1;
    }
    return false;
}

std::vector<std::string> read_lines(const char* path, double& bytes) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::string> lines;
    bytes = 0;
    for (std::string line; std::getline(in, line);) {
        bytes += static_cast<double>(line.size() + 1);
        lines.push_back(std::move(line));
    }
    return lines;
}

/// validate() on two corpora (two versions of one schema, or two families), in alternating rounds (best of `repeat` each),
/// under their versioned names and under the name without a version; and simdjson's parse alone of each, whose ratio is
/// the parser's own between the corpora (a document it refuses, with an integer beyond 64 bits, stops early).
void compare_versions(const std::vector<std::string>& a, double a_bytes, const rows::SchemaInfo& a_schema,
                      const std::vector<std::string>& b, double b_bytes, const rows::SchemaInfo& b_schema, int repeat) {
    std::size_t sink = 0;
    const auto time = [&](const std::vector<std::string>& lines, std::string_view name, bool by_name) {
        const auto start = std::chrono::steady_clock::now();
        for (const auto& l : lines) sink += by_name ? rows::validate(name, l).errors.size() : rows::validate(rows::find_schema(name)->id, l).errors.size();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    simdjson::dom::parser parser;
    const auto parse = [&](const std::vector<std::string>& lines) {
        const auto start = std::chrono::steady_clock::now();
        for (const auto& l : lines) [[maybe_unused]] const auto parsed = parser.parse(l).error();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    double best[6] = {1e300, 1e300, 1e300, 1e300, 1e300, 1e300};
    for (int r = 0; r < repeat; ++r) {
        best[0] = std::min(best[0], time(a, a_schema.name, false));
        best[1] = std::min(best[1], time(b, b_schema.name, false));
        best[2] = std::min(best[2], time(a, a_schema.base, true));
        best[3] = std::min(best[3], time(b, b_schema.base, true));
        best[4] = std::min(best[4], parse(a));
        best[5] = std::min(best[5], parse(b));
    }
    if (sink) std::printf("(%zu errors: the corpora are not valid)\n", sink);
    const auto line = [](std::string stage, double bytes, double seconds) {
        std::printf("%-34s %9.1f MB/s\n", stage.c_str(), bytes / seconds / 1e6);
    };
    line("validate(), " + std::string(a_schema.name), a_bytes, best[0]);
    line("validate(), " + std::string(b_schema.name), b_bytes, best[1]);
    line("validate(\"" + std::string(a_schema.base) + "\"), v" + std::to_string(a_schema.version) + " rows", a_bytes, best[2]);
    line("validate(\"" + std::string(b_schema.base) + "\"), v" + std::to_string(b_schema.version) + " rows", b_bytes, best[3]);
    const std::string ratio = a_schema.base == b_schema.base
                                  ? "v" + std::to_string(b_schema.version) + " / v" + std::to_string(a_schema.version) + " MB/s"
                                  : std::string(b_schema.name) + " / " + std::string(a_schema.name);
    std::printf("%-34s %9.2fx\n", ratio.c_str(), (b_bytes / best[1]) / (a_bytes / best[0]));
    line("simdjson parse alone, " + std::string(a_schema.name), a_bytes, best[4]);
    line("simdjson parse alone, " + std::string(b_schema.name), b_bytes, best[5]);
    std::printf("%-34s %9.2fx\n", "simdjson's own ratio", (b_bytes / best[5]) / (a_bytes / best[4]));
}

/// Times `stage` (best of `repeat`) and prints its speed; its seconds, or 0 when --only leaves it out.
double report(const char* stage, double bytes, std::size_t docs, const std::function<void()>& f, int repeat) {
    if (!timed(stage)) return 0;
    const double seconds = seconds_of(f, repeat);
    std::printf("%-34s %9.1f MB/s %10.0f docs/s\n", stage, bytes / seconds / 1e6, static_cast<double>(docs) / seconds);
    return seconds;
}

/// A decode stage's speed as a share of simdjson's parse_many over the same rows (issue 32, target 1).
void versus_parse_many(const char* stage, double seconds) {
    if (seconds > 0 && parse_many_seconds > 0) std::printf("%-34s %9.2fx\n", stage, parse_many_seconds / seconds);
}

/// decode() of every line into the model of `schema` (T), fresh and reused, the exact reader alone, and
/// both encoders over the decoded rows.
template <class T>
void decode_and_encode(rows::type_tag<T>, const std::vector<std::string>& lines, double bytes, const rows::SchemaInfo& schema,
                       int repeat, std::size_t& sink) {
    std::vector<rows::Error> errors;
    const double fresh = report("decode() into a new row per line", bytes, lines.size(), [&] {
        for (const auto& l : lines) {
            T row;  // built and dropped for each line
            sink += rows::decode(l, row, errors, schema.id);
        }
    }, repeat);
    T reused;  // a trainer's loop: every line into one model, reusing its memory
    const double reusing = report("decode() into one reused row", bytes, lines.size(), [&] {
        for (const auto& l : lines) sink += rows::decode(l, reused, errors, schema.id);
    }, repeat);
    versus_parse_many("  new row / parse_many", fresh);
    versus_parse_many("  reused row / parse_many", reusing);
    // a trainer's loop over lines it holds, each with room for the padding: read where it is
    std::vector<std::string> padded_lines = lines;
    for (std::string& l : padded_lines) l.reserve(l.size() + rows::kTextPadding);
    const double in_place = report("decode() in place, one reused row", bytes, lines.size(), [&] {
        for (const auto& l : padded_lines) sink += rows::decode(rows::StringText(l), reused, errors, schema.id);
    }, repeat);
    if (in_place > 0 && in_place_seconds > 0) {
        if (reusing > 0) std::printf("%-34s %9.2fx\n", "  reused row / in-place parse", in_place_seconds / reusing);
        std::printf("%-34s %9.2fx\n", "  in place / in-place parse", in_place_seconds / in_place);
    }
    // What reusing a row's memory can give at most: each line decoded from two copies, the second
    // into a row that holds every string, vector and free-form value of the line's own shape already
    // (its copy as far from the cache as the first); its time is the pair's less the line's alone.
    if (in_place > 0 && timed("decode() in place, same shapes")) {
        std::vector<std::string> copies;
        for (const std::string& l : padded_lines) copies.emplace_back(l).reserve(l.size() + rows::kTextPadding);
        const double pairs = seconds_of([&] {
            for (std::size_t i = 0; i < lines.size(); ++i) {
                sink += rows::decode(rows::StringText(padded_lines[i]), reused, errors, schema.id);
                sink += rows::decode(rows::StringText(copies[i]), reused, errors, schema.id);
            }
        }, repeat);
        const double again = pairs - in_place;
        std::printf("%-34s %9.1f MB/s\n", "decode() in place, same shapes", bytes / again / 1e6);
        if (in_place_seconds > 0) std::printf("%-34s %9.2fx\n", "  same shapes / in-place parse", in_place_seconds / again);
    }
    report("  exact reader alone", bytes, lines.size(), [&] {
        for (const auto& l : lines) {
            T row;
            sink += rows::detail::exact_decode(l, row, errors, {}, schema.id);
        }
    }, repeat);
    if (!errors.empty()) std::printf("(%zu decode errors: the corpus is not valid under %s)\n", errors.size(), std::string(schema.name).c_str());
    // The encoders read rows decoded once, as a program that decodes and then encodes does.
    std::vector<T> decoded(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) rows::decode(lines[i], decoded[i], errors, schema.id);
    std::string out;
    out.reserve(static_cast<std::size_t>(bytes) + 1024);
    report("encode compact", bytes, lines.size(), [&] {
        out.clear();
        for (const auto& row : decoded) rows::encode(row, out, rows::Style::compact);
    }, repeat);
    report("encode sediment", bytes, lines.size(), [&] {
        out.clear();
        for (const auto& row : decoded) rows::encode(row, out, rows::Style::sediment);
    }, repeat);
}

/// --parse-many-streamed: every document of the file into simdjson's DOM, the file read in 4 MiB
/// blocks into one reused buffer; 1 on any error.
int parse_many_streamed(const char* path) {
    constexpr std::size_t kBlock = 4u << 20;
    std::FILE* f = std::fopen(path, "rb");
    if (!f) return 1;
    std::vector<char> buffer(2 * kBlock + simdjson::SIMDJSON_PADDING);
    simdjson::dom::parser parser;
    std::size_t documents = 0, held = 0;  // bytes of a partial line carried from the last block
    for (;;) {
        if (held + kBlock > buffer.size() - simdjson::SIMDJSON_PADDING) buffer.resize(2 * (held + kBlock) + simdjson::SIMDJSON_PADDING);
        const std::size_t n = std::fread(buffer.data() + held, 1, kBlock, f);
        const std::size_t size = held + n;
        std::size_t whole = size;  // up to the last '\n' (everything at the end of the file)
        if (n > 0) {
            while (whole > 0 && buffer[whole - 1] != '\n') --whole;
        }
        if (whole > 0) {
            simdjson::dom::document_stream stream;
            if (parser.parse_many(reinterpret_cast<const std::uint8_t*>(buffer.data()), whole, 16u << 20).get(stream)) return 1;
            for (auto document : stream) {
                if (document.error()) return 1;
                ++documents;
            }
        }
        std::memmove(buffer.data(), buffer.data() + whole, size - whole);
        held = size - whole;
        if (n == 0) break;
    }
    std::fclose(f);
    std::printf("%zu documents\n", documents);
    return 0;
}

/// --parse-many: every document of the file into simdjson's DOM; 1 on any error.
int parse_many(const char* path) {
    simdjson::padded_string text;
    if (simdjson::padded_string::load(path).get(text)) return 1;
    simdjson::dom::parser parser;
    simdjson::dom::document_stream stream;
    if (parser.parse_many(text, 16u << 20).get(stream)) return 1;  // batches of 16 MiB hold any row
    std::size_t documents = 0;
    for (auto document : stream) {
        if (document.error()) return 1;
        ++documents;
    }
    std::printf("%zu documents\n", documents);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--parse-many") return parse_many(argv[2]);
    if (argc == 3 && std::string(argv[1]) == "--parse-many-streamed") return parse_many_streamed(argv[2]);
    if (argc < 2) {
        std::cerr << "usage: throughput FILE.jsonl [--repeat N] [--schema NAME] [--valijson-rows N] [--only WORD]\n";
        return 2;
    }
    int repeat = 3;
    std::size_t valijson_rows = 200;
    const rows::SchemaInfo* schema = rows::find_schema("nemo-gym-rollout.v2");
    const char* versions_file = nullptr;
    const rows::SchemaInfo* versions_schema = nullptr;
    bool simdjson_only = false;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--repeat") repeat = std::stoi(argv[i + 1]);
        else if (a == "--valijson-rows") valijson_rows = std::stoul(argv[i + 1]);
        else if (a == "--schema") schema = rows::find_schema(argv[i + 1]);
        else if (a == "--only") only = argv[i + 1];
        else if (a == "--simdjson-only") simdjson_only = std::string(argv[i + 1]) == "1";
        else if (a == "--versions" && i + 2 < argc) versions_file = argv[i + 1], versions_schema = rows::find_schema(argv[i + 2]), ++i;
    }
    if (!schema || (versions_file && !versions_schema)) return 2;
    double bytes = 0;
    std::vector<std::string> lines = read_lines(argv[1], bytes);
    if (simdjson_only) {
        simdjson::dom::parser check;
        const std::size_t all = lines.size();
        lines.erase(std::remove_if(lines.begin(), lines.end(), [&](const std::string& l) { return check.parse(l).error() != simdjson::SUCCESS; }),
                    lines.end());
        bytes = 0;
        for (const auto& l : lines) bytes += static_cast<double>(l.size() + 1);
        std::printf("(%zu of %zu lines left out: simdjson refuses them)\n", all - lines.size(), all);
    }
    if (versions_file) {
        double other_bytes = 0;
        const std::vector<std::string> other = read_lines(versions_file, other_bytes);
        std::printf("corpora: %zu documents, %.1f MB (%s); %zu, %.1f MB (%s)\n", lines.size(), bytes / 1e6, std::string(schema->name).c_str(),
                    other.size(), other_bytes / 1e6, std::string(versions_schema->name).c_str());
        compare_versions(lines, bytes, *schema, other, other_bytes, *versions_schema, repeat);
        return 0;
    }
    std::printf("corpus: %zu documents, %.1f MB (%s)\n", lines.size(), bytes / 1e6, std::string(schema->name).c_str());

    std::size_t sink = 0;
    simdjson::dom::parser parser;
    report("simdjson parse alone (ceiling)", bytes, lines.size(), [&] {
        for (const auto& l : lines) sink += parser.parse(l).is_object();
    }, repeat);
    // Each line parsed where it is, as a user's loop over lines with room for the padding parses them
    // (decode()'s in-place baseline: no copy, one reused parser)
    std::vector<std::string> padded_lines = lines;
    for (std::string& l : padded_lines) l.reserve(l.size() + simdjson::SIMDJSON_PADDING);
    in_place_seconds = report("simdjson parse each line in place", bytes, lines.size(), [&] {
        for (const auto& l : padded_lines) sink += parser.parse(l.data(), l.size(), false).is_object();
    }, repeat);
    // The same rows as one text, as simdjson's own reader of JSONL parses them (decode()'s baseline).
    std::string joined;
    for (const auto& l : lines) joined.append(l).push_back('\n');
    const simdjson::padded_string padded(joined);
    std::size_t parsed = 0;  // simdjson stops at the first document it refuses (an integer beyond 64 bits)
    parse_many_seconds = report("simdjson parse_many", bytes, lines.size(), [&] {
        parsed = 0;
        simdjson::dom::document_stream stream;
        if (parser.parse_many(padded, 16u << 20).get(stream)) return;
        for (auto document : stream) {
            if (document.error()) break;
            ++parsed;
        }
    }, repeat);
    if (parse_many_seconds > 0 && parsed != lines.size())
        std::printf("(parse_many stopped after %zu of %zu documents)\n", parsed, lines.size());
    report("nlohmann::json::parse alone", bytes, lines.size(), [&] {
        for (const auto& l : lines) sink += nlohmann::json::parse(l).size();
    }, repeat);
    report("strict parse (rows::parse)", bytes, lines.size(), [&] {
        for (const auto& l : lines) sink += rows::parse(l).size();
    }, repeat);

    const double verdict = report("validate() (builds nothing)", bytes, lines.size(), [&] {
        for (const auto& l : lines) sink += rows::validate(schema->id, l).errors.size();
    }, repeat);
    // The verdict alone: decode() carries it, so no decode outruns it (issue 32, target 1's bound)
    versus_parse_many("  validate() / parse_many", verdict);

    std::vector<rows::Error> errors;
    rows::visit_schema(schema->id, [&](auto tag) { decode_and_encode(tag, lines, bytes, *schema, repeat, sink); });

    // Conversion by name, text to text (what `sediment-rows convert` and Python's convert() do), both ways.
    if (schema->base == "nemo-gym-rollout") {
        rows::ConvertedText converted;
        std::vector<std::string> atif;
        double atif_bytes = 0;
        for (const auto& l : lines) {
            if (!rows::convert(l, schema->name, "atif-v1.7", converted, errors)) break;
            atif_bytes += static_cast<double>(converted.text.size() + 1);
            atif.push_back(converted.text);
        }
        if (atif.size() == lines.size()) {
            report("convert() row -> ATIF text", bytes, lines.size(), [&] {
                for (const auto& l : lines) sink += rows::convert(l, schema->name, "atif-v1.7", converted, errors);
            }, repeat);
            report("convert() ATIF -> row text", atif_bytes, atif.size(), [&] {
                for (const auto& a : atif) sink += rows::convert(a, "atif-v1.7", schema->name, converted, errors);
            }, repeat);
        }
    }

    const std::size_t n = std::min(valijson_rows, lines.size());
    double vbytes = 0;
    for (std::size_t i = 0; i < n; ++i) vbytes += static_cast<double>(lines[i].size() + 1);
    report("valijson validate (first rows)", vbytes, n, [&] {
        for (std::size_t i = 0; i < n; ++i) sink += rows::validate(schema->id, lines[i], rows::Engine::schema).errors.size();
    }, 1);
    return sink == 42 ? 1 : 0;  // keeps the work observable
}
