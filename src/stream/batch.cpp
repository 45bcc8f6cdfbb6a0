#include "batch.hpp"

namespace sediment_rows_cli {

namespace {

/// Processes one document of the batch into `o`, with its layout hint.
void process_one(Document& d, Outcome& o, const Process& process, std::size_t hint_line) {
    o.kind = d.kind;
    o.finding.path = d.path;
    o.finding.line = d.line;
    o.message = std::move(d.message);
    o.compressed = d.compressed;
    o.documents = d.documents;
    if (d.kind != Document::document) return;
    process(d, o);
    if (!d.whole_file && !o.finding.errors.empty() && o.finding.path == d.path)  // (not the errors of a --metadata line)
        o.finding.errors.front().message += layout_hint(d.text, hint_line);
}

/// Cuts a run of lines into documents and processes each as it is cut, so that its bytes are read
/// once, right before the parser reads them. Lines are numbered from 1 within the run (the thread that
/// takes the outcomes adds the lines before it); a last outcome of kind `lines` says how many it held.
void process_lines(Document& run, std::vector<Outcome>& outcomes, const Process& process, const Cutting& cutting) {
    std::size_t number = 0, metadata = 0;
    const auto line = [&](std::string_view text, std::size_t size, bool terminated) {
        ++number;
        if (!holds_document(text, size, cutting.keep)) {
            if (!cutting.blank_lines) return;
            Outcome& o = outcomes.emplace_back();
            o.kind = Document::blank_line;
            o.finding.path = run.path;
            o.finding.line = number;
            o.in_run = true;
            return;
        }
        Document d;
        d.path = run.path;
        d.line = number;
        d.unterminated = !terminated;
        d.text = text.substr(0, cutting.keep);
        d.padded = run.single ? run.padded : !run.padded_before || d.text.data() + d.text.size() <= run.padded_before;
        d.size = size;
        if (metadata < run.metadata_lines.size()) {
            d.metadata = std::move(run.metadata_lines[metadata].first);
            d.metadata_line = run.metadata_lines[metadata++].second;
        } else if (!run.message.empty()) {  // --metadata ran out
            d.kind = Document::io_error;
            d.message = run.message;
        }
        Outcome& o = outcomes.emplace_back();
        o.in_run = true;
        process_one(d, o, process, run.file_start ? number : number + 1);
    };
    for_each_line(run, line);
    Outcome& end = outcomes.emplace_back();
    end.kind = Document::lines;
    end.finding.path = run.path;
    end.documents = number;
}

}  // namespace

Results process_batch(Batch& batch, const Process& process) {
    Results r;
    r.outcomes = std::move(batch.outcomes);
    r.outcomes.clear();
    r.outcomes.reserve(batch.documents.size());
    for (Document& d : batch.documents) {
        if (d.kind == Document::lines) process_lines(d, r.outcomes, process, *batch.cutting);
        else process_one(d, r.outcomes.emplace_back(), process, d.line);
    }
    r.bytes = batch.bytes;
    for (Block& b : batch.blocks) batch.pool->give(std::move(b));
    for (const Batch::Mapped& m : batch.mapped) m.file->release(m.begin, m.end);
    r.documents = std::move(batch.documents);
    r.documents.clear();
    batch = Batch();
    return r;
}

}  // namespace sediment_rows_cli
