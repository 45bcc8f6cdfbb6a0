#include "model.hpp"

#include <array>
#include <map>
#include <mutex>

#include "sediment/rows/schema.hpp"
#include "sediment/rows/value.hpp"

namespace sediment::rows::repair_detail {
namespace {

using Roles = std::array<Definition, static_cast<std::size_t>(Role::count)>;

/// Reads the bundled schema's definitions by following its references from the root: the agent is
/// the root's `agent`, a step an item of `steps`, and so on, whatever each definition is called.
class SchemaReader {
public:
    explicit SchemaReader(SchemaId id) : schema_(Json::parse(schema_text(id))) {}

    Roles roles() {
        Roles r;
        const Json& root = schema_;
        set(r, Role::trajectory, &root);
        const Json* step = target(root, "steps");
        const Json* result = nullptr;
        set(r, Role::agent, target(root, "agent"));
        set(r, Role::final_metrics, target(root, "final_metrics"));
        set(r, Role::step, step);
        if (step) {
            set(r, Role::tool_call, target(*step, "tool_calls"));
            set(r, Role::metrics, target(*step, "metrics"));
            const Json* observation = target(*step, "observation");
            set(r, Role::observation, observation);
            if (observation) result = target(*observation, "results");
            const Json* content = property_schema(*step, "message");
            const Json* part = content ? first_ref(*content) : nullptr;
            set(r, Role::part, part);
            if (part)
                if (const Json* source = property_schema(*part, "source"))
                    for (const Json* s : refs(*source)) {
                        const Json* media = property_schema(*s, "media_type");
                        const Json* kinds = media ? first_enum(*media) : nullptr;
                        const bool audio = kinds && !kinds->empty() && kinds->front().get<std::string>().rfind("audio/", 0) == 0;
                        set(r, audio ? Role::audio_source : Role::image_source, s);
                    }
        }
        set(r, Role::result, result);
        if (result) set(r, Role::subagent_ref, target(*result, "subagent_trajectory_ref"));
        return r;
    }

private:
    const Json* resolve(const Json& s) const {
        if (!s.is_object() || !s.contains("$ref")) return &s;
        const std::string ref = s["$ref"].get<std::string>();
        const std::string prefix = "#/$defs/";
        if (ref.rfind(prefix, 0) != 0) return nullptr;
        const Json& defs = schema_["$defs"];
        const auto found = defs.find(ref.substr(prefix.size()));
        return found == defs.end() ? nullptr : &*found;
    }
    /// The branches of `s` that are not {"type": "null"}, resolved.
    std::vector<const Json*> branches(const Json& s, bool* nullable = nullptr) const {
        std::vector<const Json*> out;
        const auto add = [&](const Json& b) {
            if (b.is_object() && b.value("type", "") == "null") {
                if (nullable) *nullable = true;
            } else if (const Json* r = resolve(b)) {
                if (r != &b && r->contains("anyOf") && !r->contains("properties")) {  // a named union: its branches
                    for (const Json* inner : branches(*r, nullable)) out.push_back(inner);
                } else {
                    out.push_back(r);
                }
            }
        };
        if (s.contains("anyOf")) {
            for (const Json& b : s["anyOf"]) add(b);
        } else {
            add(s);
        }
        return out;
    }
    const Json* property_schema(const Json& object, const char* key) const {
        const auto props = object.find("properties");
        if (props == object.end() || !props->contains(key)) return nullptr;
        return &(*props)[key];
    }
    /// Object definitions a value of `s` may be, directly or as an array's items.
    std::vector<const Json*> refs(const Json& s) const {
        std::vector<const Json*> out;
        for (const Json* b : branches(s)) {
            if (b->value("type", "") == "array" && b->contains("items")) {
                for (const Json* i : branches((*b)["items"]))
                    if (i->contains("properties")) out.push_back(i);
            } else if (b->contains("properties")) {
                out.push_back(b);
            }
        }
        return out;
    }
    const Json* first_ref(const Json& s) const {
        const std::vector<const Json*> r = refs(s);
        return r.empty() ? nullptr : r.front();
    }
    const Json* target(const Json& object, const char* key) const {
        const Json* p = property_schema(object, key);
        return p ? first_ref(*p) : nullptr;
    }
    const Json* first_enum(const Json& s) const {
        for (const Json* b : branches(s))
            if (b->contains("enum")) return &(*b)["enum"];
        return nullptr;
    }

    static Scalar scalar_of(const Json& s) {
        const std::string type = s.value("type", "");
        if (type == "string") return Scalar::string;
        if (type == "integer") return Scalar::integer;
        if (type == "number") return Scalar::number;
        if (type == "boolean") return Scalar::boolean;
        return Scalar::none;
    }

    Field field(const Json& s) const {
        Field f;
        const std::vector<const Json*> kinds = branches(s, &f.nullable);
        if (kinds.size() != 1) return f;  // string or number, text or parts, image or audio: the caller's
        const Json& k = *kinds.front();
        f.scalar = scalar_of(k);
        if (k.contains("minimum")) f.minimum = k["minimum"].get<double>();
        if (k.value("type", "") == "array" && k.contains("items")) {
            f.array = true;
            const std::vector<const Json*> items = branches(k["items"]);
            if (items.size() == 1) {
                f.items = scalar_of(*items.front());
                f.objects = items.front()->value("type", "") == "object" || items.front()->contains("properties");
                f.free_objects = f.objects && !items.front()->contains("properties");
                if (items.front()->contains("minimum")) f.minimum = (*items.front())["minimum"].get<double>();
            }
        }
        return f;
    }

    void set(Roles& r, Role role, const Json* def) const {
        if (!def || !def->contains("properties")) return;
        Definition& d = r[static_cast<std::size_t>(role)];
        d.known = true;
        for (const auto& [name, s] : (*def)["properties"].items()) {
            d.fields.emplace_back(name, field(s));
            if (name == "extra") d.has_extra = true;
        }
    }

    Json schema_;
};

}  // namespace

const Definition& definition(SchemaId schema, Role role) {
    static std::mutex mutex;
    static std::map<SchemaId, Roles> read;
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = read.find(schema);
    if (found == read.end()) found = read.emplace(schema, SchemaReader(schema).roles()).first;
    return found->second[static_cast<std::size_t>(role)];
}

}  // namespace sediment::rows::repair_detail
