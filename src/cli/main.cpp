// sediment-rows: validate, format and inspect documents of the bundled schemas.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "sediment/rows.hpp"

namespace rows = sediment::rows;

namespace {

constexpr int kExitValid = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

const char* const kUsage = R"(usage: sediment-rows COMMAND [OPTIONS] [FILE...]

Commands:
  validate --schema NAME [--format text|jsonl] [--engine typed|schema] FILE...
      Checks every document. The typed engine decodes into the C++ models; the schema engine
      runs valijson over the bundled JSON Schema.
  format --schema NAME [--style compact|sediment] FILE...
      Decodes every document strictly and writes it again, one line per document.
  schema list
      Lists the bundled schemas.
  schema show NAME
      Prints a bundled schema, byte for byte.

FILE is a path or - for standard input. A .json file holds one document; any other file holds one
document per line (blank lines are skipped).

Exit status: 0 when every document is valid, 1 when any is invalid, 2 on a usage or I/O error.
)";

int usage_error(const std::string& message) {
    std::cerr << "sediment-rows: " << message << "\n" << "Try 'sediment-rows --help'.\n";
    return kExitUsage;
}

/// Escapes `s` as the body of a JSON string (the output is JSON; the input may be anything).
std::string json_string(std::string_view s) {
    std::string out;
    rows::detail::Writer w(out, rows::Style::sediment);
    std::string valid;
    // File names and messages may hold bytes that are not UTF-8: replace them rather than fail.
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = rows::detail::utf8_sequence(s, i);
        if (n == 0) {
            valid += "\xEF\xBF\xBD";
            ++i;
        } else {
            valid.append(s.substr(i, n));
            i += n;
        }
    }
    w.string(valid);
    return out;
}

/// `FILE:LINE: POINTER: message`, one line per error; the document's root is `(root)`.
void print_errors(std::ostream& out, const std::string& path, std::size_t line, const std::vector<rows::Error>& errors) {
    for (const rows::Error& e : errors)
        out << path << ":" << line << ": " << (e.pointer.empty() ? "(root)" : e.pointer) << ": " << e.message << "\n";
}

struct Options {
    std::string command;
    const rows::SchemaInfo* schema = nullptr;
    std::string format = "text";
    std::string engine = "typed";
    rows::Style style = rows::Style::compact;
    std::vector<std::string> files;
};

/// Calls `on_document(text, line)` for each document of `path`; false on an I/O error.
bool for_each_document(const std::string& path, const std::function<void(std::string_view, std::size_t)>& on_document) {
    std::ifstream file;
    std::istream* in = &std::cin;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) {
            std::cerr << "sediment-rows: cannot open " << path << "\n";
            return false;
        }
        in = &file;
    }
    const bool whole = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    if (whole) {
        std::string text((std::istreambuf_iterator<char>(*in)), std::istreambuf_iterator<char>());
        if (in->bad()) {
            std::cerr << "sediment-rows: cannot read " << path << "\n";
            return false;
        }
        on_document(text, 1);
        return true;
    }
    std::string line;
    for (std::size_t number = 1; std::getline(*in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        on_document(line, number);
    }
    if (in->bad()) {
        std::cerr << "sediment-rows: cannot read " << path << "\n";
        return false;
    }
    return true;
}

int run_validate(const Options& o) {
    std::size_t valid = 0, invalid = 0;
    bool io_error = false;
    for (const std::string& path : o.files) {
        io_error |= !for_each_document(path, [&](std::string_view text, std::size_t line) {
            const std::vector<rows::Error> errors =
                o.engine == "schema" ? rows::validate(o.schema->id, text) : rows::check(o.schema->id, text);
            ++(errors.empty() ? valid : invalid);
            if (o.format == "jsonl") {
                std::string out = "{\"file\": " + json_string(path) + ", \"line\": " + std::to_string(line) +
                                  ", \"valid\": " + (errors.empty() ? "true" : "false") + ", \"errors\": [";
                for (std::size_t i = 0; i < errors.size(); ++i)
                    out += std::string(i ? ", " : "") + "{\"pointer\": " + json_string(errors[i].pointer) +
                           ", \"message\": " + json_string(errors[i].message) + "}";
                std::cout << out << "]}\n";
            } else {
                print_errors(std::cout, path, line, errors);
            }
        });
    }
    std::cout.flush();
    std::cerr << valid << " valid, " << invalid << " invalid\n";
    if (io_error) return kExitUsage;
    return invalid ? kExitInvalid : kExitValid;
}

int run_format(const Options& o) {
    std::size_t invalid = 0;
    bool io_error = false;
    std::string out;
    for (const std::string& path : o.files) {
        io_error |= !for_each_document(path, [&](std::string_view text, std::size_t line) {
            std::vector<rows::Error> errors;
            out.clear();
            if (rows::reencode(o.schema->id, text, o.style, out, errors)) {
                out += '\n';
                std::cout << out;
                return;
            }
            ++invalid;
            print_errors(std::cerr, path, line, errors);
        });
    }
    std::cout.flush();
    if (io_error) return kExitUsage;
    return invalid ? kExitInvalid : kExitValid;
}

int run_schema(const std::vector<std::string>& args) {
    if (args.size() == 1 && args[0] == "list") {
        for (const rows::SchemaInfo& s : rows::kSchemas) std::cout << s.name << "\t" << s.uri << "\n";
        return kExitValid;
    }
    if (args.size() == 2 && args[0] == "show") {
        const rows::SchemaInfo* s = rows::find_schema(args[1]);
        if (!s) return usage_error("unknown schema '" + args[1] + "' (see 'sediment-rows schema list')");
        std::cout << rows::schema_text(s->id);
        return kExitValid;
    }
    return usage_error("usage: sediment-rows schema list | sediment-rows schema show NAME");
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usage_error("no command");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kUsage;
        return kExitValid;
    }
    if (args[0] == "schema") return run_schema({args.begin() + 1, args.end()});

    Options o;
    o.command = args[0];
    if (o.command != "validate" && o.command != "format") return usage_error("unknown command '" + o.command + "'");
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&](std::string& out) {
            if (i + 1 >= args.size()) return false;
            out = args[++i];
            return true;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return kExitValid;
        } else if (a == "--schema") {
            if (!value(v)) return usage_error("--schema needs a NAME");
            o.schema = rows::find_schema(v);
            if (!o.schema) return usage_error("unknown schema '" + v + "' (see 'sediment-rows schema list')");
        } else if (a == "--format" && o.command == "validate") {
            if (!value(o.format) || (o.format != "text" && o.format != "jsonl"))
                return usage_error("--format is text or jsonl");
        } else if (a == "--engine" && o.command == "validate") {
            if (!value(o.engine) || (o.engine != "typed" && o.engine != "schema"))
                return usage_error("--engine is typed or schema");
        } else if (a == "--style" && o.command == "format") {
            if (!value(v) || (v != "compact" && v != "sediment")) return usage_error("--style is compact or sediment");
            o.style = v == "sediment" ? rows::Style::sediment : rows::Style::compact;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usage_error("unknown option '" + a + "' for " + o.command);
        } else {
            o.files.push_back(a);
        }
    }
    if (!o.schema) return usage_error(o.command + " needs --schema NAME");
    if (o.files.empty()) return usage_error(o.command + " needs at least one FILE (- for standard input)");
    return o.command == "validate" ? run_validate(o) : run_format(o);
}
