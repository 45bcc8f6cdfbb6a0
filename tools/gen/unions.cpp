// Unions of models that no const tells apart (Sediment's trainer messages): their name, selector and
// the check that selecting a branch by keys is exact.
#include "unions.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gen {

using Json = nlohmann::ordered_json;

bool union_refs(const nlohmann::ordered_json& any_of, std::vector<std::string>& models) {
    bool plain = true;
    for (const nlohmann::ordered_json& alt : any_of) {
        if (alt.is_object() && alt.size() == 1 && alt.contains("anyOf")) {
            plain = union_refs(alt["anyOf"], models) && plain;
        } else if (alt.is_object() && alt.size() == 1 && alt.contains("$ref") && alt["$ref"].is_string() &&
                   alt["$ref"].get<std::string>().rfind("#/$defs/", 0) == 0) {
            models.push_back(alt["$ref"].get<std::string>().substr(8));
        } else {
            plain = false;
        }
    }
    return plain;
}

bool all_model_refs(const Json& branches, const Json& defs) {
    return std::all_of(branches.begin(), branches.end(), [&](const Json& b) {
        if (!b.is_object() || b.size() != 1 || !b.contains("$ref") || !b["$ref"].is_string()) return false;
        const std::string ref = b["$ref"].get<std::string>();
        return ref.rfind("#/$defs/", 0) == 0 && defs.contains(ref.substr(8)) && defs[ref.substr(8)].contains("properties");
    });
}

void select_branches(Variant& v, const Json& defs, const std::string& at, std::vector<Problem>& problems) {
    std::map<std::string, int> const_at;  // a string-const property -> how many branches have one
    for (const std::string& model : v.models)
        for (const auto& p : defs[model]["properties"].items())
            if (p.value().contains("const") && p.value()["const"].is_string()) ++const_at[p.key()];
    for (const auto& p : defs[v.models[0]]["properties"].items())  // the last such property, in its order
        if (const_at[p.key()] == static_cast<int>(v.models.size())) v.tag = p.key();
    std::set<std::string> tag_values;
    for (const std::string& model : v.models)
        if (!v.tag.empty() && !tag_values.insert(defs[model]["properties"][v.tag]["const"].get<std::string>()).second)
            v.tag.clear();  // two branches share the tag's value
    if (v.tag.empty()) select_by_keys(v, defs, at, problems);
}

void select_by_keys(Variant& v, const Json& defs, const std::string& at, std::vector<Problem>& problems) {
    v.by_keys = true;
    const auto words = [](const std::string& name) {
        std::vector<std::string> out;
        for (const char c : name) {
            if (out.empty() || std::isupper(static_cast<unsigned char>(c))) out.emplace_back();
            out.back() += c;
        }
        return out;
    };
    std::vector<std::string> prefix = words(v.models[0]), suffix = prefix;
    for (const std::string& model : v.models) {
        const std::vector<std::string> w = words(model);
        std::size_t p = 0, q = 0;
        while (p < prefix.size() && p < w.size() && prefix[p] == w[p]) ++p;
        while (q < suffix.size() && q < w.size() && suffix[suffix.size() - 1 - q] == w[w.size() - 1 - q]) ++q;
        prefix.resize(p);
        suffix.erase(suffix.begin(), suffix.end() - static_cast<std::ptrdiff_t>(q));
    }
    if (!prefix.empty() && !suffix.empty() && prefix.size() < words(v.models[0]).size()) {
        v.name.clear();
        for (const std::string& w : prefix) v.name += w;
        for (const std::string& w : suffix) v.name += w;
    }
    const auto discriminates = [&](const Json& def, const std::string& key) {
        const Json& p = def["properties"][key];
        const bool required = def.contains("required") && std::count(def["required"].begin(), def["required"].end(), Json(key));
        if (p.contains("$ref") && p["$ref"].is_string() && p["$ref"].get<std::string>().rfind("#/$defs/", 0) == 0) {  // a string enum
            const std::string name = p["$ref"].get<std::string>().substr(8);
            return required && defs.contains(name) && defs[name].value("type", "") == "string" && defs[name].contains("enum");
        }
        return required && p.value("type", "") == "string" && (p.contains("const") || p.contains("enum"));
    };
    for (const auto& p : defs[v.models[0]]["properties"].items()) {
        bool all = true;
        for (const std::string& model : v.models) all = all && defs[model]["properties"].contains(p.key()) && discriminates(defs[model], p.key());
        if (all) {
            v.selector = p.key();
            break;
        }
    }
    const auto bare = [](Json schema) {
        schema.erase("description");
        return schema;
    };
    for (std::size_t i = 0; i < v.models.size(); ++i)
        for (std::size_t k = i + 1; k < v.models.size(); ++k)
            for (const auto& p : defs[v.models[i]]["properties"].items()) {
                const Json& other = defs[v.models[k]]["properties"];
                if (p.key() != v.selector && other.contains(p.key()) && bare(p.value()) != bare(other[p.key()]))
                    problems.push_back(Problem{at + "/anyOf", v.models[i] + " and " + v.models[k] + " give '" + p.key() +
                                                      "' different schemas: the object's keys cannot select a branch"});
            }
}

}  // namespace gen
