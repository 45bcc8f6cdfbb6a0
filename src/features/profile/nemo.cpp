// The rules of NeMo Gym's profile models (nemo-gym-rollouts-v1, nemo-gym-profile-evidence) that their
// schemas do not say. Source: sediment-ai/sediment at ef084b9, packages/export/sediment_export/
// consumer_rlvr.py (_native_items(), adapt_nemo_rows()) and packages/core/sediment_core/models.py
// (InferenceMessage and its parts, dumped with model_dump(mode="json")).
#include <string>
#include <string_view>

#include "detail/decode.hpp"
#include "generated/views.hpp"

namespace sediment::rows::detail {
namespace {

// ----- a message item (_native_items()) -------------------------------------------------------------

// An assistant's text is an item with an id and a list of output_text parts; a system, developer or user
// message's is a string without an id.
template <class Message>
bool message_rules(Decoder& d, const Message& m) {
    const std::size_t before = d.error_count();
    const bool assistant = m.role == NemoGymProfileRole::assistant;
    if (assistant != m.id.has_value()) {
        auto at = d.at("id");
        d.error("rows.decode.nemo_message", assistant ? "an assistant message item has an id" : "only an assistant message item has an id");
    }
    if (assistant != (m.content.index() == 1)) {
        auto at = d.at("content");
        d.error("rows.decode.nemo_message", assistant ? "an assistant message's content is a list of output_text parts"
                                                      : "a system, developer or user message's content is a string");
    }
    return d.error_count() == before;
}

// ----- the evidence's native output messages (InferenceCall.model_dump(mode="json")) -----------------

// Whether `object` has exactly `keys`, in any order; else an error at the object.
bool exactly(Decoder& d, const Json& object, std::initializer_list<const char*> keys, const char* what) {
    bool ok = object.is_object() && object.size() == keys.size();
    for (const char* key : keys) ok = ok && object.contains(key);
    if (!ok) d.error("rows.decode.native_message", std::string(what) + " is exactly " + [&] {
        std::string list;
        for (const char* key : keys) list += (list.empty() ? "{" : ", ") + std::string(key);
        return list + "}";
    }());
    return ok;
}

void native_part(Decoder& d, const Json& part) {
    if (!part.is_object() || !part.contains("type") || !part["type"].is_string()) {
        d.error("rows.decode.native_message", "a part is an object with a type: text, reasoning, tool_call or tool_call_response");
        return;
    }
    const std::string& type = part["type"].get_ref<const std::string&>();
    const auto text = [&](const char* key) {
        if (part[key].is_string()) return true;
        auto at = d.at(key);
        d.error("rows.decode.native_message", std::string(key) + " is a string");
        return false;
    };
    if (type == "text" || type == "reasoning") {
        if (exactly(d, part, {"type", "content"}, "a text or reasoning part")) text("content");
    } else if (type == "tool_call") {
        if (!exactly(d, part, {"type", "id", "name", "arguments"}, "a tool_call part")) return;
        // (a string the parser read is valid UTF-8: it holds no lone surrogate, only NUL is left to refuse)
        if (text("id") && (part["id"].get_ref<const std::string&>().find('\0') != std::string::npos || part["id"].get_ref<const std::string&>().empty())) {
            auto at = d.at("id");
            d.error("rows.decode.native_message", "a tool call id is not empty, and holds no NUL or lone surrogate (NonEmptyId)");
        }
        text("name");
        if (!part["arguments"].is_object()) {
            auto at = d.at("arguments");
            d.error("rows.decode.native_message", "arguments is an object");
        }
    } else if (type == "tool_call_response") {
        if (exactly(d, part, {"type", "id", "result"}, "a tool_call_response part")) text("id");
    } else {
        auto at = d.at("type");
        d.error("rows.decode.native_message", "'" + type + "' is not a part type: text, reasoning, tool_call or tool_call_response");
    }
}

bool evidence_rules(Decoder& d, const std::vector<Json>& calls) {
    const std::size_t before = d.error_count();
    auto at = d.at("native_output_messages");
    for (std::size_t i = 0; i < calls.size(); ++i) {
        auto call = d.at(i);
        if (!calls[i].is_array()) {
            d.error("rows.decode.native_message", "each call's output messages are a list");
            continue;
        }
        for (std::size_t k = 0; k < calls[i].size(); ++k) {
            auto message = d.at(k);
            const Json& m = calls[i][k];
            if (!exactly(d, m, {"role", "parts", "finish_reason"}, "a message")) continue;
            if (!m["role"].is_string()) {
                auto role = d.at("role");
                d.error("rows.decode.native_message", "role is a string");
            }
            if (!m["finish_reason"].is_string() && !m["finish_reason"].is_null()) {
                auto reason = d.at("finish_reason");
                d.error("rows.decode.native_message", "finish_reason is a string or null");
            }
            auto parts = d.at("parts");
            if (!m["parts"].is_array()) {
                d.error("rows.decode.native_message", "parts is a list");
                continue;
            }
            for (std::size_t p = 0; p < m["parts"].size(); ++p) {
                auto part = d.at(p);
                native_part(d, m["parts"][p]);
            }
        }
    }
    return d.error_count() == before;
}

}  // namespace

bool check_rules(Decoder& d, const NemoGymProfileMessage& value) { return message_rules(d, value); }
bool check_rules(Decoder& d, const view::NemoGymProfileMessage& value) { return message_rules(d, value); }
bool check_rules(Decoder& d, const NemoGymProfileEvidence& value) { return evidence_rules(d, value.native_output_messages); }

}  // namespace sediment::rows::detail
