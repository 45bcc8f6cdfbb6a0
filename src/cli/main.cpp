// sediment-rows: validate, format, convert and inspect documents of the bundled schemas. Each command
// is in its own file: check.cpp (validate, lint, format), rewrite.cpp (convert, upgrade, schema); the
// help in help.cpp, the options in options.cpp.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

using namespace sediment_rows_cli;

namespace {

bool is_help(const std::string& a) { return a == "--help" || a == "-h"; }

/// `status`, unless standard output could not take everything written to it (a full disk, a closed
/// pipe): then an I/O error.
int flushed(int status) {
    if (std::cout.flush()) return status;
    std::cerr << "sediment-rows: cannot write to standard output\n";
    return kExitUsage;
}

int run(const std::vector<std::string>& args) {
    if (args.empty()) return usage_error("no command");
    const std::string& command = args[0];
    if (is_help(command) || command == "help") {
        if (args.size() > 2 || (args.size() == 2 && !has_help(args[1])))
            return usage_error("help takes one command: validate, format, convert, upgrade, repair, lint, verify or schema");
        std::cout << help(args.size() == 2 ? args[1] : "");
        return kExitOk;
    }
    if (command == "--version" || command == "version") {
        std::cout << "sediment-rows " << rows::library_version() << "\n";
        return kExitOk;
    }
    if (command != "validate" && command != "format" && command != "convert" && command != "upgrade" && command != "lint" &&
        command != "schema" && command != "verify" && command != "repair")
        return usage_error("unknown command '" + command + "'");
    for (std::size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
        if (is_help(args[i])) {
            std::cout << help(command);
            return kExitOk;
        }
    }
    if (command == "schema") return run_schema({args.begin() + 1, args.end()});
    if (command == "verify") return run_verify(args);
    if (command == "convert")  // --to a consumer profile: a profile folder from canonical rows
        for (std::size_t i = 1; i + 1 < args.size() && args[i] != "--"; ++i)
            if (args[i] == "--to" && names_profile(args[i + 1])) return run_profile_convert(args);

    Options o;
    o.command = command;
    const std::string problem = parse_options(args, o);
    if (!problem.empty()) return usage_error(problem, command);
    if (command == "convert") return run_convert(o);
    if (command == "upgrade") return run_upgrade(o);
    if (command == "repair") return run_repair(o);
    if (command == "lint") return run_lint(o);
    return command == "validate" ? run_validate(o) : run_format(o);
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    return flushed(run({argv + 1, argv + argc}));
}
