// sediment-rows: validate, format and inspect documents of the bundled schemas.
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
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
  convert --from NAME --to NAME [--metadata FILE] [--lossy] [--style compact|sediment] FILE...
      Converts ATIF trajectories to rollout rows or their parts, and rollout rows to ATIF, one
      output line per document (docs/atif-mapping.md):
        --from atif-v1.7 --to nemo-gym-rollout.v2 | nemo-gym-response.v2 |
                              nemo-gym-responses-create-params.v2
        --from nemo-gym-rollout.v2 --to atif-v1.7
      A rollout row needs metadata: the trajectory's own (written by --to atif-v1.7), or line i of
      --metadata FILE for the i-th trajectory, an object {"metadata": {...}, "reward": 1.0}
      ("reward" optional). A value the target cannot hold fails the document with the full list;
      --lossy drops exactly those values and lists them on stderr.
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
    const rows::SchemaInfo* to = nullptr;  // convert: --from is `schema`
    std::string metadata;
    bool lossy = false;
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

/// Line i of the --metadata file for the i-th converted document.
struct MetadataFile {
    std::ifstream in;
    std::string path;
    std::size_t line = 0;

    /// The next metadata; false after printing why there is none.
    bool next(rows::RowMetadata& out) {
        std::string text;
        while (std::getline(in, text)) {
            ++line;
            if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
            std::vector<rows::Error> errors;
            if (rows::decode(text, out, errors)) return true;
            print_errors(std::cerr, path, line, errors);
            return false;
        }
        std::cerr << path << ": no metadata line left for the next document\n";
        return false;
    }
};

int run_convert(const Options& o) {
    using rows::SchemaId;
    const SchemaId from = o.schema->id, to = o.to->id;
    const bool from_atif = from == SchemaId::atif_v1_7;
    if (from_atif ? to == SchemaId::atif_v1_7 || to == SchemaId::ci_outcome_v1
                  : from != SchemaId::nemo_gym_rollout_v2 || to != SchemaId::atif_v1_7)
        return usage_error("convert goes from atif-v1.7 to nemo-gym-rollout.v2, nemo-gym-response.v2 or "
                           "nemo-gym-responses-create-params.v2, or from nemo-gym-rollout.v2 to atif-v1.7");
    if (!o.metadata.empty() && to != SchemaId::nemo_gym_rollout_v2)
        return usage_error("--metadata goes with --to nemo-gym-rollout.v2");
    MetadataFile metadata;
    if (!o.metadata.empty()) {
        metadata.path = o.metadata;
        metadata.in.open(o.metadata, std::ios::binary);
        if (!metadata.in) {
            std::cerr << "sediment-rows: cannot open " << o.metadata << "\n";
            return kExitUsage;
        }
    }
    const rows::ConvertOptions options{o.lossy};
    std::size_t converted = 0, failed = 0;
    bool io_error = false;
    std::string out;
    for (const std::string& path : o.files) {
        io_error |= !for_each_document(path, [&](std::string_view text, std::size_t line) {
            out.clear();
            std::vector<rows::Error> errors, losses;
            try {
                if (!from_atif) {
                    const auto row = rows::decode<rows::NemoGymRolloutRow>(text);
                    rows::encode(rows::to_atif(row), out, o.style);
                } else {
                    const auto trajectory = rows::decode<rows::AtifTrajectory>(text);
                    std::optional<rows::RowMetadata> given;
                    if (!o.metadata.empty() && !metadata.next(given.emplace())) {
                        io_error = true;
                        ++failed;
                        return;
                    }
                    if (to == SchemaId::nemo_gym_rollout_v2) {
                        auto row = rows::to_rollout_row(trajectory, given, options);
                        rows::encode(row.value, out, o.style);
                        losses = std::move(row.losses);
                    } else {
                        auto parts = rows::to_row_parts(trajectory, options);
                        if (to == SchemaId::nemo_gym_response_v2) rows::encode(parts.value.response, out, o.style);
                        else rows::encode(parts.value.responses_create_params, out, o.style);
                        losses = std::move(parts.losses);
                        errors = rows::check(to, out);  // the create-params schema's own tool-call id rule
                    }
                }
            } catch (const rows::DecodeError& e) {
                errors = e.errors();
            } catch (const rows::ConvertError& e) {
                errors = e.errors();
            } catch (const rows::EncodeError& e) {
                errors = {e.error()};
            }
            for (rows::Error& e : losses) e.message = "dropped: " + e.message;
            print_errors(std::cerr, path, line, losses);
            if (!errors.empty()) {
                ++failed;
                print_errors(std::cerr, path, line, errors);
                return;
            }
            ++converted;
            out += '\n';
            std::cout << out;
        });
    }
    std::cout.flush();
    std::cerr << converted << " converted, " << failed << " failed\n";
    if (io_error) return kExitUsage;
    return failed ? kExitInvalid : kExitValid;
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
    if (o.command != "validate" && o.command != "format" && o.command != "convert")
        return usage_error("unknown command '" + o.command + "'");
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
        } else if (a == (o.command == "convert" ? "--from" : "--schema") || (a == "--to" && o.command == "convert")) {
            if (!value(v)) return usage_error(a + " needs a NAME");
            (a == "--to" ? o.to : o.schema) = rows::find_schema(v);
            if (!(a == "--to" ? o.to : o.schema))
                return usage_error("unknown schema '" + v + "' (see 'sediment-rows schema list')");
        } else if (a == "--metadata" && o.command == "convert") {
            if (!value(o.metadata)) return usage_error("--metadata needs a FILE");
        } else if (a == "--lossy" && o.command == "convert") {
            o.lossy = true;
        } else if (a == "--format" && o.command == "validate") {
            if (!value(o.format) || (o.format != "text" && o.format != "jsonl"))
                return usage_error("--format is text or jsonl");
        } else if (a == "--engine" && o.command == "validate") {
            if (!value(o.engine) || (o.engine != "typed" && o.engine != "schema"))
                return usage_error("--engine is typed or schema");
        } else if (a == "--style" && (o.command == "format" || o.command == "convert")) {
            if (!value(v) || (v != "compact" && v != "sediment")) return usage_error("--style is compact or sediment");
            o.style = v == "sediment" ? rows::Style::sediment : rows::Style::compact;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usage_error("unknown option '" + a + "' for " + o.command);
        } else {
            o.files.push_back(a);
        }
    }
    if (o.command == "convert" && (!o.schema || !o.to)) return usage_error("convert needs --from NAME and --to NAME");
    if (!o.schema) return usage_error(o.command + " needs --schema NAME");
    if (o.files.empty()) return usage_error(o.command + " needs at least one FILE (- for standard input)");
    if (o.command == "convert") return run_convert(o);
    return o.command == "validate" ? run_validate(o) : run_format(o);
}
