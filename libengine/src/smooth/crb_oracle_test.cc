// crb against MuJoCo 2.2.2's mj_crb: composite inertias and the sparse joint-space inertia.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

class CrbOracle : public ::testing::TestWithParam<std::string> {};

TEST_P(CrbOracle, MatchesMuJoCo) {
  oracle::StageCheck check;
  check.fields = {"crb", "qM"};
  check.mujoco = mj_crb;
  check.joco = crb;
  oracle::check_stage(GetParam(), check);
}

// The stage's own models (armature and several free bodies in joint_zoo) and the small quick
// ones; every other model (long chains: flag, cloth) in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(CrbOracle, "smooth/");

// Changed masses and armature at run time: MuJoCo keeps the compiled dof_M0 on the diagonal of
// simple dofs (humanoid100's free boxes) and uses the new values elsewhere.
TEST(CrbOracleRuntimeChanges, SimpleDofsKeepTheirCompiledInertia) {
  oracle::StageCheck check;
  check.fields = {"crb", "qM"};
  check.mujoco = mj_crb;
  check.joco = crb;
  check.seeds = 2;
  oracle::check_stage("mujoco/model/humanoid100/humanoid100.xml", check, [](oracle::OracleCase& c) {
    for (int i = 0; i < c.m.nv; ++i) c.m.dof_armature[i] = c.mj->dof_armature[i] += 0.5;
    for (int b = 0; b < c.m.nbody; ++b) c.m.body_mass[b] = c.mj->body_mass[b] *= 2;
  });
}

}  // namespace
}  // namespace joco
