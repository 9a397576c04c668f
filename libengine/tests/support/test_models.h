// The one list of test models. Tests that sweep models take them from here (filtering, with a
// comment, where a test's subject needs a part of the list) instead of keeping lists of their own.
//
//   quick_models()         a handful covering every kind of constraint (equalities, friction loss,
//                          limits, contacts, tendons, muscles, a real robot): the default suite
//   long_models()          the larger and slower ones, swept by LongSweep/ tests (ctest -L long)
//   all_testdata_models()  every model in testdata/: the MJCF and URDF files whose root element is
//                          <mujoco> or <robot> (not include fragments), found by globbing
//   testdata_files()       every .xml and .urdf file in testdata/, fragments included
//
// Paths are relative to testdata/ (test::testdata() makes them absolute), sorted where globbed.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace joco::test {

const std::vector<std::string>& quick_models();
const std::vector<std::string>& long_models();
std::vector<std::string> all_testdata_models();
std::vector<std::string> testdata_files();

// A test parameter (a model path, say) as a test name: every character but letters and digits as
// '_'.
std::string param_name(const ::testing::TestParamInfo<std::string>& param);

}  // namespace joco::test
