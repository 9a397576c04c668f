// Checking error messages: the message an input error carries, and the fragments it must contain.
// Shared by every test of bad input (MJCF, URDF, .jmb, PNG, skins, trajectories).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "joco/error.h"

namespace joco::test {

// The message of the exception of type E that f() throws, or "" when it throws none.
template <class E, class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// The message of the InputError f() throws (checking it is of the bad-input kind, which the tools
// turn into exit code 3), or "" when it throws none.
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput) << e.what();
    return e.what();
  }
  return "";
}

// Fails the current test unless `message` is not empty and contains every '|'-separated fragment
// of `expected`; `what` names the case in the failure.
void expect_fragments(const std::string& message, const std::string& expected,
                      const std::string& what);

}  // namespace joco::test
