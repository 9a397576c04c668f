#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/io.h"
#include "joco/jmb.h"
#include "support/hand_models.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

namespace fs = std::filesystem;

std::string write_pendulum(const std::string& dir) {
  const std::string path = dir + "/pendulum.jmb";
  write_output(path, write_jmb(joco::test::pendulum_model()));
  return path;
}

TEST(JocoCompile, ReproducesAJmbByteForByte) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string in = write_pendulum(dir);
  const auto r = test::run("joco-compile " + in + " -o " + dir + "/copy.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(in), read_input(dir + "/copy.jmb"));
}

TEST(JocoCompile, StreamsThroughPipes) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string in = write_pendulum(dir);
  const auto r = test::run("joco-compile - -o - | joco-compile - -o " + dir + "/piped.jmb", in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(in), read_input(dir + "/piped.jmb"));
}

TEST(JocoCompile, CorruptedInputExitsThreeAndNamesTheProblem) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string in = write_pendulum(dir);
  std::vector<uint8_t> bytes = read_input(in);
  bytes[bytes.size() / 2] ^= 0x5a;
  write_output(dir + "/bad.jmb", bytes);
  const auto r = test::run("joco-compile " + dir + "/bad.jmb -o " + dir + "/out.jmb");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("bad.jmb"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("checksum"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out.jmb"));
}

TEST(JocoCompile, TruncatedInputExitsThree) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  std::vector<uint8_t> bytes = read_input(write_pendulum(dir));
  bytes.resize(bytes.size() / 3);
  write_output(dir + "/short.jmb", bytes);
  const auto r = test::run("joco-compile " + dir + "/short.jmb -o " + dir + "/out.jmb");
  EXPECT_EQ(r.exit_code, 3) << r.err;
}

TEST(JocoCompile, MissingFileExitsThree) {
  const auto r = test::run("joco-compile /nonexistent/model.jmb -o /tmp/x.jmb");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("/nonexistent/model.jmb"), std::string::npos) << r.err;
}

TEST(JocoCompile, UsageErrorsExitTwo) {
  EXPECT_EQ(test::run("joco-compile").exit_code, 2);
  EXPECT_EQ(test::run("joco-compile x.jmb --no-such-flag").exit_code, 2);
  EXPECT_EQ(test::run("joco-compile x.jmb --print yaml").exit_code, 2);
}

// Without -o or --print, joco-compile validates the model and summarises it (exit 0), or says
// what is wrong (exit 3): users run it to check a model.
TEST(JocoCompile, WithoutOutputValidatesAndSummarises) {
  const std::string model = std::string(JOCO_TESTDATA_DIR) + "/mujoco/model/humanoid/humanoid.xml";
  auto r = test::run("joco-compile " + model);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"humanoid.xml: valid", "model \"Humanoid\"", "nq=28 nv=27 nu=21",
                           "nbody=17", "timestep=0.005 s"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << " not in:\n" << r.out;
  test::TempDir dir;
  test::run("printf '<mujoco><worldbody><body></worldbody></mujoco>' > " + dir / "bad.xml");
  r = test::run("joco-compile " + dir / "bad.xml");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("element <body> is not closed"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(JocoCompile, HelpAndVersion) {
  auto r = test::run("joco-compile --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--print"), std::string::npos);
  r = test::run("joco-compile --version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("joco-compile"), std::string::npos);
}

TEST(JocoCompile, PrintsJson) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-compile " + write_pendulum(dir) + " --print json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"nq\": 9"), std::string::npos);
  EXPECT_NE(r.out.find("\"body_parentid\": [0, 0, 1, 0]"), std::string::npos);
  EXPECT_NE(r.out.find("\"opt.timestep\": 0.002"), std::string::npos);
}

TEST(JocoCompile, PrintsText) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const auto r = test::run("joco-compile " + write_pendulum(dir) + " --print text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("JOINT 1:"), std::string::npos);
  EXPECT_NE(r.out.find("hinge2"), std::string::npos);
}

}  // namespace
}  // namespace joco::tools

namespace joco::tools {
namespace {

TEST(JocoCompile, CompilesMjcfAndTheJmbRoundTrips) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string xml =
      std::string(JOCO_TESTDATA_DIR) + "/mujoco/model/slider_crank/slider_crank.xml";
  auto r = test::run("joco-compile " + xml + " -o " + dir + "/a.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-compile " + dir + "/a.jmb -o " + dir + "/b.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(dir + "/a.jmb"), read_input(dir + "/b.jmb"));
  // XML read from standard input resolves relative paths against the working directory.
  r = test::run("cd " + std::string(JOCO_TESTDATA_DIR) +
                    "/mujoco/model/slider_crank && joco-compile - -o " + dir + "/c.jmb",
                xml);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(dir + "/a.jmb").size(), read_input(dir + "/c.jmb").size());
}

TEST(JocoCompile, MalformedMjcfExitsThreeWithLineAndElement) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  std::ofstream(dir + "/bad.xml") << "<mujoco>\n  <worldbody>\n    <geom size=\"1\" "
                                     "colour=\"red\"/>\n  </worldbody>\n</mujoco>\n";
  const auto r = test::run("joco-compile " + dir + "/bad.xml -o " + dir + "/out.jmb");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("bad.xml:3: <geom>: unrecognized attribute 'colour'"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.jmb"));
}

}  // namespace
}  // namespace joco::tools
