// Errors the engine raises, by kind: the input is bad, or running failed. What a kind means to a
// program is the program's to say: the tools map kinds to the exit codes of their contract
// (tools/common/tool.h).
#pragma once

#include <stdexcept>
#include <string>

namespace joco {

enum class ErrorKind {
  kInput,    // unreadable, malformed or inconsistent input
  kRuntime,  // a failure while running
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

// Unreadable, malformed or inconsistent input (model, trajectory, URDF). The message names the
// file and, where there is one, the line and element or field.
class InputError : public Error {
 public:
  explicit InputError(const std::string& message) : Error(ErrorKind::kInput, message) {}
};

// A failure while running: write error, resource exhaustion, divergence under --strict.
class RuntimeError : public Error {
 public:
  explicit RuntimeError(const std::string& message) : Error(ErrorKind::kRuntime, message) {}
};

}  // namespace joco
