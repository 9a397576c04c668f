// The smooth-dynamics functions never touch the heap: temporaries come from the Data's stack.
#include <gtest/gtest.h>

#include <vector>

#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "support/random_tree.h"
#include "support/test_support.h"

namespace joco {
namespace {

TEST(SmoothDynamics, DoesNotAllocate) {
  test::RandomTreeOptions options;
  options.nbody = 40;
  Model m = test::random_tree_model(11, options);
  m.opt.enableflags |= kEnableEnergy;
  Data d(m);
  test::random_tree_state(m, d, 11);
  const int nv = m.nv;
  // Every buffer the calls below use, made before counting.
  std::vector<double> a(3 * nv), b(3 * nv), c(3 * nv), q(d.qpos, d.qpos + m.nq), ld(m.nM), inv(nv),
      dense(nv * nv);
  const double point[3] = {0.1, 0.2, 0.3}, axis[3] = {0, 0, 1};

  const test::AllocationCounter counter;
  for (int repeat = 0; repeat < 2; ++repeat) {
    kinematics(m, d);
    com_pos(m, d);
    camlight(m, d);
    crb(m, d);
    factor_m(m, d);
    factor_ld(m, d, d.qM, ld.data(), inv.data(), nullptr);
    solve_ld(m, a.data(), d.qfrc_applied, 1, ld.data(), inv.data());
    solve_m(m, d, a.data(), d.qfrc_applied, 1);
    solve_m2(m, d, a.data(), d.qfrc_applied, 1);
    mul_m(m, d, a.data(), d.qvel);
    mul_m2(m, d, a.data(), d.qvel);
    full_m(m, dense.data(), d.qM);
    energy_pos(m, d);
    com_vel(m, d);
    rne(m, d, false, d.qfrc_bias);
    rne(m, d, true, a.data());
    subtree_vel(m, d);
    energy_vel(m, d);
    rne_post_constraint(m, d);
    for (int body = 0; body < m.nbody; ++body) {
      jac(m, d, a.data(), b.data(), point, body);
      jac_body(m, d, a.data(), b.data(), body);
      jac_body_com(m, d, a.data(), b.data(), body);
      jac_subtree_com(m, d, a.data(), body);
      jac_point_axis(m, d, a.data(), b.data(), point, axis, body);
      dof_chain(m, body, reinterpret_cast<int*>(c.data()));
    }
    jac_site(m, d, a.data(), b.data(), 0);
    integrate_pos(m, q.data(), d.qvel, 0.01);
    differentiate_pos(m, a.data(), 0.01, d.qpos, q.data());
    normalize_quat(m, q.data());
  }
  EXPECT_EQ(counter.count(), 0);
  EXPECT_EQ(d.pstack, 0);  // every stack frame was released
}

}  // namespace
}  // namespace joco
