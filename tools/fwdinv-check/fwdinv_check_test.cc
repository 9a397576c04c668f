// joco-fwdinv-check, run as a CI job runs it: passing at the models' own solver settings, failing
// (exit 1, rows named) with a starved solver, and its JSON and JUnit reports read back.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/model_input.h"
#include "common/trajectory.h"
#include "tools/json_reader.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kModels = JOCO_TESTDATA_DIR;

std::string model(const std::string& relative) { return kModels + "/" + relative; }

using joco::test::read_text;

using joco::tools::test::Json;
using joco::tools::test::parse_json;

// Every row name of a case's failing rows.
std::vector<std::string> failing_rows(const Json& c) {
  std::vector<std::string> rows;
  for (const Json& r : c["failing_rows"].array) rows.push_back(r["row"].string);
  return rows;
}

// ---- the tests

// Models that pass at their own solver settings, one of each kind of constraint problem (contacts,
// tendons, a closed loop, a rig of every joint type): named, not a filter on the shared list, as
// passing at the model's settings is what the test checks of them.
const std::vector<std::string>& passing_models() {
  static const std::vector<std::string> models = {
      "mujoco/model/humanoid/humanoid.xml", "inverse/rig.xml", "real/anybotics_anymal_c/scene.xml",
      "mujoco/model/tendon_arm/arm26.xml", "mujoco/model/slider_crank/slider_crank.xml"};
  return models;
}

// Models whose constraint problems one solver iteration does not solve (contacts, limits,
// equalities at once).
const std::vector<std::string>& starvable_models() {
  static const std::vector<std::string> models = {
      "mujoco/model/humanoid/humanoid.xml", "inverse/rig.xml", "real/anybotics_anymal_c/scene.xml",
      "real/wonik_allegro/scene_left.xml", "constraint/contacts.xml"};
  return models;
}

TEST(JocoFwdinvCheck, PassesAtTheModelsOwnSettings) {
  std::string command = "joco-fwdinv-check --steps 100";
  for (const std::string& m : passing_models()) command += " " + model(m);
  const auto r = test::run(command);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  size_t passes = 0;
  for (size_t at = r.err.find("  PASS"); at != std::string::npos; at = r.err.find("  PASS", at + 1))
    ++passes;
  EXPECT_EQ(passes, passing_models().size()) << r.err;
  EXPECT_NE(r.err.find("iterations        mean"), std::string::npos) << r.err;
}

// Starved of iterations, the solver leaves discrepancies near 1: exit 1, the rows named on
// standard error and in the reports.
TEST(JocoFwdinvCheck, FailsWithAStarvedSolverNamingTheRows) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  for (const std::string& m : starvable_models()) {
    SCOPED_TRACE(m);
    const auto r = test::run("joco-fwdinv-check " + model(m) +
                             " --steps 60 --iterations 1 --report json -o " + dir + "/r.json");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("FAIL: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("row(s) over a threshold: "), std::string::npos) << r.err;
    const Json report = parse_json(read_text(dir + "/r.json"));
    EXPECT_FALSE(report["passed"].boolean);
    const Json& c = report["cases"].array.at(0);
    EXPECT_EQ(c["iterations_limit"].number, 1);
    const std::vector<std::string> rows = failing_rows(c);
    ASSERT_FALSE(rows.empty());
    for (const Json& f : c["failing_rows"].array) {
      const int row = std::stoi(f["row"].string);
      EXPECT_GE(row, 0);
      EXPECT_LE(row, 60);
      EXPECT_TRUE(f["force_error"].number > c["max_force_error"].number ||
                  f["constraint_error"].number > c["max_constraint_error"].number);
      EXPECT_EQ(f["iterations"].number, 1);
    }
    // The first failing rows are those on standard error.
    EXPECT_NE(r.err.find("over a threshold: " + rows[0]), std::string::npos) << r.err;
  }
}

// The report of every solver on one model: PGS, at its default 100 iterations, does not converge
// on the rig's contacts within the threshold where it hits its iteration limit; CG and Newton do.
TEST(JocoFwdinvCheck, JsonReport) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-fwdinv-check " + model("inverse/rig.xml") +
                           " --steps 30 --solver all --report json -o " + dir + "/r.json");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const Json report = parse_json(read_text(dir + "/r.json"));
  EXPECT_EQ(report["tool"].string, "joco-fwdinv-check");
  EXPECT_EQ(report["errors"].string, "relative");
  EXPECT_FALSE(report["passed"].boolean);
  ASSERT_EQ(report["cases"].array.size(), 3u);
  const char* solvers[] = {"pgs", "cg", "newton"};
  for (size_t k = 0; k < 3; ++k) {
    const Json& c = report["cases"].array[k];
    EXPECT_EQ(c["solver"].string, solvers[k]);
    EXPECT_EQ(c["model_name"].string, "inverse rig");
    EXPECT_EQ(c["rows"].number, 31);
    EXPECT_EQ(c["rows_with_constraints"].number, 31);
    EXPECT_EQ(c["max_force_error"].number, 1e-4);  // 1e4 times the tolerance 1e-8
    for (const char* stat : {"force_error", "constraint_error"}) {
      EXPECT_LE(c[stat]["mean"].number, c[stat]["worst"].number);
      EXPECT_EQ(c[stat]["worst_row"].kind, Json::kString);
    }
    EXPECT_GT(c["iterations"]["mean"].number, 0);
    EXPECT_LE(c["iterations"]["max"].number, c["iterations"]["limit"].number);
    EXPECT_EQ(c["passed"].boolean, c["failing_rows"].array.empty());
    if (k == 0) {
      // PGS: forward's qacc follows its forces, so both discrepancies are the same vector.
      EXPECT_FALSE(c["passed"].boolean);
      EXPECT_GT(c["iterations"]["rows_at_limit"].number, 0);
      for (const Json& f : c["failing_rows"].array) {
        EXPECT_NEAR(f["force_error"].number, f["constraint_error"].number,
                    1e-9 + 1e-6 * f["force_error"].number);
        EXPECT_EQ(f["iterations"].number, 100);
      }
    } else {
      EXPECT_TRUE(c["passed"].boolean);
      EXPECT_LE(c["force_error"]["worst"].number, 1e-4);
      EXPECT_LE(c["constraint_error"]["worst"].number, 1e-12);  // primal: forces follow qacc
    }
  }
  // Report to standard output.
  const auto out =
      test::run("joco-fwdinv-check " + model("mujoco/model/slider_crank/slider_crank.xml") +
                " --steps 5 --report json -q");
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(parse_json(out.out)["cases"].array.size(), 1u);
  EXPECT_TRUE(out.err.empty()) << out.err;  // -q: no summary
}

// JUnit XML: one test case per model and solver, a failure for the starved one naming its rows.
TEST(JocoFwdinvCheck, JUnitReport) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-fwdinv-check " + model("inverse/rig.xml") + " " +
                           model("mujoco/model/humanoid/humanoid.xml") +
                           " --steps 40 --iterations 1 --report junit -o " + dir + "/r.xml");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto ok =
      test::run("joco-fwdinv-check " + model("mujoco/model/slider_crank/slider_crank.xml") +
                " --steps 40 --report junit -o " + dir + "/ok.xml");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;

  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.LoadFile((dir + "/r.xml").c_str()), tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* suites = doc.FirstChildElement("testsuites");
  ASSERT_NE(suites, nullptr);
  EXPECT_EQ(suites->IntAttribute("tests"), 2);
  EXPECT_EQ(suites->IntAttribute("failures"), 2);
  const tinyxml2::XMLElement* suite = suites->FirstChildElement("testsuite");
  ASSERT_NE(suite, nullptr);
  std::vector<std::string> names;
  for (const tinyxml2::XMLElement* c = suite->FirstChildElement("testcase"); c;
       c = c->NextSiblingElement("testcase")) {
    names.push_back(c->Attribute("name"));
    const tinyxml2::XMLElement* failure = c->FirstChildElement("failure");
    ASSERT_NE(failure, nullptr) << names.back();
    const std::string message = failure->Attribute("message");
    EXPECT_NE(message.find("row(s) over a threshold: "), std::string::npos) << message;
    const std::string rows = failure->GetText();
    EXPECT_NE(rows.find("row "), std::string::npos);
    EXPECT_NE(rows.find(", 1 iterations"), std::string::npos) << rows;
    EXPECT_NE(c->FirstChildElement("system-out"), nullptr);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"inverse rig (newton)", "Humanoid (newton)"}));

  tinyxml2::XMLDocument good;
  ASSERT_EQ(good.LoadFile((dir + "/ok.xml").c_str()), tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* c = good.FirstChildElement("testsuites")
                                      ->FirstChildElement("testsuite")
                                      ->FirstChildElement("testcase");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->FirstChildElement("failure"), nullptr);
  EXPECT_EQ(good.FirstChildElement("testsuites")->IntAttribute("failures"), 0);
}

// States from a trajectory file: the rollout joco-simulate writes gives the numbers of the tool's
// own rollout with the same controls, and a batch file's rows are named by group.
TEST(JocoFwdinvCheck, StatesFromAFile) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string rig = model("inverse/rig.xml");
  auto r = test::run("joco-simulate " + rig + " --steps 50 --ctrl-noise 0.2 --seed 4 -o " + dir +
                     "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-fwdinv-check " + rig + " --states " + dir +
                "/run.h5 --threads 2 --report json -o " + dir + "/states.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-fwdinv-check " + rig +
                " --steps 50 --ctrl-noise 0.2 --seed 4 --report json -o " + dir + "/rollout.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json a = parse_json(read_text(dir + "/states.json"))["cases"].array.at(0);
  const Json b = parse_json(read_text(dir + "/rollout.json"))["cases"].array.at(0);
  EXPECT_EQ(a["rows"].number, 51);
  EXPECT_EQ(a["force_error"]["worst"].number, b["force_error"]["worst"].number);
  EXPECT_EQ(a["iterations"]["mean"].number, b["iterations"]["mean"].number);

  r = test::run("joco-simulate " + rig + " --steps 20 --ctrl-noise 0.2 --batch 2 -o " + dir +
                "/batch.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-fwdinv-check " + rig + " --states " + dir +
                "/batch.h5 --iterations 1 --report json -o " + dir + "/batch.json");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const Json c = parse_json(read_text(dir + "/batch.json"))["cases"].array.at(0);
  EXPECT_EQ(c["rows"].number, 42);
  bool second_rollout = false;
  for (const std::string& row : failing_rows(c)) {
    EXPECT_EQ(row.rfind("/rollout_0000", 0), 0u) << row;
    second_rollout = second_rollout || row.rfind("/rollout_00001:", 0) == 0;
  }
  EXPECT_TRUE(second_rollout);
}

// Thresholds: a zero threshold fails wherever rounding leaves anything; --absolute judges
// solver_fwdinv itself.
TEST(JocoFwdinvCheck, Thresholds) {
  const std::string rig = model("inverse/rig.xml");
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " --steps 20 --max-force-error 0 -q").exit_code,
            1);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " --steps 20 --absolute -q").exit_code, 0);
  EXPECT_EQ(
      test::run("joco-fwdinv-check " + rig +
                " --steps 20 --iterations 1 --max-force-error 10 --max-constraint-error 10 -q")
          .exit_code,
      0);
}

TEST(JocoFwdinvCheck, UsageErrorsExitTwo) {
  const std::string rig = model("inverse/rig.xml");
  EXPECT_EQ(test::run("joco-fwdinv-check").exit_code, 2);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " --report xml").exit_code, 2);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " --states a.h5 --steps 5").exit_code, 2);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " " + rig + " --states a.h5").exit_code, 2);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " --solver lbfgs").exit_code, 2);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " --iterations 0").exit_code, 2);
  EXPECT_EQ(test::run("joco-fwdinv-check nosuchmodel.xml").exit_code, 3);
}

// Every model in testdata (test::all_testdata_models()) passes at its own solver settings along the
// default rollout.
class EveryModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryModel, PassesAtItsOwnSettings) {
  const auto r = test::run("joco-fwdinv-check " + model(GetParam()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

INSTANTIATE_TEST_SUITE_P(LongSweep, EveryModel, ::testing::ValuesIn(test::all_testdata_models()),
                         test::param_name);

TEST(JocoFwdinvCheck, TheSweepCoversTestdata) {
  const std::vector<std::string> models = test::all_testdata_models();
  EXPECT_GT(models.size(), 100u);
  for (const char* m : {"urdf/r2d2/r2d2.urdf", "mujoco/model/hammock/hammock.xml",
                        "real/shadow_hand/scene_right.xml"}) {
    EXPECT_NE(std::find(models.begin(), models.end(), m), models.end()) << m;
  }
  for (const std::string& m : models) EXPECT_EQ(m.find("/assets/"), std::string::npos) << m;
}

}  // namespace
}  // namespace joco::tools
