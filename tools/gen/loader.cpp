#include "loader.hpp"

#include "shapes.hpp"
#include "unions.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <tuple>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace gen {
namespace {

using Json = nlohmann::ordered_json;

const std::set<std::string> kAnnotations = {"description", "title", "$schema", "$id", "$comment", "examples"};

// A root annotation of ours: integers are JSON integers only (1.0 is not one), of any size.
constexpr const char* kStrictNumbers = "x-sediment-strict-numbers";
// A root annotation of ours: a decimal literal must be exactly the double it reads as, in shortest
// form (NeMo Gym's ATIF loader); without it, a decimal reads as the nearest double (Python's json).
constexpr const char* kExactDecimals = "x-sediment-exact-decimals";
// A model annotation of ours: rules JSON Schema cannot say (or says in an allOf), checked by
// hand-written code, `bool check_rules(Decoder&, const Model&)`, which the library must define.
constexpr const char* kCheckedByCode = "x-sediment-checked-by-code";
// The hand-written rules read free-form values, which only the model holds exactly (a view's DOM holds an
// integer beyond 64 bits as the fast path's marker): the check-only fast path reads the model.
constexpr const char* kRulesReadValues = "x-sediment-rules-read-values";

class Loader {
public:
    explicit Loader(std::vector<Problem>& problems) : problems_(problems) {}

    void load(const std::string& file) {
        std::ifstream in(file, std::ios::binary);
        if (!in) return problem(file, "cannot be read");
        Json root;
        try {
            root = Json::parse(in);
        } catch (const std::exception& e) {
            return problem(file, std::string("is not JSON: ") + e.what());
        }
        file_ = file;
        root_ = &root;
        std::string name = file.substr(file.find_last_of('/') + 1);
        const std::string suffix = ".schema.json";
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            name.resize(name.size() - suffix.size());
        else
            problem(file, "the file name must end in .schema.json");
        schema_ = name;

        if (root.value("$schema", "") != "https://json-schema.org/draft/2020-12/schema")
            problem(where("#/$schema"), "only draft 2020-12 is supported");
        if (!root.contains("title") || !root["title"].is_string()) return problem(where("#"), "a root 'title' names the root model");
        SchemaDoc doc{name, file, root.value("$id", ""), root["title"].get<std::string>()};
        const Json strict = root.value(kStrictNumbers, Json(false));
        if (!strict.is_boolean()) problem(where(std::string("#/") + kStrictNumbers), "must be true or false");
        doc.strict_numbers = strict == true;
        const Json exact = root.value(kExactDecimals, Json(false));
        if (!exact.is_boolean()) problem(where(std::string("#/") + kExactDecimals), "must be true or false");
        doc.exact_decimals = exact == true;
        doc.version = version_of(name);
        doc.version_pointer = const_path(root, doc.uri, "", 0);
        if (root.contains("$defs") && root["$defs"].contains(doc.root))
            problem(where("#/title"), "the root's title '" + doc.root + "' is also a definition's name");
        strict_numbers_ = doc.strict_numbers;
        module_.schemas.push_back(doc);
        pending_.push_back(Pending{{name, doc.root, {}}, {}});

        build_model(doc.root, root, "#", /*allowed_extra=*/{"$defs", "allOf", kStrictNumbers, kExactDecimals, kCheckedByCode, kRulesReadValues});
        if (root.contains("$defs")) {
            for (const auto& def : root["$defs"].items()) {
                const Json& s = def.value();
                const std::string at = "#/$defs/" + def.key();
                if (s.contains("properties")) {
                    build_model(def.key(), s, at, {"allOf", kCheckedByCode, kRulesReadValues});
                } else if (s.contains("enum")) {
                    read_enum(def.key(), s, at, "");
                } else if (s.contains("anyOf")) {
                    read_union(def.key(), s["anyOf"], at + "/anyOf", s.value("description", ""));
                    check_keywords(s, at, {"anyOf"});
                } else {
                    problem(where(at), "a definition must be an object, an enum or an anyOf");
                }
            }
        }
        root_ = nullptr;
    }

    Module finish() {
        for (Pending& p : pending_) resolve_schema(p);
        name_shapes(module_, std::vector<SchemaShapes>(pending_.begin(), pending_.end()), problems_);
        // A rule carried by every schema that contains the model holds unconditionally, and so does an
        // enum value that every schema using the enum allows.
        for (Model& m : module_.models)
            for (Field& f : m.fields)
                for (Rule& r : f.rules)
                    if (r.schemas == m.schemas) r.schemas.clear();
        for (Enum& e : module_.enums)
            for (std::vector<std::string>& allowed : e.value_schemas)
                if (allowed == e.schemas) allowed.clear();
        order_models(module_, problems_);
        return std::move(module_);
    }

private:
    // A schema's models as read, their references naming its own definitions; finish() resolves them
    // into the module's shapes.
    struct Pending : SchemaShapes {
        std::vector<Model> models;
    };

    static int version_of(const std::string& name) {
        const std::size_t dot = name.rfind(".v");
        if (dot == std::string::npos || dot + 2 == name.size()) return 0;
        for (std::size_t i = dot + 2; i < name.size(); ++i)
            if (!std::isdigit(static_cast<unsigned char>(name[i]))) return 0;
        return std::stoi(name.substr(dot + 2));
    }

    // The JSON Pointer, in a document, of the string const equal to `value` (through properties and
    // local references), or "".
    std::string const_path(const Json& s, const std::string& value, const std::string& at, int depth) const {
        if (depth > 8 || !s.is_object()) return "";
        if (s.contains("$ref") && s["$ref"].is_string()) {
            const std::string ref = s["$ref"].get<std::string>();
            if (ref.rfind("#/$defs/", 0) == 0 && root_->contains("$defs") && (*root_)["$defs"].contains(ref.substr(8)))
                return const_path((*root_)["$defs"][ref.substr(8)], value, at, depth + 1);
            return "";
        }
        if (s.contains("const")) return s["const"] == value ? at : "";
        if (!s.contains("properties") || !s["properties"].is_object()) return "";
        for (const auto& p : s["properties"].items()) {
            const std::string found = const_path(p.value(), value, at + "/" + p.key(), depth + 1);
            if (!found.empty()) return found;
        }
        return "";
    }

    // Resolves one schema's models, dependencies first, into the module: a model joins the shape of
    // the same name it equals, or becomes a new shape.
    void resolve_schema(Pending& p) {
        std::set<std::string> visiting;
        std::function<void(const std::string&)> resolve_model;
        std::function<void(TypeRef&)> resolve_type = [&](TypeRef& t) {
            if (t.kind == TypeRef::Kind::model && t.name != kSelf) {
                resolve_model(t.name);
                if (p.shapes.count(t.name)) t.name = p.shapes[t.name];
            } else if (t.kind == TypeRef::Kind::array && t.item) {
                auto item = std::make_shared<TypeRef>(*t.item);
                resolve_type(*item);
                t.item = item;
            } else if (t.kind == TypeRef::Kind::variant) {
                resolve_variant(t.name, resolve_type, resolve_model, p);
            }
        };
        resolve_model = [&](const std::string& name) {
            if (p.shapes.count(name)) return;
            const auto it = std::find_if(p.models.begin(), p.models.end(), [&](const Model& m) { return m.json_name == name; });
            if (it == p.models.end()) return problem(p.schema, name + " is referenced but not defined");
            if (!visiting.insert(name).second) return problem(it->origin, "only a model that holds itself may be recursive");
            Model m = *it;
            for (Field& f : m.fields) {
                mark_self(f.type, name);
                resolve_type(f.type);
            }
            p.shapes[name] = merge(std::move(m), p.schema);
        };
        for (const Model& m : p.models) resolve_model(m.json_name);
    }

    // A union names the same shapes in every schema that has it (a union of other shapes would be a
    // second C++ type, which no bundled schema needs).
    template <class ResolveType, class ResolveModel>
    void resolve_variant(const std::string& name, ResolveType& resolve_type, ResolveModel& resolve_model, Pending& p) {
        const auto v = std::find_if(module_.variants.begin(), module_.variants.end(), [&](const Variant& x) { return x.name == name; });
        if (v == module_.variants.end()) return;
        Variant resolved = *v;
        for (std::string& m : resolved.models) {
            resolve_model(m);
            if (p.shapes.count(m)) m = p.shapes[m];
        }
        for (TypeRef& t : resolved.types) resolve_type(t);
        if (!resolved_variants_.count(name)) {
            resolved_variants_.insert(name);
            *v = std::move(resolved);
        } else if (v->models != resolved.models || v->types != resolved.types) {
            problem(p.schema, "union " + name + " names models of other shapes than in an earlier schema");
        }
    }

    void problem(const std::string& at, const std::string& what) { problems_.push_back(Problem{at, what}); }
    std::string where(const std::string& pointer) const { return file_ + pointer; }

    void check_keywords(const Json& s, const std::string& at, const std::set<std::string>& allowed) {
        if (!s.is_object()) return problem(where(at), "a schema must be an object");
        for (const auto& kw : s.items())
            if (!allowed.count(kw.key()) && !kAnnotations.count(kw.key()))
                problem(where(at), "keyword '" + kw.key() + "' is not supported here");
    }

    void build_model(const std::string& name, const Json& s, const std::string& at, std::set<std::string> extra) {
        extra.insert({"type", "properties", "additionalProperties", "required"});
        check_keywords(s, at, extra);
        if (s.value("type", "") != "object") problem(where(at + "/type"), "a model must be \"type\": \"object\"");
        if (!s.contains("additionalProperties") || s["additionalProperties"] != false)
            problem(where(at + "/additionalProperties"), "models must be strict: \"additionalProperties\": false");

        Model m;
        m.name = m.json_name = name;
        m.description = s.value("description", "");
        m.origin = where(at);
        m.schemas = {schema_};
        // Conditional rules across fields (if/then) are the schema engine's; the typed decoder checks
        // them in hand-written code, which the schema must announce.
        m.checked_by_code = s.value(kCheckedByCode, "");
        m.rules_read_values = s.value(kRulesReadValues, false);
        if (s.contains("allOf") && m.checked_by_code.empty())
            problem(where(at + "/allOf"), std::string("an allOf needs hand-written checks: say which in ") + kCheckedByCode);
        std::set<std::string> required;
        if (s.contains("required")) {
            for (const Json& r : s["required"]) {
                if (!r.is_string() || !s["properties"].contains(r.get<std::string>()))
                    problem(where(at + "/required"), "names " + r.dump() + ", which is not a property");
                else
                    required.insert(r.get<std::string>());
            }
        }
        for (const auto& p : s["properties"].items()) {
            Field f;
            f.json_name = p.key();
            f.required = required.count(p.key()) > 0;
            f.description = p.value().value("description", "");
            read_field(f, p.value(), at + "/properties/" + p.key(), name);
            if (f.constant && !f.required) problem(where(at + "/properties/" + p.key()), "a const property must be required");
            m.fields.push_back(std::move(f));
        }
        if (m.fields.size() > 64) problem(where(at), "more than 64 properties");
        pending_.back().models.push_back(std::move(m));
    }

    // Fills the type, nullability, const and rules of `f` from its property schema.
    void read_field(Field& f, const Json& s, const std::string& at, const std::string& owner) {
        if (s.contains("anyOf")) {
            const auto is_null = [](const Json& a) { return a == Json{{"type", "null"}}; };
            Json branches = Json::array();
            for (const Json& a : s["anyOf"]) {
                if (is_null(a)) f.nullable = true;
                else branches.push_back(a);
            }
            if (branches.size() == 1) {
                // [X, null]: sibling keywords (minimum, maxLength, ...) constrain the non-null value.
                Json inner = branches[0];
                for (const auto& kw : s.items())
                    if (kw.key() != "anyOf" && !kAnnotations.count(kw.key())) inner[kw.key()] = kw.value();
                f.type = read_type(inner, at + "/anyOf", owner, f.json_name, &f);
                return;
            }
            check_keywords(s, at, {"anyOf"});
            if (all_model_refs(branches, root_->value("$defs", Json::object())))  // models: by a tag, or by keys
                f.type = read_variant(Json{{"anyOf", branches}}, at, pascal_case(f.json_name));
            else
                f.type = read_union(pascal_case(f.json_name), branches, at + "/anyOf", f.description);
            return;
        }
        f.type = read_type(s, at, owner, f.json_name, &f);
    }

    // An anyOf of plain types told apart by their JSON type: string, number, array, object...
    TypeRef read_union(const std::string& name, const Json& branches, const std::string& at, const std::string& description) {
        Variant v;
        v.name = name;
        v.description = description;
        std::set<std::string> json_types;
        for (std::size_t i = 0; i < branches.size(); ++i) {
            const TypeRef t = read_type(branches[i], at + "/" + std::to_string(i), name, name, nullptr);
            const std::string json_type = json_type_of(t);
            if (!json_types.insert(json_type).second)
                problem(where(at), "two branches are both JSON " + json_type + "s: they cannot be told apart");
            v.types.push_back(t);
        }
        return add_variant(std::move(v), at);
    }

    static std::string json_type_of(const TypeRef& t) {
        switch (t.kind) {
            case TypeRef::Kind::string:
            case TypeRef::Kind::enumeration: return "string";
            case TypeRef::Kind::integer:
            case TypeRef::Kind::exact_integer:
            case TypeRef::Kind::number: return "number";
            case TypeRef::Kind::boolean: return "boolean";
            case TypeRef::Kind::array: return "array";
            case TypeRef::Kind::model:
            case TypeRef::Kind::object_any: return "object";
            default: return "value";
        }
    }

    TypeRef read_type(const Json& s, const std::string& at, const std::string& owner, const std::string& prop, Field* f) {
        TypeRef t;
        if (!s.is_object()) {
            problem(where(at), "a schema must be an object");
            return t;
        }
        if (s.contains("$ref")) {
            check_keywords(s, at, {"$ref"});
            const std::string ref = s["$ref"].get<std::string>();
            t.kind = TypeRef::Kind::model;
            if (ref == "#") {  // the root: a document that holds documents of its own kind
                t.name = (*root_)["title"].get<std::string>();
                return t;
            }
            if (ref.rfind("#/$defs/", 0) != 0) problem(where(at + "/$ref"), "only local #/$defs/ and root (#) references are supported");
            t.name = ref.substr(8);
            if (!root_->contains("$defs") || !(*root_)["$defs"].contains(t.name)) {
                problem(where(at + "/$ref"), "'" + ref + "' does not resolve");
                return t;
            }
            const Json& def = (*root_)["$defs"][t.name];
            if (def.contains("enum")) t.kind = TypeRef::Kind::enumeration;
            else if (def.contains("anyOf")) t.kind = TypeRef::Kind::variant;
            return t;
        }
        if (s.contains("const")) {
            check_keywords(s, at, {"const", "type"});
            const Json& c = s["const"];
            if (f && f->nullable) {
                // beside null, a const is a value the field holds, checked as a rule
                Rule r = new_rule(c.is_string() ? Rule::Kind::constant : Rule::Kind::one_of);
                if (c.is_string() && s.value("type", "") == "string") {
                    r.text = c.get<std::string>();
                    t.kind = TypeRef::Kind::string;
                } else if (c.is_number_integer() && s.value("type", "") == "integer") {
                    r.numbers = {c.get<std::int64_t>()};
                    t.kind = TypeRef::Kind::integer;
                } else {
                    problem(where(at + "/const"), "const is supported for strings and integers of the same 'type'");
                }
                f->rules.push_back(r);
                return t;
            }
            auto k = std::make_shared<Const>();
            if (c.is_string() && s.value("type", "") == "string") {
                k->text = c.get<std::string>();
                t.kind = TypeRef::Kind::string;
            } else if (c.is_number_integer() && s.value("type", "") == "integer") {
                k->is_string = false;
                k->integer = c.get<std::int64_t>();
                t.kind = TypeRef::Kind::integer;
            } else {
                problem(where(at + "/const"), "const is supported for strings and integers of the same 'type'");
            }
            if (f) f->constant = k;
            else problem(where(at), "const is supported on properties only");
            return t;
        }
        if (s.contains("enum") && s.value("type", "") == "integer") {
            // an integer enum: an integer field whose value is one of a list
            check_keywords(s, at, {"enum", "type"});
            t.kind = strict_numbers_ ? TypeRef::Kind::exact_integer : TypeRef::Kind::integer;
            if (!f) {
                problem(where(at), "integer enums are supported on properties only");
                return t;
            }
            Rule r = new_rule(Rule::Kind::one_of);
            for (const Json& v : s["enum"]) {
                if (v.is_number_integer()) r.numbers.push_back(v.get<std::int64_t>());
                else problem(where(at + "/enum"), "an integer enum's values must be integers");
            }
            f->rules.push_back(r);
            return t;
        }
        if (s.contains("enum")) {
            read_enum(pascal_case(prop), s, at, f ? f->description : "");
            t.kind = TypeRef::Kind::enumeration;
            t.name = pascal_case(prop);
            return t;
        }
        if (!s.contains("type")) {
            check_keywords(s, at, {});
            t.kind = TypeRef::Kind::any;
            return t;
        }
        if (!s["type"].is_string()) {
            problem(where(at + "/type"), "'type' arrays are not supported");
            return t;
        }
        const std::string type = s["type"].get<std::string>();
        const auto rule = [&](Rule::Kind kind, const char* keyword) {
            if (!s.contains(keyword)) return;
            if (!f) return problem(where(at + "/" + keyword), "constraints are supported on properties and their array items");
            Rule r = new_rule(kind);
            const Json& v = s[keyword];
            if (kind == Rule::Kind::pattern || kind == Rule::Kind::format) {
                r.text = v.get<std::string>();
                if (kind == Rule::Kind::format && r.text != "date-time")
                    problem(where(at + "/format"), "format '" + r.text + "' is not supported");
            } else if (v.is_number_integer()) {
                r.number = v.get<std::int64_t>();
            } else {
                problem(where(at + "/" + keyword), "must be an integer");
            }
            f->rules.push_back(r);
        };
        if (type == "string") {
            check_keywords(s, at, {"type", "maxLength", "pattern", "format"});
            t.kind = TypeRef::Kind::string;
            rule(Rule::Kind::max_length, "maxLength");
            rule(Rule::Kind::pattern, "pattern");
            rule(Rule::Kind::format, "format");
        } else if (type == "integer") {
            check_keywords(s, at, {"type", "minimum", "maximum"});
            t.kind = strict_numbers_ ? TypeRef::Kind::exact_integer : TypeRef::Kind::integer;
            rule(Rule::Kind::minimum, "minimum");
            rule(Rule::Kind::maximum, "maximum");
        } else if (type == "number") {
            check_keywords(s, at, {"type", "minimum"});
            t.kind = TypeRef::Kind::number;
            rule(Rule::Kind::minimum, "minimum");
        } else if (type == "boolean") {
            check_keywords(s, at, {"type"});
            t.kind = TypeRef::Kind::boolean;
        } else if (type == "object") {
            check_keywords(s, at, {"type", "additionalProperties"});
            if (s.value("additionalProperties", Json(true)) != Json::object() && s.value("additionalProperties", Json(true)) != true)
                problem(where(at), "a property object must be free-form (\"additionalProperties\": {}) or a $ref");
            t.kind = TypeRef::Kind::object_any;
            if (f) f->rules.push_back(new_rule(Rule::Kind::object));  // a Json may be any value: keep it an object
        } else if (type == "array") {
            check_keywords(s, at, {"type", "items", "minItems", "maxItems"});
            t.kind = TypeRef::Kind::array;
            rule(Rule::Kind::min_items, "minItems");
            rule(Rule::Kind::max_items, "maxItems");
            if (!s.contains("items")) {
                problem(where(at), "arrays need 'items'");
            } else if (s["items"] == false) {  // only [] is valid
                t.item = std::make_shared<TypeRef>();
                t.item->kind = TypeRef::Kind::nothing;
            } else if (s["items"].contains("anyOf")) {
                t.item = std::make_shared<TypeRef>(read_variant(s["items"], at + "/items", singular(pascal_case(prop))));
            } else if (items_of_) {
                problem(where(at + "/items"), "arrays of arrays are not supported");
                t.item = std::make_shared<TypeRef>();  // (any: the emitters read what the loader made)
            } else {
                items_of_ = true;  // constraints of the items apply to each item of this field
                t.item = std::make_shared<TypeRef>(read_type(s["items"], at + "/items", owner, prop, f));
                items_of_ = false;
            }
        } else {
            problem(where(at + "/type"), "type '" + type + "' is not supported");
        }
        return t;
    }

    // An anyOf of $refs to models (nested anyOfs flattened): tagged by a string const every branch has, with distinct values; else select_by_keys.
    TypeRef read_variant(const Json& s, const std::string& at, const std::string& name) {
        check_keywords(s, at, {"anyOf"});
        Variant v;
        v.name = s.value("title", name);  // a union's title names it; else the property it is read from
        std::vector<std::string> refs;
        if (!union_refs(s["anyOf"], refs)) problem(where(at + "/anyOf"), "a union's branches must be plain $refs");
        for (const std::string& model : refs) {
            if (!root_->contains("$defs") || !(*root_)["$defs"].contains(model)) problem(where(at + "/anyOf"), "'#/$defs/" + model + "' does not resolve");
            else v.models.push_back(model);
        }
        if (!v.models.empty()) select_branches(v, (*root_)["$defs"], where(at), problems_);
        // the same branches read again in this schema (a request's input, a response's output) are the
        // same union, named where first read
        const auto key = std::make_tuple(schema_, v.models, v.tag);
        const auto first = union_names_.find(key);
        if (first != union_names_.end()) v.name = first->second;
        else union_names_.emplace(key, v.name);
        return add_variant(std::move(v), at);
    }

    // One C++ type per union name: a union read again must have the same branches.
    TypeRef add_variant(Variant v, const std::string& at) {
        TypeRef t;
        t.kind = TypeRef::Kind::variant;
        t.name = v.name;
        const auto same = std::find_if(module_.variants.begin(), module_.variants.end(),
                                       [&](const Variant& x) { return x.name == v.name; });
        if (same == module_.variants.end()) module_.variants.push_back(std::move(v));
        else if (same->models != v.models || same->tag != v.tag || same->types != v.types || same->selector != v.selector)
            problem(where(at), "union " + v.name + " is defined twice, differently");
        return t;
    }

    // A rule of the field being read, held in this schema, on each item when inside `items`.
    Rule new_rule(Rule::Kind kind) const {
        Rule r{kind, 0, {}, {schema_}};
        r.on_items = items_of_;
        return r;
    }

    void read_enum(const std::string& name, const Json& s, const std::string& at, const std::string& description) {
        check_keywords(s, at, {"enum", "type"});
        if (s.value("type", "") != "string") problem(where(at + "/type"), "enums must be \"type\": \"string\"");
        Enum e;
        e.name = name;
        e.description = s.value("description", description);
        for (const Json& v : s["enum"]) {
            if (v.is_string()) e.values.push_back(v.get<std::string>());
            else problem(where(at + "/enum"), "enum values must be strings");
        }
        add_enum(std::move(e), at);
    }

    // One C++ enum per name. Schemas may allow different values (a newer version adds one): the enum
    // has every value, and each value lists the schemas that allow it.
    void add_enum(Enum e, const std::string& at) {
        for (Enum& x : module_.enums) {
            if (x.name != e.name) continue;
            if (std::count(x.schemas.begin(), x.schemas.end(), schema_)) {
                std::vector<std::string> here;
                for (std::size_t i = 0; i < x.values.size(); ++i)
                    if (std::count(x.value_schemas[i].begin(), x.value_schemas[i].end(), schema_)) here.push_back(x.values[i]);
                if (here != e.values) problem(where(at), "enum " + e.name + " has other values than at an earlier property of that name");
                return;
            }
            x.schemas.push_back(schema_);
            std::size_t next = 0;  // a new value goes after the value before it in this schema's list
            for (const std::string& v : e.values) {
                auto it = std::find(x.values.begin(), x.values.end(), v);
                std::size_t i = static_cast<std::size_t>(it - x.values.begin());
                if (it == x.values.end()) {
                    i = next;
                    x.values.insert(x.values.begin() + static_cast<std::ptrdiff_t>(i), v);
                    x.value_schemas.insert(x.value_schemas.begin() + static_cast<std::ptrdiff_t>(i), std::vector<std::string>{});
                }
                x.value_schemas[i].push_back(schema_);
                next = i + 1;
            }
            return;
        }
        e.schemas = {schema_};
        e.value_schemas.assign(e.values.size(), {schema_});
        module_.enums.push_back(std::move(e));
    }

    // One C++ type per shape: a model (its references resolved) joins the earlier model of its name
    // that has the same shape, its rules tagged with the schema; else it is a new shape. Returns the
    // shape's id (its name until name_shapes()).
    std::string merge(Model m, const std::string& schema) {
        int shapes = 0;
        for (Model& old : module_.models) {
            if (old.json_name != m.json_name) continue;
            ++shapes;
            if (!same_shape(old, with_self(m, old.name))) continue;
            old.schemas.push_back(schema);
            for (std::size_t i = 0; i < m.fields.size(); ++i) {
                for (const Rule& r : m.fields[i].rules) {
                    auto& rules = old.fields[i].rules;
                    auto match = std::find_if(rules.begin(), rules.end(), [&](const Rule& x) { return x.same_constraint(r); });
                    if (match == rules.end()) rules.push_back(r);
                    else match->schemas.push_back(schema);
                }
            }
            return old.name;
        }
        m.name = shapes == 0 ? m.json_name : m.json_name + "#" + std::to_string(shapes + 1);
        const std::string name = m.name;
        m = with_self(std::move(m), name);
        m.schemas = {schema};
        module_.models.push_back(std::move(m));
        return module_.models.back().name;
    }

    std::vector<Problem>& problems_;
    Module module_;
    std::vector<Pending> pending_;
    std::set<std::string> resolved_variants_;
    std::string file_, schema_;
    const Json* root_ = nullptr;
    bool strict_numbers_ = false;
    bool items_of_ = false;
    std::map<std::tuple<std::string, std::vector<std::string>, std::string>, std::string> union_names_;  // (schema, branches, tag) -> name
};

}  // namespace

Module load_schemas(const std::vector<std::string>& files, std::vector<Problem>& problems) {
    Loader loader(problems);
    for (const std::string& f : files) loader.load(f);
    return loader.finish();
}

}  // namespace gen
