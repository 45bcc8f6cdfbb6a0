// After every schema is read: the shapes named by their owner's version, and put in order.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir.hpp"

namespace gen {

/// One schema's shapes, as the loader resolved them (its index is the schema's in Module::schemas).
struct SchemaShapes {
    std::string schema;
    std::string root;                           // the root's shape id
    std::map<std::string, std::string> shapes;  // definition (or root) name -> the shape's id
};

/// "tool_calls" -> "ToolCalls": the name of an unnamed union of a property.
std::string pascal_case(const std::string& s);
/// "items" -> "item": the name of an array's items.
std::string singular(std::string s);

/// A model that holds itself (HarborAtifTrajectory's subagent_trajectories) names itself kSelf until
/// the loader's merge knows which shape it is.
inline constexpr const char* kSelf = "#self";

/// Names `to` where `t` (or what it holds) names the model `from`.
void replace_model(TypeRef& t, const std::string& from, const std::string& to);
/// Marks `t`'s references to the model `name` as references to itself (kSelf).
void mark_self(TypeRef& t, const std::string& name);
/// `m` with its references to itself naming it `name`.
Model with_self(Model m, const std::string& name);
/// The same fields, in order, of the same types, presence, nullability and consts (rules aside).
bool same_shape(const Model& a, const Model& b);

/// Finds the families, names each shape by the first version of its owner that has it, renames the
/// references to it, and sets each model's default schema and the unversioned aliases (Model, Alias).
void name_shapes(Module& module, const std::vector<SchemaShapes>& schemas, std::vector<Problem>& problems);

/// Puts the models in dependency order, so that every type is complete where it is used.
void order_models(Module& module, std::vector<Problem>& problems);

}  // namespace gen
