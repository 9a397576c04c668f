// Constraint rows against finite differences: for every equality (connect, weld with
// torquescale, joint polynomial, and the distance equality that MuJoCo 2.2.2 no longer has) and
// every joint limit (hinge, slide, ball), J v must be the rate of change of the residual along a
// random velocity v. Also: the distances of geom_distance against closed forms, and the sparse
// Jacobian equal to the dense one.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "joco/constraint.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "support/errors.h"
#include "support/test_support.h"

namespace joco {
namespace {

void position_stages(const Model& m, Data& d) {
  kinematics(m, d);
  com_pos(m, d);
  crb(m, d);
  factor_m(m, d);
  d.ncon = 0;
  make_constraint(m, d);
}

// A state with every limit of jacobians.xml violated (so their rows exist on both sides of the
// finite difference) and the bodies in general position.
void set_state(const Model& m, Data& d, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  reset_data(m, d);
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos + m.jnt_qposadr[j];
    switch (m.jnt_type[j]) {
      case kJointFree:
        for (int k = 0; k < 3; ++k) q[k] += 0.1 * u(rng);
        for (int k = 3; k < 7; ++k) q[k] += 0.3 * u(rng);
        break;
      case kJointBall: {
        const double axis[3] = {0.3, -0.5, 0.8};
        double unit[3] = {axis[0], axis[1], axis[2]};
        math::normalize3(unit);
        math::axis_angle_to_quat(q, unit, 0.5 + 0.1 * u(rng));  // beyond the 0.3 limit
        break;
      }
      case kJointSlide: q[0] = 0.03 + 0.005 * u(rng); break;          // beyond 0.02
      default: q[0] = (m.jnt_limited[j] ? 0.4 : 0.2) + 0.1 * u(rng);  // hinge h1 beyond 0.3
    }
  }
  normalize_quat(m, d.qpos);
}

// J v against the central difference of the residuals efc_pos along a random velocity v, at the
// state in d (its position stages done). Weld rotation rows: the Jacobian carries torquescale, the
// residual (as in MuJoCo 2.2.2) does not.
void expect_rows_match_finite_differences(const Model& m, Data& d, std::mt19937_64& rng,
                                          int trial) {
  std::uniform_real_distribution<double> u(-1, 1);
  const int nefc = d.nefc;
  std::vector<double> v(m.nv), jv(nefc);
  std::vector<int> type(d.efc_type, d.efc_type + nefc), id(d.efc_id, d.efc_id + nefc);
  for (double& x : v) x = u(rng);
  mul_jac_vec(m, d, jv.data(), v.data());
  const double h = 1e-6;
  std::vector<double> qpos0(d.qpos, d.qpos + m.nq), plus(nefc), minus(nefc);
  for (int sign : {1, -1}) {
    std::copy(qpos0.begin(), qpos0.end(), d.qpos);
    integrate_pos(m, d.qpos, v.data(), sign * h);
    position_stages(m, d);
    ASSERT_EQ(d.nefc, nefc);
    std::copy(d.efc_pos, d.efc_pos + nefc, sign > 0 ? plus.begin() : minus.begin());
  }
  for (int i = 0; i < nefc; ++i) {
    double rate = (plus[i] - minus[i]) / (2 * h);
    if (type[i] == kCnstrEquality && m.eq_type[id[i]] == kEqWeld) {
      int first = i;
      while (first > 0 && type[first - 1] == kCnstrEquality && id[first - 1] == id[i]) --first;
      if (i - first >= 3) rate *= m.eq_data[kNEQDATA * id[i] + 10];
    }
    EXPECT_NEAR(jv[i], rate, 1e-6 * std::max(1.0, std::abs(rate)))
        << "trial " << trial << " row " << i << " type " << type[i] << " id " << id[i];
  }
}

TEST(MakeConstraint, JacobiansMatchFiniteDifferences) {
  Model m = compile_mjcf_file(test::testdata("constraint/jacobians.xml"));
  m.opt.jacobian = kJacDense;
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    Data d = make_data(m);
    set_state(m, d, rng);
    position_stages(m, d);
    // every equality row (connect 3, weld 6 + 6, joint 1 + 1, distance 5) and limit row (h1,
    // s, ball)
    ASSERT_EQ(d.ne, 3 + 12 + 2 + 5);
    ASSERT_EQ(d.nefc, d.ne + 3);
    expect_rows_match_finite_differences(m, d, rng, trial);
  }
}

TEST(MakeConstraint, SparseRowsEqualDenseRows) {
  Model m = compile_mjcf_file(test::testdata("constraint/jacobians.xml"));
  std::mt19937_64 rng(9);
  Data d = make_data(m);
  set_state(m, d, rng);
  m.opt.jacobian = kJacDense;
  position_stages(m, d);
  const std::vector<double> dense(d.efc_J, d.efc_J + static_cast<size_t>(d.nefc) * m.nv);
  m.opt.jacobian = kJacSparse;
  position_stages(m, d);
  std::vector<double> sparse(dense.size(), 0.0), transposed(dense.size(), 0.0);
  for (int i = 0; i < d.nefc; ++i) {
    for (int k = 0; k < d.efc_J_rownnz[i]; ++k) {
      const int adr = d.efc_J_rowadr[i] + k;
      sparse[static_cast<size_t>(i) * m.nv + d.efc_J_colind[adr]] = d.efc_J[adr];
      if (k > 0) {
        EXPECT_LT(d.efc_J_colind[adr - 1], d.efc_J_colind[adr]);  // increasing
      }
    }
  }
  for (int j = 0; j < m.nv; ++j) {
    for (int k = 0; k < d.efc_JT_rownnz[j]; ++k) {
      const int adr = d.efc_JT_rowadr[j] + k;
      transposed[static_cast<size_t>(d.efc_JT_colind[adr]) * m.nv + j] = d.efc_JT[adr];
    }
  }
  for (size_t k = 0; k < dense.size(); ++k) {
    EXPECT_EQ(sparse[k], dense[k]) << k;
    EXPECT_EQ(transposed[k], dense[k]) << k;
  }
}

// The sparse products J v and J' w take rows sharing a pattern (a contact's rows) together; each
// sum must still be the row's own, over its entries in increasing order, bit for bit.
TEST(MakeConstraint, SparseProductsRoundAsRowByRow) {
  Model m = compile_mjcf_file(test::testdata("mujoco/model/humanoid/humanoid.xml"));
  m.opt.jacobian = kJacSparse;
  Data d = make_data(m);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int compared = 0, shared = 0;
  for (int t = 0; t < 300; ++t) {
    step(m, d);
    if (t % 20 != 19) continue;
    std::vector<double> v(m.nv), w(d.nefc), jv(d.nefc), jtw(m.nv);
    for (double& x : v) x = u(rng);
    for (double& x : w) x = u(rng);
    mul_jac_vec(m, d, jv.data(), v.data());
    mul_jac_t_vec(m, d, jtw.data(), w.data());
    for (int i = 0; i < d.nefc; ++i) {
      double sum = 0;
      for (int k = 0; k < d.efc_J_rownnz[i]; ++k) {
        const int adr = d.efc_J_rowadr[i] + k;
        sum += d.efc_J[adr] * v[d.efc_J_colind[adr]];
      }
      EXPECT_EQ(jv[i], sum) << "step " << t << " row " << i;
      shared += d.efc_J_rowsuper[i] > 0;
      ++compared;
    }
    for (int j = 0; j < m.nv; ++j) {
      double sum = 0;
      for (int k = 0; k < d.efc_JT_rownnz[j]; ++k) {
        const int adr = d.efc_JT_rowadr[j] + k;
        sum += d.efc_JT[adr] * w[d.efc_JT_colind[adr]];
      }
      EXPECT_EQ(jtw[j], sum) << "step " << t << " column " << j;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
  EXPECT_GT(shared, 0);  // rows were taken together
}

TEST(GeomDistance, ClosedForms) {
  Model m = compile_mjcf(
      "<mujoco><worldbody>"
      "<geom name='p' type='plane' size='1 1 0.1'/>"
      "<geom name='s1' type='sphere' size='0.1' pos='0 0 0.5'/>"
      "<geom name='s2' type='sphere' size='0.2' pos='0.3 0.4 0.5'/>"
      "<geom name='c1' type='capsule' size='0.05' fromto='-1 0 1 1 0 1'/>"
      "<geom name='c2' type='capsule' size='0.1' fromto='0 -1 1.5 0 1 1.5'/>"
      "<geom name='c3' type='capsule' size='0.1' fromto='0 0 2 0.3 0 2.4'/>"
      "<geom name='b' type='box' size='0.1 0.1 0.1' pos='2 0 1'/>"
      "</worldbody></mujoco>",
      "distance.xml", ".");
  Data d = make_data(m);
  kinematics(m, d);
  const auto id = [&](const char* name) { return m.name_to_id(kObjGeom, name); };
  double dist, n[3], p[3];
  // sphere-sphere: centres 0.5 apart
  ASSERT_TRUE(geom_distance(m, d, id("s1"), id("s2"), &dist, n, p));
  EXPECT_NEAR(dist, 0.5 - 0.3, 1e-12);
  EXPECT_NEAR(n[0], 0.6, 1e-12);
  EXPECT_NEAR(n[1], 0.8, 1e-12);
  EXPECT_NEAR(p[0], 0.6 * (0.1 + 0.1), 1e-12);  // midway between the surfaces
  // plane-sphere, and the reverse order flips the normal
  ASSERT_TRUE(geom_distance(m, d, id("p"), id("s1"), &dist, n, p));
  EXPECT_NEAR(dist, 0.4, 1e-12);
  EXPECT_NEAR(n[2], 1, 1e-12);
  EXPECT_NEAR(p[2], 0.2, 1e-12);
  ASSERT_TRUE(geom_distance(m, d, id("s1"), id("p"), &dist, n, p));
  EXPECT_NEAR(n[2], -1, 1e-12);
  // crossing capsules: axes 0.5 apart
  ASSERT_TRUE(geom_distance(m, d, id("c1"), id("c2"), &dist, n, p));
  EXPECT_NEAR(dist, 0.5 - 0.15, 1e-12);
  // plane-capsule: the lower end
  ASSERT_TRUE(geom_distance(m, d, id("p"), id("c3"), &dist, n, p));
  EXPECT_NEAR(dist, 2 - 0.1, 1e-12);
  EXPECT_NEAR(p[0], 0, 1e-12);
  // sphere-capsule end: from (0,0,0.5) to the segment end (0,0,2)
  ASSERT_TRUE(geom_distance(m, d, id("s1"), id("c3"), &dist, n, p));
  EXPECT_NEAR(dist, 1.5 - 0.2, 1e-12);
  // sphere-box through the narrow phase: from the sphere's centre (0, 0, 0.5) to the box's face
  // x = 1.9, and the reverse order flips the normal
  ASSERT_TRUE(geom_distance(m, d, id("s1"), id("b"), &dist, n, p));
  EXPECT_NEAR(dist, std::hypot(1.9, 0.4) - 0.1, 1e-12);
  ASSERT_TRUE(geom_distance(m, d, id("b"), id("s1"), &dist, n, p));
  EXPECT_NEAR(n[0], -1.9 / std::hypot(1.9, 0.4), 1e-12);
  // plane-box: the lowest corner, 0.9 above the floor
  ASSERT_TRUE(geom_distance(m, d, id("p"), id("b"), &dist, n, p));
  EXPECT_NEAR(dist, 0.9, 1e-12);
  EXPECT_NEAR(p[2], 0.45, 1e-12);
  // unsupported pairs
  EXPECT_FALSE(geom_distance(m, d, id("p"), id("p"), &dist, n, p));
  EXPECT_FALSE(geom_distance_supported(kGeomBox, kGeomBox));
  EXPECT_FALSE(geom_distance_supported(kGeomMesh, kGeomSphere));
  EXPECT_FALSE(geom_distance_supported(kGeomHfield, kGeomPlane));
  EXPECT_TRUE(geom_distance_supported(kGeomMesh, kGeomPlane));
  EXPECT_TRUE(geom_distance_supported(kGeomBox, kGeomCapsule));
}

// The distance rows of the narrow-phase pairs (distance_shapes.xml) against finite differences of
// their residuals, as for the closed-form pairs above; and their residuals at the initial state.
TEST(MakeConstraint, NarrowPhaseDistanceRowsMatchFiniteDifferences) {
  Model m = compile_mjcf_file(test::testdata("constraint/distance_shapes.xml"));
  m.opt.jacobian = kJacDense;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 10; ++trial) {
    Data d = make_data(m);
    reset_data(m, d);
    for (int i = 0; i < m.nq; ++i) d.qpos[i] += 0.05 * u(rng);
    normalize_quat(m, d.qpos);
    position_stages(m, d);
    ASSERT_EQ(d.nefc, m.neq);
    expect_rows_match_finite_differences(m, d, rng, trial);
  }
  // At the initial state: the tetrahedron's distance to the tilted floor is its lowest vertex's
  // height, exactly.
  Data d = make_data(m);
  position_stages(m, d);
  const double* floor_mat = d.geom_xmat + 9 * m.name_to_id(kObjGeom, "floor");
  const double up[3] = {floor_mat[2], floor_mat[5], floor_mat[8]};
  const int tetra = m.name_to_id(kObjGeom, "tetra");
  double lowest = 1e300;
  for (int k = 0; k < m.mesh_vertnum[0]; ++k) {
    const float* v = m.mesh_vert + 3 * (m.mesh_vertadr[0] + k);
    double world[3];
    const double local[3] = {v[0], v[1], v[2]};
    math::mat_vec3(world, d.geom_xmat + 9 * tetra, local);
    math::add3(world, world, d.geom_xpos + 3 * tetra);
    lowest = std::min(lowest, math::dot3(world, up));
  }
  EXPECT_NEAR(d.efc_pos[5], lowest, 1e-12);
}

TEST(MakeConstraint, DistanceEqualityBetweenUnsupportedGeomsIsAnError) {
  const std::string xml =
      "<mujoco><worldbody><geom name='a' type='box' size='0.1 0.1 0.1'/>"
      "<body pos='1 0 0'><freejoint/><geom name='b' type='ellipsoid' size='0.1 0.2 0.3'/></body>"
      "</worldbody><equality><distance geom1='a' geom2='b'/></equality></mujoco>";
  test::expect_fragments(test::input_error([&] { compile_mjcf(xml, "unsupported.xml", "."); }),
                         "distance equality between geom types box and ellipsoid is not supported",
                         "box-ellipsoid");
}

}  // namespace
}  // namespace joco
