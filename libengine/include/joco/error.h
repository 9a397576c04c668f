// Errors raised by loaders and tools. Each carries the exit code of the toolchain contract.
#pragma once

#include <stdexcept>
#include <string>

namespace joco {

// Exit codes of every tool (toolchain spec).
enum ExitCode : int {
  kExitOk = 0,
  kExitCheckFailed = 1,
  kExitUsage = 2,
  kExitBadInput = 3,
  kExitRuntime = 4,
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// A bad flag, value or combination of them: exit code 2.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& message) : Error(kExitUsage, message) {}
};

// Unreadable, malformed or inconsistent input (model, trajectory, URDF): exit code 3. The message
// names the file and, where there is one, the line and element or field.
class InputError : public Error {
 public:
  explicit InputError(const std::string& message) : Error(kExitBadInput, message) {}
};

// A failure while running: write error, resource exhaustion, divergence under --strict: exit
// code 4.
class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(kExitRuntime, message) {}
};

}  // namespace joco
