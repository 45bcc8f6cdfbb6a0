// How Python's json and Harbor's pydantic models read a value (readings.cpp), and the names repair gives.
// Internal; not installed.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "model.hpp"
#include "tree.hpp"

namespace sediment::rows::repair_detail {

/// The JSON Pointer of `at`'s member `key` (escaped) or item `i`.
std::string child(const std::string& at, std::string_view key);
std::string child(const std::string& at, std::size_t i);
/// A value as it reads in a message: its JSON text, cut to 64 bytes.
std::string shown(const Node& n);
/// "a string", "an object", ...
const char* kind_name(const Node& n);
/// "a string", "an integer", ... for a field's scalar.
const char* scalar_name(Scalar s);
/// A number written without a fraction or exponent.
bool is_integer_literal(const Node& n);
/// Python's str.strip() of ASCII whitespace (what pydantic strips from a number's text).
std::string_view stripped(std::string_view s);
/// ASCII letters in lower case.
std::string lower(std::string_view s);
/// The JSON integer pydantic reads from a string: "2", " +2_0 ", "2.00" (zeros only after the point).
std::optional<std::string> integer_from_string(std::string_view text);
/// Python's float() of a string: its finite value, or nothing (not a number; `non_finite` set for
/// NaN or an infinity).
std::optional<double> float_from_string(std::string_view text, bool& non_finite);
/// True for JSON number syntax.
bool json_number_syntax(std::string_view s);
/// A finite double as Python's repr writes it.
std::string repr(double v);
/// The ATIF label `s` spells loosely ("atif-v1.7", "1.7", "ATIF_V1.7"), or empty.
std::string label_of(std::string_view s);
/// An image media type Harbor's model has, as written.
bool image_media_type(std::string_view s);
/// An audio media type the schema takes as written: a canonical type or one of Harbor's aliases.
bool audio_media_type(std::string_view s);
/// Harbor's reading of an audio media type: stripped, lower-cased, an alias as its canonical type;
/// empty for none.
std::string canonical_audio(std::string_view written);
/// "image" or "audio" as a media source's keys show, or empty.
std::string media_kind(const Node& source);

/// Names made unique by a suffix, as repair writes them: NAME, then NAME__2, NAME__3, ...
class Names {
public:
    bool taken(const std::string& name) const { return used_.count(name) != 0; }
    void add(const std::string& name) { used_.insert(name); }
    /// `base`, or the first of its suffixed forms not taken; taken from now on.
    std::string unique(const std::string& base) {
        std::string name = base;
        if (taken(name)) {
            int& k = next_[base];  // where the search for this base stopped (many repeats cost no more than their number)
            if (k < 2) k = 2;
            do name = base + "__" + std::to_string(k++);
            while (taken(name));
        }
        add(name);
        return name;
    }

private:
    std::set<std::string> used_;
    std::map<std::string, int> next_;
};

}  // namespace sediment::rows::repair_detail
