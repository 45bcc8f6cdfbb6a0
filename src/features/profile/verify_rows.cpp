// The rows of a consumer profile folder (verify_rows.hpp).
#include "features/profile/verify_rows.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "detail/text.hpp"
#include "features/lint/split.hpp"
#include "features/profile/forms.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/json.hpp"

namespace sediment::rows::detail::verification {

namespace {

// The canonical row a data row maps from (docs/profiles.md), as far as digests see it. SFT/DPO: the
// adapter's renames and weights undone, Fireworks' arguments parsed back (a row its model accepts).
// SWE-bench: the row's instance_id, repo, base_commit and patch (adapt_swe_rows() refuses a task whose
// repo or base_commit differ from its row's), the evidence's captured problem statement and metadata.
Json canonical_of(const Profile& p, const Json& data, const Json& evidence) {
    const Json& metadata = evidence["metadata"];
    if (p.consumer == "swe-bench")
        return Json{{"instance_id", data["instance_id"]}, {"repo", data["repo"]}, {"base_commit", data["base_commit"]},
                    {"problem_statement", evidence["captured_first_user_message"]}, {"patch", data["patch"]}, {"metadata", metadata}};
    const auto restore = [](Json list) {
        for (Json& m : list) {
            if (!m.is_object()) return list;
            m.erase("weight");
            if (m.contains("reasoning_content")) {
                Json r = std::move(m["reasoning_content"]);
                m.erase("reasoning_content");
                m["thinking"] = std::move(r);
            }
            if (m.contains("tool_calls") && m["tool_calls"].is_array())
                for (Json& call : m["tool_calls"])
                    if (call.is_object() && call.contains("function") && call["function"].contains("arguments") &&
                        call["function"]["arguments"].is_string()) {
                        Json args;
                        std::vector<Error> errors;
                        if (parse(call["function"]["arguments"].get_ref<const std::string&>(), args, errors))
                            call["function"]["arguments"] = std::move(args);
                    }
        }
        return list;
    };
    const bool fireworks = p.consumer == "fireworks";
    if (p.objective == "sft") {
        Json prompt = Json::array(), completion = Json::array();
        if (fireworks) {
            bool after = false;
            for (const Json& m : data["messages"]) {
                after = after || (m.contains("weight") && m["weight"] == 1);
                (after ? completion : prompt).push_back(m);
            }
        } else {
            prompt = data["prompt"], completion = data["completion"];
        }
        return Json{{"prompt", restore(prompt)}, {"completion", restore(completion)}, {"tools", Json::array()}, {"metadata", metadata}};
    }
    if (fireworks)
        return Json{{"prompt", restore(data["input"]["messages"])},
                    {"chosen", restore(data["preferred_output"])},
                    {"rejected", restore(data["non_preferred_output"])},
                    {"tools", Json::array()},
                    {"metadata", metadata}};
    return Json{{"prompt", restore(data["prompt"])}, {"chosen", restore(data["chosen"])}, {"rejected", restore(data["rejected"])},
                {"tools", Json::array()}, {"metadata", metadata}};
}

// The data row's digest form, as write_tape() writes it, recording where the member values of its lists'
// messages are (`spans`).
void write_sorted_row(Writer& w, const TapeDoc& d, MessageSpans& spans) {
    using tape::Value;
    std::vector<std::pair<std::string_view, Value>> top, members;
    const auto sorted_members = [](Value object, std::vector<std::pair<std::string_view, Value>>& out) {
        out.clear();
        tape::each_member(object, [&](std::string_view k, Value v) { out.emplace_back(k, v); });
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    };
    sorted_members(d.root, top);
    w.begin_object();
    for (const auto& [key, list] : top) {
        w.key(key);
        if (list.type() != '[' || key == "tools") {
            write_tape(w, d, list, true);
            continue;
        }
        const std::size_t first_message = spans.messages.size();
        w.begin_array();
        for (Value m = list.first(); m.at < list.close(); m = m.with(m.next())) {
            sorted_members(m, members);
            const std::size_t first = spans.members.size();
            w.begin_object();
            for (const auto& [k, v] : members) {
                w.key(k);
                const std::size_t begin = w.written();
                write_tape(w, d, v, true);
                spans.members.push_back({k, begin, w.written()});
            }
            w.end_object();
            spans.messages.emplace_back(first, spans.members.size());
        }
        w.end_array();
        spans.lists.push_back({key, {first_message, spans.messages.size()}});
    }
    w.end_object();
}

}  // namespace

// Where `actual` first differs from `expected`, in words: "byte 12: ', ' where ... has ','".
std::string byte_difference(std::string_view actual, std::string_view expected) {
    std::size_t i = 0;
    while (i < actual.size() && i < expected.size() && actual[i] == expected[i]) ++i;
    const auto excerpt = [](std::string_view s, std::size_t at) {
        if (at >= s.size()) return std::string("the end");
        return "'" + printable(s.substr(at, std::min<std::size_t>(12, s.size() - at))) + "'";
    };
    return "from byte " + std::to_string(i + 1) + ": " + excerpt(actual, i) + " where Sediment writes " + excerpt(expected, i);
}

bool RowReader::read(const Pair& pair, std::size_t number, const MappedFile& data_file, std::string_view data, const MappedFile& evidence_file,
                     std::string_view evidence, Row& row, std::vector<Pending>& pending) const {
    if (!exact_ && fast_row(pair, number, data_file, data, evidence_file, evidence, row, pending)) return true;
    pending.clear(), row = Row{};  // what the fast path found, the exact one finds again
    return exact_row(pair, number, data, evidence, row, pending);
}

// Whether `line` (its newline taken off) is in line form (a scan of its bytes); where it is not, the
// line form Sediment's writer gives, for the finding.
bool RowReader::in_line_form(const TapeDoc& d, std::string_view line, std::string& formed) {
    if (detail::in_line_form(line)) return true;
    formed.clear();
    {
        Writer w(formed, Style::sediment);
        write_tape(w, d, d.root, false);
    }
    return formed == line;
}

bool RowReader::fast_row(const Pair& pair, std::size_t number, const MappedFile& data_file, std::string_view data,
              const MappedFile& evidence_file, std::string_view evidence, Row& row, std::vector<Pending>& pending) const {
    // no models, or a task profile (few small rows): the exact path reads the lines
    if (!profile_->data || !profile_->evidence || profile_->objective == "rlvr") return false;
    if (data.empty() || data.back() != '\n' || evidence.empty() || evidence.back() != '\n') return false;
    data.remove_suffix(1), evidence.remove_suffix(1);
    thread_local std::string data_spare, evidence_spare;
    const StringText data_text = data_file.line(data, data_spare), evidence_text = evidence_file.line(evidence, evidence_spare);
    thread_local std::string formed;
    std::string metadata, row_sha256, canonical_schema;
    bool read = false;
    // The evidence: its line form and keys, its digests and split, its metadata's digest form.
    fast_check_dom(schema_info(*profile_->evidence).name, evidence_text.text(), Limits{}, evidence_text.padded(),
                           [&](simdjson::dom::element root, const BigIntegers& big, TokenStarts) {
                               const TapeDoc d{tape::value_of(root), &big};
                               if (!in_line_form(d, evidence, formed)) pending.push_back(line_form_finding(true, evidence, formed));
                               key_order(d.root, true, pending);
                               row_sha256 = member(d.root, "row_sha256").string();
                               canonical_schema = member(d.root, "canonical_schema").string();
                               row.source = member(d.root, "source_row_sha256").string();
                               row.prompt = member(d.root, "prompt_sha256").string();
                               const tape::Value m = member(d.root, "metadata");
                               row.side = member(m, "split").string();
                               thread_local std::string text;
                               text.clear();
                               {
                                   Writer w(text, Style::compact);
                                   write_tape(w, d, m, true);
                               }
                               metadata = text;
                               read = true;
                           },
                           /*any_order=*/true);
    if (!read) return false;
    read = false;
    std::string source, prompt;
    // The data row: its line form and keys, its digest, and the digests of the canonical row it maps from.
    fast_check_dom(schema_info(*profile_->data).name, data_text.text(), Limits{}, data_text.padded(),
                           [&](simdjson::dom::element root, const BigIntegers& big, TokenStarts) {
                               const TapeDoc d{tape::value_of(root), &big};
                               if (!in_line_form(d, data, formed)) pending.push_back(line_form_finding(false, data, formed));
                               key_order(d.root, false, pending);
                               thread_local std::string sorted;
                               thread_local MessageSpans spans;
                               sorted.clear(), spans.clear();
                               // (hf-trl: the canonical row's values are the data row's, copied from its digest form)
                               const bool copied = profile_->consumer == "hf-trl";
                               {
                                   Writer w(sorted, Style::compact);
                                   if (copied) write_sorted_row(w, d, spans);
                                   else write_tape(w, d, d.root, true);
                               }
                               if (profile_->writable())
                                   read = canonical_digests(d, metadata, sorted, copied ? &spans : nullptr, row.digest, source, prompt);
                               else row.digest = sha256_hex(sorted), read = true;
                           },
                           /*any_order=*/true);
    if (!read) return false;
    row_findings(pair, number, row, row_sha256, canonical_schema, source, prompt, pending);
    return true;
}

// The data row's digest (of `sorted`, its digest form), the source row's and its prompt's, from the
// data row (the adapter's renames and weights undone) and its evidence's metadata (in digest form):
// false where the fast path cannot tell.
bool RowReader::canonical_digests(const TapeDoc& d, const std::string& metadata, const std::string& sorted, const MessageSpans* spans,
                                  std::string& digest, std::string& source, std::string& prompt) const {
    using tape::Value;
    const bool fireworks = profile_->consumer == "fireworks", sft = profile_->objective == "sft";
    Value prompt_list, second, rejected;  // the prompt, the completion (or chosen), the rejected
    MessageForm form, rest;
    form.inverse = rest.inverse = true, form.sorted = rest.sorted = true;
    if (sft && fireworks) {
        prompt_list = second = member(d.root, "messages");
        std::size_t i = 0;
        for (Value m = prompt_list.first(); m.at < prompt_list.close(); m = m.with(m.next()), ++i) {
            const Value weight = member(m, "weight");
            if (weight.at && weight.type() == 'l' && weight.number<std::int64_t>() == 1) break;
        }
        form.last = i, rest.first = i;
    } else if (fireworks) {
        prompt_list = member(member(d.root, "input"), "messages");
        second = member(d.root, "preferred_output"), rejected = member(d.root, "non_preferred_output");
    } else {
        prompt_list = member(d.root, "prompt");
        second = member(d.root, sft ? "completion" : "chosen"), rejected = sft ? Value{} : member(d.root, "rejected");
    }
    thread_local std::string text;
    bool ok = true;
    std::size_t from = 0, to = 0;  // the prompt's text in the source row's digest form, the same in {"prompt": ...}'s
    std::vector<MessageSpans::Member> members;
    const auto list = [&](Writer& w, const char* key, Value v, const MessageForm& f) {
        w.key(key);
        if (f.inverse && &f == &form) from = w.written();
        w.begin_array();
        const std::pair<std::size_t, std::size_t>* messages = nullptr;  // the list's, where its values were recorded
        if (spans)
            for (const auto& [name, range] : spans->lists)
                if (name == key) messages = &range;
        if (!messages) {
            ok = ok && write_messages(w, d, v, f);
        } else {  // each message's values copied, reasoning_content named thinking again, in the keys' order
            for (std::size_t m = messages->first; m < messages->second; ++m) {
                members.assign(spans->members.begin() + static_cast<std::ptrdiff_t>(spans->messages[m].first),
                               spans->members.begin() + static_cast<std::ptrdiff_t>(spans->messages[m].second));
                for (MessageSpans::Member& member : members)
                    if (member.key == "reasoning_content") member.key = "thinking";
                std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
                w.begin_object();
                for (const MessageSpans::Member& member : members) w.key(member.key), w.raw(std::string_view(sorted).substr(member.begin, member.end - member.begin));
                w.end_object();
            }
        }
        w.end_array();
        if (&f == &form) to = w.written();
    };
    text.clear();
    {
        Writer w(text, Style::compact);
        w.begin_object();
        list(w, sft ? "completion" : "chosen", second, rest);
        w.key("metadata"), w.raw(metadata);
        list(w, "prompt", prompt_list, form);
        if (!sft) list(w, "rejected", rejected, rest);
        w.key("tools"), w.begin_array(), w.end_array();
        w.end_object();
    }
    if (!ok) return false;
    Sha256 hash;
    hash.update("{\"prompt\":"), hash.update(std::string_view(text).substr(from, to - from)), hash.update("}");
    prompt = hex(hash.finish());
    std::array<unsigned char, 32> of_row{}, of_source{};
    sha256_two(sorted, text, of_row, of_source);  // two messages of a size: side by side
    digest = hex(of_row), source = hex(of_source);
    return true;
}

// ----- the exact path: both lines parsed into Json ----------------------------------------------------

bool RowReader::exact_row(const Pair& pair, std::size_t number, std::string_view data, std::string_view evidence, Row& row, std::vector<Pending>& pending) const {
    Json d, e;
    const bool data_ok = exact_line(false, data, profile_->data, d, pending);
    const bool evidence_ok = exact_line(true, evidence, profile_->evidence, e, pending);
    if (!data_ok || !evidence_ok || !e.is_object()) return false;
    const auto text = [](const Json& j, const char* key) {
        return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
    };
    row.digest = row_sha256(d);
    row.prompt = text(e, "prompt_sha256");
    row.source = text(e, "source_row_sha256");
    row.configuration = text(e, "configuration_digest");
    row.reward = d.is_object() && d.contains("reward") ? python_str(d["reward"]) : std::string();
    const Json* metadata = e.contains("metadata") && e["metadata"].is_object() ? &e["metadata"] : nullptr;
    row.side = metadata ? text(*metadata, "split") : std::string();
    std::string source, prompt;
    if (profile_->writable()) {
        const Json canonical = canonical_of(*profile_, d, e);
        source = row_sha256(canonical);
        prompt = row_sha256(Json{{"prompt", profile_->consumer == "swe-bench" ? d["problem_statement"] : canonical["prompt"]}});
    }
    row_findings(pair, number, row, e.contains("row_sha256") && e["row_sha256"].is_string() ? e["row_sha256"].get<std::string>() : "",
                 text(e, "canonical_schema"), source, prompt, pending);
    return true;
}

// One line on the exact path: JSON, valid under its model (where the project has one), in line form.
bool RowReader::exact_line(bool evidence, std::string_view text, const std::optional<SchemaId>& model, Json& out, std::vector<Pending>& pending) const {
    std::vector<Error> errors;
    std::string_view body = text;
    if (!body.empty() && body.back() == '\n') body.remove_suffix(1);
    if (!parse(body, out, errors)) {
        pending.push_back({evidence, "rows.verify.line_form", errors.front().pointer, "not JSON: " + errors.front().message});
        return false;
    }
    if (model) {
        const Validated v = validate(*model, body);
        for (const Error& e : v.errors) pending.push_back({evidence, "rows.verify.model", e.pointer, e.message + " [" + e.id + "]"});
        if (!v.valid()) return false;
    }
    std::string formed;
    try {
        formed = line_form(out);
    } catch (const EncodeError& e) {
        pending.push_back({evidence, "rows.verify.line_form", e.error().pointer, e.error().message});
        return false;
    }
    formed.pop_back();
    if (formed != body || text.empty() || text.back() != '\n') {
        if (formed == body) formed += '\n', body = text;  // only the newline is missing
        pending.push_back(line_form_finding(evidence, text.back() == '\n' ? body : text, formed));
    }
    if (model) {
        // the keys' order, as the fast path reads it: from the line's own DOM
        fast_parse_dom(body, Limits{}, false, [&](simdjson::dom::element root, const BigIntegers& big, TokenStarts) {
            const TapeDoc d{tape::value_of(root), &big};
            key_order(d.root, evidence, pending);
        });
    }
    return true;
}

// ----- what both paths find alike ------------------------------------------------------------------------

Pending RowReader::line_form_finding(bool evidence, std::string_view line, std::string_view formed) {
    return {evidence, "rows.verify.line_form", "",
            "not Sediment's line form (\", \" and \": \", non-ASCII as \\u escapes, a newline at the end): " + byte_difference(line, formed)};
}

// The keys the adapter writes in an order of its own: a body's and an evidence record's, and in a
// message, a renamed reasoning_content last but for a weight, which is last. (A message's other keys,
// a tool call's and the metadata's keep the canonical row's order, which Sediment leaves free.)
void RowReader::key_order(tape::Value root, bool evidence, std::vector<Pending>& pending) const {
    using tape::Value;
    static const std::map<std::string_view, std::vector<std::string_view>> kOrders = {
        {"hf-trl-sft-v1", {"prompt", "completion", "tools"}},
        {"hf-trl-dpo-v2", {"prompt", "chosen", "rejected", "tools"}},
        {"fireworks-sft-v1", {"messages"}},
        {"fireworks-dpo-v2", {"input", "preferred_output", "non_preferred_output"}},
        {"swe-bench-tasks-v1", {"repo", "base_commit", "problem_statement", "test_patch", "hints_text", "created_at", "version",
                                "environment_setup_commit", "FAIL_TO_PASS", "PASS_TO_PASS", "image", "eval_script", "log_parser",
                                "eval_type", "instance_id", "patch"}},
        {"nemo-gym-rollouts-v1", {"responses_create_params", "response", "reward"}},
        {"responses_create_params", {"input", "parallel_tool_calls", "tool_choice", "tools"}},
        {"response", {"id", "created_at", "model", "object", "output", "parallel_tool_calls", "tool_choice", "tools"}},
        {"input", {"messages", "tools"}},
        {"evidence", {"row_sha256", "canonical_schema", "source_row_sha256", "prompt_sha256", "metadata", "tool_definitions"}},
        {"swe-bench evidence", {"row_sha256", "canonical_schema", "metadata", "source_row_sha256", "prompt_sha256",
                                "task_configuration_source", "configuration_digest", "captured_first_user_message"}},
        {"nemo-gym evidence", {"row_sha256", "canonical_schema", "metadata", "source_row_sha256", "prompt_sha256", "inference_call_ids",
                               "created_at_source_call_id", "response_configuration_source", "configuration_digest",
                               "readable_reasoning_mapping", "native_output_messages"}}};
    const auto keys = [](Value object) {
        std::vector<std::string_view> out;
        tape::each_member(object, [&](std::string_view key, Value) { out.push_back(key); });
        return out;
    };
    const auto check = [&](Value object, const std::vector<std::string_view>& order, const std::string& pointer) {
        if (keys(object) == order) return;
        std::string expected;
        for (const std::string_view k : order) expected += (expected.empty() ? "" : ", ") + std::string(k);
        pending.push_back({evidence, "rows.verify.key_order", pointer, "keys not in the adapter's order (" + expected + ")"});
    };
    const bool swe = profile_->consumer == "swe-bench", nemo = profile_->consumer == "nemo-gym";
    check(root, kOrders.at(evidence ? (swe ? "swe-bench evidence" : nemo ? "nemo-gym evidence" : "evidence") : profile_->id), "");
    if (evidence) return;
    if (nemo) {
        for (const char* part : {"responses_create_params", "response"}) {
            const Value v = member(root, part);
            if (v.at && v.type() == '{') check(v, kOrders.at(part), "/" + std::string(part));
        }
        return;
    }
    const Value input = member(root, "input");
    if (input.at) check(input, kOrders.at("input"), "/input");
    tape::each_member(root, [&](std::string_view key, Value value) {
        const bool in_input = key == "input";
        const Value messages = in_input ? member(value, "messages") : value;
        if (!messages.at || messages.type() != '[') return;
        std::size_t i = 0;
        for (Value m = messages.first(); m.at < messages.close(); m = m.with(m.next()), ++i) {
            if (m.type() != '{') continue;
            const std::vector<std::string_view> ks = keys(m);
            std::size_t tail = ks.size();
            bool ok = true;
            if (std::find(ks.begin(), ks.end(), "weight") != ks.end()) ok = ks[--tail] == "weight";
            if (ok && std::find(ks.begin(), ks.end(), "reasoning_content") != ks.end()) ok = ks[tail - 1] == "reasoning_content";
            if (!ok)
                pending.push_back({false, "rows.verify.key_order",
                                   (in_input ? "/input/messages/" : "/" + std::string(key) + "/") + std::to_string(i),
                                   "the adapter writes a renamed reasoning_content last, and then a weight"});
        }
    });
}

// The row's evidence against its data row: its row_sha256, canonical schema, split, and (SFT, DPO) the
// digests of the canonical row the data row maps from (`source`, `prompt`).
void RowReader::row_findings(const Pair& pair, std::size_t number, Row& row, const std::string& row_sha256, const std::string& canonical_schema,
                  const std::string& source, const std::string& prompt, std::vector<Pending>& pending) const {
    if (row_sha256 != row.digest)
        pending.push_back({true, "rows.verify.row_sha256", "/row_sha256", "is not the digest of " + pair.data + " line " + std::to_string(number) + " (" + row.digest + ")"});
    if (canonical_schema != profile_->canonical_schema)
        pending.push_back({true, "rows.verify.canonical_schema", "/canonical_schema", "is not " + std::string(profile_->canonical_schema)});
    if (!pair.side.empty() && row.side != pair.side)
        pending.push_back({true, "rows.verify.split", "/metadata/split", "is not '" + pair.side + "', the split of " + pair.evidence});
    if (!pair.side.empty()) row.side = pair.side;
    else if (row.side != "eval") row.side = "train";
    if (!profile_->writable()) return;
    if (row.source != source)
        pending.push_back({true, "rows.verify.source_row_sha256", "/source_row_sha256",
                           "is not the digest of the canonical row " + pair.data + " line " + std::to_string(number) + " maps from (" + source + ")"});
    if (row.prompt != prompt)
        pending.push_back({true, "rows.verify.prompt_sha256", "/prompt_sha256",
                           "is not the digest of the prompt of " + pair.data + " line " + std::to_string(number) + " (" + prompt + ")"});
}


}  // namespace sediment::rows::detail::verification
