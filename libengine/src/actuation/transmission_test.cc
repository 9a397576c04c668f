// Transmissions: moment arms against finite differences of the actuator lengths (for the
// transmissions whose moment arms are the length gradient), velocities against moment arms, and no
// heap use.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/stage_test_support.h"

namespace joco {
namespace {

std::vector<double> lengths_along(const Model& m, Data& d, const std::vector<double>& qpos,
                                  const double* v, double dt) {
  for (int i = 0; i < m.nq; ++i) d.qpos[i] = qpos[i];
  integrate_pos(m, d.qpos, v, dt);
  test::position_stages(m, d);
  return std::vector<double>(d.actuator_length, d.actuator_length + m.nu);
}

// Joint (hinge, slide), tendon and slider-crank transmissions have moment arms equal to the
// gradient of their length. (Ball joints, free joints and sites use axes, not length gradients:
// MuJoCo's convention.)
TEST(Transmission, MomentArmsAreLengthGradients) {
  const Model m = test::compile_testdata("actuation/transmissions.xml");
  Data d(m);
  const char* const exact[] = {"hinge",        "slide", "hinge_parent", "tendon_spatial",
                               "tendon_fixed", "crank", "crank_child",  "crank_broken"};
  std::vector<int> actuators;
  for (const char* name : exact) {
    const int id = m.name_to_id(kObjActuator, name);
    ASSERT_GE(id, 0) << name;
    actuators.push_back(id);
  }
  double worst = 0;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    test::random_state(m, d, seed);
    const std::vector<double> qpos(d.qpos, d.qpos + m.nq);
    test::position_stages(m, d);
    const std::vector<double> moment(d.actuator_moment,
                                     d.actuator_moment + static_cast<size_t>(m.nu) * m.nv);
    const double h = 1e-6;
    std::vector<double> e(static_cast<size_t>(m.nv), 0.0);
    for (int i = 0; i < m.nv; ++i) {
      e[static_cast<size_t>(i)] = 1;
      const std::vector<double> plus = lengths_along(m, d, qpos, e.data(), h);
      const std::vector<double> minus = lengths_along(m, d, qpos, e.data(), -h);
      e[static_cast<size_t>(i)] = 0;
      for (int u : actuators) {
        const double fd = (plus[u] - minus[u]) / (2 * h);
        const double err = std::fabs(fd - moment[static_cast<size_t>(u) * m.nv + i]);
        worst = std::max(worst, err);
        EXPECT_LT(err, 1e-7) << m.name(kObjActuator, u) << " seed " << seed << " dof " << i;
      }
    }
  }
  std::cout << "worst |d length/dq - moment| " << worst << "\n";
}

TEST(Transmission, VelocityIsMomentTimesQvel) {
  const Model m = test::compile_testdata("actuation/transmissions.xml");
  Data d(m);
  test::random_state(m, d, 4);
  test::position_stages(m, d);
  actuator_velocity(m, d);
  for (int u = 0; u < m.nu; ++u) {
    double v = 0;
    for (int i = 0; i < m.nv; ++i) v += d.actuator_moment[u * m.nv + i] * d.qvel[i];
    EXPECT_NEAR(d.actuator_velocity[u], v, 1e-13);
  }
}

TEST(Transmission, SiteForceIsAppliedAtTheSite) {
  // A site transmission on a free body with gear (force along the site's x): the generalized force
  // of a unit actuator force is J' R e_x, so its translational part is the site's x axis.
  const Model m = test::compile_testdata("actuation/transmissions.xml");
  Data d(m);
  test::random_state(m, d, 2);
  test::position_stages(m, d);
  const int u = m.name_to_id(kObjActuator, "site_free");
  const int site = m.name_to_id(kObjSite, "float_site");
  const int dof = m.jnt_dofadr[m.name_to_id(kObjJoint, "free")];
  const double* gear = m.actuator_gear + 6 * u;
  const double* R = d.site_xmat + 9 * site;
  for (int k = 0; k < 3; ++k) {
    const double force = R[3 * k] * gear[0] + R[3 * k + 1] * gear[1] + R[3 * k + 2] * gear[2];
    EXPECT_NEAR(d.actuator_moment[u * m.nv + dof + k], force, 1e-12);
  }
}

TEST(Transmission, NoHeapAllocation) {
  const Model m = test::compile_testdata("actuation/transmissions.xml");
  Data d(m);
  test::random_state(m, d, 1);
  kinematics(m, d);
  com_pos(m, d);
  tendon(m, d);
  test::AllocationCounter counter;
  transmission(m, d);
  actuator_velocity(m, d);
  EXPECT_EQ(counter.count(), 0);
}

}  // namespace
}  // namespace joco
