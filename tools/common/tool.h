// What every tool shares: CLI11 set-up with --help, --version, -v/-q; spdlog on standard error; and
// the mapping of failures to the exit codes of the toolchain contract.
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

#include "joco/error.h"

namespace joco::tools {

// Exit codes of every tool (toolchain contract).
enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,
  kExitUsage = 2,
  kExitBadInput = 3,
  kExitRuntime = 4,
};

// A bad flag, value or combination of them: exit code 2.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

// The exit code of an engine error: bad input 3, a failure while running 4.
ExitCode exit_code(const Error& e);

struct ToolContext {
  std::string name;   // "joco-compile"
  int verbosity = 0;  // -v adds one, -q subtracts one
  bool quiet() const { return verbosity < 0; }
};

// Runs a tool: builds the CLI (`define` adds the tool's options), parses, sets up logging, calls
// `run`, and turns every failure into a message on standard error and an exit code:
// usage errors 2, joco::Error the code of its kind (exit_code), out of memory and other failures 4.
int run_tool(int argc, char** argv, const std::string& name, const std::string& description,
             const std::function<void(CLI::App&)>& define,
             const std::function<int(const ToolContext&)>& run);

// run_tool's mapping of a failure to its message on standard error and its exit code, for failures
// caught elsewhere (an MPI rank's, reported after the ranks have agreed).
int report_failure(const std::exception_ptr& failure);

// Checks of numeric option values whose messages say the bound in words ("--steps: expected a
// number >= 0, got '-1'"); CLI11's own NonNegativeNumber and PositiveNumber print their range up to
// the largest double, all 309 digits of it.
extern const CLI::Validator kNonNegative;
extern const CLI::Validator kPositive;
CLI::Validator in_range(double lowest, double highest);

// The positional MODEL argument of the tools that simulate: a .jmb, MJCF or URDF file, or - for
// standard input (told apart by content). Required.
inline CLI::Option* add_model_argument(CLI::App& app, std::string& model) {
  return app.add_option("MODEL", model, "Model: .jmb, .xml (MJCF), .urdf, or - for standard input")
      ->required();
}

// -o/--output of the tools that write an HDF5 file; standard output ("-") unless given. With it,
// --compress: the file's chunks shuffled and deflated (default_deflate_level 1) instead of stored.
CLI::Option* add_hdf5_output_option(CLI::App& app, std::string& output);

// Checks an output option's value before any work (check_output in output_file.h): a directory, a
// missing directory or a place where no file can be made is a usage error (exit 2). Every -o of
// every tool has it.
CLI::Option* add_output_check(CLI::Option* option);

// --threads T, 1 to 1024; `description` says what runs in parallel.
inline CLI::Option* add_threads_option(CLI::App& app, int& threads,
                                       const std::string& description) {
  return app.add_option("--threads", threads, description)->check(in_range(1, 1024));
}

// The command line as typed, for provenance attributes.
const std::string& command_line();

}  // namespace joco::tools
