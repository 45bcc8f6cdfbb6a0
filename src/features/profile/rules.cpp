// The rules of the consumer profiles' models that their JSON Schemas do not say (schemas/*.schema.json
// "x-sediment-checked-by-code"), each error at the offending value. Each rule is a template over the model
// and its view model (generated/views.hpp), and over the two DOMs a free-form value is held in.
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "detail/decode.hpp"
#include "generated/views.hpp"

namespace sediment::rows::detail {
namespace {

// ----- free-form values, in either DOM --------------------------------------------------------------

const Json& node(const Json& j) { return j; }
simdjson::dom::element node(const view::JsonView& v) { return v.value; }

bool is_count(const Json& j) {
    return j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0) ||
           (is_big_integer(j) && big_integer_digits(j).front() != '-');
}
bool is_count(simdjson::dom::element e) {
    return e.type() == simdjson::dom::element_type::UINT64 ||
           (e.type() == simdjson::dom::element_type::INT64 && std::int64_t(e) >= 0);
}
bool is_text(const Json& j) { return j.is_string(); }
bool is_text(simdjson::dom::element e) { return e.is_string(); }
std::string_view text(const Json& j) { return j.get_ref<const std::string&>(); }
std::string_view text(simdjson::dom::element e) {
    std::string_view s;
    return e.get(s) == simdjson::SUCCESS ? s : std::string_view();
}

// f(key, value) for each member of an object (the schema makes these fields objects).
template <class F>
void members(const Json& j, F f) {
    if (!j.is_object()) return;
    for (const auto& m : j.get_ref<const Json::object_t&>()) f(std::string_view(m.first), m.second);
}
template <class F>
void members(simdjson::dom::element e, F f) {
    simdjson::dom::object object;
    if (e.get(object) != simdjson::SUCCESS) return;
    for (const auto field : object) f(field.key, field.value);
}
std::size_t size_of(const Json& j) { return j.is_array() || j.is_object() ? j.size() : 0; }
std::size_t size_of(simdjson::dom::element e) {
    simdjson::dom::array array;
    simdjson::dom::object object;
    if (e.get(array) == simdjson::SUCCESS) return array.size();
    return e.get(object) == simdjson::SUCCESS ? object.size() : 0;
}
template <class F>
void items(const Json& j, F f) {
    if (j.is_array()) for (const Json& item : j) f(item);
}
template <class F>
void items(simdjson::dom::element e, F f) {
    simdjson::dom::array array;
    if (e.get(array) != simdjson::SUCCESS) return;
    for (const auto item : array) f(item);
}

bool lowercase_hex(std::string_view s, std::size_t digits) {
    if (s.size() != digits) return false;
    for (const char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

// ----- the manifest (compatibility.py publish_compatible_rows()) ------------------------------------

// A map of names to counts: skipped, canonical_skipped, fragmented, rows_by_split, reward_counts.
template <class V>
void check_counts(Decoder& d, const char* key, const V& value) {
    auto field = d.at(key);
    members(node(value), [&](std::string_view name, const auto& count) {
        if (is_count(count)) return;
        auto at = d.at(name);
        d.error("rows.decode.profile_manifest", "a count is a non-negative integer");
    });
}

template <class Manifest>
bool manifest_rules(Decoder& d, const Manifest& value) {
    const std::size_t before = d.error_count();
    check_counts(d, "skipped", value.skipped);
    if (value.canonical_skipped) check_counts(d, "canonical_skipped", *value.canonical_skipped);
    if (value.fragmented) check_counts(d, "fragmented", *value.fragmented);
    {
        auto diagnostics = d.at("diagnostics");
        check_counts(d, "rows_by_split", value.diagnostics.rows_by_split);
        check_counts(d, "reward_counts", value.diagnostics.reward_counts);
    }
    {
        auto files = d.at("files");
        members(node(value.files), [&](std::string_view name, const auto& file) {
            auto at = d.at(name);
            bool sha = false, bytes = false, other = false;
            members(file, [&](std::string_view key, const auto& v) {
                if (key == "sha256") sha = is_text(v) && lowercase_hex(text(v), 64);
                else if (key == "bytes") bytes = is_count(v);
                else other = true;
            });
            if (!sha || !bytes || other)
                d.error("rows.decode.profile_manifest",
                        "a file's entry is {\"sha256\": 64 lowercase hex digits, \"bytes\": a non-negative integer}");
        });
    }
    {
        auto profile = d.at("profile");
        auto dependencies = d.at("dependencies");
        std::size_t i = 0;
        for (const auto& dependency : value.profile.dependencies) {
            auto at = d.at(i++);
            bool pair = size_of(node(dependency)) == 2 && node(dependency).is_array();
            items(node(dependency), [&](const auto& part) { pair = pair && is_text(part); });
            if (!pair) d.error("rows.decode.profile_manifest", "a dependency is a [name, version] pair of strings");
        }
    }
    return d.error_count() == before;
}

// ----- Fireworks' messages (compatibility.py _messages(), adapt_training_rows()) --------------------

template <class Message>
bool is_system(const Message& m) {
    return m.index() == 0 && std::get<0>(m).role == FireworksTextRole::system;
}
bool is_system(const FireworksDPOMessage& m) { return m.role == FireworksDPORole::system; }
bool is_system(const view::FireworksDPOMessage& m) { return m.role == FireworksDPORole::system; }

template <class Messages>
void system_first(Decoder& d, const Messages& messages) {
    for (std::size_t i = 1; i < messages.size(); ++i) {
        if (!is_system(messages[i])) continue;
        auto at = d.at(i);
        d.error("rows.decode.profile_system", "Fireworks profiles require the system message to be first");
    }
}

// An assistant message's weight, or -1 for a message without one (a text or tool message).
template <class T, class = void>
struct has_weight : std::false_type {};
template <class T>
struct has_weight<T, std::void_t<decltype(std::declval<T>().weight)>> : std::true_type {};
template <class Message>
int weight_of(const Message& m) {
    return std::visit([](const auto& x) -> int {
        if constexpr (has_weight<std::decay_t<decltype(x)>>::value) return x.weight.compare(1) == 0 ? 1 : 0;
        else return -1;
    }, m);
}

template <class Row>
bool fireworks_sft_rules(Decoder& d, const Row& value) {
    const std::size_t before = d.error_count();
    auto messages = d.at("messages");
    system_first(d, value.messages);
    // The prompt's messages (assistant weight 0) then the completion's (assistant, weight 1).
    bool completion = false;
    for (std::size_t i = 0; i < value.messages.size(); ++i) {
        const int weight = weight_of(value.messages[i]);
        if (weight == 1) completion = true;
        else if (completion) {
            auto at = d.at(i);
            d.error("rows.decode.profile_weight", "the completion (weight 1) ends the messages: a prompt message follows it");
        }
    }
    return d.error_count() == before;
}

template <class Row>
bool fireworks_dpo_rules(Decoder& d, const Row& value) {
    const std::size_t before = d.error_count();
    auto input = d.at("input");
    auto messages = d.at("messages");
    system_first(d, value.input.messages);
    return d.error_count() == before;
}

}  // namespace

bool check_rules(Decoder& d, const ProfileManifest& value) { return manifest_rules(d, value); }
bool check_rules(Decoder& d, const view::ProfileManifest& value) { return manifest_rules(d, value); }
bool check_rules(Decoder& d, const FireworksSFTRow& value) { return fireworks_sft_rules(d, value); }
bool check_rules(Decoder& d, const view::FireworksSFTRow& value) { return fireworks_sft_rules(d, value); }
bool check_rules(Decoder& d, const FireworksDPORow& value) { return fireworks_dpo_rules(d, value); }
bool check_rules(Decoder& d, const view::FireworksDPORow& value) { return fireworks_dpo_rules(d, value); }

}  // namespace sediment::rows::detail
