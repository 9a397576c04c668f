// Every tool on every model in testdata (a long sweep): compile, a short rollout with control noise
// and contacts, --evaluate of it (which must reproduce the rollout's accelerations bit for bit),
// inverse dynamics, the forward/inverse check, both kinds of derivatives at its last row, and a
// short profile. Each must exit 0 (fwdinv-check too: every model's solver holds its thresholds)
// and write well-formed output. Which files load at all is compared with MuJoCo 2.2.2 by the
// LoadVerdict oracle test.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/model_input.h"
#include "common/trajectory.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

constexpr int kSteps = 20;
constexpr int64_t kMaxContinuousDofs = 1000;

using joco::test::read_text;

class EveryModelEveryTool : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryModelEveryTool, RunsAndWritesWellFormedOutput) {
  const std::string source = std::string(JOCO_TESTDATA_DIR) + "/" + GetParam();
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string model = dir + "/m.jmb", run = dir + "/run.h5";
  const size_t rows = kSteps + 1;

  auto r = test::run("joco-compile " + source + " -o " + model);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-simulate " + model + " --steps " + std::to_string(kSteps) +
                " --ctrl-noise 0.1 --contacts -q -o " + run);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory t = TrajectoryInput::open(run).single();
  ASSERT_EQ(t.rows(), rows);
  (void)t.read_contacts();  // checked as it is read

  r = test::run("joco-simulate " + model + " --evaluate " + run + " --threads 2 -q -o " + dir +
                "/eval.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory e = TrajectoryInput::open(dir + "/eval.h5").single();
  ASSERT_EQ(e.rows(), rows);
  if (t.has(Field::kQacc)) {
    const Matrix a = t.read(Field::kQacc), b = e.read(Field::kQacc);
    ASSERT_EQ(a.data.size(), b.data.size());
    for (size_t i = 0; i < a.data.size(); ++i) {
      ASSERT_EQ(a.data[i], b.data[i]) << "qacc row " << i / a.cols << ", column " << i % a.cols;
    }
  }

  r = test::run("joco-inverse " + model + " " + run + " -q -o " + dir + "/inv.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(TrajectoryInput::open(dir + "/inv.h5").single().rows(), rows);

  r = test::run("joco-fwdinv-check " + model + " --states " + run + " -q --report json -o " + dir +
                "/check.json");
  ASSERT_EQ(r.exit_code, 0) << r.err << read_text(dir + "/check.json");
  EXPECT_NE(read_text(dir + "/check.json").find("\"rows\": " + std::to_string(rows)),
            std::string::npos);

  const std::string last = std::to_string(kSteps);
  r = test::run("joco-derivatives " + model + " --states " + run + " --rows " + last + " -q -o " +
                dir + "/ab.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trajectory ab = TrajectoryInput::open(dir + "/ab.h5").single();
  std::vector<size_t> dims;
  (void)ab.read_extra("A", &dims);
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0], 1u);
  EXPECT_EQ(dims[1], dims[2]);
  // Continuous derivatives cost about nv^3 (measured: 1.6 s at nv = 627, humanoid100; 580 s at
  // nv = 3000, the particle composite), so the sweep leaves out the one model above 1000 dofs.
  if (t.int_attribute("nv").value_or(0) <= kMaxContinuousDofs) {
    r = test::run("joco-derivatives " + model + " --continuous --states " + run + " --rows " +
                  last + " -q -o " + dir + "/cont.h5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    (void)TrajectoryInput::open(dir + "/cont.h5").single().read_extra("dqacc_dqpos", &dims);
    EXPECT_EQ(dims[0], 1u);
  }

  r = test::run("joco-profile " + model + " --steps " + last + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"steps\": " + last), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(LongSweep, EveryModelEveryTool,
                         ::testing::ValuesIn(test::all_testdata_models()), test::param_name);

// The shared list of models (support/test_models.h, which cannot link the tools) holds exactly the
// files the tools read as MJCF or URDF models.
TEST(TestModels, AreTheFilesToolsReadAsModels) {
  const std::vector<std::string> models = test::all_testdata_models();
  size_t tool_models = 0;
  for (const std::string& file : joco::test::testdata_files()) {
    const std::string text = joco::test::read_text(joco::test::testdata(file));
    const ModelFormat format = detect_model_format(text.substr(0, 4096));
    const bool model = format == ModelFormat::kMjcf || format == ModelFormat::kUrdf;
    tool_models += model;
    EXPECT_EQ(model, std::find(models.begin(), models.end(), file) != models.end()) << file;
  }
  EXPECT_EQ(tool_models, models.size());
  EXPECT_GT(models.size(), 100u);
}

// The table of model features (written at build time) has one row per model of the shared list,
// and a sweep's default and long shares are the models with the feature, each once.
TEST(TestModels, FeatureTableAndSweepsCoverTheList) {
  const std::vector<std::string> models = joco::test::all_testdata_models();
  std::vector<std::string> in_table;
  for (const joco::test::ModelFeatures& f : joco::test::model_features())
    in_table.push_back(f.path);
  EXPECT_EQ(in_table, models);
  const auto has_actuators = [](const joco::test::ModelFeatures& f) { return f.nu > 0; };
  const auto kinds = [](const joco::test::ModelFeatures& f) { return f.actuator_kinds(); };
  std::vector<std::string> swept = joco::test::sweep_models(has_actuators, kinds, "actuation/");
  const size_t quick = swept.size();
  for (const std::string& path :
       joco::test::long_sweep_models(has_actuators, kinds, "actuation/")) {
    swept.push_back(path);
  }
  std::sort(swept.begin(), swept.end());
  EXPECT_EQ(std::adjacent_find(swept.begin(), swept.end()), swept.end());
  EXPECT_EQ(swept, joco::test::models_where(has_actuators));
  EXPECT_GT(quick, 0u);
  EXPECT_LT(quick, swept.size());
  EXPECT_TRUE(joco::test::features_of("actuation/actuators.xml").nu > 0);
}

}  // namespace
}  // namespace joco::tools
