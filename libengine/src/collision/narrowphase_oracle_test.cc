// Every narrow-phase function against MuJoCo 2.2.2's own (mjCOLLISIONFUNC) on seeded random sizes,
// poses and margins: the same number of contacts, and the same distances, points and frames.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <random>
#include <string>

#include "joco/collision.h"
#include "math/vec.h"
#include "oracle/contacts.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Loads an MJCF string into MuJoCo through its virtual file system.
oracle::MjModelPtr load_string(const std::string& xml) {
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_makeEmptyFileVFS(&vfs, "model.xml", static_cast<int>(xml.size()));
  std::memcpy(vfs.filedata[mj_findFileVFS(&vfs, "model.xml")], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML("model.xml", &vfs, error, sizeof error);
  mj_deleteVFS(&vfs);
  EXPECT_TRUE(m) << error;
  return oracle::MjModelPtr(m);
}

// Meshes: a box (symmetric: ties in the support search), an irregular convex polyhedron, and the
// same polyhedron without its hull graph (support by scanning every vertex).
constexpr const char* kMeshAssets =
    "<mesh name='box' vertex='-1 -1 -1 1 -1 -1 1 1 -1 1 1 1 1 -1 1 -1 1 -1 -1 1 1 -1 -1 1' "
    "scale='.3 .2 .15'/>"
    "<mesh name='rock' vertex='0.31 0.02 -0.05  -0.22 0.17 0.08  0.05 -0.27 0.11  -0.04 0.08 "
    "-0.29  0.12 0.21 0.19  -0.18 -0.16 -0.12  0.21 -0.09 0.24  -0.27 -0.05 0.21  0.09 0.28 "
    "-0.14  0.17 -0.22 -0.2  -0.12 0.25 -0.06  0.02 0.01 0.33'/>";

std::string geom_xml(int type, int mesh_variant) {
  std::string s = std::string("<geom type='") + kGeomTypeNames[type] + "' size='.2 .2 .2'";
  if (type == kGeomMesh) {
    s += mesh_variant == 0 ? " mesh='box'" : (mesh_variant == 3 ? " mesh='link'" : " mesh='rock'");
  }
  if (type == kGeomHfield) s += " hfield='terrain'";
  return s + "/>";
}

// Geom 0 of type1 (planes and height fields in the world body) and geom 1 of type2.
std::string pair_xml(int type1, int type2, int mesh_variant) {
  std::string xml = "<mujoco>";
  if (mesh_variant == 2) xml += "<compiler convexhull='false'/>";
  xml += "<asset>";
  xml += kMeshAssets;
  if (mesh_variant == 3) {
    xml += "<mesh name='link' file='" +
           test::testdata("real/franka_sim/meshes/collision/link2.stl") + "'/>";
  }
  xml += "<hfield name='terrain' nrow='7' ncol='9' size='.8 .6 .3 .1'/></asset><worldbody>";
  const bool static1 = type1 == kGeomPlane || type1 == kGeomHfield;
  xml += static1 ? geom_xml(type1, mesh_variant)
                 : "<body><freejoint/>" + geom_xml(type1, mesh_variant) + "</body>";
  xml += "<body><freejoint/>" + geom_xml(type2, mesh_variant) + "</body>";
  return xml + "</worldbody></mujoco>";
}

struct Stats {
  int presence_mismatch = 0;  // one finds contacts, the other none
  int first_mismatch = 0;     // the first contacts differ (geometry beyond the tolerance)
  double first_normal = 0;    // worst error of the first contact's normal
  int trials = 0;
  int with_contacts = 0;
  int count_mismatch = 0;
  int exact = 0;      // trials whose contacts agree within 1e-9
  int exact_tol = 0;  // trials whose contacts agree within the case's tolerance
  double worst = 0;
  std::string worst_table;
};

// Random sizes for geom g of a primitive type, in both models; rbound to match.
void random_size(std::mt19937& rng, mjModel* mj, Model& m, int g) {
  std::uniform_real_distribution<double> u(0.05, 0.4);
  const int type = mj->geom_type[g];
  double* s = mj->geom_size + 3 * g;
  double rbound = 0;
  switch (type) {
    case kGeomSphere:
      s[0] = u(rng);
      rbound = s[0];
      break;
    case kGeomCapsule:
      s[0] = u(rng) / 2;
      s[1] = u(rng);
      rbound = s[0] + s[1];
      break;
    case kGeomEllipsoid:
      for (int k = 0; k < 3; ++k) s[k] = u(rng);
      rbound = std::fmax(s[0], std::fmax(s[1], s[2]));
      break;
    case kGeomCylinder:
      s[0] = u(rng);
      s[1] = u(rng);
      rbound = std::hypot(s[0], s[1]);
      break;
    case kGeomBox:
      for (int k = 0; k < 3; ++k) s[k] = u(rng);
      rbound = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
      break;
    default: return;  // planes, height fields and meshes keep their compiled sizes
  }
  mj->geom_rbound[g] = rbound;
  for (int k = 0; k < 3; ++k) m.geom_size[3 * g + k] = s[k];
  m.geom_rbound[g] = rbound;
}

void random_frame(std::mt19937& rng, double* quat) {
  std::normal_distribution<double> n;
  for (int k = 0; k < 4; ++k) quat[k] = n(rng);
  math::quat_normalize(quat);
}

// Sets geom g's pose in both engines' Data (each converting the quaternion its own way).
void set_pose(mjData* md, Data& d, int g, const double pos[3], const double quat[4]) {
  math::copy3(md->geom_xpos + 3 * g, pos);
  math::copy3(d.geom_xpos + 3 * g, pos);
  mju_quat2Mat(md->geom_xmat + 9 * g, quat);
  math::quat_to_mat(d.geom_xmat + 9 * g, quat);
}

// Both engines' pair function on geoms 0 and 1 at the poses their Data hold.
oracle::ContactComparison collide_both(const mjModel* mj, mjData* md, const Model& m, const Data& d,
                                       int type1, int type2, double margin) {
  mjContact mc[mjMAXCONPAIR] = {};
  Contact c[kMaxConPair];
  const int mn = mjCOLLISIONFUNC[type1][type2](mj, md, mc, 0, 1, margin);
  const int n = collision_function(type1, type2)(m, d, c, 0, 1, margin);
  return oracle::compare_contacts(c, n, mc, mn);
}

// The trials of a constructed case: how many have contacts in MuJoCo, how many differ in number,
// and the worst geometry error of the others.
struct Tally {
  int with_contacts = 0, count_mismatches = 0;
  double worst = 0;

  void add(const oracle::ContactComparison& cmp) {
    with_contacts += cmp.mujoco_count > 0;
    if (!cmp.counts_match()) {
      ++count_mismatches;
    } else {
      worst = std::fmax(worst, cmp.geometry_error());
    }
  }
  void print(const char* what) const {
    std::printf("%s: %d with contacts, %d count mismatches, worst %.3e\n", what, with_contacts,
                count_mismatches, worst);
  }
};

// Runs `trials` random configurations of the pair and compares the raw narrow-phase output.
Stats compare_pair(int type1, int type2, int mesh_variant, int trials, unsigned seed, bool multiccd,
                   double tolerance) {
  Stats stats;
  oracle::MjModelPtr mj = load_string(pair_xml(type1, type2, mesh_variant));
  if (!mj) return stats;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  if (mj->nhfielddata) {
    for (int i = 0; i < mj->nhfielddata; ++i) mj->hfield_data[i] = static_cast<float>(unit(rng));
  }
  if (multiccd) mj->opt.enableflags |= mjENBL_MULTICCD;
  Model m = oracle::model_from_mujoco(mj.get());
  oracle::MjDataPtr md = oracle::make_data(mj.get());
  Data d(m);
  const mjfCollision theirs = mjCOLLISIONFUNC[type1][type2];
  const CollisionFunction ours = collision_function(type1, type2);
  EXPECT_TRUE(theirs && ours);
  if (!theirs || !ours) return stats;

  for (int trial = 0; trial < trials; ++trial) {
    random_size(rng, mj.get(), m, 0);
    random_size(rng, mj.get(), m, 1);
    double quat[2][4], pos[2][3] = {};
    random_frame(rng, quat[0]);
    random_frame(rng, quat[1]);
    const double rb1 = type1 == kGeomPlane ? 0 : mj->geom_rbound[0];
    const double rb2 = mj->geom_rbound[1];
    if (type1 == kGeomPlane || type1 == kGeomHfield) {
      // the other geom over the plane or the height field, at heights around contact
      double local[3] = {(2 * unit(rng) - 1) * 0.7, (2 * unit(rng) - 1) * 0.5,
                         (unit(rng) * 1.4 - 0.5) * rb2 + (type1 == kGeomHfield ? 0.2 : 0)};
      double mat[9];
      math::quat_to_mat(mat, quat[0]);
      math::mat_vec3(pos[1], mat, local);
    } else {
      double dir[3] = {unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5};
      math::normalize3(dir);
      math::scale3(pos[1], dir, (0.2 + unit(rng)) * (rb1 + rb2));
    }
    const double margin = trial % 3 == 0 ? 0 : (trial % 3 == 1 ? 0.01 : 0.1) * unit(rng);
    for (int g = 0; g < 2; ++g) set_pose(md.get(), d, g, pos[g], quat[g]);
    mjContact mc[mjMAXCONPAIR] = {};
    Contact c[kMaxConPair];
    const int mn = theirs(mj.get(), md.get(), mc, 0, 1, margin);
    const int n = ours(m, d, c, 0, 1, margin);
    ++stats.trials;
    if ((n > 0) != (mn > 0) && ++stats.presence_mismatch <= 2) {
      std::printf("  %s-%s trial %d: joco %d contacts, MuJoCo %d (margin %g)\n",
                  kGeomTypeNames[type1], kGeomTypeNames[type2], trial, n, mn, margin);
      for (int i = 0; i < n; ++i) std::printf("    joco dist %.6g\n", c[i].dist);
      for (int i = 0; i < mn; ++i) std::printf("    MuJoCo dist %.6g\n", mc[i].dist);
    }
    if (n > 0 && mn > 0) {
      const oracle::ContactComparison first = oracle::compare_contacts(c, 1, mc, 1);
      stats.first_mismatch += first.geometry_error() > 1e-9;
      stats.first_normal = std::fmax(stats.first_normal, first.field("frame").error);
    }
    stats.with_contacts += mn > 0;
    const oracle::ContactComparison cmp = oracle::compare_contacts(c, n, mc, mn);
    if (!cmp.counts_match()) {
      if (++stats.count_mismatch <= 3) {
        std::printf("  %s-%s variant %d trial %d: joco %d contacts, MuJoCo %d\n",
                    kGeomTypeNames[type1], kGeomTypeNames[type2], mesh_variant, trial, n, mn);
      }
      continue;
    }
    stats.exact += cmp.geometry_error() <= 1e-9;
    stats.exact_tol += cmp.geometry_error() <= tolerance;
    if (cmp.geometry_error() > stats.worst) {
      stats.worst = cmp.geometry_error();
      stats.worst_table = "trial " + std::to_string(trial) + "\n" + cmp.table();
    }
  }
  return stats;
}

// What a pair must satisfy against MuJoCo.
enum Expect {
  kAll,           // every trial: the same contacts within the tolerance
  kMostly,        // the same number of contacts always, the same contacts in 99% of trials
  kFirstContact,  // contacts in the same trials, the first (deepest-feature) contact the same
  kFirstMostly,   // kFirstContact, and the same contacts in 98% of trials
  kNearly,        // contacts in the same trials (but 1 in 100), the same contacts in 98% of trials
};

struct PairCase {
  int type1, type2;
  int mesh_variant;
  double tolerance;  // 1e-9 for the dedicated functions, 1e-6 through MPR
  bool multiccd = false;
  Expect expect = kAll;
  int trials = 400;
  int max_count_mismatches = -1;  // when set, a bound on the trials differing in number
};

// Shown by GoogleTest in place of the parameter's bytes.
std::ostream& operator<<(std::ostream& os, const PairCase& c) {
  return os << "types " << c.type1 << "-" << c.type2 << " mesh variant " << c.mesh_variant;
}

class PairFunction : public ::testing::TestWithParam<PairCase> {};

TEST_P(PairFunction, MatchesMuJoCo) {
  const PairCase pc = GetParam();
  const Stats s = compare_pair(pc.type1, pc.type2, pc.mesh_variant, pc.trials,
                               1234 + pc.type1 * 8 + pc.type2, pc.multiccd, pc.tolerance);
  std::printf(
      "%-9s %-9s variant %d%s: %d trials, %d with contacts, %d count mismatches, %d exact, worst "
      "%.3e; presence mismatches %d, first-contact mismatches %d, first normal %.1e\n",
      kGeomTypeNames[pc.type1], kGeomTypeNames[pc.type2], pc.mesh_variant,
      pc.multiccd ? " multiccd" : "", s.trials, s.with_contacts, s.count_mismatch, s.exact, s.worst,
      s.presence_mismatch, s.first_mismatch, s.first_normal);
  EXPECT_GT(s.with_contacts, s.trials / 10);
  if (pc.max_count_mismatches >= 0) {
    EXPECT_LE(s.count_mismatch, pc.max_count_mismatches);
  }
  switch (pc.expect) {
    case kAll:
      EXPECT_EQ(s.count_mismatch, 0);
      EXPECT_LE(s.worst, pc.tolerance) << s.worst_table;
      break;
    case kMostly:
      EXPECT_EQ(s.count_mismatch, 0);
      EXPECT_GE(s.exact_tol, s.trials * 99 / 100) << s.worst_table;
      break;
    case kFirstContact:
      EXPECT_EQ(s.presence_mismatch, 0);
      EXPECT_EQ(s.first_mismatch, 0);
      break;
    case kFirstMostly:
      EXPECT_EQ(s.presence_mismatch, 0);
      EXPECT_EQ(s.first_mismatch, 0);
      EXPECT_GE(s.exact_tol, s.trials * 98 / 100) << s.worst_table;
      break;
    case kNearly:
      EXPECT_LE(s.presence_mismatch, s.trials / 100);
      EXPECT_LE(s.first_normal, pc.tolerance);
      EXPECT_GE(s.exact_tol, s.trials * 98 / 100) << s.worst_table;
      break;
  }
}

constexpr double kExact = 1e-9, kMpr = 1e-6;

std::string pair_name(const ::testing::TestParamInfo<PairCase>& p) {
  return std::string(kGeomTypeNames[p.param.type1]) + "_" + kGeomTypeNames[p.param.type2] +
         std::to_string(p.param.mesh_variant) + (p.param.multiccd ? "_multiccd" : "");
}

INSTANTIATE_TEST_SUITE_P(
    Dedicated, PairFunction,
    ::testing::Values(
        PairCase{kGeomPlane, kGeomSphere, 0, kExact}, PairCase{kGeomPlane, kGeomCapsule, 0, kExact},
        PairCase{kGeomPlane, kGeomCylinder, 0, kExact}, PairCase{kGeomPlane, kGeomBox, 0, kExact},
        PairCase{kGeomPlane, kGeomEllipsoid, 0, kExact},
        // meshes: the support vertex and its hull neighbours away from the first contact
        PairCase{kGeomPlane, kGeomMesh, 0, kExact}, PairCase{kGeomPlane, kGeomMesh, 1, kExact},
        PairCase{kGeomPlane, kGeomMesh, 2, kExact}, PairCase{kGeomPlane, kGeomMesh, 3, kExact},
        PairCase{kGeomSphere, kGeomSphere, 0, kExact},
        PairCase{kGeomSphere, kGeomCapsule, 0, kExact}, PairCase{kGeomSphere, kGeomBox, 0, kExact},
        PairCase{kGeomCapsule, kGeomCapsule, 0, kExact},
        PairCase{kGeomCapsule, kGeomBox, 0, kExact}, PairCase{kGeomBox, kGeomBox, 0, kExact}),
    pair_name);

INSTANTIATE_TEST_SUITE_P(LongSweep, PairFunction,
                         ::testing::Values(PairCase{kGeomBox, kGeomBox, 0, kExact, false, kAll,
                                                    20000}),
                         pair_name);

INSTANTIATE_TEST_SUITE_P(
    Convex, PairFunction,
    ::testing::Values(
        PairCase{kGeomSphere, kGeomEllipsoid, 0, kMpr},
        PairCase{kGeomSphere, kGeomCylinder, 0, kMpr}, PairCase{kGeomSphere, kGeomMesh, 1, kMpr},
        PairCase{kGeomCapsule, kGeomEllipsoid, 0, kMpr},
        PairCase{kGeomCapsule, kGeomCylinder, 0, kMpr}, PairCase{kGeomCapsule, kGeomMesh, 1, kMpr},
        PairCase{kGeomEllipsoid, kGeomEllipsoid, 0, kMpr},
        PairCase{kGeomEllipsoid, kGeomCylinder, 0, kMpr},
        PairCase{kGeomEllipsoid, kGeomBox, 0, kMpr}, PairCase{kGeomEllipsoid, kGeomMesh, 1, kMpr},
        PairCase{kGeomCylinder, kGeomCylinder, 0, kMpr}, PairCase{kGeomCylinder, kGeomBox, 0, kMpr},
        PairCase{kGeomCylinder, kGeomMesh, 1, kMpr}, PairCase{kGeomBox, kGeomMesh, 0, kMpr},
        PairCase{kGeomBox, kGeomMesh, 1, kMpr}, PairCase{kGeomMesh, kGeomMesh, 0, kMpr},
        PairCase{kGeomMesh, kGeomMesh, 1, kMpr}, PairCase{kGeomMesh, kGeomMesh, 2, kMpr},
        PairCase{kGeomHfield, kGeomSphere, 0, kMpr}, PairCase{kGeomHfield, kGeomCapsule, 0, kMpr},
        PairCase{kGeomHfield, kGeomEllipsoid, 0, kMpr},
        PairCase{kGeomHfield, kGeomCylinder, 0, kMpr}, PairCase{kGeomHfield, kGeomBox, 0, kMpr},
        PairCase{kGeomHfield, kGeomMesh, 1, kMpr}),
    pair_name);

INSTANTIATE_TEST_SUITE_P(Multiccd, PairFunction,
                         ::testing::Values(PairCase{kGeomCapsule, kGeomCylinder, 0, kMpr, true},
                                           PairCase{kGeomCapsule, kGeomMesh, 1, kMpr, true},
                                           PairCase{kGeomCylinder, kGeomCylinder, 0, kMpr, true},
                                           PairCase{kGeomCylinder, kGeomBox, 0, kMpr, true},
                                           PairCase{kGeomCylinder, kGeomMesh, 0, kMpr, true},
                                           PairCase{kGeomBox, kGeomMesh, 0, kMpr, true},
                                           PairCase{kGeomBox, kGeomMesh, 1, kMpr, true},
                                           PairCase{kGeomMesh, kGeomMesh, 0, kMpr, true},
                                           PairCase{kGeomMesh, kGeomMesh, 1, kMpr, true},
                                           PairCase{kGeomSphere, kGeomMesh, 1, kMpr, true},
                                           PairCase{kGeomEllipsoid, kGeomBox, 0, kMpr, true},
                                           PairCase{kGeomHfield, kGeomBox, 0, kMpr, true},
                                           PairCase{kGeomHfield, kGeomMesh, 1, kMpr, true},
                                           PairCase{kGeomHfield, kGeomCylinder, 0, kMpr, true}),
                         pair_name);

// Cylinders standing on a plane, upright to within rounding (tilts down to 1e-16 radians, either
// cap down): the rim direction comes from rounding noise, so the deepest rim point may lie off the
// cap's plane and beyond the margin. The same contacts as MuJoCo's all the same.
TEST(PlaneCylinder, UprightMatchesMuJoCo) {
  oracle::MjModelPtr mj = load_string(pair_xml(kGeomPlane, kGeomCylinder, 0));
  ASSERT_TRUE(mj);
  Model m = oracle::model_from_mujoco(mj.get());
  oracle::MjDataPtr md = oracle::make_data(mj.get());
  Data d(m);
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal;
  const double radius = m.geom_size[3], half = m.geom_size[4];
  Tally tally;
  for (int trial = 0; trial < 4000; ++trial) {
    const double tilt = trial % 10 == 0 ? 0 : std::pow(10.0, -16 + 16 * unit(rng));
    double axis[3] = {normal(rng), normal(rng), 0}, quat[4], spin[4], both[4];
    math::normalize3(axis);
    math::axis_angle_to_quat(quat, axis, tilt + (trial % 2 ? M_PI : 0));
    const double up[3] = {0, 0, 1};
    math::axis_angle_to_quat(spin, up, 2 * M_PI * unit(rng));
    math::quat_mul(both, quat, spin);
    const double pos[3] = {0.3 * normal(rng), 0.3 * normal(rng), half - 0.01 * unit(rng) * radius};
    const double identity[4] = {1, 0, 0, 0};
    mju_quat2Mat(md->geom_xmat, identity);
    mju_quat2Mat(md->geom_xmat + 9, both);
    math::zero3(md->geom_xpos);
    math::copy3(md->geom_xpos + 3, pos);
    std::memcpy(d.geom_xpos, md->geom_xpos, sizeof(double) * 6);
    std::memcpy(d.geom_xmat, md->geom_xmat, sizeof(double) * 18);
    const double margin = trial % 3 == 0 ? 0 : 0.02;
    tally.add(collide_both(mj.get(), md.get(), m, d, kGeomPlane, kGeomCylinder, margin));
  }
  tally.print("upright cylinders");
  EXPECT_GT(tally.with_contacts, 1000);
  EXPECT_EQ(tally.count_mismatches, 0);
  EXPECT_LE(tally.worst, 1e-9);
}

// Thin capsules through a box, one end just beyond a face, the other far beyond an adjacent face:
// the nearest point found (that end) is beyond the margin, yet MuJoCo reports a contact where the
// segment crosses a face. The same contacts as MuJoCo's, in random orientations of the pair.
TEST(CapsuleBox, ThroughTheBoxMatchesMuJoCo) {
  oracle::MjModelPtr mj = load_string(pair_xml(kGeomCapsule, kGeomBox, 0));
  ASSERT_TRUE(mj);
  Model m = oracle::model_from_mujoco(mj.get());
  oracle::MjDataPtr md = oracle::make_data(mj.get());
  Data d(m);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(0, 1);
  const double box = 0.3;
  for (int k = 0; k < 3; ++k) m.geom_size[3 + k] = mj->geom_size[3 + k] = box;
  Tally tally;
  for (int trial = 0; trial < 200; ++trial) {
    const double radius = 0.01 + 0.01 * unit(rng);
    // in the box's frame: from just beyond the -x face (0.03 to 0.04 off it) to far beyond the -z
    // face, crossing the box about 0.07 or more from the edge between them, so that this end is
    // the nearest point found (the segment nears no edge as closely)
    const double gap = 0.03 + 0.01 * unit(rng), y = 0.1 * (2 * unit(rng) - 1);
    const double e0[3] = {-box - gap, y, 0}, e1[3] = {0, y, -0.85 - 0.1 * unit(rng)};
    double centre[3], axis[3];
    for (int i = 0; i < 3; ++i) {
      centre[i] = (e0[i] + e1[i]) / 2;
      axis[i] = e1[i] - e0[i];
    }
    const double half = math::norm3(axis) / 2;
    m.geom_size[0] = mj->geom_size[0] = radius;
    m.geom_size[1] = mj->geom_size[1] = half;
    m.geom_rbound[0] = mj->geom_rbound[0] = radius + half;
    // the capsule's z axis along the segment: a rotation about y
    const double yaxis[3] = {0, 1, 0};
    double qcap[4], qbox[4], qboth[4];
    math::axis_angle_to_quat(qcap, yaxis, std::atan2(axis[0], axis[2]));
    random_frame(rng, qbox);
    math::quat_mul(qboth, qbox, qcap);
    double rot[9], pos[3];
    math::quat_to_mat(rot, qbox);
    math::mat_vec3(pos, rot, centre);
    const double zero[3] = {0, 0, 0};
    const double* quats[2] = {qboth, qbox};
    const double* poses[2] = {pos, zero};
    for (int g = 0; g < 2; ++g) set_pose(md.get(), d, g, poses[g], quats[g]);
    const double margin = trial % 2 ? 0 : 0.005;
    tally.add(collide_both(mj.get(), md.get(), m, d, kGeomCapsule, kGeomBox, margin));
  }
  tally.print("capsules through a box");
  EXPECT_EQ(tally.with_contacts, 200);
  EXPECT_EQ(tally.count_mismatches, 0);
  EXPECT_LE(tally.worst, 1e-9);
}

// A sphere's centre or a capsule's end outside a box's face by one to three units in the last place
// (as a second capsule point kept within a slab lands): the face's normal all the same, as
// MuJoCo's.
TEST(SphereCapsuleBox, PointsOutsideAFaceByRoundingMatchMuJoCo) {
  for (const int type : {kGeomSphere, kGeomCapsule}) {
    oracle::MjModelPtr mj = load_string(pair_xml(type, kGeomBox, 0));
    ASSERT_TRUE(mj);
    Model m = oracle::model_from_mujoco(mj.get());
    oracle::MjDataPtr md = oracle::make_data(mj.get());
    Data d(m);
    const double size[3] = {0.3, 0.25, 0.0725}, radius = 0.05, half = 0.1;
    for (int k = 0; k < 3; ++k) m.geom_size[3 + k] = mj->geom_size[3 + k] = size[k];
    m.geom_size[0] = mj->geom_size[0] = radius;
    m.geom_size[1] = mj->geom_size[1] = half;
    m.geom_rbound[0] = mj->geom_rbound[0] = radius + half;
    m.geom_rbound[1] = mj->geom_rbound[1] = math::norm3(size);
    for (int ulps = -3; ulps <= 3; ++ulps) {
      // the point below the -z face (ulps < 0) or on or above it; a capsule points down from it
      double z = -size[2];
      for (int u = 0; u < std::abs(ulps); ++u) z = std::nextafter(z, ulps < 0 ? -1.0 : 1.0);
      const double point[3] = {0.1, 0.05, z}, identity[4] = {1, 0, 0, 0};
      const double centre[3] = {point[0], point[1], point[2] - (type == kGeomCapsule ? half : 0)};
      const double zero[3] = {0, 0, 0};
      const double* poses[2] = {centre, zero};
      for (int g = 0; g < 2; ++g) set_pose(md.get(), d, g, poses[g], identity);
      const oracle::ContactComparison cmp =
          collide_both(mj.get(), md.get(), m, d, type, kGeomBox, 0);
      EXPECT_GT(cmp.mujoco_count, 0);
      EXPECT_TRUE(cmp.counts_match()) << kGeomTypeNames[type] << " ulps " << ulps;
      EXPECT_LE(cmp.geometry_error(), 1e-12) << kGeomTypeNames[type] << " ulps " << ulps << "\n"
                                             << cmp.table();
    }
  }
}

}  // namespace
}  // namespace joco
