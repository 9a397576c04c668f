// The conversion rules, each checked on a small URDF against values worked out independently here
// (rotation matrices written out, parallel-axis sums, MuJoCo's documented MJCF semantics).
#include "joco/urdf.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_support.h"
#include "urdf/convert.h"
#include "urdf/mjcf_writer.h"

namespace joco {
namespace {

namespace fs = std::filesystem;

const char* const kInertia1 =
    R"(<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)";

std::string robot(const std::string& body) { return "<robot name='t'>\n" + body + "\n</robot>\n"; }
std::string link(const std::string& name, const std::string& inside = kInertia1) {
  return "<link name='" + name + "'>" + inside + "</link>\n";
}
std::string joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& inside = "") {
  return "<joint name='" + name + "' type='" + type + "'><parent link='" + parent +
         "'/><child link='" + child + "'/>" + inside + "</joint>\n";
}

std::string convert(const std::string& urdf, UrdfOptions o = {}, UrdfReport* report = nullptr) {
  if (o.base_dir == ".") o.base_dir = test::testdata("urdf/r2d2");
  return urdf_to_mjcf(urdf, "t.urdf", o, report);
}

Model compile(const std::string& urdf, UrdfOptions o = {}, UrdfReport* report = nullptr) {
  if (o.base_dir == ".") o.base_dir = test::testdata("urdf/r2d2");
  return compile_urdf(urdf, "t.urdf", o, report);
}

template <class Ids>
int find(const Model& m, const Ids* adr, int n, const std::string& name) {
  for (int i = 0; i < n; ++i) {
    if (name == m.names + adr[i]) return i;
  }
  ADD_FAILURE() << "no element named " << name;
  return 0;
}
int body(const Model& m, const std::string& name) { return find(m, m.name_bodyadr, m.nbody, name); }
int jnt(const Model& m, const std::string& name) { return find(m, m.name_jntadr, m.njnt, name); }

// Rotation matrices written out (row-major).
using Mat = std::array<double, 9>;
Mat rot_x(double a) { return {1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a)}; }
Mat rot_y(double a) { return {std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a)}; }
Mat rot_z(double a) { return {std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1}; }
Mat mul(const Mat& a, const Mat& b) {
  Mat r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return r;
}
Mat transpose(const Mat& a) { return {a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]}; }
Mat quat_mat(const double* q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  return {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
          2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
          2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
}
// URDF rpy: roll about x, then pitch about y, then yaw about z, all fixed axes.
Mat rpy(double r, double p, double y) { return mul(rot_z(y), mul(rot_y(p), rot_x(r))); }

// A body's inertia tensor about its centre of mass, in the body frame.
Mat body_tensor(const Model& m, int b) {
  const Mat r = quat_mat(m.body_iquat + 4 * b);
  const Mat d = {m.body_inertia[3 * b],    0, 0, 0, m.body_inertia[3 * b + 1], 0, 0, 0,
                 m.body_inertia[3 * b + 2]};
  return mul(r, mul(d, transpose(r)));
}

void expect_near(const Mat& a, const Mat& b, double tol, const std::string& what) {
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(a[i], b[i], tol) << what << " element " << i;
}

TEST(UrdfConvert, RpyIsRollPitchYawAboutFixedAxes) {
  const Model m =
      compile(robot(link("base") + link("a") +
                    joint("j", "revolute", "base", "a",
                          "<origin xyz='1 2 3' rpy='0.3 -0.5 0.7'/><axis xyz='0 0 1'/>")));
  const int a = body(m, "a");
  expect_near(quat_mat(m.body_quat + 4 * a), rpy(0.3, -0.5, 0.7), 1e-15, "body frame");
  EXPECT_EQ(m.body_pos[3 * a + 2], 3);
}

TEST(UrdfConvert, FusedInertiaIsTheParallelAxisSum) {
  // a (mass 2) carries b (mass 1) on a fixed joint turned a quarter about z; b's inertial frame is
  // turned by 0.3 about x and its tensor is full.
  const std::string a_inertial =
      "<inertial><origin xyz='0.1 0 0'/><mass value='2'/><inertia ixx='0.1' iyy='0.2' izz='0.3' "
      "ixy='0' ixz='0' "
      "iyz='0'/></inertial>";
  const std::string b_inertial =
      "<inertial><origin xyz='0.2 0 0' rpy='0.3 0 0'/><mass value='1'/><inertia ixx='0.05' "
      "iyy='0.04' izz='0.03' "
      "ixy='0.001' ixz='0' iyz='0.002'/></inertial>";
  const std::string urdf =
      robot(link("base") + link("a", a_inertial) + link("b", b_inertial) +
            joint("ja", "revolute", "base", "a", "<axis xyz='0 0 1'/>") +
            joint("jb", "fixed", "a", "b", "<origin xyz='0 0.5 0' rpy='0 0 1.5707963267948966'/>"));
  const Model m = compile(urdf);
  ASSERT_EQ(m.nbody, 3);  // world, base, a (with b fused)
  const int a = body(m, "a");
  EXPECT_DOUBLE_EQ(m.body_mass[a], 3);
  // Centres: a's at (0.1, 0, 0); b's at (0, 0.5, 0) + Rz(90) (0.2, 0, 0) = (0, 0.7, 0).
  const double ca[3] = {0.1, 0, 0}, cb[3] = {0, 0.7, 0};
  double com[3];
  for (int k = 0; k < 3; ++k) com[k] = (2 * ca[k] + 1 * cb[k]) / 3;
  // Computed values are written with 12 significant digits.
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(m.body_ipos[3 * a + k], com[k], 1e-12);
  const Mat ia = {0.1, 0, 0, 0, 0.2, 0, 0, 0, 0.3};
  const Mat rb = mul(rot_z(kPi / 2), rot_x(0.3));
  const Mat ib =
      mul(rb, mul(Mat{0.05, 0.001, 0, 0.001, 0.04, 0.002, 0, 0.002, 0.03}, transpose(rb)));
  Mat expected{};
  const double* centres[2] = {ca, cb};
  const double masses[2] = {2, 1};
  const Mat* tensors[2] = {&ia, &ib};
  for (int p = 0; p < 2; ++p) {
    double d[3];
    for (int k = 0; k < 3; ++k) d[k] = centres[p][k] - com[k];
    const double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        expected[3 * i + j] +=
            (*tensors[p])[3 * i + j] + masses[p] * ((i == j ? dd : 0) - d[i] * d[j]);
      }
  }
  // Fused as MuJoCo fuses (each link to principal axes, then the sum): its eigensolver's tolerance
  // keeps about 1e-7 of the tensor (the oracle tests check the digits against MuJoCo).
  expect_near(body_tensor(m, a), expected, 1e-6, "compiled fused inertia");
  // b lives on as a site at its frame.
  ASSERT_EQ(m.nsite, 1);
  EXPECT_NEAR(m.site_pos[1], 0.5, 1e-15);
  expect_near(quat_mat(m.site_quat), rot_z(kPi / 2), 1e-12, "site frame");
}

TEST(UrdfConvert, FusingMatchesKeepingStaticBodies) {
  // The same robot with fixed links fused and kept as bodies: same geoms in the world at qpos0.
  const std::string urdf = robot(
      link("base") +
      link("a", std::string(kInertia1) +
                    "<collision><geometry><box size='1 2 3'/></geometry></collision>") +
      link("b",
           "<collision><origin xyz='0.1 0.2 0.3' rpy='0.1 0.2 0.3'/><geometry><sphere "
           "radius='0.5'/></geometry></collision>") +
      link(
          "c",
          std::string(kInertia1) +
              "<collision><geometry><cylinder radius='0.1' length='0.4'/></geometry></collision>") +
      joint("ja", "revolute", "base", "a", "<origin xyz='0 0 1' rpy='0.4 0 0'/>") +
      joint("jb", "fixed", "a", "b", "<origin xyz='1 0 0' rpy='0 0.5 0'/>") +
      joint("jc", "prismatic", "b", "c",
            "<origin xyz='0 1 0' rpy='0 0 0.6'/><limit lower='-1' upper='1'/>"));
  UrdfOptions keep;
  keep.fuse_fixed = false;
  const Model fused = compile(urdf), kept = compile(urdf, keep);
  EXPECT_EQ(fused.nbody, 4);
  EXPECT_EQ(kept.nbody, 5);
  ASSERT_EQ(fused.ngeom, kept.ngeom);
  auto world_frames = [](const Model& m) {
    std::vector<std::array<double, 12>> frames;
    for (int g = 0; g < m.ngeom; ++g) {
      // compose up the tree
      Mat r = quat_mat(m.geom_quat + 4 * g);
      double p[3] = {m.geom_pos[3 * g], m.geom_pos[3 * g + 1], m.geom_pos[3 * g + 2]};
      for (int b = m.geom_bodyid[g]; b > 0; b = m.body_parentid[b]) {
        const Mat rb = quat_mat(m.body_quat + 4 * b);
        double q[3];
        for (int i = 0; i < 3; ++i)
          q[i] = rb[3 * i] * p[0] + rb[3 * i + 1] * p[1] + rb[3 * i + 2] * p[2] +
                 m.body_pos[3 * b + i];
        std::copy(q, q + 3, p);
        r = mul(rb, r);
      }
      std::array<double, 12> f{};
      std::copy(p, p + 3, f.begin());
      std::copy(r.begin(), r.end(), f.begin() + 3);
      frames.push_back(f);
    }
    return frames;
  };
  const auto frames_fused = world_frames(fused), frames_kept = world_frames(kept);
  for (size_t g = 0; g < frames_fused.size(); ++g) {
    for (int k = 0; k < 12; ++k) {
      EXPECT_NEAR(frames_fused[g][k], frames_kept[g][k], 1e-12) << "geom " << g << " element " << k;
    }
  }
  // The prismatic joint's axis in the world is the same too.
  auto world_axis = [](const Model& m, int j) {
    Mat r = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int b = m.jnt_bodyid[j]; b > 0; b = m.body_parentid[b])
      r = mul(quat_mat(m.body_quat + 4 * b), r);
    const double* a = m.jnt_axis + 3 * j;
    return std::array<double, 3>{r[0] * a[0] + r[1] * a[1] + r[2] * a[2],
                                 r[3] * a[0] + r[4] * a[1] + r[5] * a[2],
                                 r[6] * a[0] + r[7] * a[1] + r[8] * a[2]};
  };
  const auto af = world_axis(fused, jnt(fused, "jc")), ak = world_axis(kept, jnt(kept, "jc"));
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(af[k], ak[k], 1e-12);
}

TEST(UrdfConvert, LinkWithoutInertialWeighsItsCollisionGeoms) {
  // As MuJoCo's importer: density 1000 (a 0.1 x 0.2 x 0.3 box weighs 6 kg).
  const Model m = compile(robot(link("base") +
                                link("a",
                                     "<collision><geometry><box size='0.1 0.2 "
                                     "0.3'/></geometry></collision><visual><geometry><box size='1 "
                                     "1 1'/></geometry></visual>") +
                                joint("j", "revolute", "base", "a")));
  const int a = body(m, "a");
  EXPECT_NEAR(m.body_mass[a], 6, 1e-12);
  EXPECT_NEAR(m.body_inertia[3 * a + 0], 6 * (0.2 * 0.2 + 0.3 * 0.3) / 12, 1e-12);
}

TEST(UrdfConvert, OnlyLinksWithoutInertialWeighTheirGeoms) {
  // a has no <inertial> (its box weighs); the fused frame f says "no mass" explicitly (its box does
  // not).
  const std::string zero =
      "<inertial><mass value='0'/><inertia ixx='0' iyy='0' izz='0' ixy='0' ixz='0' "
      "iyz='0'/></inertial>";
  const Model m = compile(
      robot(link("base") +
            link("a", "<collision><geometry><box size='0.1 0.2 0.3'/></geometry></collision>") +
            link("f", zero + "<collision><origin xyz='1 0 0'/><geometry><box size='1 1 "
                             "1'/></geometry></collision>") +
            joint("j", "revolute", "base", "a") + joint("fix", "fixed", "a", "f")));
  EXPECT_NEAR(m.body_mass[body(m, "a")], 6, 1e-12);
  EXPECT_NEAR(m.body_ipos[3 * body(m, "a")], 0, 1e-12);
  // A link whose only collision mesh cannot be read weighs nothing, and moves: the tiny mass.
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/formats");
  UrdfReport report;
  const Model dae = compile(
      robot(link("base") +
            link("a", "<collision><geometry><mesh filename='tiny.dae'/></geometry></collision>") +
            joint("j", "revolute", "base", "a")),
      o, &report);
  EXPECT_EQ(dae.body_mass[body(dae, "a")], 1e-6);
  EXPECT_EQ(report.warnings.size(), 2u);  // the mesh left out, the tiny mass
}

TEST(UrdfConvert, MasslessMovingLeafGetsATinyMass) {
  UrdfReport report;
  const Model m = compile(
      robot(link("base") + link("tip", "") + joint("j", "revolute", "base", "tip")), {}, &report);
  const int tip = body(m, "tip");
  EXPECT_EQ(m.body_mass[tip], 1e-6);
  EXPECT_EQ(m.body_inertia[3 * tip], 1e-10);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("moves but has no mass"), std::string::npos)
      << report.warnings[0];
  UrdfOptions strict;
  strict.strict = true;
  EXPECT_THROW(
      compile(robot(link("base") + link("tip", "") + joint("j", "revolute", "base", "tip")),
              strict),
      InputError);
}

TEST(UrdfConvert, MasslessFixedLeafBecomesASite) {
  const Model m = compile(robot(link("base") + link("a") + link("tool0", "") +
                                joint("j", "revolute", "base", "a") +
                                joint("t", "fixed", "a", "tool0", "<origin xyz='0 0 0.25'/>")));
  EXPECT_EQ(m.nbody, 3);
  ASSERT_EQ(m.nsite, 1);
  EXPECT_EQ(std::string(m.names + m.name_siteadr[0]), "tool0");
  EXPECT_EQ(m.site_bodyid[0], body(m, "a"));
  EXPECT_EQ(m.site_pos[2], 0.25);
  EXPECT_EQ(m.body_mass[body(m, "a")], 1);
}

TEST(UrdfConvert, JointLimitsFollowLowerAndUpper) {
  UrdfReport report;
  const Model m =
      compile(robot(link("base") + link("a") + link("b") + link("c") + link("d") + link("e") +
                    joint("limited", "revolute", "base", "a",
                          "<limit lower='-1' upper='2' effort='5' velocity='1'/>") +
                    joint("no_bounds", "revolute", "a", "b", "<limit effort='5' velocity='1'/>") +
                    joint("reversed", "prismatic", "b", "c", "<limit lower='1' upper='-1'/>") +
                    joint("wheel", "continuous", "c", "d", "<limit lower='-1' upper='1'/>") +
                    joint("slide", "prismatic", "d", "e",
                          "<axis xyz='0 2 0'/><limit lower='0' upper='0.5'/><dynamics "
                          "damping='0.5' friction='0.25'/>")),
              {}, &report);
  EXPECT_EQ(m.jnt_limited[jnt(m, "limited")], 1);
  EXPECT_EQ(m.jnt_range[2 * jnt(m, "limited") + 1], 2);
  EXPECT_EQ(m.jnt_limited[jnt(m, "no_bounds")], 0);
  EXPECT_EQ(m.jnt_limited[jnt(m, "reversed")], 0);
  EXPECT_EQ(m.jnt_limited[jnt(m, "wheel")], 0);  // URDF: continuous joints have no limits
  const int s = jnt(m, "slide");
  EXPECT_EQ(m.jnt_type[s], kJointSlide);
  EXPECT_EQ(m.jnt_axis[3 * s + 1], 1);  // normalised by the compiler
  EXPECT_EQ(m.dof_damping[m.jnt_dofadr[s]], 0.5);
  EXPECT_EQ(m.dof_frictionloss[m.jnt_dofadr[s]], 0.25);
  EXPECT_EQ(report.warnings.size(), 2u);  // reversed, wheel
}

TEST(UrdfConvert, PlanarJointIsTwoSlidesAndAHinge) {
  const Model m = compile(
      robot(link("base") + link("a") + joint("p", "planar", "base", "a", "<axis xyz='0 1 1'/>")));
  ASSERT_EQ(m.njnt, 3);
  const double* tx = m.jnt_axis + 3 * jnt(m, "p_TX");
  const double* ty = m.jnt_axis + 3 * jnt(m, "p_TY");
  const double* rz = m.jnt_axis + 3 * jnt(m, "p_RZ");
  const double n[3] = {0, std::sqrt(0.5), std::sqrt(0.5)};
  auto dot = [](const double* a, const double* b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  EXPECT_NEAR(dot(tx, n), 0, 1e-12);
  EXPECT_NEAR(dot(ty, n), 0, 1e-12);
  EXPECT_NEAR(dot(tx, ty), 0, 1e-12);
  // x, y, normal form a right-handed frame; the hinge turns about the normal.
  EXPECT_NEAR(tx[1] * ty[2] - tx[2] * ty[1], n[0], 1e-12);
  EXPECT_NEAR(tx[2] * ty[0] - tx[0] * ty[2], n[1], 1e-12);
  EXPECT_NEAR(tx[0] * ty[1] - tx[1] * ty[0], n[2], 1e-12);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(rz[k], n[k], 1e-12);
  EXPECT_EQ(m.jnt_type[jnt(m, "p_TX")], kJointSlide);
  EXPECT_EQ(m.jnt_type[jnt(m, "p_RZ")], kJointHinge);
}

TEST(UrdfConvert, FloatingJoints) {
  // Under the welded root, a floating joint's child goes to the top level with a free joint; deeper
  // down it becomes three slides and a ball.
  const Model m =
      compile(robot(link("base") + link("a") + link("b") + link("c") +
                    joint("free", "floating", "base", "a", "<origin xyz='1 0 0' rpy='0 0 0.5'/>") +
                    joint("hinge", "revolute", "a", "b") + joint("deep", "floating", "b", "c")));
  const int a = body(m, "a");
  EXPECT_EQ(m.body_parentid[a], 0);
  EXPECT_EQ(m.body_pos[3 * a], 1);
  EXPECT_EQ(m.jnt_type[jnt(m, "free")], kJointFree);
  EXPECT_EQ(m.jnt_type[jnt(m, "deep_TX")], kJointSlide);
  EXPECT_EQ(m.jnt_type[jnt(m, "deep_R")], kJointBall);
  EXPECT_EQ(m.nq, 7 + 1 + 3 + 4);
  EXPECT_EQ(m.nv, 6 + 1 + 3 + 3);
}

TEST(UrdfConvert, FloatingOptionFreesTheRoot) {
  UrdfOptions o;
  o.floating = true;
  const Model m = compile(robot(link("base") + link("a") + joint("j", "revolute", "base", "a")), o);
  EXPECT_EQ(m.jnt_type[0], kJointFree);
  EXPECT_EQ(m.jnt_bodyid[0], body(m, "base"));
  EXPECT_EQ(m.nq, 8);
}

TEST(UrdfConvert, WorldLinkIsTheWorldBody) {
  const std::string urdf =
      robot(link("world", "") + link("base") + link("a") +
            joint("anchor", "fixed", "world", "base", "<origin xyz='0 0 0.5'/>") +
            joint("j", "revolute", "base", "a"));
  Model m = compile(urdf);
  EXPECT_EQ(m.nbody, 3);
  EXPECT_EQ(m.body_parentid[body(m, "base")], 0);
  EXPECT_EQ(m.body_pos[3 * body(m, "base") + 2], 0.5);
  UrdfOptions o;
  o.floating = true;
  m = compile(urdf, o);
  EXPECT_EQ(m.jnt_type[jnt(m, "anchor")], kJointFree);
}

TEST(UrdfConvert, MimicIsAJointEquality) {
  const Model m = compile(robot(link("base") + link("a") + link("b") +
                                joint("leader", "revolute", "base", "a") +
                                joint("follower", "revolute", "base", "b",
                                      "<mimic joint='leader' multiplier='-2' offset='0.25'/>")));
  ASSERT_EQ(m.neq, 1);
  EXPECT_EQ(m.eq_type[0], kEqJoint);
  EXPECT_EQ(m.eq_obj1id[0], jnt(m, "follower"));
  EXPECT_EQ(m.eq_obj2id[0], jnt(m, "leader"));
  // MuJoCo's joint equality: q1 = c0 + c1 q2 + ...
  EXPECT_EQ(m.eq_data[0], 0.25);
  EXPECT_EQ(m.eq_data[1], -2);
}

TEST(UrdfConvert, ActuatorsPerJointWithRangesFromTheLimits) {
  const std::string urdf =
      robot(link("base") + link("a") + link("b") + link("c") +
            joint("j1", "revolute", "base", "a",
                  "<limit lower='-1' upper='2' effort='30' velocity='1'/>") +
            joint("j2", "continuous", "a", "b", "<limit effort='0' velocity='1'/>") +
            joint("j3", "revolute", "base", "c",
                  "<limit lower='-1' upper='2' effort='30'/><mimic joint='j1'/>"));
  UrdfOptions o;
  o.actuators = UrdfOptions::Actuators::kMotor;
  Model m = compile(urdf, o);
  ASSERT_EQ(m.nu, 2);  // the mimic follower is driven by its equality
  EXPECT_EQ(m.actuator_trnid[0], jnt(m, "j1"));
  EXPECT_EQ(m.actuator_ctrlrange[0], -30);
  EXPECT_EQ(m.actuator_ctrlrange[1], 30);
  EXPECT_EQ(m.actuator_forcerange[1], 30);
  EXPECT_EQ(m.actuator_ctrllimited[1], 0);  // no effort, no limits
  o.actuators = UrdfOptions::Actuators::kPosition;
  o.kp = 50;
  m = compile(urdf, o);
  EXPECT_EQ(m.actuator_gainprm[0], 50);
  EXPECT_EQ(m.actuator_biasprm[1], -50);
  EXPECT_EQ(m.actuator_ctrlrange[0], -1);
  EXPECT_EQ(m.actuator_ctrlrange[1], 2);
  EXPECT_EQ(m.actuator_forcerange[1], 30);
}

TEST(UrdfConvert, TransmissionsNameTheActuators) {
  const std::string urdf = robot(
      link("base") + link("a") + link("b") +
      joint("j1", "revolute", "base", "a", "<limit lower='-1' upper='1' effort='10'/>") +
      joint("j2", "revolute", "a", "b", "<limit lower='-1' upper='1' effort='10'/>") +
      "<transmission name='t2'><type>transmission_interface/SimpleTransmission</type><joint "
      "name='j2'>"
      "<hardwareInterface>EffortJointInterface</hardwareInterface></joint><actuator name='motor2'>"
      "<mechanicalReduction>4</mechanicalReduction></actuator></transmission>");
  UrdfOptions o;
  o.actuators = UrdfOptions::Actuators::kMotor;
  const Model m = compile(urdf, o);
  ASSERT_EQ(m.nu, 1);
  EXPECT_EQ(std::string(m.names + m.name_actuatoradr[0]), "motor2");
  EXPECT_EQ(m.actuator_trnid[0], jnt(m, "j2"));
  EXPECT_EQ(m.actuator_gear[0], 4);
  // The joint's effort limit holds at the joint: the motor's force (times the gear) stays within
  // it.
  EXPECT_EQ(m.actuator_forcerange[1] * m.actuator_gear[0], 10);
}

TEST(UrdfConvert, ColoursComeFromMaterials) {
  const Model m = compile(robot(
      "<material name='red'><color rgba='1 0 0 1'/></material>" +
      link("base",
           std::string(kInertia1) +
               "<visual><geometry><box size='1 1 1'/></geometry><material name='red'/></visual>"
               "<visual><geometry><box size='1 1 1'/></geometry><material name='green'><color "
               "rgba='0 1 0 "
               "1'/></material></visual>"
               "<collision><geometry><sphere radius='1'/></geometry></collision>"
               "<collision><geometry><sphere radius='1'/></geometry><material name='blue'><color "
               "rgba='0 0 1 "
               "1'/></material></collision>")));
  ASSERT_EQ(m.ngeom, 4);
  // Collision geoms: their own colour, else the link's last visual colour (MuJoCo's importer).
  EXPECT_EQ(m.geom_rgba[4 * 0 + 1], 1);
  EXPECT_EQ(m.geom_rgba[4 * 1 + 2], 1);
  EXPECT_EQ(m.geom_rgba[4 * 2 + 0], 1);  // visual, red
  EXPECT_EQ(m.geom_contype[2], 0);
  EXPECT_EQ(m.geom_conaffinity[2], 0);
  EXPECT_EQ(m.geom_group[2], 2);
  EXPECT_EQ(m.geom_rgba[4 * 3 + 1], 1);  // visual, green
}

TEST(UrdfConvert, NoVisualDropsVisualGeoms) {
  const std::string urdf = robot(
      link("base",
           std::string(kInertia1) +
               "<visual><geometry><box size='1 1 2'/></geometry></visual><collision><geometry><box "
               "size='1 1 1'/></geometry></collision>"));
  UrdfOptions o;
  o.visual = false;
  EXPECT_EQ(compile(urdf).ngeom, 2);
  EXPECT_EQ(compile(urdf, o).ngeom, 1);
}

TEST(UrdfConvert, VisualsThatRepeatACollisionGeomAreNotRepeated) {
  const std::string shape = "<origin xyz='0 0 1'/><geometry><box size='1 1 1'/></geometry>";
  const std::string red = "<material name='red'><color rgba='1 0 0 1'/></material>";
  // Same box, same place, same colour: one geom. A visual of another colour stays.
  Model m = compile(robot(link("base", std::string(kInertia1) + "<visual>" + shape + red +
                                           "</visual><collision>" + shape + "</collision>")));
  EXPECT_EQ(m.ngeom, 1);
  EXPECT_EQ(m.geom_rgba[0], 1);
  m = compile(robot(link(
      "base", std::string(kInertia1) + "<visual>" + shape + red + "</visual><collision>" + shape +
                  "<material name='blue'><color rgba='0 0 1 1'/></material></collision>")));
  EXPECT_EQ(m.ngeom, 2);
}

TEST(UrdfConvert, DefaultClassesDoNotChangeTheModel) {
  // Links with grey visuals (unlike their collision boxes) and damped joints, one undamped, and the
  // Minitaur-style quadruped: with or without default classes, the compiled models are identical.
  std::string body =
      "<material name='grey'><color rgba='0.5 0.6 0.7 1'/></material>" + link("base");
  for (int i = 0; i < 5; ++i) {
    const std::string name = "l" + std::to_string(i);
    body += link(name, std::string(kInertia1) +
                           "<visual><geometry><cylinder radius='0.1' "
                           "length='0.5'/></geometry><material name='grey'/></visual>"
                           "<collision><geometry><box size='0.2 0.2 0.5'/></geometry></collision>");
    body +=
        joint("j" + std::to_string(i), "revolute", i == 0 ? "base" : "l" + std::to_string(i - 1),
              name, i == 4 ? "" : "<dynamics damping='0.7'/>");
  }
  const std::vector<uint8_t> bytes =
      test::read_file(test::testdata("urdf/minitaur_primitive/quadruped.urdf"));
  for (const std::string& text : {robot(body), std::string(bytes.begin(), bytes.end())}) {
    UrdfOptions o;
    o.base_dir = test::testdata("urdf/minitaur_primitive");
    o.actuators = UrdfOptions::Actuators::kPosition;
    const std::string with = urdf_to_mjcf(text, "t.urdf", o);
    o.default_classes = false;
    const std::string without = urdf_to_mjcf(text, "t.urdf", o);
    EXPECT_EQ(without.find("<default"), std::string::npos);
    EXPECT_LE(with.size(), without.size());
    EXPECT_EQ(write_jmb(compile_mjcf(with, "with.xml", o.base_dir)),
              write_jmb(compile_mjcf(without, "without.xml", o.base_dir)));
    if (text.find("grey") != std::string::npos && text.find("quadruped") == std::string::npos) {
      EXPECT_NE(with.find("<default class=\"visual\">"), std::string::npos) << with;
      EXPECT_NE(with.find("<geom contype=\"0\" conaffinity=\"0\" group=\"2\" density=\"0\" "
                          "rgba=\"0.5 0.6 0.7 1\"/>"),
                std::string::npos)
          << with;
      EXPECT_NE(with.find("<joint damping=\"0.7\"/>"), std::string::npos) << with;
      EXPECT_NE(with.find("<joint name=\"j4\" type=\"hinge\" axis=\"1 0 0\" damping=\"0\"/>"),
                std::string::npos)
          << with;
    }
  }
}

TEST(UrdfConvert, FactoredValuesLeaveExplicitDefaultsWhereNeeded) {
  // Three joints share damping 0.5; the fourth has MuJoCo's default, which it must now say.
  urdf::XmlNode world("worldbody");
  for (const char* d : {"0.5", "0.5", "0.5", ""}) {
    urdf::XmlNode& j = world.add(urdf::XmlNode("body")).add(urdf::XmlNode("joint"));
    if (*d) j.set("damping", d);
  }
  const urdf::XmlNode defaults =
      urdf::factor_defaults(world, {{"joint", "", {{"damping", "0"}}, {}, ""}});
  ASSERT_EQ(defaults.children.size(), 1u);
  EXPECT_EQ(*defaults.children[0].find("damping"), "0.5");
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(world.children[static_cast<size_t>(i)].children[0].find("damping"), nullptr);
  EXPECT_EQ(*world.children[3].children[0].find("damping"), "0");
}

TEST(UrdfConvert, NumbersAreShortAndExact) {
  EXPECT_EQ(urdf::format_number(0.1), "0.1");
  EXPECT_EQ(urdf::format_number(-0.0), "0");
  EXPECT_EQ(urdf::format_number(1.5707963267948966), "1.5707963267948966");
  EXPECT_EQ(std::stod(urdf::format_number(2.3749999999999997e-06)), 2.3749999999999997e-06);
  EXPECT_EQ(urdf::format_computed(0.1 + 0.2), "0.3");
  EXPECT_EQ(urdf::format_computed(6.123233995736766e-17), "0");
}

TEST(UrdfConvert, MeshPathsResolve) {
  const std::string packages = test::testdata("urdf/packages");
  const std::string file = packages + "/my_robot_description/meshes/l_finger.stl";
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/formats");
  std::vector<std::string> tried;
  bool by_name = false;
  const std::string uri = "package://my_robot_description/meshes/l_finger.stl";
  EXPECT_EQ(urdf::resolve_mesh_path(uri, o, "", true, &tried, &by_name), "");
  o.package_paths = {{"my_robot_description", packages + "/my_robot_description"}};
  EXPECT_EQ(urdf::resolve_mesh_path(uri, o, "", true, nullptr, &by_name),
            fs::path(file).lexically_normal().string());
  EXPECT_FALSE(by_name);
  o.package_paths.clear();
  o.ros_package_path = {"/nonexistent", packages};
  EXPECT_EQ(urdf::resolve_mesh_path(uri, o, "", true, nullptr, &by_name),
            fs::path(file).lexically_normal().string());
  // A relative path; and MuJoCo's fallback, the file name in the URDF's folder.
  o.base_dir = packages + "/my_robot_description";
  EXPECT_NE(urdf::resolve_mesh_path("meshes/l_finger.stl", o, "", true, nullptr, &by_name), "");
  EXPECT_FALSE(by_name);
  o.base_dir = packages + "/my_robot_description/meshes";
  o.ros_package_path.clear();
  EXPECT_NE(
      urdf::resolve_mesh_path("package://elsewhere/l_finger.stl", o, "", true, nullptr, &by_name),
      "");
  EXPECT_TRUE(by_name);
  EXPECT_NE(urdf::resolve_mesh_path("file://" + file, o, "", true, nullptr, &by_name), "");
}

TEST(UrdfConvert, MeshdirIsRelativeToTheOutput) {
  const std::string urdf =
      robot(link("base", std::string(kInertia1) +
                             "<collision><geometry><mesh "
                             "filename='package://my_robot_description/meshes/l_finger.stl' "
                             "scale='0.001 0.001 0.001'/></geometry></collision>"));
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/formats");
  o.package_paths = {
      {"my_robot_description", test::testdata("urdf/packages/my_robot_description")}};
  o.output_dir = test::testdata("urdf/formats");
  const std::string mjcf = convert(urdf, o);
  EXPECT_NE(mjcf.find("meshdir=\"../packages/my_robot_description/meshes\""), std::string::npos)
      << mjcf;
  EXPECT_NE(
      mjcf.find("<mesh name=\"l_finger\" file=\"l_finger.stl\" scale=\"0.001 0.001 0.001\"/>"),
      std::string::npos)
      << mjcf;
}

TEST(UrdfConvert, UnreadableMeshFormatsAreReported) {
  const std::string urdf = robot(
      link("base", std::string(kInertia1) +
                       "<visual><geometry><mesh filename='tiny.dae'/></geometry></visual>"
                       "<collision><geometry><mesh filename='tet.obj'/></geometry></collision>"));
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/formats");
  UrdfReport report;
  const std::string mjcf = convert(urdf, o, &report);
  EXPECT_EQ(mjcf.find("tiny"), std::string::npos);
  EXPECT_NE(mjcf.find("file=\"tet.obj\""), std::string::npos);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("tiny.dae"), std::string::npos);
  // In collision it is a warning naming the element; with --strict, an error.
  const std::string collision = robot(link(
      "base", std::string(kInertia1) +
                  "\n<collision><geometry>\n<mesh filename='tiny.dae'/></geometry></collision>"));
  report = {};
  convert(collision, o, &report);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("t.urdf:4: <mesh>"), std::string::npos) << report.warnings[0];
  EXPECT_NE(report.warnings[0].find("left out of collision"), std::string::npos)
      << report.warnings[0];
  o.strict = true;
  EXPECT_THROW(convert(collision, o), InputError);
  EXPECT_THROW(convert(urdf, o), InputError);
}

TEST(UrdfConvert, MuJoCoExtensionIsHonoured) {
  const std::string urdf = robot(
      "<mujoco><compiler meshdir='meshes' boundmass='0.5' discardvisual='false'/><option "
      "timestep='0.001'/></mujoco>" +
      link("base",
           std::string(kInertia1) +
               "<collision><geometry><mesh filename='l_finger.stl'/></geometry></collision>"));
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/packages/my_robot_description");
  const std::string mjcf = convert(urdf, o);
  EXPECT_NE(mjcf.find("boundmass=\"0.5\""), std::string::npos) << mjcf;
  EXPECT_NE(mjcf.find("<option timestep=\"0.001\"/>"), std::string::npos) << mjcf;
  EXPECT_NE(mjcf.find("meshdir=\"meshes\""), std::string::npos) << mjcf;
  EXPECT_EQ(mjcf.find("discardvisual"), std::string::npos) << mjcf;
}

// testdata/urdf/cases/NAME, and its folder in the options.
std::string read_case(const std::string& name, UrdfOptions& o) {
  o.base_dir = test::testdata("urdf/cases");
  return test::read_text(o.base_dir + "/" + name);
}

bool summary_has(const UrdfReport& report, const std::string& text) {
  for (const std::string& line : report.summary) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

// The inertial of every body, bit for bit.
void expect_same_inertials(const Model& a, const Model& b) {
  ASSERT_EQ(a.nbody, b.nbody);
  for (int i = 0; i < a.nbody; ++i) {
    EXPECT_EQ(a.body_mass[i], b.body_mass[i]) << "body " << i;
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(a.body_ipos[3 * i + k], b.body_ipos[3 * i + k]) << "body " << i;
      EXPECT_EQ(a.body_inertia[3 * i + k], b.body_inertia[3 * i + k]) << "body " << i;
    }
    for (int k = 0; k < 4; ++k) EXPECT_EQ(a.body_iquat[4 * i + k], b.body_iquat[4 * i + k]);
  }
}

TEST(UrdfConvert, ZeroMassWithInertiaWhereItIsNeverUsedIsAcceptedAndSaidSo) {
  // The root (welded to the world) keeps its inertia, unused; links fused into a body add nothing
  // (as MuJoCo's fusestatic: massless bodies are not fused).
  UrdfOptions o;
  const std::string urdf = read_case("zero_mass_root.urdf", o);
  UrdfReport report;
  const Model m = compile_urdf(urdf, "zero_mass_root.urdf", o, &report);
  EXPECT_TRUE(summary_has(report,
                          "links with zero mass but a non-zero inertia accepted, as MuJoCo's "
                          "importer does: welded to the world, their inertial is never used: base"))
      << testing::PrintToString(report.summary);
  EXPECT_TRUE(summary_has(report,
                          "fused into their parent add nothing (as MuJoCo's fusestatic "
                          "does): mount, cover"))
      << testing::PrintToString(report.summary);
  const int base = body(m, "base"), arm = body(m, "arm");
  EXPECT_EQ(m.body_mass[base], 0);
  EXPECT_EQ(m.body_inertia[3 * base], 0.1);
  EXPECT_EQ(m.body_mass[arm], 1);
  EXPECT_EQ(m.body_inertia[3 * arm + 2], 0.025);  // cover's inertia is not there
  // Set free, the root moves: zero mass with an inertia is then refused, as on any moving link.
  o.floating = true;
  test::expect_fragments(test::input_error([&] { compile_urdf(urdf, "zero_mass_root.urdf", o); }),
                         "zero_mass_root.urdf:7: <inertial> of link 'base'",
                         "a free root without mass");
}

TEST(UrdfConvert, ExtensionSwitchesGiveWayToOptions) {
  // fusestatic="false" discardvisual="false": bodies kept, visual geoms kept; the options win.
  UrdfOptions o;
  const std::string urdf = read_case("extension_fusestatic.urdf", o);
  const Model kept = compile_urdf(urdf, "t.urdf", o);
  EXPECT_EQ(kept.nbody, 7);  // world, base, arm, bracket, tool_frame, slider, weight
  EXPECT_EQ(kept.ngeom, 6);
  EXPECT_EQ(kept.opt.timestep, 0.001);
  o.fuse_fixed = true;
  o.visual = false;
  UrdfReport report;
  const Model fused = compile_urdf(urdf, "t.urdf", o, &report);
  EXPECT_EQ(fused.nbody, 4);
  EXPECT_EQ(fused.ngeom, 5);
  EXPECT_TRUE(summary_has(report, "visual geoms dropped (--no-visual)"));
  // discardvisual="true" alone drops them, and says why.
  std::string discard = urdf;
  discard.replace(discard.find("discardvisual=\"false\""), 21, "discardvisual=\"true\"");
  o = {};
  o.base_dir = test::testdata("urdf/cases");
  report = {};
  EXPECT_EQ(compile_urdf(discard, "t.urdf", o, &report).ngeom, 5);
  EXPECT_TRUE(summary_has(report, "visual geoms dropped (discardvisual"));
}

TEST(UrdfConvert, ExtensionCompilerAttributesAreCarriedIntoTheMjcf) {
  // Compiling the MJCF written (as joco-urdf2mjcf does) gives the model compile_urdf gives.
  for (const char* name : {"extension_bounds.urdf", "extension_settotalmass.urdf",
                           "extension_inertiafromgeom.urdf", "balance_fused.urdf"}) {
    UrdfOptions o;
    const std::string urdf = read_case(name, o);
    const std::string mjcf = urdf_to_mjcf(urdf, name, o);
    expect_same_inertials(compile_mjcf(mjcf, name, o.base_dir), compile_urdf(urdf, name, o));
  }
  UrdfOptions o;
  std::string mjcf = urdf_to_mjcf(read_case("extension_bounds.urdf", o), "t.urdf", o);
  EXPECT_NE(mjcf.find("boundmass=\"0.7\" boundinertia=\"0.004\""), std::string::npos) << mjcf;
  mjcf = urdf_to_mjcf(read_case("extension_inertiafromgeom.urdf", o), "t.urdf", o);
  EXPECT_NE(mjcf.find("exactmeshinertia=\"true\" convexhull=\"false\""), std::string::npos) << mjcf;
  // Attributes MuJoCo's importer reads to no effect are noted; one it does not know is a warning.
  UrdfReport report;
  mjcf = urdf_to_mjcf(read_case("extension_ignored.urdf", o), "t.urdf", o, &report);
  EXPECT_TRUE(summary_has(report, "attributes that MuJoCo's importer ignores too: angle, eulerseq"))
      << testing::PrintToString(report.summary);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("unknown attribute 'unknown' ignored"), std::string::npos);
  EXPECT_EQ(mjcf.find("degree"), std::string::npos);
  o.strict = true;
  EXPECT_THROW(urdf_to_mjcf(read_case("extension_ignored.urdf", o), "t.urdf", o), InputError);
}

TEST(UrdfConvert, ExtensionIsReadOnceAsInMuJoCo) {
  // MuJoCo 2.2.2 refuses a second <mujoco>, or a second <compiler>, <option> or <size> in it.
  const std::string twice = robot("<mujoco/>\n<mujoco/>" + link("base"));
  EXPECT_THROW(convert(twice), InputError);
  for (const char* child : {"compiler", "option", "size"}) {
    const std::string c = std::string("<") + child + "/>";
    EXPECT_THROW(convert(robot("<mujoco>" + c + c + "</mujoco>" + link("base"))), InputError)
        << child;
  }
  // Its values are read as MJCF's.
  EXPECT_THROW(convert(robot("<mujoco><compiler boundmass='abc'/></mujoco>" + link("base"))),
               InputError);
  EXPECT_THROW(convert(robot("<mujoco><compiler fusestatic='maybe'/></mujoco>" + link("base"))),
               InputError);
}

TEST(UrdfConvert, BalanceInertiaBalancesEachLinkBeforeFusing) {
  // --balance-inertia on the URDF gives what balanceinertia in its <mujoco> extension gives (which
  // the oracle test compares with MuJoCo); the option also overrides the extension.
  UrdfOptions o;
  const std::string with_extension = read_case("balance_fused.urdf", o);
  std::string without = with_extension;
  const size_t from = without.find("  <mujoco>"), to = without.find("</mujoco>") + 10;
  without.erase(from, to - from);
  ASSERT_EQ(without.find("mujoco"), std::string::npos);
  EXPECT_THROW(compile_urdf(without, "t.urdf", o), InputError);
  o.balance_inertia = true;
  UrdfReport report;
  const Model flag = compile_urdf(without, "t.urdf", o, &report);
  EXPECT_TRUE(summary_has(report,
                          "replaced by the mean of their principal moments "
                          "(balanceinertia): plate, clamp, finger"))
      << testing::PrintToString(report.summary);
  o.balance_inertia.reset();
  expect_same_inertials(flag, compile_urdf(with_extension, "t.urdf", o));
  o.balance_inertia = false;
  EXPECT_THROW(compile_urdf(with_extension, "t.urdf", o), InputError);
  // The fused arm, as MuJoCo 2.2.2 gives it (principal moments of arm + balanced plate + balanced
  // clamp; balancing the sum instead gives 0.0928888 each, 12% off and more).
  const int arm = body(flag, "arm");
  EXPECT_NEAR(flag.body_inertia[3 * arm + 0], 0.16261631483476452, 1e-11);
  EXPECT_NEAR(flag.body_inertia[3 * arm + 1], 0.14944006515351985, 1e-11);
  EXPECT_NEAR(flag.body_inertia[3 * arm + 2], 0.05015711303115946, 1e-11);
}

TEST(UrdfConvert, OutputIsReadable) {
  const std::string path = test::testdata("urdf/r2d2/r2d2.urdf");
  const std::vector<uint8_t> bytes = test::read_file(path);
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/r2d2");
  UrdfReport report;
  const std::string mjcf =
      urdf_to_mjcf(std::string(bytes.begin(), bytes.end()), "r2d2.urdf", o, &report);
  // The header names the source; names survive; URDF numbers appear as written; fused links are
  // commented; effort and velocity limits are kept in comments.
  EXPECT_EQ(mjcf.rfind("<!--\n  MJCF of the URDF robot 'physics' (r2d2.urdf)", 0), 0u)
      << mjcf.substr(0, 200);
  EXPECT_NE(mjcf.find("<body name=\"gripper_pole\" pos=\"0 0.19 0.2\" euler=\"0 0 1.57075\">"),
            std::string::npos);
  EXPECT_NE(mjcf.find("<!-- link 'box', fused through fixed joint 'tobox' from 'head' -->"),
            std::string::npos);
  EXPECT_NE(mjcf.find("<!-- continuous, effort 100, velocity 100 -->"), std::string::npos);
  for (size_t at = mjcf.find('\n'); at != std::string::npos; at = mjcf.find('\n', at + 1)) {
    const size_t next = mjcf.find('\n', at + 1);
    const std::string line =
        mjcf.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    const size_t indent = line.find_first_not_of(' ');
    if (indent != std::string::npos) {
      EXPECT_EQ(indent % 2, 0u) << line;
    }
  }
  EXPECT_FALSE(report.summary.empty());
  EXPECT_NE(report.summary[0].find("16 links, 15 joints"), std::string::npos) << report.summary[0];
  // The same input gives the same output.
  EXPECT_EQ(mjcf, urdf_to_mjcf(std::string(bytes.begin(), bytes.end()), "r2d2.urdf", o));
}

}  // namespace
}  // namespace joco
