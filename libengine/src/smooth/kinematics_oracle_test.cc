// Forward kinematics against MuJoCo 2.2.2's mj_kinematics, bit for bit: every output (body, joint,
// geom and site frames, and the quaternions MuJoCo normalises in place in qpos and mocap_quat) must
// have MuJoCo's exact bits, on random states (quaternions of other than unit length, and below
// kMinVal, in qpos and mocap_quat), on models whose stored quaternions are scaled away from unit
// length, and on every model under testdata/ that MuJoCo loads. joco follows MuJoCo's rounding
// order (one normalisation per body, after its last joint; vectors rotated by quaternions; the
// position carried around a joint's anchor), so no tolerance is needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "joco/collision.h"
#include "joco/smooth.h"
#include "oracle/contacts.h"
#include "oracle/random_state.h"
#include "support/test_models.h"

namespace joco {
namespace {

// Counts of elements compared and of those whose bits differ, with the first difference.
struct BitResult {
  int64_t compared = 0;
  int64_t differing = 0;
  std::string first;
};

void compare_bits(const char* name, const double* joco, const double* mujoco, int64_t n,
                  BitResult& r) {
  oracle::count_compared(n);
  for (int64_t i = 0; i < n; ++i) {
    ++r.compared;
    if (std::memcmp(joco + i, mujoco + i, sizeof(double)) == 0) continue;
    if (r.differing++ == 0) {
      char line[200];
      std::snprintf(line, sizeof line, "%s[%" PRId64 "]: joco %a, MuJoCo %a", name, i, joco[i],
                    mujoco[i]);
      r.first = line;
    }
  }
}

// Every output of kinematics, and the quaternions it normalises in place.
BitResult compare_kinematics(const Data& d, const mjModel* mj, const mjData* md) {
  BitResult r;
  const int64_t nbody = mj->nbody, njnt = mj->njnt, ngeom = mj->ngeom, nsite = mj->nsite;
  compare_bits("xpos", d.xpos, md->xpos, 3 * nbody, r);
  compare_bits("xquat", d.xquat, md->xquat, 4 * nbody, r);
  compare_bits("xmat", d.xmat, md->xmat, 9 * nbody, r);
  compare_bits("xipos", d.xipos, md->xipos, 3 * nbody, r);
  compare_bits("ximat", d.ximat, md->ximat, 9 * nbody, r);
  compare_bits("xanchor", d.xanchor, md->xanchor, 3 * njnt, r);
  compare_bits("xaxis", d.xaxis, md->xaxis, 3 * njnt, r);
  compare_bits("geom_xpos", d.geom_xpos, md->geom_xpos, 3 * ngeom, r);
  compare_bits("geom_xmat", d.geom_xmat, md->geom_xmat, 9 * ngeom, r);
  compare_bits("site_xpos", d.site_xpos, md->site_xpos, 3 * nsite, r);
  compare_bits("site_xmat", d.site_xmat, md->site_xmat, 9 * nsite, r);
  compare_bits("qpos", d.qpos, md->qpos, mj->nq, r);
  compare_bits("mocap_quat", d.mocap_quat, md->mocap_quat, 4 * static_cast<int64_t>(mj->nmocap), r);
  return r;
}

// Quaternions of ball and free joints and of mocap bodies scaled below kMinVal (MuJoCo makes them
// the identity).
void shrink_quaternions(const mjModel* mj, mjData* md) {
  for (int j = 0; j < mj->njnt; ++j) {
    const int type = mj->jnt_type[j];
    if (type != mjJNT_BALL && type != mjJNT_FREE) continue;
    double* q = md->qpos + mj->jnt_qposadr[j] + (type == mjJNT_FREE ? 3 : 0);
    for (int k = 0; k < 4; ++k) q[k] *= 1e-16;
  }
  for (int i = 0; i < 4 * mj->nmocap; ++i) md->mocap_quat[i] *= 1e-16;
}

// Runs both engines on `states` random states and expects identical bits; returns the number of
// elements compared.
int64_t check_states(oracle::OracleCase& c, int states, uint64_t first_seed) {
  BitResult total;
  for (uint64_t seed = first_seed; seed < first_seed + states; ++seed) {
    oracle::RandomStateOptions options;
    options.unnormalized_quaternions = seed % 2 == 1;
    options.forces = false;
    oracle::randomize_state(c.mj.get(), c.md.get(), seed, options);
    if (seed % 7 == 3) shrink_quaternions(c.mj.get(), c.md.get());
    oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
    mj_kinematics(c.mj.get(), c.md.get());
    kinematics(c.m, c.d);
    const BitResult r = compare_kinematics(c.d, c.mj.get(), c.md.get());
    EXPECT_EQ(r.differing, 0) << c.path << " seed " << seed << ": " << r.differing << " of "
                              << r.compared << " elements differ, first " << r.first;
    total.compared += r.compared;
    total.differing += r.differing;
  }
  std::printf("%-60s %d states, %" PRId64 " elements, %" PRId64 " differing\n", c.path.c_str(),
              states, total.compared, total.differing);
  return total.compared;
}

class KinematicsBits : public ::testing::TestWithParam<std::string> {};

TEST_P(KinematicsBits, RandomStates) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(GetParam(), c));
  EXPECT_GT(check_states(c, 60, 0), 0);
}

// The model's own quaternions (body, inertial, geom and site frames) scaled away from unit length
// after compiling, and every geom, site and inertial frame made distinct from its body's frame.
TEST_P(KinematicsBits, UnnormalizedModelQuaternions) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(GetParam(), c));
  mjModel* mj = c.mj.get();
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> scale(0.7, 1.3);
  auto scale_all = [&](mjtNum* q, int n) {
    for (int i = 0; i < n; ++i) {
      const double s = scale(rng);
      for (int k = 0; k < 4; ++k) q[4 * i + k] *= s;
    }
  };
  scale_all(mj->body_quat, mj->nbody);
  scale_all(mj->body_iquat, mj->nbody);
  scale_all(mj->geom_quat, mj->ngeom);
  scale_all(mj->site_quat, mj->nsite);
  std::fill(mj->body_sameframe, mj->body_sameframe + mj->nbody, 0);
  std::fill(mj->geom_sameframe, mj->geom_sameframe + mj->ngeom, 0);
  std::fill(mj->site_sameframe, mj->site_sameframe + mj->nsite, 0);
  c.m = oracle::model_from_mujoco(mj);
  c.m.nstack = std::min(c.m.nstack, 1 << 22);
  c.d = Data(c.m);
  EXPECT_GT(check_states(c, 20, 100), 0);
}

// The stage's own models and the small quick ones; every other model in the long sweep.
JOCO_INSTANTIATE_STAGE_SWEEP(KinematicsBits, "smooth/");

// Every MJCF under testdata/ that MuJoCo loads (some are fragments, or invalid on purpose).
TEST(KinematicsBitsAll, EveryTestdataModel) {
  std::vector<std::string> paths = test::testdata_files();
  std::erase_if(paths, [](const std::string& p) { return !p.ends_with(".xml"); });
  int loaded = 0;
  int64_t compared = 0;
  for (const std::string& path : paths) {
    std::string error;
    oracle::MjModelPtr mj = oracle::load(test::testdata(path), &error);
    if (!mj) continue;
    oracle::OracleCase c;
    c.path = path;
    c.mj = std::move(mj);
    c.md = oracle::make_data(c.mj.get());
    c.m = oracle::model_from_mujoco(c.mj.get());
    c.m.nstack = std::min(c.m.nstack, 1 << 22);
    c.d = Data(c.m);
    compared += check_states(c, 4, 1000);
    ++loaded;
  }
  std::printf("%d of %zu testdata models loaded by MuJoCo, %" PRId64 " elements compared\n", loaded,
              paths.size(), compared);
  EXPECT_GT(loaded, 100);
  EXPECT_GT(compared, 0);
}

// Spheres resting exactly on a plane (in exact arithmetic) at the ends of tilted chains: whether
// each touches is decided by the last bit of its height, so joco's contact list after its own
// kinematics is MuJoCo's only when the poses have MuJoCo's bits.
TEST(KinematicsBitsAll, SpheresRestingOnAPlane) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case("smooth/spheres_on_plane.xml", c));
  mj_resetDataKeyframe(c.mj.get(), c.md.get(), 0);
  oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
  mj_kinematics(c.mj.get(), c.md.get());
  mj_collision(c.mj.get(), c.md.get());
  kinematics(c.m, c.d);
  collision(c.m, c.d);
  // some spheres touch and some do not (else the model would not test the last bits)
  ASSERT_GT(c.md->ncon, 0);
  ASSERT_LT(c.md->ncon, c.mj->ngeom - 1);
  const oracle::ContactComparison cc =
      oracle::compare_contacts(c.d.contact, c.d.ncon, c.md->contact, c.md->ncon);
  ASSERT_TRUE(cc.counts_match()) << cc.table();
  EXPECT_EQ(cc.geometry_error(), 0) << cc.table();
  EXPECT_TRUE(cc.integers_match()) << cc.table();
}

}  // namespace
}  // namespace joco
