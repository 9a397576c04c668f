// Passive forces: springs are the negative gradient of their energy, fluid forces never add
// energy in still air, tendon springs and dampers act along the moment arms, the passive flag, and
// no heap use.
#include "joco/passive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "math/vec.h"
#include "support/stage_test_support.h"

namespace joco {
namespace {

// Energy of the joint springs: 0.5 k |q - q0|^2, with the rotation vector for ball and free joints.
double joint_spring_energy(const Model& m, const double* qpos) {
  double energy = 0;
  for (int j = 0; j < m.njnt; ++j) {
    const double k = m.jnt_stiffness[j];
    const double* q = qpos + m.jnt_qposadr[j];
    const double* q0 = m.qpos_spring + m.jnt_qposadr[j];
    double r[3];
    switch (m.jnt_type[j]) {
      case kJointFree:
        for (int i = 0; i < 3; ++i) energy += 0.5 * k * (q[i] - q0[i]) * (q[i] - q0[i]);
        math::quat_difference(r, q + 3, q0 + 3);
        energy += 0.5 * k * math::dot3(r, r);
        break;
      case kJointBall:
        math::quat_difference(r, q, q0);
        energy += 0.5 * k * math::dot3(r, r);
        break;
      default: energy += 0.5 * k * (q[0] - q0[0]) * (q[0] - q0[0]);
    }
  }
  return energy;
}

TEST(Passive, JointSpringsAreEnergyGradients) {
  Model m = test::compile_testdata("actuation/springs.xml");
  for (int t = 0; t < m.ntendon; ++t) m.tendon_stiffness[t] = m.tendon_damping[t] = 0;
  for (int i = 0; i < m.nv; ++i) m.dof_damping[i] = 0;
  Data d(m);
  for (uint64_t seed = 0; seed < 4; ++seed) {
    test::random_state(m, d, seed, 1.5);
    test::position_stages(m, d);
    test::velocity_stages(m, d);
    const std::vector<double> qpos(d.qpos, d.qpos + m.nq);
    const double h = 1e-6;
    std::vector<double> e(static_cast<size_t>(m.nv), 0.0), q(static_cast<size_t>(m.nq));
    for (int i = 0; i < m.nv; ++i) {
      double energy[2];
      for (int s = 0; s < 2; ++s) {
        q = qpos;
        e[static_cast<size_t>(i)] = 1;
        integrate_pos(m, q.data(), e.data(), s ? -h : h);
        e[static_cast<size_t>(i)] = 0;
        energy[s] = joint_spring_energy(m, q.data());
      }
      EXPECT_NEAR(d.qfrc_passive[i], -(energy[0] - energy[1]) / (2 * h), 1e-6) << "dof " << i;
    }
  }
}

TEST(Passive, TendonSpringsAndDampersAlongMomentArms) {
  Model m = test::compile_testdata("actuation/springs.xml");
  for (int j = 0; j < m.njnt; ++j) m.jnt_stiffness[j] = 0;
  for (int i = 0; i < m.nv; ++i) m.dof_damping[i] = 0;
  Data d(m);
  test::random_state(m, d, 9);
  test::position_stages(m, d);
  test::velocity_stages(m, d);
  for (int i = 0; i < m.nv; ++i) {
    double f = 0;
    for (int t = 0; t < m.ntendon; ++t) {
      const double force = -m.tendon_stiffness[t] * (d.ten_length[t] - m.tendon_lengthspring[t]) -
                           m.tendon_damping[t] * d.ten_velocity[t];
      f += d.ten_J[t * m.nv + i] * force;
    }
    EXPECT_NEAR(d.qfrc_passive[i], f, 1e-12 * (1 + std::fabs(f)));
  }
}

TEST(Passive, FluidForcesDissipateInStillAir) {
  // Drag and viscous forces oppose the motion; added-mass, Magnus and Kutta forces do no work.
  Model m = test::compile_testdata("actuation/fluid.xml");
  math::zero3(m.opt.wind);
  for (int i = 0; i < m.nv; ++i) m.dof_damping[i] = 0;
  Data d(m);
  int checked = 0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    test::random_state(m, d, seed, 1.5);
    test::position_stages(m, d);
    test::velocity_stages(m, d);
    double power = 0, scale = 0;
    for (int i = 0; i < m.nv; ++i) {
      power += d.qfrc_passive[i] * d.qvel[i];
      scale += std::fabs(d.qfrc_passive[i] * d.qvel[i]);
    }
    EXPECT_LE(power, 1e-12 * scale);
    checked += scale > 0;
  }
  EXPECT_EQ(checked, 10);
}

TEST(Passive, DisabledIsZero) {
  Model m = test::compile_testdata("actuation/fluid.xml");
  m.opt.disableflags |= kDisablePassive;
  Data d(m);
  test::random_state(m, d, 1);
  test::position_stages(m, d);
  test::velocity_stages(m, d);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.qfrc_passive[i], 0);
}

TEST(Passive, NoHeapAllocation) {
  for (const char* model : {"actuation/fluid.xml", "actuation/springs.xml"}) {
    const Model m = test::compile_testdata(model);
    Data d(m);
    test::random_state(m, d, 1);
    test::position_stages(m, d);
    com_vel(m, d);
    tendon_velocity(m, d);
    test::AllocationCounter counter;
    passive(m, d);
    EXPECT_EQ(counter.count(), 0) << model;
  }
}

}  // namespace
}  // namespace joco
