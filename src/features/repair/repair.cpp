// repair(): an ATIF trajectory brought to one Harbor's model (or NeMo Gym's subset) accepts, each
// change listed with its id (docs/atif.md, "Repairing a trajectory"). The document is read as Python's
// json reads it (tree.hpp); the field rules come from the bundled schema (model.hpp); the ATIF rules
// (step ids, tool call ids, references, agent-only fields, ...) are in the walk (walk.hpp). The output
// is then judged by the library's own validator: a repair never has the last word.
#include "sediment/rows/repair.hpp"

#include <stdexcept>

#include "detail/relayout.hpp"
#include "sediment/rows/decode.hpp"
#include "sediment/rows/upgrade.hpp"
#include "walk.hpp"

namespace sediment::rows {

Repaired repair(std::string_view text, SchemaId schema, const RepairOptions& options) {
    using namespace repair_detail;
    if (schema != SchemaId::atif && schema != SchemaId::atif_v1_7)
        throw std::invalid_argument("repair takes ATIF trajectories: schema atif or atif-v1.7, not " + std::string(schema_info(schema).name));
    Repaired out;
    if (validate(schema, text, options.limits).errors.empty()) {
        out.text.assign(text);
        return out;
    }
    Node tree;
    std::string why;
    if (!read_lenient(text, tree, why, options.limits)) {
        out.errors.push_back(Error{"rows.repair.refused", "", "not JSON: " + why});
        return out;
    }
    Walk walk(schema);
    walk.json_level(tree, "");
    if (walk.trajectory(tree, "", true) && walk.refusals.empty()) {
        std::string repaired = write_compact(tree);
        if (schema == SchemaId::atif_v1_7) {
            const Node* label = tree.find("schema_version");
            if (!label || label->text != "ATIF-v1.7")
                walk.repairs.push_back(Repair{"rows.repair.schema_version", "/schema_version",
                                              (label ? shown(*label) : std::string("no label")) + " relabelled \"ATIF-v1.7\" for NeMo Gym's subset (each ATIF version only added fields)", false});
            Upgraded up;
            if (upgrade(repaired, "atif", SchemaId::atif_v1_7, up, out.errors, options.style, ConvertOptions{true}, options.limits)) {
                for (const Error& loss : up.losses) walk.repairs.push_back(Repair{"rows.repair.part_dropped", loss.pointer, loss.message + ": the part dropped", true});
                out.text = std::move(up.text);
            }
        } else {
            out.errors = validate(SchemaId::atif, repaired, options.limits).errors;
            if (out.errors.empty()) out.text = detail::relayout(repaired, options.style);
        }
    }
    for (Error& e : walk.refusals) out.errors.push_back(std::move(e));
    if (out.errors.empty() && !options.lossy)
        for (const Repair& r : walk.repairs)
            if (r.lossy) out.errors.push_back(Error{r.id, r.pointer, "needs --lossy: " + r.message});
    if (!out.errors.empty()) {
        out.text.clear();
        return out;
    }
    out.repairs = std::move(walk.repairs);
    return out;
}

}  // namespace sediment::rows
