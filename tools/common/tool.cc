#include "tool.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <new>
#include <sstream>

#include "common/output_file.h"
#include "common/trajectory_writer.h"
#include "common/version.h"

namespace joco::tools {

namespace {
std::string g_command_line;

void set_up_logging(const ToolContext& ctx) {
  auto logger = spdlog::stderr_logger_mt(ctx.name);
  logger->set_pattern("%n: %l: %v");
  logger->set_level(ctx.verbosity >= 2   ? spdlog::level::debug
                    : ctx.verbosity == 1 ? spdlog::level::info
                    : ctx.verbosity == 0 ? spdlog::level::warn
                                         : spdlog::level::err);
  spdlog::set_default_logger(logger);
}
}  // namespace

const std::string& command_line() { return g_command_line; }

CLI::Option* add_hdf5_output_option(CLI::App& app, std::string& output) {
  app.add_flag_callback(
      "--compress", [] { set_default_deflate_level(1); },
      "Compress the output (shuffle and deflate, level 1): files about 1.3-1.6x smaller, written "
      "several times slower");
  return add_output_check(app.add_option(
      "-o,--output", output, "Output HDF5 file (- for standard output, the default)"));
}

CLI::Option* add_output_check(CLI::Option* option) {
  return option->check(CLI::Validator(
      [](std::string& path) -> std::string {
        try {
          if (path != "-") check_output(path);
        } catch (const UsageError& e) {
          return e.what();
        }
        return "";
      },
      "", "writable output"));
}

ExitCode exit_code(const Error& e) {
  switch (e.kind()) {
    case ErrorKind::kInput: return kExitBadInput;
    case ErrorKind::kRuntime: return kExitRuntime;
  }
  return kExitRuntime;
}

namespace {

// The value of an option as a number, or NaN when it is not one (whole text, no trailing junk).
double number_or_nan(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return text.empty() || *end != 0 ? std::nan("") : value;
}

// A bound as people write it: 0, 1024, 0.5, 1e-06.
std::string bound_text(double bound) {
  std::ostringstream s;
  s << bound;
  return s.str();
}

CLI::Validator numeric_check(std::function<bool(double)> accept, const std::string& expected,
                             const std::string& name) {
  return CLI::Validator(
      [accept, expected](std::string& text) -> std::string {
        const double value = number_or_nan(text);
        return value == value && accept(value) ? ""
                                               : "expected " + expected + ", got '" + text + "'";
      },
      name);
}

}  // namespace

const CLI::Validator kNonNegative =
    numeric_check([](double v) { return v >= 0; }, "a number >= 0", "NONNEGATIVE");
const CLI::Validator kPositive =
    numeric_check([](double v) { return v > 0; }, "a number > 0", "POSITIVE");

CLI::Validator in_range(double lowest, double highest) {
  const std::string range = bound_text(lowest) + " to " + bound_text(highest);
  return numeric_check([=](double v) { return v >= lowest && v <= highest; },
                       "a number from " + range, "[" + range + "]");
}

int run_tool(int argc, char** argv, const std::string& name, const std::string& description,
             const std::function<void(CLI::App&)>& define,
             const std::function<int(const ToolContext&)>& run) {
  install_output_signal_handlers();
  for (int i = 0; i < argc; ++i) {
    if (i) g_command_line += ' ';
    g_command_line += argv[i];
  }
  ToolContext ctx;
  ctx.name = name;
  CLI::App app(description, name);
  app.set_version_flag("--version",
                       name + " (joco) " JOCO_VERSION ", commit " + kCommit);
  app.footer(
      "Exit codes: 0 success; 1 a check failed (a threshold, or --strict divergence); 2 usage "
      "error;\n"
      "3 bad input (unreadable, malformed or inconsistent file); 4 runtime failure (write error,\n"
      "out of memory). Full description: man " +
      name);
  int verbose = 0, quiet = 0;
  app.add_flag("-v,--verbose", verbose, "More messages on standard error (repeat for more)");
  app.add_flag("-q,--quiet", quiet, "Only errors on standard error");
  try {
    define(app);
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << name << ": error: " << e.what() << "\nRun '" << name << " --help' for usage.\n";
    return kExitUsage;
  }
  ctx.verbosity = verbose - quiet;
  set_up_logging(ctx);
  try {
    return run(ctx);
  } catch (...) {
    return report_failure(std::current_exception());
  }
}

int report_failure(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const UsageError& e) {
    spdlog::error("{}", e.what());
    return kExitUsage;
  } catch (const Error& e) {
    spdlog::error("{}", e.what());
    return exit_code(e);
  } catch (const std::bad_alloc&) {
    spdlog::error("out of memory");
    return kExitRuntime;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kExitRuntime;
  }
}

}  // namespace joco::tools
