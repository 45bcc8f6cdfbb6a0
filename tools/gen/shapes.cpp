// The shapes the loader found, named (docs/naming.md) and put in dependency order.
#include "shapes.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace gen {
namespace {

void problem(std::vector<Problem>& problems, const std::string& at, const std::string& what) { problems.push_back(Problem{at, what}); }

}  // namespace

std::string pascal_case(const std::string& s) {
    std::string out;
    bool upper = true;
    for (const char c : s) {
        if (c == '_' || c == '-' || c == '.' || c == ' ') {
            upper = true;
        } else {
            out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
            upper = false;
        }
    }
    return out;
}

std::string singular(std::string s) {
    if (s.size() > 1 && s.back() == 's') s.pop_back();
    return s;
}

void mark_self(TypeRef& t, const std::string& name) { replace_model(t, name, kSelf); }

void replace_model(TypeRef& t, const std::string& from, const std::string& to) {
    if (t.kind == TypeRef::Kind::model && t.name == from) t.name = to;
    if (t.item) {
        auto item = std::make_shared<TypeRef>(*t.item);
        replace_model(*item, from, to);
        t.item = item;
    }
}

Model with_self(Model m, const std::string& name) {
    for (Field& f : m.fields) replace_model(f.type, kSelf, name);
    return m;
}

bool same_shape(const Model& a, const Model& b) {
    if (a.fields.size() != b.fields.size()) return false;
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        const Field& x = a.fields[i];
        const Field& y = b.fields[i];
        if (x.json_name != y.json_name || x.type != y.type || x.required != y.required || x.nullable != y.nullable ||
            !(x.constant == y.constant || (x.constant && y.constant && *x.constant == *y.constant)))
            return false;
    }
    return true;
}

void name_shapes(Module& module_, const std::vector<SchemaShapes>& pending_, std::vector<Problem>& problems) {
    // A family schema: versioned, and embedded in no other schema.
    std::map<std::string, std::set<std::string>> shapes_of;  // schema -> its models' shape ids
    for (const SchemaShapes& p : pending_)
        for (const auto& kv : p.shapes) shapes_of[p.schema].insert(kv.second);
    for (std::size_t i = 0; i < module_.schemas.size(); ++i) {
        SchemaDoc& doc = module_.schemas[i];
        const auto root = pending_[i].shapes.find(pending_[i].root);
        bool embedded = root == pending_[i].shapes.end();
        for (const SchemaShapes& other : pending_)
            if (!embedded && other.schema != doc.name) embedded = shapes_of[other.schema].count(root->second) > 0;
        if (!embedded && doc.version > 0) doc.family = doc.name.substr(0, doc.name.rfind(".v"));
    }
    // A shape's owner is the schema it is the root of, else the smallest schema that holds it (a
    // response's parts belong to the response, not to the rows that embed it), one of Sediment's versioned
    // schemas where one holds it (the project's own, the profiles', embed Sediment's shapes: their names stay). Its name is its JSON
    // name and the first version of its owner that has it: CIOutcomeV1 (ci-outcome v1 and v2).
    const auto base_of = [](const SchemaDoc& doc) { return doc.version ? doc.name.substr(0, doc.name.rfind(".v")) : doc.name; };
    std::map<std::string, std::string> renamed;
    std::map<std::string, std::string> taken;  // C++ name -> the shape that has it
    for (Model& m : module_.models) {
        const SchemaDoc* owner = nullptr;
        for (std::size_t i = 0; i < module_.schemas.size() && !owner; ++i) {
            const auto root = pending_[i].shapes.find(pending_[i].root);
            if (root != pending_[i].shapes.end() && root->second == m.name) owner = &module_.schemas[i];
        }
        const SchemaDoc* smallest = nullptr;
        const auto before = [&](const SchemaDoc& a, const SchemaDoc& b) {
            if ((a.version > 0) != (b.version > 0)) return a.version > 0;
            return shapes_of[a.name].size() < shapes_of[b.name].size();
        };
        for (const SchemaDoc& doc : module_.schemas)
            if (std::count(m.schemas.begin(), m.schemas.end(), doc.name) && (!smallest || before(doc, *smallest))) smallest = &doc;
        if (!owner) owner = smallest;
        m.owner = owner ? base_of(*owner) : "";
        int version = 0;
        for (const SchemaDoc& doc : module_.schemas)
            if (base_of(doc) == m.owner && doc.version && std::count(m.schemas.begin(), m.schemas.end(), doc.name) &&
                (version == 0 || doc.version < version))
                version = doc.version;
        const std::string name = version ? m.json_name + "V" + std::to_string(version) : m.json_name;
        if (taken.count(name)) {
            problem(problems, m.origin, "model " + m.json_name + " has two shapes in the versions of " + m.owner +
                                  " that first have them; the C++ name " + name + " would be taken twice");
            continue;
        }
        taken[name] = m.name;
        renamed[m.name] = name;
        m.name = name;
    }
    std::function<void(TypeRef&)> rename = [&](TypeRef& t) {
        if (t.kind == TypeRef::Kind::model && renamed.count(t.name)) t.name = renamed[t.name];
        if (t.item) {
            auto item = std::make_shared<TypeRef>(*t.item);
            rename(*item);
            t.item = item;
        }
    };
    for (Model& m : module_.models)
        for (Field& f : m.fields) rename(f.type);
    for (Variant& v : module_.variants) {
        for (std::string& name : v.models)
            if (renamed.count(name)) name = renamed[name];
        for (TypeRef& t : v.types) rename(t);
    }
    for (std::size_t i = 0; i < module_.schemas.size(); ++i) {
        SchemaDoc& doc = module_.schemas[i];
        const auto root = pending_[i].shapes.find(pending_[i].root);
        if (root != pending_[i].shapes.end()) doc.root = renamed.count(root->second) ? renamed[root->second] : root->second;
    }
    // A shape is read on its own under the newest version of its owner that has it, and the
    // unversioned name is the shape of the owner's newest version: what Sediment writes today.
    for (Model& m : module_.models) {
        const SchemaDoc* newest = nullptr;
        for (const SchemaDoc& doc : module_.schemas)
            if (base_of(doc) == m.owner && std::count(m.schemas.begin(), m.schemas.end(), doc.name) &&
                (!newest || doc.version > newest->version))
                newest = &doc;
        m.default_schema = newest ? newest->name : m.schemas.front();
        if (m.name == m.json_name) continue;
        int today = 0;
        for (const SchemaDoc& doc : module_.schemas)
            if (base_of(doc) == m.owner) today = std::max(today, doc.version);
        if (newest && newest->version == today) module_.aliases.push_back({m.json_name, m.name});
    }
}

void order_models(Module& module_, std::vector<Problem>& problems) {
    std::vector<Model> sorted;
    std::set<std::string> done, visiting;
    std::function<void(const std::string&)> visit_model;
    // A model's own name in its fields is an array of itself, which C++ declares before the model
    // is complete (std::vector allows it).
    const std::function<void(const TypeRef&, const std::string&)> visit_type = [&](const TypeRef& t, const std::string& self) {
        if (t.kind == TypeRef::Kind::model && t.name != self) visit_model(t.name);
        if (t.kind == TypeRef::Kind::array && t.item) visit_type(*t.item, self);
        if (t.kind == TypeRef::Kind::variant)
            for (const Variant& v : module_.variants)
                if (v.name == t.name) {
                    for (const std::string& m : v.models) visit_model(m);
                    for (const TypeRef& alt : v.types) visit_type(alt, "");
                }
    };
    visit_model = [&](const std::string& name) {
        if (done.count(name)) return;
        if (visiting.count(name)) return problem(problems, name, "recursive models are not supported");
        visiting.insert(name);
        const Model* m = module_.find_model(name);
        if (!m) return problem(problems, name, "is referenced but not defined");
        for (const Field& f : m->fields) visit_type(f.type, name);
        done.insert(name);
        sorted.push_back(*m);
    };
    for (const Model& m : module_.models) visit_model(m.name);
    module_.models = std::move(sorted);
}

}  // namespace gen
