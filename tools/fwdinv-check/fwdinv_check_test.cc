// joco-fwdinv-check, run as a CI job runs it: passing at the models' own solver settings, failing
// (exit 1, rows named) with a starved solver, and its JSON and JUnit reports read back.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
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

// A number attribute that must be there and be a whole number >= 0.
int count_attribute(const tinyxml2::XMLElement* e, const char* name) {
  int n = -1;
  EXPECT_EQ(e->QueryIntAttribute(name, &n), tinyxml2::XML_SUCCESS)
      << "<" << e->Name() << "> without " << name;
  EXPECT_GE(n, 0) << "<" << e->Name() << " " << name << ">";
  return n;
}

struct JUnitCounts {
  int tests = 0, failures = 0, errors = 0;
};

// The JUnit XML shape CI systems read (Jenkins' and Ant's JUnit schemas): <testsuites> holding
// <testsuite>s holding <testcase>s; each case with a name, a classname and a time, holding at most
// one <failure> or <error> (with a message) besides <system-out>/<system-err>; and the counts of
// every level (tests, failures, errors) those of what it holds. Returns the document's counts.
JUnitCounts expect_junit_shape(const std::string& text) {
  JUnitCounts total;
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.Parse(text.c_str(), text.size()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const tinyxml2::XMLElement* suites = doc.RootElement();
  EXPECT_NE(suites, nullptr);
  if (!suites) return total;
  EXPECT_STREQ(suites->Name(), "testsuites");
  for (const tinyxml2::XMLElement* suite = suites->FirstChildElement(); suite;
       suite = suite->NextSiblingElement()) {
    EXPECT_STREQ(suite->Name(), "testsuite");
    EXPECT_NE(suite->Attribute("name"), nullptr);
    EXPECT_GE(suite->DoubleAttribute("time", -1), 0);
    EXPECT_EQ(count_attribute(suite, "skipped"), 0);
    JUnitCounts counted;
    for (const tinyxml2::XMLElement* c = suite->FirstChildElement(); c;
         c = c->NextSiblingElement()) {
      EXPECT_STREQ(c->Name(), "testcase");
      EXPECT_NE(c->Attribute("name"), nullptr);
      EXPECT_NE(c->Attribute("classname"), nullptr);
      EXPECT_GE(c->DoubleAttribute("time", -1), 0);
      ++counted.tests;
      int outcomes = 0;
      for (const tinyxml2::XMLElement* x = c->FirstChildElement(); x; x = x->NextSiblingElement()) {
        const std::string name = x->Name();
        if (name == "failure" || name == "error") {
          ++outcomes;
          ++(name == "failure" ? counted.failures : counted.errors);
          EXPECT_NE(x->Attribute("message"), nullptr) << name;
          EXPECT_NE(x->Attribute("type"), nullptr) << name;
        } else {
          EXPECT_TRUE(name == "system-out" || name == "system-err") << name;
        }
      }
      EXPECT_LE(outcomes, 1) << c->Attribute("name");
    }
    EXPECT_EQ(count_attribute(suite, "tests"), counted.tests);
    EXPECT_EQ(count_attribute(suite, "failures"), counted.failures);
    EXPECT_EQ(count_attribute(suite, "errors"), counted.errors);
    total.tests += counted.tests;
    total.failures += counted.failures;
    total.errors += counted.errors;
  }
  EXPECT_EQ(count_attribute(suites, "tests"), total.tests);
  EXPECT_EQ(count_attribute(suites, "failures"), total.failures);
  EXPECT_EQ(count_attribute(suites, "errors"), total.errors);
  return total;
}

// The message a model's loader gives: what joco-compile says of it, after "error: ".
std::string loader_message(const std::string& path) {
  const auto r = test::run("joco-compile " + path);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const size_t at = r.err.find("error: ");
  EXPECT_NE(at, std::string::npos) << r.err;
  std::string message = at == std::string::npos ? r.err : r.err.substr(at + 7);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return message;
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
    EXPECT_NE(r.err.find("row(s) over a threshold, the first at row "), std::string::npos) << r.err;
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
    // The report's rows, the worst first, are those on standard error.
    EXPECT_NE(r.err.find("; the worst: " + rows[0]), std::string::npos) << r.err;
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

  EXPECT_EQ(expect_junit_shape(read_text(dir + "/r.xml")).failures, 2);
  EXPECT_EQ(expect_junit_shape(read_text(dir + "/ok.xml")).failures, 0);
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
    EXPECT_NE(message.find("row(s) over a threshold, the first at row "), std::string::npos)
        << message;
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

// Models that cannot be loaded (a missing file, XML that is not well-formed, a .jmb that fails
// validation) among models that can: the others are still checked, each failure is an error test
// case with its loader's message (errors counted), and the exit code is the worst of the cases':
// 3. Before, the first such model stopped the tool (exit 3, no report, the others' results lost).
TEST(JocoFwdinvCheck, ModelsThatCannotBeLoadedAreErrorCases) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string crank = model("mujoco/model/slider_crank/slider_crank.xml"),
                    rig = model("inverse/rig.xml"), missing = dir + "/missing.xml",
                    truncated = dir + "/truncated.xml",
                    bad_jmb = model("fuzz/jmb/negative_inertia.jmb");
  // The first half of a good model: XML that is not well-formed.
  const std::string crank_text = read_text(crank);
  {
    std::ofstream out(truncated, std::ios::binary);
    out << crank_text.substr(0, crank_text.size() / 2);
  }
  const std::vector<std::string> files = {crank, missing, truncated, bad_jmb, rig};
  std::vector<std::string> messages = {"", loader_message(missing), loader_message(truncated),
                                       loader_message(bad_jmb), ""};
  std::string command = "joco-fwdinv-check --steps 10";
  for (const std::string& f : files) command += " " + f;

  auto r = test::run(command + " --report junit -o " + dir + "/r.xml");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  for (const std::string& m : messages) EXPECT_NE(r.err.find(m), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("5 cases: 2 passed, 0 failed, 3 errors"), std::string::npos) << r.err;
  const std::string xml = read_text(dir + "/r.xml");
  const JUnitCounts counts = expect_junit_shape(xml);
  EXPECT_EQ(counts.tests, 5);
  EXPECT_EQ(counts.failures, 0);
  EXPECT_EQ(counts.errors, 3);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS);
  size_t k = 0;
  for (const tinyxml2::XMLElement* c =
           doc.RootElement()->FirstChildElement("testsuite")->FirstChildElement("testcase");
       c; c = c->NextSiblingElement("testcase"), ++k) {
    ASSERT_LT(k, files.size());
    EXPECT_EQ(c->Attribute("file"), files[k]);
    EXPECT_EQ(c->FirstChildElement("failure"), nullptr) << files[k];
    const tinyxml2::XMLElement* error = c->FirstChildElement("error");
    if (messages[k].empty()) {
      EXPECT_EQ(error, nullptr) << files[k];
    } else {
      ASSERT_NE(error, nullptr) << files[k];
      EXPECT_EQ(error->Attribute("message"), messages[k]);
      EXPECT_STREQ(error->Attribute("type"), "bad input");
    }
  }
  EXPECT_EQ(k, files.size());

  r = test::run(command + " --report json -o " + dir + "/r.json");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const Json report = parse_json(read_text(dir + "/r.json"));
  EXPECT_FALSE(report["passed"].boolean);
  EXPECT_EQ(report["summary"]["cases"].number, 5);
  EXPECT_EQ(report["summary"]["passed"].number, 2);
  EXPECT_EQ(report["summary"]["failed"].number, 0);
  EXPECT_EQ(report["summary"]["errors"].number, 3);
  EXPECT_EQ(report["summary"]["exit_code"].number, 3);
  ASSERT_EQ(report["cases"].array.size(), files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const Json& c = report["cases"].array[i];
    EXPECT_EQ(c["model"].string, files[i]);
    if (messages[i].empty()) {
      EXPECT_TRUE(c["passed"].boolean) << files[i];
      EXPECT_FALSE(c.has("error"));
      EXPECT_EQ(c["rows"].number, 11);
    } else {
      EXPECT_FALSE(c["passed"].boolean) << files[i];
      EXPECT_EQ(c["error"].string, messages[i]);
      EXPECT_EQ(c["exit_code"].number, 3);
    }
  }

  // The worst of the cases' codes: a load error over a failed check; a failed check alone is 1.
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " " + missing + " --steps 10 --iterations 1 -q")
                .exit_code,
            3);
  EXPECT_EQ(test::run("joco-fwdinv-check " + rig + " " + crank + " --steps 10 --iterations 1 -q")
                .exit_code,
            1);
  // A single model that cannot be loaded still gets its report.
  r = test::run("joco-fwdinv-check " + missing + " --report junit -o " + dir + "/one.xml");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const JUnitCounts one = expect_junit_shape(read_text(dir + "/one.xml"));
  EXPECT_EQ(one.tests, 1);
  EXPECT_EQ(one.errors, 1);
}

// A rollout that the divergence check resets (testdata/forward/diverging.xml passes the 1e10 bound
// at step 447, and again 447 steps after the reset) fails the check: exit 1, a JUnit failure naming
// the step and the time, the JSON case's divergence. Before, it passed with only the engine's
// warning on standard error (the rows after the reset, from the initial state, being consistent).
TEST(JocoFwdinvCheck, ADivergingRolloutFails) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string diverging = model("forward/diverging.xml");
  // Before it diverges the model passes.
  EXPECT_EQ(test::run("joco-fwdinv-check " + diverging + " --steps 400 -q").exit_code, 0);

  auto r = test::run("joco-fwdinv-check " + diverging + " --steps 600 --report junit -o " + dir +
                     "/d.xml");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("FAIL: the rollout diverged at step 447 (time 4.47 s)"), std::string::npos)
      << r.err;
  const std::string xml = read_text(dir + "/d.xml");
  const JUnitCounts counts = expect_junit_shape(xml);
  EXPECT_EQ(counts.tests, 1);
  EXPECT_EQ(counts.failures, 1);
  EXPECT_EQ(counts.errors, 0);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(xml.c_str()), tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* failure = doc.RootElement()
                                            ->FirstChildElement("testsuite")
                                            ->FirstChildElement("testcase")
                                            ->FirstChildElement("failure");
  ASSERT_NE(failure, nullptr);
  const std::string message = failure->Attribute("message");
  EXPECT_NE(message.find("the rollout diverged at step 447 (time 4.47 s)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("bad qpos"), std::string::npos) << message;
  EXPECT_STREQ(failure->Attribute("type"), "divergence");

  r = test::run("joco-fwdinv-check " + diverging + " --steps 1000 --solver all --report json -o " +
                dir + "/d.json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const Json report = parse_json(read_text(dir + "/d.json"));
  EXPECT_FALSE(report["passed"].boolean);
  EXPECT_EQ(report["summary"]["failed"].number, 3);
  ASSERT_EQ(report["cases"].array.size(), 3u);
  for (const Json& c : report["cases"].array) {
    EXPECT_FALSE(c["passed"].boolean);
    EXPECT_EQ(c["rows_failing"].number, 0);  // every row's forward and inverse agree
    const Json& d = c["divergence"];
    ASSERT_EQ(d.kind, Json::kObject);
    EXPECT_EQ(d["resets"].number, 2);
    EXPECT_EQ(d["first_step"].number, 447);
    EXPECT_NEAR(d["first_time"].number, 4.47, 1e-9);
    EXPECT_NE(d["warning"].string.find("bad qpos"), std::string::npos);
    ASSERT_EQ(d["steps"].array.size(), 2u);
    EXPECT_EQ(d["steps"].array[0].number, 447);
    EXPECT_EQ(d["steps"].array[1].number, 894);
  }
  // A rollout that does not diverge has none.
  r = test::run("joco-fwdinv-check " + diverging + " --steps 10 --report json -q");
  EXPECT_EQ(parse_json(r.out)["cases"].array.at(0)["divergence"].kind, Json::kNull);
}

// How far a failing row is over its thresholds, as the reports order the rows.
double severity(const Json& row, const Json& c) {
  return std::max(row["force_error"].number / c["max_force_error"].number,
                  row["constraint_error"].number / c["max_constraint_error"].number);
}

// Many failing rows (the contacts model with one solver iteration: about 1500 of 2001 rows over):
// the reports give the summary (counts, worst, mean and percentiles, the first failing row) and
// the worst --worst K rows (20 by default), so they stay small; --all-rows lists every one. Before,
// every failing row was listed: 283 KB of JSON here, 12 MB for 61,183 rows.
TEST(JocoFwdinvCheck, ReportsListTheWorstRowsUnlessAskedForAll) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string base = "joco-fwdinv-check " + model("constraint/contacts.xml") +
                           " --steps 2000 --iterations 1 -q --report ";
  const auto report = [&](const std::string& options, const std::string& file) {
    const auto r = test::run(base + options + " -o " + dir + "/" + file);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    return read_text(dir + "/" + file);
  };
  const std::string json = report("json", "worst.json"),
                    all_json = report("json --all-rows", "all.json"),
                    five_json = report("json --worst 5", "five.json");
  EXPECT_LT(json.size(), 16000u);
  const Json c = parse_json(json)["cases"].array.at(0),
             all = parse_json(all_json)["cases"].array.at(0),
             five = parse_json(five_json)["cases"].array.at(0);
  const size_t failing = static_cast<size_t>(c["rows_failing"].number);
  EXPECT_GT(failing, 1000u);
  EXPECT_EQ(all["rows_failing"].number, c["rows_failing"].number);
  ASSERT_EQ(c["failing_rows"].array.size(), 20u);
  ASSERT_EQ(five["failing_rows"].array.size(), 5u);
  ASSERT_EQ(all["failing_rows"].array.size(), failing);
  EXPECT_GT(all_json.size(), 10 * json.size());
  // Worst first, the same rows whatever K.
  for (size_t i = 0; i < failing; ++i) {
    const Json& row = all["failing_rows"].array[i];
    if (i > 0) {
      EXPECT_LE(severity(row, all), severity(all["failing_rows"].array[i - 1], all));
    }
    EXPECT_GT(severity(row, all), 1);
    if (i < 20) {
      EXPECT_EQ(c["failing_rows"].array[i]["row"].string, row["row"].string);
    }
    if (i < 5) {
      EXPECT_EQ(five["failing_rows"].array[i]["row"].string, row["row"].string);
    }
  }
  // The first failing row is the earliest of them.
  int first = 1 << 30;
  for (const Json& row : all["failing_rows"].array)
    first = std::min(first, std::stoi(row["row"].string));
  EXPECT_EQ(c["first_failing_row"].string, std::to_string(first));
  for (const char* stat : {"force_error", "constraint_error"}) {
    const Json& e = c[stat];
    EXPECT_LE(e["p50"].number, e["p90"].number) << stat;
    EXPECT_LE(e["p90"].number, e["p99"].number) << stat;
    EXPECT_LE(e["p99"].number, e["worst"].number) << stat;
  }

  const std::string xml = report("junit", "worst.xml"),
                    all_xml = report("junit --all-rows", "all.xml");
  EXPECT_LT(xml.size(), 16000u);
  for (const std::string* text : {&xml, &all_xml}) {
    const JUnitCounts counts = expect_junit_shape(*text);
    EXPECT_EQ(counts.tests, 1);
    EXPECT_EQ(counts.failures, 1);
  }
  // One line a listed row in the failure's text.
  const auto listed = [](const std::string& text) {
    tinyxml2::XMLDocument doc;
    doc.Parse(text.c_str());
    const std::string rows = doc.RootElement()
                                 ->FirstChildElement("testsuite")
                                 ->FirstChildElement("testcase")
                                 ->FirstChildElement("failure")
                                 ->GetText();
    size_t n = 0;
    for (size_t at = rows.find("row "); at != std::string::npos; at = rows.find("\nrow ", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(listed(xml), 20u);
  EXPECT_EQ(listed(all_xml), failing);
}

// --help names the report options and how several models' exit codes combine, and the man page
// describes every option of the tool's own that --help lists (not those every tool has).
TEST(JocoFwdinvCheck, HelpAndManPageNameEveryOption) {
  const auto r = test::run("joco-fwdinv-check --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* text : {"--worst", "--all-rows", "worst of", "Exit codes"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
  const std::string man = read_text(std::string(JOCO_TESTDATA_DIR) + "/../man/joco-fwdinv-check.1");
  std::istringstream lines(r.out);
  size_t options = 0;
  for (std::string line; std::getline(lines, line);) {
    // An option's line: "  -o,--output TEXT  ..." or "  --worst INT ...".
    const size_t first = line.find_first_not_of(' ');
    const size_t at = line.find("--");
    if (first == std::string::npos || line[first] != '-' || at == std::string::npos) continue;
    const std::string option = line.substr(at, line.find_first_of(" ,", at) - at);
    if (option == "--help" || option == "--version" || option == "--verbose" || option == "--quiet")
      continue;
    std::string roff;
    for (char ch : option) roff += ch == '-' ? std::string("\\-") : std::string(1, ch);
    EXPECT_NE(man.find(roff), std::string::npos) << option;
    ++options;
  }
  EXPECT_EQ(options, 15u);
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

// The models of testdata whose default rollout (500 steps) diverges, as it does in MuJoCo 2.2.2
// (mujoco-testspeed MODEL 500 warns of a bad QACC or QPOS at the same time): the check fails them
// for the divergence alone.
bool diverges(const std::string& m) {
  return m == "forward/diverging.xml"            // written to diverge, at step 447 (4.47 s)
         || m == "smooth/kinematic_chains.xml";  // undamped chains, bad qacc at 0.216 s
}

// Every model in testdata (test::all_testdata_models()) passes at its own solver settings along the
// default rollout: no row over a threshold, and no divergence but where MuJoCo's rollout diverges.
class EveryModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryModel, PassesAtItsOwnSettings) {
  const auto r = test::run("joco-fwdinv-check " + model(GetParam()) + " --report json -q");
  EXPECT_EQ(r.exit_code, diverges(GetParam()) ? 1 : 0) << r.err;
  const Json c = parse_json(r.out)["cases"].array.at(0);
  EXPECT_EQ(c["rows_failing"].number, 0);
  EXPECT_EQ(c["divergence"].kind, diverges(GetParam()) ? Json::kObject : Json::kNull);
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
