// Bias forces: gravity is the gradient of the potential energy, and the full bias conserves
// energy when the system moves freely (RK4 on a random tree).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "joco/smooth.h"
#include "math/vec.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

test::RandomTreeOptions no_springs() {
  test::RandomTreeOptions options;
  options.stiffness = false;
  return options;
}

class Rne : public ::testing::TestWithParam<int> {};

TEST_P(Rne, GravityIsThePotentialGradient) {
  Model m = test::random_tree_model(GetParam(), no_springs());
  m.opt.enableflags |= kEnableEnergy;
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 0;
  test::smooth_position_velocity(m, d);
  std::vector<double> bias(m.nv), v(m.nv);
  rne(m, d, false, bias.data());
  const double h = 1e-6;
  Data s = d;
  for (int i = 0; i < m.nv; ++i) {
    double energy[2];
    for (int side = 0; side < 2; ++side) {
      std::fill(v.begin(), v.end(), 0.0);
      v[i] = side ? -h : h;
      std::copy(d.qpos, d.qpos + m.nq, s.qpos);
      integrate_pos(m, s.qpos, v.data(), 1);
      kinematics(m, s);
      energy_pos(m, s);
      energy[side] = s.energy[0];
    }
    EXPECT_NEAR(bias[i], (energy[0] - energy[1]) / (2 * h), 1e-7) << "dof " << i;
  }
}

// Integrates free motion, qacc = -inv(M) c, with RK4 for `steps` steps of h.
void simulate(const Model& m, Data& d, int steps, double h) {
  const int nv = m.nv;
  Data work = d;
  auto acceleration = [&](const double* q, const double* v, double* a) {
    std::copy(q, q + m.nq, work.qpos);
    std::copy(v, v + nv, work.qvel);
    test::smooth_position_velocity(m, work);
    rne(m, work, false, a);
    for (int i = 0; i < nv; ++i) a[i] = -a[i];
    solve_m(m, work, a, a, 1);
  };
  std::vector<double> q(d.qpos, d.qpos + m.nq), v(d.qvel, d.qvel + nv);
  std::vector<double> k[4], kv[4], qs(m.nq), vs(nv), sum(nv);
  for (auto& x : k) x.resize(nv);
  for (auto& x : kv) x.resize(nv);
  const double c[4] = {0, 0.5, 0.5, 1};
  for (int step = 0; step < steps; ++step) {
    for (int s = 0; s < 4; ++s) {
      qs = q;
      vs = v;
      if (s > 0) {
        integrate_pos(m, qs.data(), kv[s - 1].data(), c[s] * h);
        for (int i = 0; i < nv; ++i) vs[i] = v[i] + c[s] * h * k[s - 1][i];
      }
      kv[s] = vs;
      acceleration(qs.data(), vs.data(), k[s].data());
    }
    for (int i = 0; i < nv; ++i) {
      sum[i] = (kv[0][i] + 2 * kv[1][i] + 2 * kv[2][i] + kv[3][i]) / 6;
      v[i] += h * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]) / 6;
    }
    integrate_pos(m, q.data(), sum.data(), h);
  }
  std::copy(q.begin(), q.end(), d.qpos);
  std::copy(v.begin(), v.end(), d.qvel);
}

double total_energy(const Model& m, Data& d) {
  test::smooth_position_velocity(m, d);
  energy_pos(m, d);
  energy_vel(m, d);
  return d.energy[0] + d.energy[1];
}

// The total energy T + U stays constant along free motion: checks every term of c that does work
// (gravity, the cdof_dot terms).
TEST_P(Rne, FreeMotionConservesEnergy) {
  Model m = test::random_tree_model(GetParam(), no_springs());
  m.opt.enableflags |= kEnableEnergy;
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  const double e0 = total_energy(m, d);
  simulate(m, d, 800, 2.5e-4);
  const double e1 = total_energy(m, d);
  // A wrong term changes the energy by O(1) over this motion; RK4 on the quaternions of free and
  // ball joints (body velocities averaged across stages) is second order, which leaves about 1e-7.
  EXPECT_NEAR(e1, e0, 1e-6 * (1 + std::abs(e0)));
}

// Trees floating under uniform gravity keep their angular momentum about their centre of mass,
// and their com falls with gravity: checks the gyroscopic terms, which do no work.
TEST_P(Rne, FloatingTreesConserveMomentum) {
  test::RandomTreeOptions options = no_springs();
  options.floating = true;
  options.armature = false;  // rotor inertia without a reaction would not conserve momentum
  const Model m = test::random_tree_model(GetParam(), options);
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  subtree_vel(m, d);
  double l0[3], v0[3];
  copy3(l0, d.subtree_angmom);
  copy3(v0, d.subtree_linvel);
  const double t = 0.2;
  simulate(m, d, 800, t / 800);
  test::smooth_position_velocity(m, d);
  subtree_vel(m, d);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.subtree_angmom[k], l0[k], 1e-6 * (1 + norm3(l0)));
    EXPECT_NEAR(d.subtree_linvel[k], v0[k] + t * m.opt.gravity[k], 1e-8);
  }
}

// rne with acceleration is M qacc + c (armature aside, which rne does not see).
TEST_P(Rne, WithAccelerationAddsMQacc) {
  const Model m = test::random_tree_model(GetParam());
  Data d(m);
  test::random_tree_state(m, d, GetParam());
  test::smooth_position_velocity(m, d);
  std::vector<double> bias(m.nv), full(m.nv), mq(m.nv);
  rne(m, d, false, bias.data());
  rne(m, d, true, full.data());
  mul_m(m, d, mq.data(), d.qacc);
  for (int i = 0; i < m.nv; ++i) {
    EXPECT_NEAR(full[i], bias[i] + mq[i] - m.dof_armature[i] * d.qacc[i],
                1e-12 * (1 + std::abs(full[i])));
  }
}

TEST(RneGravity, DisabledGravityLeavesOnlyVelocityTerms) {
  Model m = test::random_tree_model(2);
  Data d(m);
  test::random_tree_state(m, d, 2);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 0;
  test::smooth_position_velocity(m, d);
  std::vector<double> bias(m.nv);
  m.opt.disableflags |= kDisableGravity;
  rne(m, d, false, bias.data());
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(bias[i], 0);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Rne, ::testing::Range(0, 6));

}  // namespace
}  // namespace joco
