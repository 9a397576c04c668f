// Geoms resting exactly on each other (testdata/collision/resting.xml): their distance is exactly 0
// with margin 0, or exactly equal to the margin. MuJoCo 2.2.2's dedicated pair functions keep such
// contacts (distance <= margin; box-box dropped them) and its convex (MPR) pairs find none; the
// constraint stage excludes them (distance not below margin - gap: no rows). Boxes on a box floor
// with decimal sizes are apart or touching by the last bit of their faces' separation.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cstring>
#include <string>

#include "joco/collision.h"
#include "joco/forward.h"
#include "oracle/contacts.h"
#include "oracle/random_state.h"

namespace joco {
namespace {

constexpr const char* kModel = "collision/resting.xml";
// contact points and frames: exact, but for box-box's own rounding (a few ulps of the positions)
constexpr double kGeometry = 1e-13;

TEST(RestingContacts, ContactListMatchesMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(kModel, c));
  mj_forward(c.mj.get(), c.md.get());
  mj_collision(c.mj.get(), c.md.get());  // fresh contacts: mj_forward's constraint stage edits them
  // the geom frames from MuJoCo, so only collision detection is compared
  std::memcpy(c.d.geom_xpos, c.md->geom_xpos, sizeof(double) * 3 * c.mj->ngeom);
  std::memcpy(c.d.geom_xmat, c.md->geom_xmat, sizeof(double) * 9 * c.mj->ngeom);
  collision(c.m, c.d);
  const oracle::ContactComparison cc =
      oracle::compare_contacts(c.d.contact, c.d.ncon, c.md->contact, c.md->ncon);
  ASSERT_GT(c.md->ncon, 0);
  ASSERT_TRUE(cc.counts_match()) << cc.table();
  EXPECT_EQ(cc.field("dist").error, 0) << cc.table();
  EXPECT_LE(cc.geometry_error(), kGeometry) << cc.table();
  EXPECT_EQ(cc.parameter_error(), 0) << cc.table();
  EXPECT_TRUE(cc.integers_match()) << cc.table();
}

TEST(RestingContacts, ForwardMatchesMuJoCo) {
  oracle::OracleCase c;
  ASSERT_TRUE(oracle::load_case(kModel, c));
  oracle::copy_state(c.mj.get(), c.md.get(), c.m, c.d);
  mj_forward(c.mj.get(), c.md.get());
  forward(c.m, c.d);
  ASSERT_GT(c.md->ncon, 0);
  // the contact list after the constraint stage (exclude, efc_address) and its rows
  const oracle::ContactComparison cc =
      oracle::compare_contacts(c.d.contact, c.d.ncon, c.md->contact, c.md->ncon);
  ASSERT_TRUE(cc.counts_match()) << cc.table();
  EXPECT_LE(cc.geometry_error(), kGeometry) << cc.table();
  EXPECT_TRUE(cc.integers_match()) << cc.table();
  EXPECT_EQ(c.d.nefc, c.md->nefc);
  const oracle::Comparison cmp = oracle::compare_data(
      c.d, c.md.get(), c.mj.get(), {"efc_pos", "efc_force", "qfrc_constraint", "qacc"},
      oracle::Tolerance{});
  oracle::expect_match(cmp, kModel);
}

}  // namespace
}  // namespace joco
