// Rollouts with constraints against MuJoCo 2.2.2: joco's whole forward pipeline and integrator
// (equalities, friction loss, joint limits; contacts disabled, collision detection being another
// module's) stepped alongside MuJoCo from the same perturbed initial state, for every solver and
// both cones. The trajectories must stay within 1e-6 of MuJoCo's.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "joco/forward.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

TEST(ConstrainedRollout, FollowsMuJoCo) {
  for (int integrator : {mjINT_EULER, mjINT_RK4}) {
    for (int cone : {mjCONE_PYRAMIDAL, mjCONE_ELLIPTIC}) {
      for (int solver : {mjSOL_PGS, mjSOL_CG, mjSOL_NEWTON}) {
        oracle::OracleCase c;
        if (!oracle::load_case("constraint/random_problems.xml", c)) return;
        c.mj->opt.disableflags |= mjDSBL_CONTACT;
        c.m.opt.disableflags |= kDisableContact;
        c.mj->opt.cone = c.m.opt.cone = cone;
        c.mj->opt.integrator = c.m.opt.integrator = integrator;
        c.mj->opt.solver = c.m.opt.solver = solver;
        // tight solves, so that the comparison measures the pipeline, not the solvers' stopping
        c.mj->opt.tolerance = c.m.opt.tolerance = 1e-12;
        c.mj->opt.iterations = c.m.opt.iterations = solver == mjSOL_PGS ? 2000 : 200;
        std::mt19937_64 rng(17);
        std::uniform_real_distribution<double> u(-1, 1);
        for (int i = 0; i < c.mj->nq; ++i) c.md->qpos[i] += 0.2 * u(rng);
        mj_normalizeQuat(c.mj.get(), c.md->qpos);
        for (int i = 0; i < c.mj->nv; ++i) c.md->qvel[i] = u(rng);
        oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
        double worst = 0;
        int rows = 0;
        for (int s = 0; s < 500; ++s) {
          mj_step(c.mj.get(), c.md.get());
          step(c.m, c.d);
          rows += c.md->nefc;
          ASSERT_EQ(c.d.nefc, c.md->nefc) << "step " << s;
          oracle::count_compared(c.mj->nq + c.mj->nv);
          for (int i = 0; i < c.mj->nq; ++i)
            worst = std::max(worst, std::abs(c.d.qpos[i] - c.md->qpos[i]));
          for (int i = 0; i < c.mj->nv; ++i) {
            worst = std::max(worst, std::abs(c.d.qvel[i] - c.md->qvel[i]) /
                                        std::max(1.0, std::abs(c.md->qvel[i])));
          }
        }
        std::printf(
            "integrator %d cone %d solver %d: %d constraint rows over 500 steps, worst "
            "difference %.2e\n",
            integrator, cone, solver, rows, worst);
        EXPECT_LT(worst, 1e-6) << "integrator " << integrator << " cone " << cone << " solver "
                               << solver;
      }
    }
  }
}

// At the default tolerance the solvers stop early, from the warmstart of the previous step: with
// Euler, PGS and Newton must still follow MuJoCo step for step (CG's early stops are chaotic).
TEST(ConstrainedRollout, DefaultToleranceFollowsMuJoCo) {
  for (int solver : {mjSOL_PGS, mjSOL_NEWTON}) {
    oracle::OracleCase c;
    if (!oracle::load_case("constraint/random_problems.xml", c)) return;
    c.mj->opt.disableflags |= mjDSBL_CONTACT;
    c.m.opt.disableflags |= kDisableContact;
    c.mj->opt.solver = c.m.opt.solver = solver;
    std::mt19937_64 rng(23);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < c.mj->nq; ++i) c.md->qpos[i] += 0.2 * u(rng);
    mj_normalizeQuat(c.mj.get(), c.md->qpos);
    oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
    double worst = 0;
    for (int s = 0; s < 500; ++s) {
      mj_step(c.mj.get(), c.md.get());
      step(c.m, c.d);
      ASSERT_EQ(c.d.solver_iter, c.md->solver_iter) << "step " << s;
      oracle::count_compared(1 + c.mj->nv);
      for (int i = 0; i < c.mj->nv; ++i)
        worst = std::max(worst, std::abs(c.d.qvel[i] - c.md->qvel[i]));
    }
    std::printf("default tolerance, solver %d: worst qvel difference over 500 steps %.2e\n", solver,
                worst);
    EXPECT_LT(worst, 1e-8);
  }
}

}  // namespace
}  // namespace joco
