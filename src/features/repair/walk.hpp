// The walk of repair(): one trajectory's repairs, object by object, with the field rules of the bundled
// schema (model.hpp) and ATIF's own rules. walk.cpp holds the trajectory, its objects' fields and the
// values moved aside; steps.cpp a step's parts: message, tool calls, observation. Internal; not installed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model.hpp"
#include "readings.hpp"
#include "sediment/rows/repair.hpp"
#include "tree.hpp"

namespace sediment::rows::repair_detail {

/// Repairs a document in place, listing each repair, and each reason it cannot be repaired.
class Walk {
public:
    /// A walk that repairs for `target`: SchemaId::atif, or atif_v1_7 (the subset's rules too).
    explicit Walk(SchemaId target);

    std::vector<Repair> repairs;
    std::vector<Error> refusals;

    /// The lenient reading's leftovers, anywhere in the document (free-form values too): repeated
    /// keys, NaN and infinities, lone surrogates; under the subset, decimals that are not exactly the
    /// double they read as.
    void json_level(Node& n, const std::string& at);

    /// The root trajectory, or an embedded one (`top` false).
    bool trajectory(Node& t, const std::string& at, bool top);

private:
    const Definition& def(Role r) const { return *harbor_[static_cast<std::size_t>(r)]; }
    const Definition& strict(Role r) const { return *strict_[static_cast<std::size_t>(r)]; }

    /// Lists a repair; refuse() lists why the document cannot be repaired.
    void made(const char* id, const std::string& at, std::string message, bool lossy = false);
    void refuse(const std::string& at, std::string message) { refusals.push_back(Error{"rows.repair.refused", at, std::move(message)}); }

    /// A string that held a lone surrogate escape, written with U+FFFD (lossy).
    void surrogate(Node& n, const std::string& at);

    /// Under the subset (NeMo Gym reads decimals exactly): a literal that is not the double it reads
    /// as is written as that double.
    void decimal(Node& n, const std::string& at);

    /// Each key given twice in `n`: the last value kept, in the first one's place.
    void repeated_keys(Node& n, const std::string& at);

    // ----- moving values aside ----------------------------------------------------------------------

    /// The object's `extra`, made an object first (created when absent or null; another value is
    /// kept in it as `_raw`).
    Node& extra_of(Node& obj, const std::string& at);

    /// An `extra` (of the object at `at`) that is neither an object nor null, made {"_raw": its value}.
    void raw_extra(Node& extra, const std::string& at);

    /// Puts `value` into the object's extra as `key` (or key__2, ... when extra holds that key).
    std::string keep_in_extra(Node& obj, const std::string& at, const std::string& key, Node value);

    /// Takes the member `key` out of `obj` for `why`: into its extra (lossless), or dropped where the
    /// object has none (lossy).
    void move_out(Node& obj, Role role, const std::string& at, const std::string& key, const std::string& why, const char* id);

    // ----- one object's fields ------------------------------------------------------------------------

    /// `v` read as the scalar `s` the way Harbor's model coerces it (pydantic's lax mode), written in
    /// its type; false when pydantic refuses it too.
    bool coerce(Node& v, Scalar s, const std::string& at);

    /// A number below `minimum`.
    static bool below(const Node& v, const std::optional<double>& minimum);

    /// The value of field `f` is of its type (after coercion) and within its bounds, here and (under
    /// the subset) in the subset's definition of the same field.
    bool holds(Node& v, const Field& f, const Field* s, const std::string& at);

    /// Each member of `obj` as the definition of `role` has it: an unknown key moved into extra (or
    /// dropped), a single object where a list of objects is expected wrapped in one, a scalar coerced,
    /// an optional value still of the wrong type moved into extra. A required field that stays wrong is
    /// left to the caller.
    void fields(Node& obj, Role role, const std::string& at);

    /// The required string field `key` of `obj` is there, as a string or coerced to one.
    bool string_given(Node& obj, const std::string& at, const char* key);
    /// Gives a required string field that is not (string_given()) the value `fallback` (lossy), its
    /// written value kept in extra.
    void give_string(Node& obj, const std::string& at, const char* key, const std::string& fallback, const char* id);

    // ----- the trajectory's parts ---------------------------------------------------------------------

    /// The label: a loose spelling written as the label, null removed.
    void schema_version(Node& t, const std::string& at);

    /// The agent's fields; a name, or the document is refused; a version.
    void agent(Node& a, const std::string& at);

    /// The embedded subagents: each repaired as a trajectory, each with a distinct trajectory_id;
    /// `ids` gets them.
    void subagents(Node& list, const std::string& at, Names& ids);

    // ----- a step (steps.cpp) ----------------------------------------------------------------------------

    /// Step `i`; false when it is refused. `embedded`: the trajectory ids its references may name;
    /// `audio` set when it holds an audio part.
    bool step(Node& s, std::size_t i, const std::string& at, const Names& embedded, bool& audio);

    /// step_id as the step's position, a written one that differs kept in extra.
    void step_id(Node& s, std::size_t i, const std::string& at);

    /// The step's source, re-cased where needed; empty (and refused) when it cannot be told.
    std::string step_source(Node& s, const std::string& at);

    /// llm_call_count 0: no model call, so no reasoning or metrics (the subset: no reasoning_effort
    /// either, on any step).
    void zero_calls(Node& s, const std::string& source, const std::string& at);

    /// The step's message: given when missing (lossy), else its content repaired.
    void message(Node& s, const std::string& at, bool& audio);

    /// A message or result content: text, or a list of parts.
    void content(Node& c, const std::string& at, bool& audio);

    /// One content part: false when it goes (lossy).
    bool part(Node& p, const std::string& at, bool& audio);

    /// The step's tool calls (step `step`, 1-based); `ids` gets their ids.
    void tool_calls(Node& list, const std::string& at, std::size_t step, Names& ids);

    /// Call `n`'s id: kept, renamed where it repeats one (lossless), or made (lossy).
    void tool_call_id(Node& call, const std::string& at, std::size_t step, std::size_t n, Names& ids);

    /// The call's arguments as an object: a JSON-encoded one read, another value kept as `_raw`.
    void arguments(Node& call, const std::string& at);

    /// The observation's results; `calls`: the step's tool call ids.
    void observation(Node& o, const std::string& at, const Names& calls, const Names& embedded, bool& audio);

    /// One result: its source_call_id, content and subagent references.
    void result(Node& r, const std::string& at, const Names& calls, const Names& embedded, bool& audio);

    // ----- after the steps (walk.cpp) ---------------------------------------------------------------------

    /// total_steps recomputed where the schema refuses it, the written value kept in extra.
    void final_metrics(Node& fm, std::size_t steps, const std::string& at);

    /// Audio parts need ATIF-v1.8: a trajectory labelled below it that holds one is relabelled.
    void audio_label(Node& t, const std::string& at);

    bool subset_;                                                      // repairing for NeMo Gym's subset
    const Definition* harbor_[static_cast<std::size_t>(Role::count)];
    const Definition* strict_[static_cast<std::size_t>(Role::count)];
};

}  // namespace sediment::rows::repair_detail
