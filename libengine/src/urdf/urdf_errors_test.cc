// Every class of bad URDF gives an InputError naming the file, the line, the element and a reason.
#include <gtest/gtest.h>

#include <ostream>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "support/errors.h"
#include "support/test_models.h"
#include "support/test_support.h"
#include "xml/xml_limits.h"

namespace joco {
namespace {

std::string error_of(const std::string& urdf, UrdfOptions o = {}) {
  o.base_dir = test::testdata("urdf/r2d2");
  return test::input_error([&] { urdf_to_mjcf(urdf, "t.urdf", o); });
}

struct Case {
  const char* what;
  const char* urdf;
  const char* expected;  // fragments, '|'-separated, all of which the message must contain
};

// Shown by GoogleTest in place of the parameter's bytes.
std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.what; }

class UrdfError : public ::testing::TestWithParam<Case> {};

using test::expect_fragments;

TEST_P(UrdfError, NamesFileLineElementAndReason) {
  const Case& c = GetParam();
  expect_fragments(error_of(c.urdf), c.expected, c.what);
}

#define INERTIAL(mass, ixx, iyy, izz, ixy)                                                         \
  "<inertial><mass value='" mass "'/><inertia ixx='" ixx "' iyy='" iyy "' izz='" izz "' ixy='" ixy \
  "' ixz='0' iyz='0'/></inertial>"
#define GOOD INERTIAL("1", "1", "1", "1", "0")

const Case kCases[] = {
    {"malformed XML", "<robot>\n<link name='a'>\n</robot>", "t.urdf:|malformed XML"},
    {"not a URDF", "<mujoco/>", "t.urdf:1: <mujoco>|root element of a URDF must be <robot>"},
    {"no links", "<robot name='r'/>", "t.urdf:1: <robot>|no <link>"},
    {"unnamed link", "<robot>\n<link/>\n</robot>",
     "t.urdf:2: <link>|missing required attribute 'name'"},
    {"duplicate link", "<robot>\n<link name='a'/>\n<link name='a'/>\n</robot>",
     "t.urdf:3: <link 'a'>|used twice|t.urdf:2"},
    {"duplicate joint",
     "<robot><link name='a'/><link name='b'/><link name='c'/>\n"
     "<joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint>\n"
     "<joint name='j' type='fixed'><parent link='a'/><child link='c'/></joint></robot>",
     "t.urdf:3: <joint 'j'>|used twice"},
    {"missing parent link",
     "<robot><link name='a'/>\n<joint name='j' type='fixed'><parent link='ghost'/><child "
     "link='a'/></joint></robot>",
     "t.urdf:2: <joint 'j'>|parent link 'ghost' does not exist"},
    {"missing child link",
     "<robot><link name='a'/>\n<joint name='j' type='fixed'><parent link='a'/><child "
     "link='ghost'/></joint></robot>",
     "t.urdf:2: <joint 'j'>|child link 'ghost' does not exist"},
    {"joint without parent",
     "<robot><link name='a'/>\n<joint name='j' type='fixed'><child link='a'/></joint></robot>",
     "t.urdf:2: <joint 'j'>|missing <parent>"},
    {"link with two parents",
     "<robot><link name='a'/><link name='b'/><link name='c'/>\n"
     "<joint name='j1' type='fixed'><parent link='a'/><child link='c'/></joint>\n"
     "<joint name='j2' type='fixed'><parent link='b'/><child link='c'/></joint></robot>",
     "t.urdf:3: <joint 'j2'>|'c' already has a parent|'j1'"},
    {"cycle",
     "<robot><link name='r'/><link name='a'/><link name='b'/>\n"
     "<joint name='j1' type='fixed'><parent link='a'/><child link='b'/></joint>\n"
     "<joint name='j2' type='fixed'><parent link='b'/><child link='a'/></joint></robot>",
     "<joint 'j|form a cycle|'a'|'b'"},
    {"own parent",
     "<robot><link name='a'/>\n<joint name='j' type='fixed'><parent link='a'/><child "
     "link='a'/></joint></robot>",
     "t.urdf:2: <joint 'j'>|own parent"},
    {"two roots", "<robot>\n<link name='a'/>\n<link name='b'/>\n</robot>",
     "t.urdf:3: <link 'b'>|2 links have no parent joint|t.urdf:2: <link 'a'>"},
    {"unknown joint type",
     "<robot><link name='a'/><link name='b'/>\n<joint name='j' type='hinge'><parent "
     "link='a'/><child link='b'/></joint></robot>",
     "t.urdf:2: <joint 'j'>|unknown joint type 'hinge'"},
    {"joint without type",
     "<robot><link name='a'/><link name='b'/>\n<joint name='j'><parent link='a'/><child "
     "link='b'/></joint></robot>",
     "t.urdf:2: <joint 'j'>|missing required attribute 'type'"},
    {"malformed number",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='fixed'><parent link='a'/><child "
     "link='b'/>\n"
     "<origin xyz='0 0 abc'/></joint></robot>",
     "t.urdf:2: <origin>|'xyz'|'abc' is not a number"},
    {"too few numbers",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='fixed'><parent link='a'/><child "
     "link='b'/>\n"
     "<origin rpy='0 1'/></joint></robot>",
     "t.urdf:2: <origin>|'rpy'|too few values"},
    {"infinite number",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='fixed'><parent link='a'/><child "
     "link='b'/>\n"
     "<origin xyz='inf 0 0'/></joint></robot>",
     "t.urdf:2: <origin>|'xyz'|finite"},
    {"negative mass",
     "<robot><link name='a'>\n" INERTIAL("-1", "1", "1", "1", "0") "</link></robot>",
     "t.urdf:2: <mass>|'a' has a negative mass"},
    {"zero mass with inertia on a moving link",
     "<robot><link name='base'/><link name='a'>\n" INERTIAL(
         "0", "1", "1", "1", "0") "</link><joint name='j' type='revolute'><parent "
                                  "link='base'/><child link='a'/></joint>"
                                  "</robot>",
     "t.urdf:2: <inertial> of link 'a'|moves but has zero mass and a non-zero inertia"},
    {"negative moment",
     "<robot><link name='a'>\n" INERTIAL("1", "-1", "1", "1", "0") "</link></robot>",
     "t.urdf:2: <inertia>|'ixx'|cannot be negative"},
    {"impossible inertia",
     "<robot><link name='a'>\n" INERTIAL("1", "1", "1", "3", "0") "</link></robot>",
     "t.urdf:2: <inertial> of link 'a'|violate A + B >= C|--balance-inertia"},
    {"indefinite inertia",
     "<robot><link name='a'>\n" INERTIAL("1", "1", "1", "1", "2") "</link></robot>",
     "t.urdf:2: <inertial> of link 'a'|not positive semi-definite"},
    {"inertial without mass",
     "<robot><link name='a'>\n<inertial><inertia ixx='1' iyy='1' izz='1' ixy='0' ixz='0' "
     "iyz='0'/></inertial></link></robot>",
     "t.urdf:2: <inertial> of link 'a'|missing <mass>"},
    {"inertia attribute missing",
     "<robot><link name='a'><inertial><mass value='1'/>\n<inertia ixx='1' iyy='1' "
     "izz='1'/></inertial></link></robot>",
     "t.urdf:2: <inertia>|missing required attribute 'ixy'"},
    {"two inertials", "<robot>\n<link name='a'>" GOOD GOOD "</link></robot>",
     "t.urdf:2: <link 'a'>|more than one <inertial>"},
    {"zero axis",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='revolute'><parent "
     "link='a'/><child link='b'/>\n"
     "<axis xyz='0 0 0'/></joint></robot>",
     "t.urdf:2: <axis>|'xyz'|must not be zero"},
    {"negative damping",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='revolute'><parent "
     "link='a'/><child link='b'/>\n"
     "<dynamics damping='-1'/></joint></robot>",
     "t.urdf:2: <dynamics>|'damping'|negative"},
    {"negative box",
     "<robot><link name='a'><collision><geometry>\n<box size='1 -1 "
     "1'/></geometry></collision></link></robot>",
     "t.urdf:2: <box>|'size'|positive"},
    {"zero radius",
     "<robot><link name='a'><visual><geometry>\n<sphere "
     "radius='0'/></geometry></visual></link></robot>",
     "t.urdf:2: <sphere>|'radius'|positive"},
    {"cylinder without length",
     "<robot><link name='a'><visual><geometry>\n<cylinder "
     "radius='1'/></geometry></visual></link></robot>",
     "t.urdf:2: <cylinder>|missing required attribute 'length'"},
    {"unknown geometry",
     "<robot><link name='a'><collision><geometry>\n<cone "
     "radius='1'/></geometry></collision></link></robot>",
     "t.urdf:2: <cone>|unknown geometry type <cone>"},
    {"empty geometry", "<robot><link name='a'><collision>\n<geometry/></collision></link></robot>",
     "t.urdf:2: <geometry>|no shape"},
    {"shape without geometry", "<robot><link name='a'>\n<collision/></link></robot>",
     "t.urdf:2: <collision> of link 'a'|missing <geometry>"},
    {"mesh without file",
     "<robot><link name='a'><collision><geometry>\n<mesh/></geometry></collision></link></robot>",
     "t.urdf:2: <mesh>|missing required attribute 'filename'"},
    {"missing mesh file",
     "<robot><link name='a'><collision><geometry>\n<mesh "
     "filename='meshes/nothing.stl'/></geometry></collision></link></robot>",
     "t.urdf:2: <mesh>|mesh file 'meshes/nothing.stl' not found"},
    {"unknown package",
     "<robot><link name='a'><collision><geometry>\n<mesh "
     "filename='package://pkg/nothing.stl'/></geometry></collision></link></robot>",
     "t.urdf:2: <mesh>|not found|--package-path pkg=DIR"},
    {"zero mesh scale",
     "<robot><link name='a'><collision><geometry>\n<mesh filename='l_finger.stl' scale='1 0 "
     "1'/></geometry></collision></link></robot>",
     "t.urdf:2: <mesh>|'scale'|must not be zero"},
    {"colour out of range",
     "<robot><material name='m'>\n<color rgba='2 0 0 1'/></material><link name='a'/></robot>",
     "t.urdf:2: <color>|'rgba'|between 0 and 1"},
    {"material twice", "<robot><material name='m'/>\n<material name='m'/><link name='a'/></robot>",
     "t.urdf:2: <material 'm'>|defined twice"},
    {"mimic of nothing",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='revolute'><parent "
     "link='a'/><child link='b'/>\n"
     "<mimic joint='ghost'/></joint></robot>",
     "t.urdf:2: <mimic>|'ghost', which does not exist"},
    {"mimic of itself",
     "<robot><link name='a'/><link name='b'/><joint name='j' type='revolute'><parent "
     "link='a'/><child link='b'/>\n"
     "<mimic joint='j'/></joint></robot>",
     "t.urdf:2: <mimic>|mimics itself"},
    {"xacro",
     "<robot xmlns:xacro='http://ros.org/wiki/xacro'>\n<xacro:macro name='m'/><link "
     "name='a'/></robot>",
     "t.urdf:2: <xacro:macro>|xacro"},
};

INSTANTIATE_TEST_SUITE_P(Cases, UrdfError, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& p) {
                           return test::test_name(p.param.what);
                         });

TEST(UrdfErrorOptions, TransmissionOfAMissingJoint) {
  const std::string urdf =
      "<robot><link name='a'/>\n<transmission name='t'><type>SimpleTransmission</type><joint "
      "name='ghost'/>"
      "<actuator name='m'/></transmission></robot>";
  UrdfOptions o;
  EXPECT_EQ(error_of(urdf, o), "");  // unused without actuators
  o.actuators = UrdfOptions::Actuators::kMotor;
  expect_fragments(error_of(urdf, o), "t.urdf:2: <transmission 't'>|'ghost', which does not exist",
                   "transmission");
}

std::string chain(int links) {
  std::string urdf = "<robot name='chain'>\n<link name='l0'/>\n";
  for (int i = 1; i < links; ++i) {
    urdf += "<link name='l" + std::to_string(i) + "'/><joint name='j" + std::to_string(i) +
            "' type='revolute'><parent link='l" + std::to_string(i - 1) + "'/><child link='l" +
            std::to_string(i) + "'/></joint>\n";
  }
  return urdf + "</robot>\n";
}

TEST(UrdfErrorOptions, ChainsTooDeepToConvert) {
  // The reader refuses chains deeper than 2000 links (it walks them recursively).
  expect_fragments(error_of(chain(2002)), "t.urdf:2003: <joint 'j2001'>|deeper than 2000 links",
                   "deep chain");
  // One nesting limit for the converter and the MJCF reader (kMaxBodyDepth, from the XML reader's
  // element depth): a chain the converter writes compiles; one level more is refused by both, by
  // the converter before it writes MJCF that nothing could read (it converted with a warning).
  UrdfOptions o;
  o.base_dir = test::testdata("urdf/r2d2");
  EXPECT_NO_THROW(compile_urdf(chain(kMaxBodyDepth), "t.urdf", o));
  expect_fragments(error_of(chain(kMaxBodyDepth + 1)),
                   "t.urdf|bodies nest 97 deep|96 levels of <body>|at most 99 deep", "too deep");
  std::string mjcf = "<mujoco><worldbody>";
  for (int i = 0; i <= kMaxBodyDepth; ++i) mjcf += "<body><geom size='1'/>";
  for (int i = 0; i <= kMaxBodyDepth; ++i) mjcf += "</body>";
  mjcf += "</worldbody></mujoco>";
  expect_fragments(test::input_error([&] { compile_mjcf(mjcf, "deep.xml", "."); }),
                   "deep.xml:1|nest deeper than 99 levels|at most 96 levels of <body>",
                   "MJCF too deep");
}

TEST(UrdfErrorOptions, StrictTurnsWarningsIntoErrors) {
  const std::string urdf = "<robot><link name='a'/><link name='b'>" GOOD
                           "</link>\n<joint name='j' type='revolute'><parent link='a'/>"
                           "<child link='b'/>\n<limit lower='1' upper='-1'/></joint></robot>";
  UrdfOptions o;
  EXPECT_EQ(error_of(urdf, o), "");
  o.strict = true;
  expect_fragments(error_of(urdf, o),
                   "t.urdf:3: <limit>|lower limit 1 above upper limit -1|--strict", "strict");
}

}  // namespace
}  // namespace joco
