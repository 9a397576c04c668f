// joco-urdf2mjcf as users run it: to standard output, into files, and in pipelines with
// joco-compile; exit codes and messages.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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
  // --no-convert-meshes (and a build without assimp): left out, as MuJoCo cannot read them.
  auto r = test::run("joco-urdf2mjcf --no-convert-meshes " + urdf);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: 1 visual mesh in formats the compiler cannot read left out"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("tiny"), std::string::npos);
  r = test::run("joco-urdf2mjcf --no-convert-meshes --strict " + urdf);
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

// Vertices of an OBJ file (v lines) or a binary STL file (three per triangle).
std::vector<std::array<double, 3>> mesh_vertices(const std::string& path) {
  std::vector<std::array<double, 3>> v;
  if (path.ends_with(".obj")) {
    std::istringstream in(read_text(path));
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("v ", 0) != 0) continue;
      std::array<double, 3> p{};
      std::istringstream(line.substr(2)) >> p[0] >> p[1] >> p[2];
      v.push_back(p);
    }
    return v;
  }
  const std::string b = read_text(path);
  uint32_t n = 0;
  std::memcpy(&n, b.data() + 80, 4);
  for (uint32_t t = 0; t < n; ++t) {
    for (int k = 0; k < 3; ++k) {
      float f[3];
      std::memcpy(f, b.data() + 84 + 50 * t + 12 + 12 * k, 12);
      v.push_back({f[0], f[1], f[2]});
    }
  }
  return v;
}

// lower x y z, upper x y z
std::array<double, 6> bounding_box(const std::vector<std::array<double, 3>>& v) {
  std::array<double, 6> b{1e300, 1e300, 1e300, -1e300, -1e300, -1e300};
  for (const auto& p : v) {
    for (int k = 0; k < 3; ++k) {
      b[k] = std::min(b[k], p[k]);
      b[k + 3] = std::max(b[k + 3], p[k]);
    }
  }
  return b;
}

TEST(JocoUrdf2mjcf, DefaultOutputsUnchangedByTheNewOptions) {
  // Written by the converter before --floor, --exclude-self-contacts and --convert-meshes.
  const std::pair<const char*, const char*> cases[] = {
      {"r2d2", "r2d2.urdf > ../expected/r2d2.xml.expected"},
      {"minitaur_primitive", "quadruped.urdf > ../expected/quadruped.xml.expected"},
      {"solo12",
       "solo12.urdf --floating --actuators position > "
       "../expected/solo12_floating_position.xml.expected"},
      {"panda", "panda.urdf --no-visual > ../expected/panda_no_visual.xml.expected"},
      {"ur5",
       "ur5_robot.urdf --no-visual --actuators motor > "
       "../expected/ur5_no_visual_motor.xml.expected"}};
  for (const auto& [folder, command] : cases) {
    std::string args = command;
    const std::string expected = args.substr(args.find("> ") + 2);
    args = args.substr(0, args.find(" >"));
    const auto r = test::run("cd " + data("urdf/") + folder + " && joco-urdf2mjcf -q " + args);
    ASSERT_EQ(r.exit_code, 0) << folder << ": " << r.err;
    EXPECT_EQ(r.out, read_text(data("urdf/") + folder + "/" + expected)) << folder;
  }
}

TEST(JocoUrdf2mjcf, FloorAndLightNamedApartFromTheRobot) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // A collision geom already named floor.
  std::ofstream(dir + "/r.urdf")
      << "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia ixx='1' iyy='1' "
         "izz='1' ixy='0' ixz='0' iyz='0'/></inertial><collision name='floor'><geometry><box "
         "size='1 1 1'/></geometry></collision></link></robot>\n";
  auto r = test::run("joco-urdf2mjcf " + dir + "/r.urdf --floor -o " + dir + "/r.xml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string xml = read_text(dir + "/r.xml");
  EXPECT_NE(
      xml.find("<geom name=\"floor_2\" type=\"plane\" size=\"5 5 0.05\" material=\"floor\"/>"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<texture name=\"floor_checker\" type=\"2d\" builtin=\"checker\""),
            std::string::npos);
  EXPECT_NE(xml.find("<light name=\"floor_light\" pos=\"0 0 3\" dir=\"0 0 -1\" directional"),
            std::string::npos);
  EXPECT_NE(xml.find("Options: floor."), std::string::npos);
  EXPECT_NE(r.err.find("floor: plane 'floor_2' (10 m square, material 'floor') at z = 0 and light "
                       "'floor_light'"),
            std::string::npos)
      << r.err;
  // Welded to the world: not moved.
  EXPECT_EQ(r.err.find("placed on the floor"), std::string::npos) << r.err;
  r = test::run("joco-compile " + dir + "/r.xml --print json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"ngeom\": 2"), std::string::npos);
  EXPECT_NE(r.out.find("\"nlight\": 1"), std::string::npos);
}

TEST(JocoUrdf2mjcf, FloatingRobotPlacedOnTheFloorWithItsSelfContactsExcluded) {
  const std::string solo = data("urdf/solo12/solo12.urdf");
  auto r = test::run("joco-urdf2mjcf " + solo + " --floating --floor --actuators position");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<body name=\"base_link\" pos=\"0 0 0.336992972332\">"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("placed on the floor: 'base_link' raised 0.336992972332 m, to z = "
                       "0.336992972332 m; the lowest collision geometry (of body 'FL_LOWER_LEG') "
                       "rests 1 mm above the floor"),
            std::string::npos)
      << r.err;
  // The base touches its four upper legs in the reference pose (its shoulders, children of a free
  // body, are filtered by MuJoCo already).
  for (const char* leg : {"FL", "FR", "HL", "HR"}) {
    EXPECT_NE(r.out.find(std::string("<exclude body1=\"base_link\" body2=\"") + leg +
                         "_UPPER_LEG\"/>  <!-- in contact in the reference pose (1 contact, 3.5 "
                         "mm deep) -->"),
              std::string::npos)
        << leg << r.out;
    EXPECT_NE(r.err.find(std::string("self-collision excluded: 'base_link' and '") + leg +
                         "_UPPER_LEG', in contact in the reference pose"),
              std::string::npos);
  }
  EXPECT_EQ(r.out.find("_SHOULDER\"/>"), std::string::npos);
  // Turned off.
  r = test::run("joco-urdf2mjcf " + solo + " --floating --floor --no-exclude-self-contacts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("<contact>"), std::string::npos);
  EXPECT_NE(r.out.find("Options: floating, floor, no-exclude-self-contacts."), std::string::npos);
}

TEST(JocoUrdf2mjcf, ParentAndChildWeldedToTheWorldExcludedOnRequest) {
  // UR5's base is welded to the world: MuJoCo's filterparent leaves base and shoulder colliding.
  const auto r = test::run("joco-urdf2mjcf " + data("urdf/ur5/ur5_robot.urdf") +
                           " --no-visual --exclude-self-contacts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<exclude body1=\"base_link\" body2=\"shoulder_link\"/>  <!-- parent and "
                       "child, the parent welded to the world"),
            std::string::npos)
      << r.out;
  EXPECT_NE(
      r.err.find("self-collision excluded: 'base_link' and 'shoulder_link', parent and child"),
      std::string::npos)
      << r.err;
}

#ifdef JOCO_HAVE_ASSIMP
TEST(JocoUrdf2mjcf, ColladaConvertedToObjWithItsUnitAndAxesAsWritten) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  std::ofstream(dir + "/r.urdf")
      << "<robot name='r'><link name='a'><inertial><mass value='1'/><inertia ixx='1' iyy='1' "
         "izz='1' ixy='0' ixz='0' iyz='0'/></inertial>\n<visual><geometry><mesh filename='"
      << data("urdf/formats/unit_mm_yup.dae")
      << "'/></geometry></visual>\n<visual><geometry><mesh filename='"
      << data("urdf/formats/tiny.dae") << "'/></geometry></visual></link></robot>\n";
  fs::create_directories(dir + "/out");
  auto r = test::run("joco-urdf2mjcf " + dir + "/r.urdf -o " + dir + "/out/r.xml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("mesh 'unit_mm_yup.dae' converted to OBJ with assimp: unit_mm_yup.obj (4 "
                       "vertices, 4 triangles, scaled by 0.001 for its unit)"),
            std::string::npos)
      << r.err;
  // tiny.dae has no scene: assimp reads nothing, the mesh is left out with a warning.
  EXPECT_NE(r.err.find("mesh '" + data("urdf/formats/tiny.dae") + "' could not be converted"),
            std::string::npos)
      << r.err;
  // Millimetres to metres; Y_UP left as written (ROS's readers ignore the up axis).
  const auto v = mesh_vertices(dir + "/out/unit_mm_yup.obj");
  ASSERT_EQ(v.size(), 4u);
  const auto box = bounding_box(v);
  const std::array<double, 6> expected{0, 0, 0, 1, 2, 3};
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(box[k], expected[k], 1e-6) << k;
  const std::string xml = read_text(dir + "/out/r.xml");
  EXPECT_NE(xml.find("file=\"unit_mm_yup.obj\""), std::string::npos) << xml;
  r = test::run("joco-compile " + dir + "/out/r.xml -o " + dir + "/r.jmb");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Run again: the OBJ this tool wrote is replaced, not renamed; a file of another origin stays.
  std::ofstream(dir + "/out/tiny.obj") << "# a user's file\n";
  r = test::run("joco-urdf2mjcf " + dir + "/r.urdf -o " + dir + "/out/r.xml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/unit_mm_yup_2.obj"));
  EXPECT_EQ(read_text(dir + "/out/tiny.obj"), "# a user's file\n");
  // --strict: a mesh that cannot be converted is an error.
  r = test::run("joco-urdf2mjcf --strict " + dir + "/r.urdf -o " + dir + "/out/s.xml");
  EXPECT_EQ(r.exit_code, 3);
}

TEST(JocoUrdf2mjcf, ConvertedVisualsOfUr5AndPandaMatchTheirCollisionMeshes) {
  // The COLLADA visuals (Z_UP, in metres) and the STL collision meshes of the same links: their
  // bounding boxes agree to the few millimetres the simplified collision meshes differ by. Had the
  // up axis been applied (assimp turns Z_UP to Y_UP), y and z would swap.
  int compared = 0;
  for (const auto& [urdf, meshes] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"urdf/ur5/ur5_robot.urdf", {"base", "wrist3"}}, {"urdf/panda/panda.urdf", {"hand"}}}) {
    const test::TempDir temp;
    const std::string& dir = temp.path();
    const auto r = test::run("joco-urdf2mjcf " + data(urdf) + " -o " + dir + "/robot.xml");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const std::string& mesh : meshes) {
      EXPECT_NE(
          r.err.find("mesh '" + mesh + ".dae' converted to OBJ with assimp: " + mesh + ".obj"),
          std::string::npos)
          << r.err;
      const auto obj = bounding_box(mesh_vertices(dir + "/" + mesh + ".obj"));
      const auto stl = bounding_box(
          mesh_vertices(fs::path(data(urdf)).parent_path().string() + "/" + mesh + ".stl"));
      for (int k = 0; k < 6; ++k) EXPECT_NEAR(obj[k], stl[k], 0.005) << urdf << " " << mesh << k;
      ++compared;
    }
    // The visuals are in the MJCF, and it compiles.
    const std::string xml = read_text(dir + "/robot.xml");
    EXPECT_NE(xml.find("class=\"visual\" type=\"mesh\" mesh=\"" + meshes[0] + "_2\""),
              std::string::npos)
        << xml;
    const auto c = test::run("joco-compile " + dir + "/robot.xml -o " + dir + "/robot.jmb");
    EXPECT_EQ(c.exit_code, 0) << c.err;
  }
  EXPECT_EQ(compared, 3);
}
#else
TEST(JocoUrdf2mjcf, WithoutAssimpMeshesAreLeftOut) {
  const auto r = test::run("joco-urdf2mjcf --help");
  EXPECT_NE(r.out.find("this build has no assimp"), std::string::npos) << r.out;
}
#endif

TEST(JocoUrdf2mjcf, HelpAndCompletionNameTheNewOptions) {
  const auto r = test::run("joco-urdf2mjcf --help");
  ASSERT_EQ(r.exit_code, 0);
  for (const char* flag : {"--floor", "--exclude-self-contacts", "--no-exclude-self-contacts",
                           "--convert-meshes", "--no-convert-meshes"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
    // The man page too.
    std::string escaped;
    for (const char* c = flag; *c; ++c)
      escaped += *c == '-' ? std::string("\\-") : std::string(1, *c);
    EXPECT_NE(read_text(std::string(JOCO_TESTDATA_DIR) + "/../man/joco-urdf2mjcf.1").find(escaped),
              std::string::npos)
        << flag;
  }
  // Bash completion offers them (from --help).
  const std::string script = std::string(JOCO_TESTDATA_DIR) + "/../completions/joco.bash";
  const auto c = test::run("bash -c '. \"" + script +
                           "\"; COMP_WORDS=(joco-urdf2mjcf --fl); COMP_CWORD=1; _joco_complete; "
                           "echo ${COMPREPLY[@]}; COMP_WORDS=(joco-urdf2mjcf --no-co); "
                           "_joco_complete; echo ${COMPREPLY[@]}'");
  EXPECT_EQ(c.out, "--floating --floor\n--no-convert-meshes\n") << c.err;
}

}  // namespace
}  // namespace joco::tools
