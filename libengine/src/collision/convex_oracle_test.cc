// Convex pairs face to face (flat sides on each other, aligned or nearly): MPR's portal then hangs
// on ties between support points, so the last bits of its inputs decide the contacts. joco's pair
// functions against MuJoCo 2.2.2's from the same geom poses, every contact field: multiccd's extra
// contacts (cylinder-box, box-shaped meshes), the height field against cylinders, mesh against
// mesh; and how far one unit in the last place of a pose moves those contacts.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "joco/collision.h"
#include "math/vec.h"
#include "oracle/contacts.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Geoms of testdata/collision/face_to_face.xml.
constexpr int kField = 0, kCylinder = 1, kBox = 2, kSlab = 3, kBrick = 4;
// Half their heights standing upright on their bodies' z axes (the meshes are scaled boxes).
constexpr double kHalfHeight[5] = {0, 0.04, 0.05, 0.05, 0.04};
constexpr double kCylinderRadius = 0.08;

class FaceToFace : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    mj_ = oracle::load(test::testdata("collision/face_to_face.xml"), &error);
    ASSERT_TRUE(mj_) << error;
    m_ = std::make_unique<Model>(oracle::model_from_mujoco(mj_.get()));
    md_ = oracle::make_data(mj_.get());
    d_ = std::make_unique<Data>(*m_);
  }

  void set_multiccd(bool on) {
    if (on) {
      mj_->opt.enableflags |= mjENBL_MULTICCD;
      m_->opt.enableflags |= kEnableMulticcd;
    } else {
      mj_->opt.enableflags &= ~mjENBL_MULTICCD;
      m_->opt.enableflags &= ~kEnableMulticcd;
    }
  }

  // New elevations for the height field in both models: uniform, or (quantized) five levels, as
  // from an image, with flat patches and equal corners.
  void fill_field(bool quantized) {
    std::uniform_real_distribution<double> unit(0, 1);
    for (int i = 0; i < mj_->nhfielddata; ++i) {
      const double h = quantized ? std::floor(5 * unit(rng_)) / 4 : unit(rng_);
      mj_->hfield_data[i] = m_->hfield_data[i] = static_cast<float>(h);
    }
  }

  // A unit quaternion within `tilt` radians (about) of `q`'s frame turned about its z axis.
  void random_turn(double tilt, double* q) {
    std::uniform_real_distribution<double> unit(-1, 1);
    const double turn[4] = {1, tilt * unit(rng_), tilt * unit(rng_), unit(rng_)};
    math::quat_mul(q, q, turn);
    math::quat_normalize(q);
  }

  // Poses geom `top` on geom `base` (both on free bodies), face to face: base at the origin, top
  // above it by the two half heights less `depth`, each turned about the vertical and tilted by up
  // to `tilt`; the pair turned by a random rotation when `rotate`. Geom frames from MuJoCo's
  // kinematics, copied to joco's Data.
  void pose_stack(int base, int top, double tilt, bool rotate, double depth) {
    std::uniform_real_distribution<double> unit(-1, 1);
    std::normal_distribution<double> normal;
    double q[2][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}}, pos[2][3] = {};
    random_turn(tilt, q[0]);
    random_turn(tilt, q[1]);
    pos[1][0] = 0.1 * unit(rng_);
    pos[1][1] = 0.1 * unit(rng_);
    pos[1][2] = kHalfHeight[base] + kHalfHeight[top] - depth;
    if (rotate) {
      double r[4] = {normal(rng_), normal(rng_), normal(rng_), normal(rng_)}, mat[9];
      math::quat_normalize(r);
      math::quat_to_mat(mat, r);
      math::mat_vec3(pos[1], mat, pos[1]);
      for (double* qk : q) math::quat_mul(qk, r, qk);
    }
    mj_resetData(mj_.get(), md_.get());
    const int geoms[2] = {base, top};
    for (int k = 0; k < 2; ++k) {
      double* qpos = md_->qpos + mj_->jnt_qposadr[mj_->body_jntadr[mj_->geom_bodyid[geoms[k]]]];
      math::copy3(qpos, pos[k]);
      for (int i = 0; i < 4; ++i) qpos[3 + i] = q[k][i];
    }
    mj_kinematics(mj_.get(), md_.get());
    copy_frames();
  }

  // Poses the height field (tilted, turned and shifted) and the cylinder over it: upright, on its
  // side or anyhow, its centre 0.02 to 0.16 above the field's base plane.
  void pose_on_field(int orientation, double tilt, double margin_lift) {
    std::uniform_real_distribution<double> unit(-1, 1);
    std::normal_distribution<double> normal;
    mj_resetData(mj_.get(), md_.get());
    double q[4] = {1, 0, 0, 0};
    if (orientation == 1) {  // on its side
      const double side[4] = {std::sqrt(0.5), std::sqrt(0.5), 0, 0};
      math::copy4(q, side);
    } else if (orientation == 2) {
      for (double& x : q) x = normal(rng_);
      math::quat_normalize(q);
    }
    random_turn(tilt, q);
    double field_q[4] = {1, 0, 0, 0}, field_mat[9];
    random_turn(0.3, field_q);
    math::quat_to_mat(field_mat, field_q);
    const double field_pos[3] = {0.2 * unit(rng_), 0.2 * unit(rng_), 0.2 * unit(rng_)};
    const double local[3] = {0.45 * unit(rng_), 0.35 * unit(rng_),
                             0.09 + 0.07 * unit(rng_) + margin_lift};
    double qcyl[4], pos[3];
    math::quat_mul(qcyl, field_q, q);
    math::mat_vec3(pos, field_mat, local);
    math::add3(pos, pos, field_pos);
    double* qpos = md_->qpos + mj_->jnt_qposadr[mj_->body_jntadr[mj_->geom_bodyid[kCylinder]]];
    math::copy3(qpos, pos);
    for (int i = 0; i < 4; ++i) qpos[3 + i] = qcyl[i];
    mj_kinematics(mj_.get(), md_.get());
    math::copy3(md_->geom_xpos + 3 * kField, field_pos);
    for (int i = 0; i < 9; ++i) md_->geom_xmat[9 * kField + i] = field_mat[i];
    copy_frames();
  }

  void copy_frames() {
    std::memcpy(d_->geom_xpos, md_->geom_xpos, sizeof(double) * 3 * mj_->ngeom);
    std::memcpy(d_->geom_xmat, md_->geom_xmat, sizeof(double) * 9 * mj_->ngeom);
  }

  // Moves geom g's position in both engines' Data by one unit in the last place of each coordinate.
  void nudge(int g, int trial) {
    for (int k = 0; k < 3; ++k) {
      double& x = d_->geom_xpos[3 * g + k];
      x = std::nextafter(x, (trial + k) % 2 ? INFINITY : -INFINITY);
      md_->geom_xpos[3 * g + k] = x;
    }
  }

  int mujoco_contacts(int g1, int g2, double margin, mjContact* mc) {
    return mjCOLLISIONFUNC[mj_->geom_type[g1]][mj_->geom_type[g2]](mj_.get(), md_.get(), mc, g1, g2,
                                                                   margin);
  }

  // joco's pair function on (g1, g2) against MuJoCo's contacts mc (mn of them).
  oracle::ContactComparison compare_with(int g1, int g2, double margin, const mjContact* mc,
                                         int mn) {
    Contact c[kMaxConPair];
    const int n =
        collision_function(mj_->geom_type[g1], mj_->geom_type[g2])(*m_, *d_, c, g1, g2, margin);
    return oracle::compare_contacts(c, n, mc, mn);
  }

  // Both engines' pair function on (g1, g2) at the poses their Data hold.
  oracle::ContactComparison collide(int g1, int g2, double margin) {
    mjContact mc[mjMAXCONPAIR] = {};
    const int mn = mujoco_contacts(g1, g2, margin, mc);
    return compare_with(g1, g2, margin, mc, mn);
  }

  std::mt19937 rng_{13};
  oracle::MjModelPtr mj_;
  oracle::MjDataPtr md_;
  std::unique_ptr<Model> m_;
  std::unique_ptr<Data> d_;
};

// What the trials of one case gave.
struct Tally {
  int trials = 0, with_contacts = 0, with_extra = 0, count_mismatches = 0, beyond = 0;
  double worst = 0, worst_normal = 0;
  std::string worst_table;

  // Counts a comparison; `beyond` the trials whose contacts differ by more than `tolerance`.
  void add(const oracle::ContactComparison& cmp, double tolerance) {
    ++trials;
    with_contacts += cmp.mujoco_count > 0;
    with_extra += cmp.mujoco_count > 1;
    if (!cmp.counts_match()) {
      ++count_mismatches;
      return;
    }
    beyond += cmp.geometry_error() > tolerance;
    worst_normal = std::fmax(worst_normal, cmp.field("frame").error);
    if (cmp.geometry_error() > worst) {
      worst = cmp.geometry_error();
      worst_table = cmp.table();
    }
  }
  void print(const char* what) const {
    std::printf(
        "%-34s %5d trials, %5d with contacts (%5d with more than one), %d count mismatches, %d "
        "beyond the tolerance, worst %.3e (normals %.3e)\n",
        what, trials, with_contacts, with_extra, count_mismatches, beyond, worst, worst_normal);
  }
};

constexpr double kExact = 1e-9;

// multiccd's extra contacts come from both geoms turned by -+1e-3 radians about the first contact's
// tangents through its point. The turned centres must be rounded as MuJoCo rounds them (it moves a
// centre by R d - d, d its offset from the point): one unit in the last place of a turned centre
// flips ties between support points of face-to-face pairs, and the extra contacts come out on the
// other side or with another normal.
TEST_F(FaceToFace, MulticcdContactsMatchMuJoCo) {
  set_multiccd(true);
  const int pairs[][2] = {
      {kCylinder, kBox}, {kCylinder, kSlab}, {kBox, kSlab}, {kBox, kBrick}, {kSlab, kBrick}};
  const double tilts[] = {0, 1e-3, 1e-2};
  for (const auto& pair : pairs) {
    Tally tally;
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 1200; ++trial) {
      pose_stack(pair[0], pair[1], tilts[trial % 3], trial % 4 >= 2, 0.001 + 0.005 * unit(rng_));
      tally.add(collide(pair[0], pair[1], trial % 5 == 0 ? 0.002 : 0), kExact);
    }
    const std::string what = std::string(mj_id2name(mj_.get(), mjOBJ_GEOM, pair[0])) + "-" +
                             mj_id2name(mj_.get(), mjOBJ_GEOM, pair[1]) + " multiccd";
    tally.print(what.c_str());
    EXPECT_GT(tally.with_extra, tally.trials / 4) << what;
    EXPECT_EQ(tally.count_mismatches, 0) << what;
    EXPECT_EQ(tally.beyond, 0) << what << "\n" << tally.worst_table;
  }
}

// The height field against cylinders standing on a cap, lying on the side or anyhow, over fields
// with continuous and with quantized elevations (flat patches, equal corners): the prisms, the
// cylinder's support and its side normal, MPR's centres and tolerance are MuJoCo's, so the contacts
// are the same from the same poses.
TEST_F(FaceToFace, HeightFieldCylinderMatchesMuJoCo) {
  Tally tally;
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 1800; ++trial) {
    if (trial % 60 == 0) fill_field(trial % 120 == 0);
    const double margin = trial % 3 == 0 ? 0.01 : 0;
    pose_on_field(trial % 3, trial % 2 ? 0.01 * unit(rng_) : 0, margin);
    tally.add(collide(kField, kCylinder, margin), kExact);
  }
  tally.print("height field-cylinder");
  EXPECT_GT(tally.with_contacts, tally.trials / 2);
  EXPECT_EQ(tally.count_mismatches, 0);
  EXPECT_EQ(tally.beyond, 0) << tally.worst_table;
}

// Box-shaped meshes face to face without multiccd: MPR's contact is MuJoCo's from the same poses.
TEST_F(FaceToFace, MeshMeshMatchesMuJoCo) {
  set_multiccd(false);
  const int pairs[][2] = {{kSlab, kBrick}, {kBox, kSlab}, {kBox, kBrick}};
  const double tilts[] = {0, 1e-3, 1e-2};
  for (const auto& pair : pairs) {
    Tally tally;
    std::uniform_real_distribution<double> unit(0, 1);
    for (int trial = 0; trial < 1200; ++trial) {
      pose_stack(pair[0], pair[1], tilts[trial % 3], trial % 4 >= 2, 0.001 + 0.005 * unit(rng_));
      tally.add(collide(pair[0], pair[1], 0), kExact);
    }
    const std::string what = std::string(mj_id2name(mj_.get(), mjOBJ_GEOM, pair[0])) + "-" +
                             mj_id2name(mj_.get(), mjOBJ_GEOM, pair[1]);
    tally.print(what.c_str());
    EXPECT_GT(tally.with_contacts, tally.trials / 2) << what;
    EXPECT_EQ(tally.count_mismatches, 0) << what;
    EXPECT_EQ(tally.beyond, 0) << what << "\n" << tally.worst_table;
  }
}

// Why contacts of these pairs can still differ from MuJoCo's in a simulation (documented in
// joco-simulate(1)): a pose one unit in the last place away (as kinematics rounded another way
// gives) moves MPR's normal of a face-to-face pair, or of a cylinder's cap on height field prisms,
// by up to order 1 in a fraction of states. MuJoCo's contacts move the same way: joco's at the
// nudged pose are MuJoCo's at the nudged pose, and differ from MuJoCo's at the original one.
TEST_F(FaceToFace, OneUnitInTheLastPlaceMovesFaceToFaceNormals) {
  set_multiccd(false);
  Tally meshes, field, same;
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 4200; ++trial) {
    const bool on_field = trial >= 3000;
    const int g1 = on_field ? kField : kSlab, g2 = on_field ? kCylinder : kBrick;
    if (on_field) {
      if (trial % 60 == 0) fill_field(trial % 120 == 0);
      pose_on_field(trial % 2, 0.01 * unit(rng_), 0);
    } else {
      pose_stack(kSlab, kBrick, trial % 2 ? 1e-3 : 1e-2, true, 0.001 + 0.005 * unit(rng_));
    }
    mjContact before[mjMAXCONPAIR] = {};
    const int nbefore = mujoco_contacts(g1, g2, 0, before);
    nudge(g2, trial);
    (on_field ? field : meshes).add(compare_with(g1, g2, 0, before, nbefore), 1e-3);
    same.add(collide(g1, g2, 0), kExact);
  }
  meshes.print("slab-brick, nudged vs not");
  field.print("field-cylinder, nudged vs not");
  same.print("nudged, joco vs MuJoCo");
  // rare but present: the documented cause of the differences
  EXPECT_GT(meshes.beyond, 0);
  EXPECT_LT(meshes.beyond, meshes.trials / 50);
  EXPECT_GT(meshes.worst_normal, 0.1);
  EXPECT_GT(field.beyond, 0);
  EXPECT_GT(field.worst_normal, 0.1);
  EXPECT_GT(same.with_contacts, same.trials / 2);
  EXPECT_EQ(same.count_mismatches, 0);
  EXPECT_EQ(same.beyond, 0) << same.worst_table;
}

}  // namespace
}  // namespace joco
