// Geoms resting exactly on each other (testdata/collision/resting.xml): their distance is exactly 0
// with margin 0, or exactly equal to the margin. MuJoCo 2.2.2's dedicated pair functions keep such
// contacts (distance <= margin; box-box dropped them) and its convex (MPR) pairs find none; the
// constraint stage excludes them (distance not below margin - gap: no rows). Boxes on a box floor
// with decimal sizes are apart or touching by the last bit of their faces' separation.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <string>

#include "joco/collision.h"
#include "joco/forward.h"
#include "oracle/contacts.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

// contact points: exact, but for box-box's own rounding of the in-plane coordinates (a few ulps)
constexpr double kPoint = 1e-13;

class RestingContacts : public ::testing::TestWithParam<const char*> {};

// The contact list from the same geom frames: the same contacts in the same order, distances and
// normals bit for bit.
TEST_P(RestingContacts, ContactListMatchesMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(GetParam(), c));
  mj_forward(c.mj.get(), c.md.get());
  oracle::collide_from_mujoco_frames(c);
  const oracle::ContactComparison cc =
      oracle::compare_contacts(c.d.contact, c.d.ncon, c.md->contact, c.md->ncon);
  ASSERT_GT(c.md->ncon, 0);
  ASSERT_TRUE(cc.counts_match()) << cc.table();
  EXPECT_EQ(cc.field("dist").error, 0) << cc.table();
  EXPECT_EQ(cc.field("frame").error, 0) << cc.table();
  EXPECT_LE(cc.field("pos").error, kPoint) << cc.table();
  EXPECT_EQ(cc.parameter_error(), 0) << cc.table();
  EXPECT_TRUE(cc.integers_match()) << cc.table();
}

// The constraint stage: contacts at distance 0 with margin 0 (and exactly at the margin) are
// listed but excluded, those a rounding below it included, as in MuJoCo; then the rows and forces.
TEST_P(RestingContacts, ForwardMatchesMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(GetParam(), c));
  oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
  mj_forward(c.mj.get(), c.md.get());
  forward(c.m, c.d);
  ASSERT_GT(c.md->ncon, 0);
  ASSERT_GT(c.md->nefc, 0);
  // the contact list after the constraint stage (exclude, efc_address) and its rows
  const oracle::ContactComparison cc =
      oracle::compare_contacts(c.d.contact, c.d.ncon, c.md->contact, c.md->ncon);
  ASSERT_TRUE(cc.counts_match()) << cc.table();
  EXPECT_EQ(cc.field("dist").error, 0) << cc.table();
  EXPECT_LE(cc.geometry_error(), kPoint) << cc.table();
  EXPECT_TRUE(cc.integers_match()) << cc.table();
  EXPECT_EQ(c.d.nefc, c.md->nefc);
  const oracle::Comparison cmp = oracle::compare_data(
      c.d, c.md.get(), c.mj.get(), {"efc_pos", "efc_force", "qfrc_constraint", "qacc"},
      oracle::Tolerance{});
  oracle::expect_match(cmp, GetParam());
}

// resting.xml: every pair type resting at distance 0 or at the margin, boxes on a box floor;
// box_stacks.xml: boxes stacked exactly aligned (box_stack_oracle_test.cc has random such poses).
INSTANTIATE_TEST_SUITE_P(Models, RestingContacts,
                         ::testing::Values("collision/resting.xml", "collision/box_stacks.xml"),
                         [](const ::testing::TestParamInfo<const char*>& model) {
                           return std::string(model.index == 0 ? "resting" : "box_stacks");
                         });

}  // namespace
}  // namespace joco
