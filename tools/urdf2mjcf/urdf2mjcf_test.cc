// joco-urdf2mjcf as users run it: to standard output, into files, and in pipelines with
// joco-compile; exit codes and messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/io.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

namespace fs = std::filesystem;

std::string data(const std::string& relative) {
  return std::string(JOCO_TESTDATA_DIR) + "/" + relative;
}
const std::string kMinitaur = data("urdf/minitaur_primitive/quadruped.urdf");
const std::string kR2d2 = data("urdf/r2d2/r2d2.urdf");

using joco::test::read_text;

TEST(JocoUrdf2mjcf, WritesMjcfToStandardOutputAndASummaryToStandardError) {
  const auto r = test::run("joco-urdf2mjcf " + kMinitaur);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<!--", 0), 0u);
  EXPECT_NE(r.out.find("<mujoco model=\"quadruped\">"), std::string::npos);
  EXPECT_NE(r.out.find("</mujoco>"), std::string::npos);
  EXPECT_NE(r.err.find("joco-urdf2mjcf: robot 'quadruped': 25 links, 24 joints -> 17 bodies"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("fused"), std::string::npos) << r.err;
  // -q keeps standard error quiet.
  const auto q = test::run("joco-urdf2mjcf -q " + kMinitaur);
  EXPECT_EQ(q.exit_code, 0);
  EXPECT_EQ(q.err, "");
  EXPECT_EQ(q.out, r.out);
}

TEST(JocoUrdf2mjcf, PipelineIntoJocoCompileEqualsCompilingTheUrdf) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-urdf2mjcf " + kMinitaur + " | joco-compile - -o " + dir + "/piped.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-compile " + kMinitaur + " -o " + dir + "/direct.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(dir + "/piped.jmb"), read_input(dir + "/direct.jmb"));
  // Standard input all the way: URDF in, binary model through a pipe, fields out.
  r = test::run(
      "joco-urdf2mjcf - --actuators motor | joco-compile - -o - | joco-compile - --print json",
      kMinitaur);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"nq\": 16"), std::string::npos);
  EXPECT_NE(r.out.find("\"nu\": 16"), std::string::npos);
}

TEST(JocoUrdf2mjcf, PipelineWithMeshesFromAnotherDirectory) {
  // The MJCF on standard output resolves its meshes from the working directory of the reader.
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("cd " + dir + " && joco-urdf2mjcf " + kR2d2 + " | joco-compile - -o r2d2.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir + "/r2d2.jmb"));
  r = test::run("joco-compile " + kR2d2 + " -o " + dir + "/direct.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(dir + "/r2d2.jmb"), read_input(dir + "/direct.jmb"));
}

TEST(JocoUrdf2mjcf, OutputFileWithPortableMeshdir) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  fs::create_directories(dir + "/models");
  auto r = test::run("joco-urdf2mjcf " + kR2d2 + " -o " + dir + "/models/r2d2.xml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string xml = read_text(dir + "/models/r2d2.xml");
  const std::string expected =
      fs::path(data("urdf/r2d2")).lexically_normal().lexically_relative(dir + "/models").string();
  EXPECT_NE(xml.find("meshdir=\"" + expected + "\""), std::string::npos) << xml.substr(0, 800);
  r = test::run("joco-compile " + dir + "/models/r2d2.xml -o " + dir + "/r2d2.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(JocoUrdf2mjcf, BadUrdfExitsThreeNamingLineAndElementWithoutOutput) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  std::ofstream(dir + "/bad.urdf")
      << "<robot name='r'>\n<link name='a'/>\n"
         "<joint name='j' type='revolute'>\n<parent link='a'/><child link='ghost'/>\n"
         "</joint>\n</robot>\n";
  const auto r = test::run("joco-urdf2mjcf " + dir + "/bad.urdf -o " + dir + "/out.xml");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("bad.urdf:3: <joint 'j'>: child link 'ghost' does not exist"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out.xml"));
  // joco-compile takes the URDF and fails the same way.
  const auto c = test::run("joco-compile " + dir + "/bad.urdf -o " + dir + "/out.jmb");
  EXPECT_EQ(c.exit_code, 3);
  EXPECT_NE(c.err.find("bad.urdf:3: <joint 'j'>"), std::string::npos) << c.err;
  EXPECT_EQ(test::run("joco-urdf2mjcf /nonexistent/robot.urdf").exit_code, 3);
  EXPECT_EQ(
      test::run("joco-urdf2mjcf " + data("mujoco/model/slider_crank/slider_crank.xml")).exit_code,
      3);
}

TEST(JocoUrdf2mjcf, UnreadableMeshFormatWarnsOrFailsWhenStrict) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string urdf = dir + "/dae.urdf";
  std::ofstream(urdf) << "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia "
                         "ixx='1' iyy='1' izz='1' "
                         "ixy='0' ixz='0' iyz='0'/></inertial>\n<visual><geometry><mesh filename='"
                      << data("urdf/formats/tiny.dae")
                      << "'/></geometry></visual></link></robot>\n";
  auto r = test::run("joco-urdf2mjcf " + urdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: 1 visual mesh in formats the compiler cannot read left out"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("tiny"), std::string::npos);
  r = test::run("joco-urdf2mjcf --strict " + urdf);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("tiny.dae"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(JocoUrdf2mjcf, PackagePathsAndOptions) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  const std::string urdf = dir + "/pkg.urdf";
  std::ofstream(urdf)
      << "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia ixx='1' iyy='1' "
         "izz='1' "
         "ixy='0' ixz='0' iyz='0'/></inertial><collision><geometry><mesh "
         "filename='package://my_robot_description/meshes/l_finger.stl'/></geometry></collision>"
         "</link></robot>\n";
  auto r = test::run("joco-urdf2mjcf " + urdf);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("--package-path my_robot_description=DIR"), std::string::npos) << r.err;
  const std::string pkg = data("urdf/packages/my_robot_description");
  r = test::run("joco-urdf2mjcf --floating --package-path my_robot_description=" + pkg + " " +
                urdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<freejoint name=\"floating_base\"/>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Options: floating, package-path my_robot_description="), std::string::npos)
      << r.out;
  r = test::run("ROS_PACKAGE_PATH=/nonexistent:" + data("urdf/packages") + " joco-urdf2mjcf " +
                urdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("file=\"l_finger.stl\""), std::string::npos) << r.out;
}

TEST(JocoUrdf2mjcf, FlagsOverrideTheUrdfsMuJoCoExtension) {
  // The URDF says fusestatic="false" discardvisual="false"; given flags win, absent flags do not.
  const std::string urdf = data("urdf/cases/extension_fusestatic.urdf");
  auto r = test::run("joco-urdf2mjcf " + urdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<body name=\"bracket\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("class=\"visual\""), std::string::npos) << r.out;
  r = test::run("joco-urdf2mjcf --fuse-fixed --no-visual " + urdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("<body name=\"bracket\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("class=\"visual\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Options: fuse-fixed, no-visual."), std::string::npos) << r.out;
  // balanceinertia="true" in the URDF; --no-balance-inertia refuses its links, naming the line.
  const std::string balance = data("urdf/cases/balance_fused.urdf");
  r = test::run("joco-urdf2mjcf " + balance);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("balanceinertia=\"true\""), std::string::npos) << r.out;
  r = test::run("joco-urdf2mjcf --no-balance-inertia " + balance);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("balance_fused.urdf:23: <inertial> of link 'plate'"), std::string::npos)
      << r.err;
}

TEST(JocoUrdf2mjcf, UsageErrorsExitTwo) {
  EXPECT_EQ(test::run("joco-urdf2mjcf").exit_code, 2);
  EXPECT_EQ(test::run("joco-urdf2mjcf " + kMinitaur + " --actuators servo").exit_code, 2);
  EXPECT_EQ(test::run("joco-urdf2mjcf " + kMinitaur + " --kp -1 --actuators position").exit_code,
            2);
  const auto r = test::run("joco-urdf2mjcf " + kMinitaur + " --package-path nonsense");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("NAME=DIR"), std::string::npos) << r.err;
}

TEST(JocoUrdf2mjcf, HelpAndVersion) {
  auto r = test::run("joco-urdf2mjcf --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--package-path", "--floating", "--no-fuse-fixed", "--no-visual",
                             "--actuators", "--strict"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
  r = test::run("joco-urdf2mjcf --version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("joco-urdf2mjcf"), std::string::npos);
}

TEST(JocoCompileUrdf, CompilesUrdfFromAFileAndFromStandardInput) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  auto r = test::run("joco-compile " + kMinitaur + " --print text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("joco model \"quadruped\""), std::string::npos);
  r = test::run("joco-compile - -o " + dir + "/stdin.jmb", kMinitaur);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run("joco-compile " + kMinitaur + " -o " + dir + "/file.jmb");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_input(dir + "/stdin.jmb"), read_input(dir + "/file.jmb"));
}

TEST(JocoCompileUrdf, EveryRobotCompiles) {
  for (const char* robot :
       {"urdf/r2d2/r2d2.urdf", "urdf/minitaur_primitive/quadruped.urdf", "urdf/ur5/ur5_robot.urdf",
        "urdf/panda/panda.urdf", "urdf/solo12/solo12.urdf"}) {
    const auto r = test::run("joco-compile " + data(robot) + " --print json");
    EXPECT_EQ(r.exit_code, 0) << robot << ": " << r.err;
  }
}

}  // namespace
}  // namespace joco::tools
