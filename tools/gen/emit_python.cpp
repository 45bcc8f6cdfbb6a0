#include "emit_python.hpp"

#include <cctype>
#include <map>
#include <set>

#include "emit_common.hpp"
#include "template.hpp"

namespace gen {

namespace {

const std::set<std::string> kPythonKeywords = {
    "False", "None",   "True",    "and",      "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",      "elif", "else",   "except", "finally",  "for",
    "from",  "global", "if",      "import",   "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",   "return",   "try",  "while",  "with",   "yield"};

bool python_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) || kPythonKeywords.count(s)) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

/// A Python string literal: "..." with \\, \" and control characters escaped.
std::string python_string(const std::string& s) {
    static const char* const kHex = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') (out += '\\') += c;
        else if (u < 0x20 || u == 0x7f) (((out += "\\x") += kHex[u >> 4]) += kHex[u & 15]);
        else out += c;
    }
    return out + "\"";
}

/// The names emitted so far: a name used before its definition is written as text (a forward reference).
using Defined = std::set<std::string>;

std::string python_type(const TypeRef& t, const Defined& defined) {
    switch (t.kind) {
        case TypeRef::Kind::string: return "str";
        case TypeRef::Kind::integer:
        case TypeRef::Kind::exact_integer: return "int";
        case TypeRef::Kind::number: return "float";  // an int is a float to a type checker, as loads() may give
        case TypeRef::Kind::boolean: return "bool";
        case TypeRef::Kind::any: return "Any";
        case TypeRef::Kind::object_any: return "Dict[str, Any]";
        case TypeRef::Kind::array: return "List[" + (t.item ? python_type(*t.item, defined) : std::string("Any")) + "]";
        case TypeRef::Kind::nothing: return "NoReturn";  // the item of an array that must be empty
        case TypeRef::Kind::model:
        case TypeRef::Kind::enumeration:
        case TypeRef::Kind::variant: return defined.count(t.name) ? t.name : python_string(t.name);
    }
    return "Any";
}

std::string field_type(const Field& f, const Defined& defined) {
    std::string type = python_type(f.type, defined);
    if (f.constant)
        type = "Literal[" + (f.constant->is_string ? python_string(f.constant->text) : std::to_string(f.constant->integer)) + "]";
    if (f.nullable) type = "Optional[" + type + "]";
    return f.required ? type : "NotRequired[" + type + "]";
}

constexpr std::size_t kWidth = 110;

/// `words` as lines of at most `width` characters (a longer word stands alone).
std::vector<std::string> wrap(const std::vector<std::string>& words, std::size_t width, const std::string& sep = " ") {
    std::vector<std::string> lines;
    std::string line;
    for (const std::string& w : words) {
        if (!line.empty() && line.size() + sep.size() + w.size() > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : sep) + w;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

/// `text` as a docstring indented by `by`: one line when it fits, else wrapped with the quotes on lines
/// of their own at the end.
std::string docstring(const std::string& text, int by) {
    if (text.empty()) return {};
    const std::string lead(static_cast<std::size_t>(by), ' ');
    std::vector<std::string> words;
    std::string word;
    for (const char c : text + " ") {
        if (c == ' ' || c == '\n') {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else {
            word += c == '\\' ? std::string("\\\\") : std::string(1, c);
        }
    }
    const std::string one = cpp::join(words, " ");
    if (lead.size() + one.size() + 6 <= kWidth) return lead + "\"\"\"" + one + "\"\"\"\n";
    const std::vector<std::string> lines = wrap(words, kWidth - lead.size() - 3);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) out += lead + (i ? "" : "\"\"\"") + lines[i] + "\n";
    return out + lead + "\"\"\"\n";
}

/// `name = Head[items]` on one line when it fits, else with the items on lines of their own.
std::string assignment(const std::string& name, const std::string& head, const std::vector<std::string>& items) {
    if (items.size() == 1 && head == "Union") return name + " = " + items.front() + "\n";
    const std::string one = name + " = " + head + "[" + cpp::join(items, ", ") + "]";
    if (one.size() <= kWidth) return one + "\n";
    std::vector<std::string> with_commas;
    for (const std::string& item : items) with_commas.push_back(item + ",");
    std::string out = name + " = " + head + "[\n";
    for (const std::string& line : wrap(with_commas, kWidth - 4)) out += "    " + line + "\n";
    return out + "]\n";
}

/// One overload of a protocol's __call__, its parameters on a line of their own when the signature is long.
std::string overload(const std::string& parameters, const std::string& result) {
    const std::string one = "    def __call__(self, " + parameters + ") -> " + result + ": ...";
    if (one.size() <= kWidth) return "    @overload\n" + one + "\n";
    return "    @overload\n    def __call__(\n        self, " + parameters + "\n    ) -> " + result + ": ...\n";
}

/// The overloads of loads() and of read(), one for each schema name: `schema` the parameter, or empty
/// for the overload without it (the default schema's); `type` the value's.
struct Overloads {
    std::string loads, read;

    void add(const std::string& schema, const std::string& type) {
        const std::string named = schema.empty() ? "" : ", schema: " + schema;
        loads += overload("data: Data" + named, type);
        // without a schema, jobs and document are keyword-only: read()'s second positional is the schema
        read += overload("path: Path" + (schema.empty() ? ", *" : named) + ", jobs: Optional[int] = None, document: bool = False",
                         "Iterator[\"Document[" + type + "]\"]");
    }
};

std::string emit_model(const Model& m, const Defined& defined) {
    bool identifiers = true;
    for (const Field& f : m.fields) identifiers = identifiers && python_identifier(f.json_name);
    if (!identifiers) {  // keys that are no Python names: the functional form
        std::vector<std::string> items;
        for (const Field& f : m.fields) items.push_back("    " + python_string(f.json_name) + ": " + field_type(f, defined) + ",\n");
        return fill("$Name$ = TypedDict(\"$Name$\", {\n$Items$})\n", {{"Name", m.name}, {"Items", cpp::join(items, "")}});
    }
    std::string body = docstring(m.description, 4);
    for (const Field& f : m.fields) body += "    " + f.json_name + ": " + field_type(f, defined) + "\n";
    if (m.fields.empty() && body.empty()) body = "    pass\n";
    return fill("class $Name$(TypedDict):\n$Body$", {{"Name", m.name}, {"Body", body}});
}

}  // namespace

std::string emit_python_types(const Module& module) {
    std::string enums, models, aliases, any_names;
    Overloads overloads, first;
    Defined defined;
    for (const Enum& e : module.enums) {
        std::vector<std::string> values;
        for (const std::string& v : e.values) values.push_back(python_string(v));
        enums += assignment(e.name, "Literal", values);
        defined.insert(e.name);
    }
    // In the C++ models' order (a union follows the last model it names), so that the annotations are
    // real types at run time (TypedDict's required and optional keys), a name not yet defined as text.
    cpp::in_emission_order(
        module,
        [&](const Model& m) {
            models += "\n\n" + emit_model(m, defined);
            defined.insert(m.name);
        },
        [&](const Variant& v) {
            std::vector<std::string> branches;
            for (const std::string& m : v.models) branches.push_back(python_type(TypeRef{TypeRef::Kind::model, m, {}}, defined));
            for (const TypeRef& t : v.types) branches.push_back(python_type(t, defined));
            models += "\n\n" + assignment(v.name, "Union", branches);
            defined.insert(v.name);
        });
    for (const Alias& a : module.aliases) aliases += a.name + " = " + a.type + "\n";

    // loads(data, name): one overload per name that validate() takes, the base names of the families whose
    // documents name their version giving any of their versions.
    std::vector<std::string> families;
    std::map<std::string, std::vector<std::string>> roots;
    for (const SchemaDoc& s : module.schemas) {
        overloads.add("Literal[" + python_string(s.name) + "]", s.root);
        if (s.family.empty() || s.version_pointer.empty()) continue;
        if (!roots.count(s.family)) families.push_back(s.family);
        roots[s.family].push_back(s.root);
    }
    std::string rollout;
    for (const std::string& family : families) {
        std::string name = "Any" + roots[family].back();  // AnyNemoGymRolloutRowV4 until an alias names it
        for (const Alias& a : module.aliases)
            if (a.type == roots[family].back()) name = "Any" + a.name;
        any_names += assignment(name, "Union", roots[family]);
        overloads.add("Literal[" + python_string(family) + "]", name);
        if (family == "nemo-gym-rollout") rollout = name;
    }
    if (!rollout.empty()) first.add("", rollout);
    overloads.add("str", "Any");

    return fill(R"(# Generated by sediment-rows-gen from the bundled schemas (schemas/*.schema.json).
# Do not edit: change the generator or the schemas, then run `cmake --build build --target regenerate`.
"""The shapes of the values sediment_rows.loads() returns, for type checkers: a TypedDict for every model
of every bundled schema and version (named as the C++ models are: NemoGymRolloutRowV4), its unversioned
name for the version Sediment writes today (NemoGymRolloutRow), and Any<Name> for any version of a family
whose documents name their version. `loads(line, "nemo-gym-rollout.v4")` is typed NemoGymRolloutRowV4.

A type checker's view only: loads() checks every rule of the schema at run time, and these types name
none beyond the shapes (no patterns, bounds or per-version enum values).
"""
import os
import sys
from typing import (TYPE_CHECKING, Any, Dict, Iterator, List, Literal, NoReturn, Optional, Protocol, TypedDict, Union,
                    overload)

if TYPE_CHECKING:
    from . import Document

if sys.version_info >= (3, 11):
    from typing import NotRequired
elif TYPE_CHECKING:
    from typing_extensions import NotRequired
else:  # Python 3.9 and 3.10 without typing_extensions: the keys read as required at run time
    try:
        from typing_extensions import NotRequired
    except ImportError:
        class _NotRequired:
            def __getitem__(self, item: Any) -> Any:
                return item

        NotRequired = _NotRequired()

Data = Union[bytes, str]  # a JSON document's text
Path = Union[str, bytes, "os.PathLike[str]"]  # a file's path

# ----- string enums ----------------------------------------------------------------------------------
$Enums$
# ----- models and unions -----------------------------------------------------------------------------$Models$

# ----- unversioned names: the version Sediment writes today ------------------------------------------
$Aliases$
# ----- any version of a family whose documents name their version -----------------------------------
$AnyNames$

class Loads(Protocol):
    """The type of sediment_rows.loads(): the value's shape follows the schema's name."""
$Loads$

class Read(Protocol):
    """The type of sediment_rows.read(): each Document's value has the shape the schema's name gives."""
$Read$)",
                {{"Enums", enums},
                 {"Models", models},
                 {"Aliases", aliases},
                 {"AnyNames", any_names},
                 {"Loads", first.loads + overloads.loads},
                 {"Read", first.read + overloads.read}});
}

}  // namespace gen
