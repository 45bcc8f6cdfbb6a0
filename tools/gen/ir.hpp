// The generator's intermediate model: what the schemas say, independent of any emitter. The loader
// fills it; each emitter (C++ models, decoders, encoders, ...) only reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gen {

/// Where a value's type comes from.
struct TypeRef {
    enum class Kind {
        string,
        integer,        // a 64-bit integer; 3.0 is an integer (JSON Schema)
        exact_integer,  // an integer of any size written as a JSON integer (strict-number schemas)
        number,
        boolean,
        any,          // any JSON value (a property with no type)
        object_any,   // a free-form object: {"type": "object", "additionalProperties": {}}
        array,        // of `item`
        model,        // a $defs object, by `name`
        enumeration,  // a string enum, by `name`
        variant,      // an anyOf, by `name`: models told apart by a tag, or values told apart by JSON type
        nothing,      // the item of an array that must be empty (`"items": false`)
    };
    Kind kind = Kind::any;
    std::string name;
    std::shared_ptr<TypeRef> item;

    bool operator==(const TypeRef& o) const {
        return kind == o.kind && name == o.name && (item == o.item || (item && o.item && *item == *o.item));
    }
    bool operator!=(const TypeRef& o) const { return !(*this == o); }
};

/// A constraint on a field's (non-null) value, or on each item of it. `schemas` lists the schemas
/// where it holds; empty means every schema that contains the model.
struct Rule {
    // constant: a `const` beside null (the value, when not null, is `text`);
    // one_of: an integer `enum` (the value is one of `numbers`)
    enum class Kind { minimum, maximum, max_length, pattern, format, min_items, max_items, object, constant, one_of };
    Kind kind;
    std::int64_t number = 0;  // minimum, maximum, max_length, min_items, max_items
    std::string text;         // pattern, format, constant
    std::vector<std::string> schemas;
    bool on_items = false;    // applies to each item of an array
    std::vector<std::int64_t> numbers;  // one_of

    bool same_constraint(const Rule& o) const {
        return kind == o.kind && number == o.number && text == o.text && on_items == o.on_items && numbers == o.numbers;
    }
};

/// A `const` property: a fixed string or integer.
struct Const {
    bool is_string = true;
    std::string text;
    std::int64_t integer = 0;
    bool operator==(const Const& o) const { return is_string == o.is_string && text == o.text && integer == o.integer; }
};

struct Field {
    std::string json_name;
    std::string description;
    TypeRef type;
    bool required = false;
    bool nullable = false;                 // anyOf [X, null]
    std::shared_ptr<Const> constant;       // set for `const` properties
    std::vector<Rule> rules;
};

/// One shape of a JSON model. A `$defs` name (or root title) whose shape differs between schemas
/// (other fields, types or consts) is one Model per shape. Each belongs to an owner (the schema it is
/// the root of, else the smallest schema that holds it) and is named for the first version of its
/// owner that has it: CIOutcomeV1 (ci-outcome v1 and v2), CIOutcomeV3, NemoGymMetadataV4.
struct Model {
    std::string name;  // the C++ name: the $defs key or the schema title, and its owner's version
    std::string json_name;  // the $defs key, or the schema title for a root
    std::string owner;  // the owner's name without its version: "ci-outcome"
    std::string default_schema;  // decoded on its own under: the newest version of its owner that has it
    std::string description;
    std::vector<Field> fields;           // in schema property order
    std::vector<std::string> schemas;    // schemas containing it, in bundle order
    std::string origin;                  // first place it was read, for messages
    std::string checked_by_code;         // rules hand-written code checks (detail::check_rules), if any
    bool rules_read_values = false;      // those rules read free-form values: the check-only fast path reads the model, not a view
};

struct Enum {
    std::string name;
    std::string description;
    std::vector<std::string> values;
    std::vector<std::string> schemas;                    // the schemas that use it, in bundle order
    std::vector<std::vector<std::string>> value_schemas;  // per value: the schemas that allow it (empty: all)
};

/// An anyOf: of models told apart by a string `const` property (`tag`); of models that no single
/// const tells apart, selected by the object's keys (`by_keys`, Sediment's trainer messages); or, when
/// `models` is empty, of `types` told apart by their JSON type (a string or an array, ...).
struct Variant {
    std::string name;
    std::string tag;
    bool by_keys = false;
    std::string selector;  // by_keys: a property every branch requires as a const or enum string ("role")
    std::vector<std::string> models;
    std::vector<TypeRef> types;
    std::string description;
};

struct SchemaDoc {
    std::string name;  // file name without ".schema.json": "nemo-gym-rollout.v2"
    std::string file;  // path as given to the generator
    std::string uri;   // $id
    std::string root;  // the model of the document's root (its C++ name)
    bool strict_numbers = false;  // "x-sediment-strict-numbers": integers are JSON integers of any size
    bool exact_decimals = false;  // "x-sediment-exact-decimals": decimals must be exactly a double
    std::string family;  // a schema no other embeds, with versions: "nemo-gym-rollout"; else empty
    int version = 0;     // N of a ".vN" name, 0 without one
    std::string version_pointer;  // where a document names its version: the const equal to $id ("/metadata/schema_id")
};

/// An unversioned name and the shape it stands for: its owner's newest version's (`CIOutcome` ->
/// `CIOutcomeV3`), what Sediment writes today.
struct Alias {
    std::string name;
    std::string type;
};

struct Module {
    std::vector<SchemaDoc> schemas;  // bundle order
    std::vector<Alias> aliases;      // in model order
    std::vector<Model> models;       // in dependency order after the loader finishes
    std::vector<Enum> enums;
    std::vector<Variant> variants;

    const Model* find_model(const std::string& name) const {
        for (const Model& m : models)
            if (m.name == name) return &m;
        return nullptr;
    }
};

/// A schema problem with its location ("schemas/x.json#/properties/a: 'type' arrays are not supported").
struct Problem {
    std::string where;
    std::string what;
};

}  // namespace gen
