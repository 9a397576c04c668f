// The field table against MuJoCo 2.2.2's: every mjModel array exists in joco's Model with the same
// element type and shape, for models of several kinds of sizes.
#include <gtest/gtest.h>

#include "joco/jmb.h"
#include "joco/model.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

ModelSizes sizes_of(const mjModel* mj) {
  ModelSizes s;
#define JOCO_COPY_SIZE(name) s.name = mj->name;
  JOCO_MODEL_SIZES(JOCO_COPY_SIZE)
#undef JOCO_COPY_SIZE
  return s;
}

class FieldTable : public ::testing::TestWithParam<const char*> {};

TEST_P(FieldTable, MatchesMuJoCosArrays) {
  std::string error;
  auto mj = oracle::load(test::testdata(GetParam()), &error);
  ASSERT_TRUE(mj) << error;
  const Model m(sizes_of(mj.get()));
  // Comparing a zeroed joco model with MuJoCo's reports shape mismatches and missing fields.
  const oracle::Comparison c = oracle::compare_model(m, mj.get(), oracle::Tolerance{});
  for (const oracle::FieldResult& f : c.fields) {
    EXPECT_NE(f.status, oracle::FieldResult::kMissing) << f.name << " is not in joco's field table";
    EXPECT_NE(f.status, oracle::FieldResult::kShape) << f.name << ": " << f.detail;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, FieldTable,
                         ::testing::Values("mujoco/model/humanoid/humanoid.xml",
                                           "mujoco/model/tendon_arm/arm26.xml"));

}  // namespace
}  // namespace joco

namespace joco {
namespace {

// A MuJoCo-compiled model copied into joco's Model passes joco's validation and round-trips .jmb.
TEST(ModelFromMuJoCo, ValidatesAndRoundTrips) {
  for (const char* path :
       {"mujoco/model/humanoid/humanoid.xml", "mujoco/model/tendon_arm/arm26.xml",
        "mujoco/model/slider_crank/slider_crank.xml", "real/franka_sim/franka_panda.xml",
        "real/shadow_hand/scene_right.xml", "mujoco/model/composite/cloth.xml"}) {
    std::string error;
    auto mj = oracle::load(test::testdata(path), &error);
    ASSERT_TRUE(mj) << error;
    const Model m = oracle::model_from_mujoco(mj.get());
    const std::vector<uint8_t> bytes = write_jmb(m);
    const Model back = read_jmb(bytes, path);
    EXPECT_TRUE(oracle::compare_model(back, mj.get(), oracle::Tolerance{}).all_match()) << path;
  }
}

}  // namespace
}  // namespace joco
