// Forward kinematics against MuJoCo 2.2.2's mj_kinematics on random states, including quaternions
// of other than unit length in qpos and mocap_quat.
#include <gtest/gtest.h>

#include <iostream>

#include "joco/smooth.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

const std::vector<std::string> kKinematicsFields = {
    "qpos",    "mocap_quat", "xpos",      "xquat",     "xmat",      "xipos",    "ximat",
    "xanchor", "xaxis",      "geom_xpos", "geom_xmat", "site_xpos", "site_xmat"};

class KinematicsOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(KinematicsOracle, MatchesMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(GetParam(), c));
  oracle::WorstErrors worst;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    oracle::RandomStateOptions options;
    options.unnormalized_quaternions = seed % 2 == 1;
    oracle::randomize_state(c.mj.get(), c.md.get(), seed, options);
    oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
    mj_kinematics(c.mj.get(), c.md.get());
    kinematics(c.m, c.d);
    const oracle::Comparison cmp =
        oracle::compare_data(c.d, c.md.get(), c.mj.get(), kKinematicsFields, oracle::Tolerance{});
    oracle::expect_match(cmp, c.path + " seed " + std::to_string(seed));
    worst.add("seed " + std::to_string(seed), cmp);
  }
  std::cout << c.path << ":\n" << worst.table();
}

INSTANTIATE_TEST_SUITE_P(Models, KinematicsOracle,
                         ::testing::Values("smooth/joint_zoo.xml", "smooth/cameras_lights.xml",
                                           "mujoco-tests/test__engine__testdata__rotations.xml",
                                           "mujoco-tests/test__engine__testdata__refsite.xml",
                                           "mujoco-tests/test__engine__testdata__sites.xml",
                                           "mujoco-tests/test__testdata__model.xml",
                                           "mujoco/model/humanoid/humanoid.xml",
                                           "mujoco/model/composite/cloth.xml"));

}  // namespace
}  // namespace joco
