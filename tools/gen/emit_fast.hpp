// What the emitters of the fast readers share: emit_fast.cpp (over simdjson's DOM, and the view
// models) and emit_tokens.cpp (over stage 1's tokens alone).
#pragma once

#include <initializer_list>
#include <string>

#include "ir.hpp"

namespace gen::cpp {

// read: into the model; read_view: into its view model; check: nothing; check_tokens: nothing, over
// stage 1's tokens (detail/fast_tokens.hpp); read_tokens: into the model, over those tokens.
enum class FastMode { read, read_view, check, check_tokens, read_tokens };

/// True for the modes over tokens.
bool over_tokens(FastMode mode);

/// The signature of the reader of `name` in `mode`, without `inline bool`.
std::string fast_signature(const std::string& name, FastMode mode);

/// The statements that read one member, the DOM's element `value` or the cursor `t` (`tokens`), into
/// `out` and run its rules on what it read.
std::string fast_member(const Model& m, const Field& f, bool tokens = false);

/// The statements that check one member, building nothing.
std::string check_member(const Model& m, const Field& f, bool tokens);

/// True when a model of `root`'s, or `root` itself, has rules that read a view model (check_rules).
bool needs_view(const Module& module, const std::string& root);

/// The readers of `modes` for every model and union the fast models hold: their declarations, then
/// their bodies, appended to `declarations` and `body`.
void emit_modes(const Module& module, std::initializer_list<FastMode> modes, std::string& declarations, std::string& body);

/// A generated header of fast readers: the banner, `about` (its comment), the standard headers,
/// `includes`, the `readers` in namespace detail::fast and the `entries` in namespace detail.
std::string fast_header(const Module& module, const std::string& about, const std::string& includes, const std::string& readers,
                        const std::string& entries);

/// The reader over tokens of a model, and of a union, in `mode` (emit_tokens.cpp).
std::string emit_token_model(const Model& m, FastMode mode);
std::string emit_token_variant(const Module& module, const Variant& v, FastMode mode);

}  // namespace gen::cpp
