// Boxes stacked exactly aligned (testdata/collision/box_stacks.xml, and random exactly aligned
// poses of two of its boxes) against MuJoCo 2.2.2's contact list: the same contacts in the same
// order, the distances and normals bit for bit, the points to a few ulps. See box_box.cc for the
// rules.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "joco/collision.h"
#include "joco/forward.h"
#include "oracle/contacts.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

constexpr const char* kModel = "collision/box_stacks.xml";
// contact points: box-box's own rounding of the in-plane coordinates (a few ulps)
constexpr double kPoint = 1e-13;

// (The stacks of box_stacks.xml as a whole are compared in resting_oracle_test.cc.)

// The 24 rotations taking the axes onto the axes (exact matrices), row-major.
std::vector<std::vector<double>> axis_rotations() {
  std::vector<std::vector<double>> out;
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& p : perms) {
    for (int s = 0; s < 8; ++s) {
      std::vector<double> r(9, 0.0);
      for (int row = 0; row < 3; ++row) r[3 * row + p[row]] = (s >> row & 1) ? -1 : 1;
      const double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
                         r[2] * (r[3] * r[7] - r[4] * r[6]);
      if (det > 0) out.push_back(r);
    }
  }
  return out;
}

// How the random states agree with MuJoCo, per kind.
struct Agreement {
  int states = 0, with_contacts = 0, same_count = 0, same = 0;
};

// Random exactly aligned poses of the two probe boxes: sizes from a few binary and decimal values,
// each box turned by one of the 24 axis rotations, faces touching along a random axis (or
// penetrating by 0.01, or apart within a margin of 0.1), the other offsets centred, equal, putting
// edges on edges, or random; either box geom 1.
TEST(BoxStacks, RandomAlignedStatesMatchMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(kModel, c));
  mj_forward(c.mj.get(), c.md.get());
  const int g1 = mj_name2id(c.mj.get(), mjOBJ_BODY, "probe1");
  const int g2 = mj_name2id(c.mj.get(), mjOBJ_BODY, "probe2");
  ASSERT_GE(g1, 0);
  ASSERT_GE(g2, 0);
  const int geom[2] = {c.mj->body_geomadr[g1], c.mj->body_geomadr[g2]};
  const std::vector<std::vector<double>> rotations = axis_rotations();
  const double sizes[] = {0.05, 0.1, 0.2, 0.25, 0.15, 0.3, 0.5, 0.125};
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> unit(-1, 1);
  const char* kinds[3] = {"touching", "penetrating", "apart within the margin"};
  Agreement agree[3];
  std::string first_difference;
  for (int trial = 0; trial < 3000; ++trial) {
    const int kind = trial % 3;
    double size[2][3], mat[2][9], pos[2][3] = {{40, 0, 5}, {40, 0, 5}}, ext[2][3];
    for (int b = 0; b < 2; ++b) {
      for (int k = 0; k < 3; ++k) size[b][k] = sizes[rng() % 8];
      const std::vector<double>& r = rotations[rng() % rotations.size()];
      for (int k = 0; k < 9; ++k) mat[b][k] = r[k];
      for (int i = 0; i < 3; ++i) {
        ext[b][i] = 0;
        for (int j = 0; j < 3; ++j) ext[b][i] += std::abs(mat[b][3 * i + j]) * size[b][j];
      }
    }
    const int axis = rng() % 3;
    const double gap = kind == 0 ? 0 : (kind == 1 ? -0.01 : 0.05 * (1 + unit(rng)));
    for (int i = 0; i < 3; ++i) {
      double offset;
      if (i == axis) {
        offset = (rng() % 2 ? 1 : -1) * (ext[0][i] + ext[1][i] + gap);
      } else {
        const double options[] = {0, ext[0][i] - ext[1][i], ext[1][i] - ext[0][i],
                                  ext[0][i] + ext[1][i] - 0.02, 0.05 * unit(rng)};
        offset = options[rng() % 5];
      }
      pos[1][i] += offset;
    }
    const double margin = kind == 2 ? 0.1 : 0;
    for (int b = 0; b < 2; ++b) {
      const int g = geom[b];
      for (int k = 0; k < 3; ++k) {
        c.mj->geom_size[3 * g + k] = c.m.geom_size[3 * g + k] = size[b][k];
        c.md->geom_xpos[3 * g + k] = pos[b][k];
      }
      for (int k = 0; k < 9; ++k) c.md->geom_xmat[9 * g + k] = mat[b][k];
      c.mj->geom_rbound[g] = c.m.geom_rbound[g] = 2;
      c.mj->geom_margin[g] = c.m.geom_margin[g] = margin;
    }
    oracle::collide_from_mujoco_frames(c);
    // the probes' contacts (the stacks of the model are compared in resting_oracle_test.cc)
    std::vector<Contact> ours;
    std::vector<mjContact> theirs;
    for (int i = 0; i < c.d.ncon; ++i) {
      if (c.d.contact[i].geom1 == geom[0] || c.d.contact[i].geom2 == geom[0]) {
        ours.push_back(c.d.contact[i]);
      }
    }
    for (int i = 0; i < c.md->ncon; ++i) {
      if (c.md->contact[i].geom1 == geom[0] || c.md->contact[i].geom2 == geom[0]) {
        theirs.push_back(c.md->contact[i]);
      }
    }
    const oracle::ContactComparison cc = oracle::compare_contacts(
        ours.data(), static_cast<int>(ours.size()), theirs.data(), static_cast<int>(theirs.size()));
    Agreement& a = agree[kind];
    ++a.states;
    a.with_contacts += !theirs.empty();
    a.same_count += cc.counts_match();
    const bool same = cc.counts_match() && cc.field("dist").error == 0 &&
                      cc.field("frame").error == 0 && cc.field("pos").error <= kPoint &&
                      cc.integers_match();
    a.same += same;
    if (!same && first_difference.empty()) {
      first_difference =
          std::string(kinds[kind]) + " state " + std::to_string(trial) + "\n" + cc.table();
    }
  }
  for (int k = 0; k < 3; ++k) {
    std::printf("%-24s %4d states, %4d with contacts, %4d the same number, %4d the same\n",
                kinds[k], agree[k].states, agree[k].with_contacts, agree[k].same_count,
                agree[k].same);
    EXPECT_GT(agree[k].with_contacts, agree[k].states / 2);
  }
  // Measured (seed 13): the same contacts in 899, 978 and 137 of the 1000 states of each kind;
  // before the rules in box_box.cc, 451, 139 and 0. The rest differ by MuJoCo's rounding of
  // points on the boxes' boundaries and, apart, by which of two tied edge axes it takes (see
  // man/joco-simulate.1).
  EXPECT_GE(agree[0].same, agree[0].states * 85 / 100) << first_difference;
  EXPECT_GE(agree[1].same, agree[1].states * 95 / 100) << first_difference;
  EXPECT_GE(agree[2].same, agree[2].states * 12 / 100) << first_difference;
}

}  // namespace
}  // namespace joco
