// Repair: an ATIF trajectory that fails Harbor's model (or NeMo Gym's subset) brought to a valid one,
// each change listed. docs/atif.md ("Repairing a trajectory") lists every repair with its id.
//
//   sediment::rows::Repaired r = sediment::rows::repair(text, sediment::rows::SchemaId::atif);
//   if (r.errors.empty()) std::cout << r.text << "\n";        // valid under Harbor's model
//   for (const auto& change : r.repairs) std::cerr << change.pointer << ": " << change.message << "\n";
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "json.hpp"
#include "value.hpp"
#include "versions.hpp"

namespace sediment::rows {

/// One change repair() made, at the JSON Pointer of the value in the document as it was read.
struct Repair {
    std::string id;       ///< "rows.repair.extra", ... (docs/errors.md)
    std::string pointer;  ///< where, in the input document
    std::string message;  ///< what changed: "unknown key 'debug' moved into extra"
    bool lossy = false;   ///< it drops or invents a value: made only with RepairOptions::lossy

    /// Same id, pointer, message and kind.
    friend bool operator==(const Repair& a, const Repair& b) {
        return a.id == b.id && a.pointer == b.pointer && a.message == b.message && a.lossy == b.lossy;
    }
};

/// How repair() works.
struct RepairOptions {
    bool lossy = false;          ///< also make the repairs that drop or invent a value
    Style style = Style::compact; ///< the layout of a repaired document (a valid one is returned as given)
    Limits limits = {};          ///< the limits on the document read
};

/// What repair() made of one document.
struct Repaired {
    std::string text;             ///< the document, valid under the schema; empty when refused
    std::vector<Repair> repairs;  ///< each change, in document order; none for a valid document
    /// Why the document is refused: not JSON, a root that is not an object, no steps, no agent name, a
    /// step without a source; or (without lossy) each lossy repair it needs, with that repair's id; or an
    /// error no repair fixes. Empty when `text` is valid.
    std::vector<Error> errors;

    /// True when the document came out valid.
    bool ok() const { return errors.empty(); }
    /// True when it came out valid and changed.
    bool changed() const { return ok() && !repairs.empty(); }
};

/// Repairs an ATIF trajectory (one JSON document) for `schema`: SchemaId::atif (Harbor's model, any
/// version) or SchemaId::atif_v1_7 (NeMo Gym's subset: repaired for Harbor's model, then relabelled
/// ATIF-v1.7 as upgrade() does, with the subset's own rules repaired too). A valid document comes back
/// byte for byte with no repair. The text is read as Python's json reads it (duplicate keys, NaN, lone
/// surrogates); every token no repair touches is written as it was, in `options.style`. Lossless repairs
/// are always made; a lossy one only with `options.lossy`, and otherwise the document is refused with
/// what that repair would do. The output is checked under `schema`: what still fails refuses it.
/// Throws std::invalid_argument for another schema.
Repaired repair(std::string_view text, SchemaId schema, const RepairOptions& options = {});

}  // namespace sediment::rows
