// Throughput of the ATIF readers on trajectory files (one JSON document each), every stage timed over
// the same documents in one run (best of --repeat runs), one thread:
//
//   atif-throughput [--repeat N] [--only WORD] [--harbor FILE...] [--] FILE...
//
// FILEs are trajectories valid under NeMo Gym's v1.7 subset; --harbor adds files valid under Harbor's
// model (of any version), for the Harbor stages. --only WORD times only the stages whose name holds
// WORD (for a profiler). bench/atif.py runs this beside NeMo Gym's own loader.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <simdjson.h>

#include <sediment/rows.hpp>

#include "detail/decode.hpp"  // the exact reader alone

namespace rows = sediment::rows;

namespace {

struct Corpus {
    std::vector<std::string> documents;
    double bytes = 0;
};

bool add_file(Corpus& corpus, const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    corpus.documents.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    corpus.bytes += static_cast<double>(corpus.documents.back().size());
    return true;
}

std::size_t sink = 0;  // keeps the work observable
std::string only;      // --only: the stages to time

void report(const char* stage, const Corpus& corpus, int repeat, const std::function<void(const std::string&)>& f) {
    if (!only.empty() && std::string(stage).find(only) == std::string::npos) return;
    double best = 1e300;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        for (const std::string& document : corpus.documents) f(document);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("%-44s %9.1f MB/s %10.0f docs/s\n", stage, corpus.bytes / best / 1e6,
                static_cast<double>(corpus.documents.size()) / best);
}

/// Every document is valid, or the figures mean nothing.
bool all_valid(const Corpus& corpus, rows::SchemaId schema) {
    for (const std::string& document : corpus.documents)
        if (!rows::validate(schema, document).errors.empty()) return false;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    int repeat = 20;
    Corpus subset, harbor;
    Corpus* files = &subset;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc) repeat = std::stoi(argv[++i]);
        else if (a == "--only" && i + 1 < argc) only = argv[++i];
        else if (a == "--harbor") files = &harbor;
        else if (a == "--") files = &subset;
        else if (!add_file(*files, argv[i])) return std::fprintf(stderr, "atif-throughput: cannot read %s\n", argv[i]), 2;
    }
    if (subset.documents.empty()) {
        std::fprintf(stderr, "usage: atif-throughput [--repeat N] [--only WORD] [--harbor FILE...] [--] FILE...\n");
        return 2;
    }
    if (!all_valid(subset, rows::SchemaId::atif_v1_7) || !all_valid(harbor, rows::SchemaId::atif)) {
        std::fprintf(stderr, "atif-throughput: a file is not valid under its schema\n");
        return 2;
    }
    std::printf("subset corpus: %zu trajectories, %.3f MB; Harbor corpus: %zu trajectories, %.3f MB\n",
                subset.documents.size(), subset.bytes / 1e6, harbor.documents.size(), harbor.bytes / 1e6);

    simdjson::dom::parser parser;
    report("simdjson parse alone (ceiling)", subset, repeat,
           [&](const std::string& d) { sink += parser.parse(d).is_object(); });
    std::vector<rows::Error> errors;
    rows::NemoGymAtifTrajectory trajectory;
    report("subset: decode() into one reused model", subset, repeat,
           [&](const std::string& d) { sink += rows::decode(d, trajectory, errors); });
    report("subset: decode() into a new model", subset, repeat, [&](const std::string& d) {
        rows::NemoGymAtifTrajectory fresh;
        sink += rows::decode(d, fresh, errors);
    });
    report("subset: validate() (builds nothing)", subset, repeat,
           [&](const std::string& d) { sink += rows::validate(rows::SchemaId::atif_v1_7, d).errors.size(); });
    report("subset: exact reader alone", subset, repeat, [&](const std::string& d) {
        rows::NemoGymAtifTrajectory fresh;
        sink += rows::detail::exact_decode(d, fresh, errors, {}, rows::SchemaId::atif_v1_7);
    });
    // ATIF -> response: the text of a trajectory in, the text of its row parts out (lossy: each
    // trajectory's losses listed, none refused).
    rows::ConvertOptions lossy;
    lossy.lossy = true;
    std::string out;
    report("subset: ATIF text -> response text", subset, repeat, [&](const std::string& d) {
        rows::decode(d, trajectory, errors);
        const auto parts = rows::to_row_parts(trajectory, lossy);
        out.clear();
        rows::encode(parts.value.response, out, rows::Style::sediment);
        sink += out.size();
    });
    // The same by name (what `sediment-rows convert` and Python's convert() do): the text read once.
    rows::ConvertedText converted;
    report("subset: convert() ATIF text -> response text", subset, repeat, [&](const std::string& d) {
        sink += rows::convert(d, "atif-v1.7", "nemo-gym-response.v2", converted, errors, rows::Style::sediment, lossy);
    });
    if (harbor.documents.empty()) return sink == 42;
    rows::HarborAtifTrajectory any_version;
    report("Harbor: decode() into one reused model", harbor, repeat,
           [&](const std::string& d) { sink += rows::decode(d, any_version, errors); });
    report("Harbor: validate() (builds nothing)", harbor, repeat,
           [&](const std::string& d) { sink += rows::validate(rows::SchemaId::atif, d).errors.size(); });
    report("Harbor: exact reader alone", harbor, repeat, [&](const std::string& d) {
        rows::HarborAtifTrajectory fresh;
        sink += rows::detail::exact_decode(d, fresh, errors, {}, rows::SchemaId::atif);
    });
    rows::Upgraded upgraded;
    report("Harbor: upgrade to the subset (text)", harbor, repeat, [&](const std::string& d) {
        errors.clear();
        sink += rows::upgrade(d, "atif", rows::SchemaId::atif_v1_7, upgraded, errors);
    });
    return sink == 42;
}
