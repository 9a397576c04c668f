#include "joco/model.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "support/hand_models.h"

namespace joco {
namespace {

TEST(Model, ArraysLiveInOneAlignedAllocation) {
  const Model m = test::pendulum_model();
  const auto arrays = m.arrays();
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (const ArrayField& f : arrays) {
    const auto p = reinterpret_cast<uintptr_t>(f.data);
    EXPECT_EQ(p % 64, 0u) << f.name;
    lo = std::min(lo, p);
    hi = std::max(hi, p + f.bytes());
  }
  EXPECT_LE(hi - lo, m.nbuffer());
}

TEST(Model, FieldNamesAreUnique) {
  const Model m = test::pendulum_model();
  std::set<std::string> names;
  for (const ArrayField& f : m.arrays()) EXPECT_TRUE(names.insert(f.name).second) << f.name;
  for (const StructField& f : m.struct_fields()) EXPECT_TRUE(names.insert(f.name).second) << f.name;
}

TEST(Model, ShapesFollowTheSizes) {
  const Model m = test::pendulum_model();
  for (const ArrayField& f : m.arrays()) {
    if (std::string(f.name) == "key_qpos") {
      EXPECT_EQ(f.rows, m.nkey);
      EXPECT_EQ(f.cols, m.nq);
    }
    if (std::string(f.name) == "jnt_solimp") {
      EXPECT_EQ(f.cols, kNIMP);
    }
  }
}

TEST(Model, CopiesAreDeepAndMovesTransferOwnership) {
  Model a = test::pendulum_model();
  Model b = a;
  b.body_mass[1] = 42;
  EXPECT_EQ(a.body_mass[1], 1);
  EXPECT_NE(a.body_mass, b.body_mass);
  const double* storage = b.body_mass;
  Model c = std::move(b);
  EXPECT_EQ(c.body_mass, storage);
  EXPECT_EQ(c.body_mass[1], 42);
  EXPECT_EQ(b.nbody, 0);
  a = c;
  EXPECT_EQ(a.body_mass[1], 42);
}

TEST(Model, NamesLookUpBothWays) {
  const Model m = test::pendulum_model();
  EXPECT_EQ(m.name(kObjBody, 0), "world");
  EXPECT_EQ(m.name(kObjGeom, 3), "cube");
  EXPECT_EQ(m.name_to_id(kObjActuator, "motor"), 0);
  EXPECT_EQ(m.name_to_id(kObjBody, "nothing"), -1);
  EXPECT_EQ(m.name(kObjBody, 99), "");
}

TEST(Model, DefaultOptionsAreMuJoCos) {
  const Option o = default_option();
  EXPECT_EQ(o.timestep, 0.002);
  EXPECT_EQ(o.gravity[2], -9.81);
  EXPECT_EQ(o.solver, kSolverNewton);
  EXPECT_EQ(o.iterations, 100);
}

}  // namespace
}  // namespace joco

namespace joco {
namespace {

// Copying a model into one of the same sizes reuses its buffer (a batch copies its model once per
// rollout) and copies every byte; other sizes reallocate.
TEST(Model, CopyAssignBetweenEqualSizesReusesTheBuffer) {
  const Model source = test::pendulum_model();
  Model target = source;
  target.body_mass[1] = 42;
  target.opt.timestep = 0.5;
  const double* buffer = target.body_mass;
  target = source;
  EXPECT_EQ(target.body_mass, buffer);
  EXPECT_EQ(target.body_mass[1], source.body_mass[1]);
  EXPECT_EQ(target.opt.timestep, source.opt.timestep);
  for (const ArrayField& f : target.arrays()) EXPECT_NE(f.data, nullptr) << f.name;
  Model empty;
  empty = source;
  EXPECT_EQ(empty.nbody, source.nbody);
  EXPECT_EQ(empty.body_mass[1], source.body_mass[1]);
}

}  // namespace
}  // namespace joco
