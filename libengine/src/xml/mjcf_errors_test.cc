// Every class of MJCF error gives an InputError naming the file, the line, the element and a
// reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

// The message of compiling `xml` (empty when it compiles).
std::string error_of(const std::string& xml, const std::string& dir = ".") {
  return test::input_error([&] { compile_mjcf(xml, "model.xml", dir); });
}

struct Case {
  const char* what;
  const char* xml;
  const char* expected;  // fragments, '|'-separated, all of which the message must contain
};

// Shown by GoogleTest in place of the parameter's bytes.
std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.what; }

class MjcfError : public ::testing::TestWithParam<Case> {};

TEST_P(MjcfError, NamesFileLineElementAndReason) {
  const Case& c = GetParam();
  test::expect_fragments(error_of(c.xml), c.expected, c.what);
}

const Case kCases[] = {
    {"malformed XML", "<mujoco>\n<worldbody>\n<body>\n</worldbody></mujoco>",
     "model.xml:|malformed XML"},
    {"wrong root", "<robot/>", "model.xml:1: <robot>|root element"},
    {"unknown element", "<mujoco>\n<worldbody>\n<blob/>\n</worldbody>\n</mujoco>",
     "model.xml:3: <blob>|unrecognized element"},
    {"unknown attribute",
     "<mujoco>\n<worldbody>\n<geom size='1' colour='red'/>\n</worldbody>\n</mujoco>",
     "model.xml:3: <geom>|unrecognized attribute 'colour'"},
    {"element twice where once is allowed", "<mujoco><option><flag/><flag/></option></mujoco>",
     "model.xml:1: <flag>|only once"},
    {"bad number", "<mujoco>\n<worldbody>\n<geom size='0.1x'/>\n</worldbody></mujoco>",
     "model.xml:3: <geom>|'size'|'0.1x' is not a number"},
    {"too many numbers", "<mujoco><worldbody><geom size='1' pos='1 2 3 4'/></worldbody></mujoco>",
     "<geom>|'pos'|too many values"},
    {"too few numbers", "<mujoco><worldbody><geom size='1' pos='1 2'/></worldbody></mujoco>",
     "<geom>|'pos'|too few values"},
    {"bad keyword", "<mujoco><worldbody><geom type='blob' size='1'/></worldbody></mujoco>",
     "<geom>|'type'|'blob' is not one of"},
    {"bad boolean", "<mujoco><worldbody><light directional='yes'/></worldbody></mujoco>",
     "<light>|'directional'|'yes'"},
    {"NaN", "<mujoco><worldbody><geom size='nan'/></worldbody></mujoco>", "<geom>|NaN"},
    {"missing required attribute", "<mujoco><sensor><jointpos/></sensor></mujoco>",
     "<jointpos>|missing required attribute 'joint'"},
    {"unknown default class",
     "<mujoco><worldbody><geom class='nope' size='1'/></worldbody></mujoco>",
     "<geom>|unknown default class 'nope'"},
    {"unknown joint reference",
     "<mujoco><worldbody><body><joint name='a'/><geom size='1'/></body></worldbody>\n"
     "<actuator><motor joint='b'/></actuator></mujoco>",
     "model.xml:2: <motor>|unknown joint 'b'"},
    {"unknown mesh", "<mujoco><worldbody><geom type='mesh' mesh='m'/></worldbody></mujoco>",
     "<geom>|unknown mesh 'm'"},
    {"unknown material", "<mujoco><worldbody><geom size='1' material='m'/></worldbody></mujoco>",
     "<geom>|unknown material 'm'"},
    {"repeated name",
     "<mujoco><worldbody><geom name='g' size='1'/>\n<geom name='g' size='1'/></worldbody></mujoco>",
     "model.xml:2: <geom 'g'>|repeated geom name"},
    {"zero size", "<mujoco><worldbody><geom type='box' size='1 0 1'/></worldbody></mujoco>",
     "<geom>|size 1 must be positive"},
    {"negative mass",
     "<mujoco><worldbody><body><inertial pos='0 0 0' mass='-1' diaginertia='1 1 "
     "1'/><joint/></body></worldbody></mujoco>",
     "<body>|mass and inertia of moving bodies must be positive"},
    {"massless moving body",
     "<mujoco><worldbody><body><joint/><body><joint/><geom "
     "size='1'/></body></body></worldbody></mujoco>",
     "model.xml:1: <body>|mass and inertia of moving bodies must be positive"},
    {"inertia violating the triangle inequality",
     "<mujoco><worldbody><body><inertial pos='0 0 0' mass='1' diaginertia='1 1 "
     "3'/><joint/></body></worldbody></mujoco>",
     "<body>|A + B >= C"},
    {"range without limited",
     "<mujoco><worldbody><body><joint range='0 1'/><geom size='1'/></body></worldbody></mujoco>",
     "<joint>|'range' but not 'limited'"},
    {"inverted range",
     "<mujoco><worldbody><body><joint limited='true' range='1 0'/><geom "
     "size='1'/></body></worldbody></mujoco>",
     "<joint>|range[0] must be smaller"},
    {"free joint below another body",
     "<mujoco><worldbody><body><joint/><geom size='1'/><body><freejoint/><geom "
     "size='1'/></body></body></worldbody></mujoco>",
     "<freejoint>|free joint can only be used on a child of the world"},
    {"more than six dofs",
     "<mujoco><worldbody><body "
     "name='b'><joint/><joint/><joint/><joint/><joint/><joint/><joint/><geom "
     "size='1'/></body></worldbody></mujoco>",
     "<body 'b'>|more than 6 degrees of freedom"},
    {"mocap body not below the world",
     "<mujoco><worldbody><body><joint/><geom size='1'/><body mocap='true'><geom "
     "size='1'/></body></body></worldbody></mujoco>",
     "<body>|mocap"},
    {"stateful actuator first",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<actuator><general joint='j' dyntype='integrator'/><motor joint='j'/></actuator></mujoco>",
     "<motor>|must come before"},
    {"two transmission targets",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<actuator><motor joint='j' tendon='t'/></actuator></mujoco>",
     "<motor>|exactly one transmission"},
    {"keyframe of the wrong size",
     "<mujoco><worldbody><body><joint/><geom size='1'/></body></worldbody><keyframe><key qpos='1 "
     "2'/></keyframe></mujoco>",
     "<key>|qpos has 2 values, the model needs 1"},
    {"world body attribute", "<mujoco><worldbody name='w'/></mujoco>", "<worldbody>|world body"},
    {"orientation given twice",
     "<mujoco><worldbody><geom size='1' quat='1 0 0 0' euler='0 0 0'/></worldbody></mujoco>",
     "<geom>|only one orientation"},
    {"orientation beside fullinertia",
     "<mujoco><worldbody><body><joint/><inertial pos='0 0 0' mass='1' euler='10 0 0' "
     "fullinertia='1 1 1 0 0 0'/></body></worldbody></mujoco>",
     "<inertial>|'fullinertia'|orientation"},
    {"zero quaternion", "<mujoco><worldbody><geom size='1' quat='0 0 0 0'/></worldbody></mujoco>",
     "<geom>|quaternion is zero"},
    {"fromto on a sphere",
     "<mujoco><worldbody><geom size='1' fromto='0 0 0 1 0 0'/></worldbody></mujoco>",
     "<geom>|fromto requires"},
    {"wrapping around a box",
     "<mujoco><worldbody><site name='a'/><site name='b' pos='1 0 0'/><geom name='g' type='box' "
     "size='1 1 1'/></worldbody>"
     "<tendon><spatial><site site='a'/><geom geom='g'/><site "
     "site='b'/></spatial></tendon></mujoco>",
     "<geom>|spheres or cylinders"},
    // Rules MuJoCo 2.2.2 enforces (each tried there).
    {"adhesion with a negative ctrlrange",
     "<mujoco><worldbody><body name='b'><joint/><geom size='1'/></body></worldbody>"
     "<actuator><adhesion body='b' ctrlrange='-1 1'/></actuator></mujoco>",
     "<adhesion>|cannot be negative"},
    {"user sensor without needstage",
     "<mujoco><worldbody><body name='b'><joint/><geom size='1'/></body></worldbody>"
     "<sensor><user objtype='body' objname='b' datatype='real' dim='1'/></sensor></mujoco>",
     "<user>|missing required attribute 'needstage'"},
    {"negative sensor noise",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<sensor><jointpos joint='j' noise='-1'/></sensor></mujoco>",
     "<jointpos>|'noise'|negative"},
    {"negative sensor cutoff",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<sensor><jointpos joint='j' cutoff='-1'/></sensor></mujoco>",
     "<jointpos>|'cutoff'|negative"},
    {"weld of a body to itself",
     "<mujoco><worldbody><body name='b'><joint/><geom size='1'/></body></worldbody>"
     "<equality><weld body1='b' body2='b'/></equality></mujoco>",
     "<weld>|body 'b' to itself"},
    {"connect of the world to itself",
     "<mujoco><equality><connect body1='world' anchor='0 0 0'/></equality></mujoco>",
     "<connect>|body 'world' to itself"},
    {"joint equality of a joint to itself",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<equality><joint joint1='j' joint2='j'/></equality></mujoco>",
     "<joint>|joint 'j' to itself"},
    {"limited ball joint with range[0] not 0",
     "<mujoco><worldbody><body><joint type='ball' limited='true' range='0.1 1'/><geom "
     "size='1'/></body></worldbody></mujoco>",
     "<joint>|range[0] must be 0"},
    {"site of size 0", "<mujoco><worldbody><site size='0'/></worldbody></mujoco>",
     "<site>|size 0 must be positive"},
    {"box site with a negative size",
     "<mujoco><worldbody><site type='box' size='0.1 -0.1 0.1'/></worldbody></mujoco>",
     "<site>|size 1 must be positive"},
    {"limited tendon with an empty range",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<tendon><fixed limited='true' range='1 1'><joint joint='j' coef='1'/></fixed></tendon>"
     "</mujoco>",
     "<fixed>|range[0] must be smaller"},
    {"empty tuple", "<mujoco><custom><tuple name='t'/></custom></mujoco>",
     "<tuple 't'>|at least one element"},
    {"nuser below -1", "<mujoco><size nuser_geom='-2'/></mujoco>", "<size>|'nuser_geom'|-1"},
    {"class of a renamed root",
     "<mujoco><default class='x'><geom size='1'/></default><default/>"
     "<worldbody><geom class='x'/></worldbody></mujoco>",
     "<geom>|unknown default class 'x'"},
    {"empty class where a <default> names the root class",
     "<mujoco><default/>\n<worldbody><geom class='' size='1'/></worldbody></mujoco>",
     "model.xml:2: <geom>|unknown default class ''|here that class is 'main'"},
    {"empty childclass where a <default> names the root class",
     "<mujoco><default/><worldbody><body childclass=''><geom size='1'/></body></worldbody>"
     "</mujoco>",
     "<body>|'childclass'|unknown default class ''"},
    {"nested default with an empty class",
     "<mujoco><default>\n<default class=''/></default></mujoco>",
     "model.xml:2: <default>|non-empty class name"},
    {"real in a fixed-size int array",
     "<mujoco><worldbody><composite type='grid' count='3 3.0 1' spacing='0.1'><geom "
     "size='0.01'/></composite></worldbody></mujoco>",
     "<composite>|'count'|'3.0' is not an integer"},
    {"too many values in a fixed-size int array",
     "<mujoco><compiler inertiagrouprange='0 5 x'/></mujoco>",
     "<compiler>|'inertiagrouprange'|too many values"},
    {"empty fixed-size int array", "<mujoco><compiler inertiagrouprange=' '/></mujoco>",
     "<compiler>|'inertiagrouprange'|expected an integer"},
    {"damper with a negative ctrlrange",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<actuator><damper joint='j' kv='1' ctrlrange='-1 1'/></actuator></mujoco>",
     "<damper>|cannot be negative"},
    {"polycoef with fewer than 5 values",
     "<mujoco><worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<equality><joint joint1='j' polycoef='0 1'/></equality></mujoco>",
     "<joint>|'polycoef'|too few"},
    {"euler angles with a bad eulerseq",
     "<mujoco><compiler eulerseq='xyw'/><worldbody><geom size='1' euler='1 2 3'/></worldbody>"
     "</mujoco>",
     "<geom>|eulerseq 'xyw'"},
    {"flat mesh whose mass a body needs",
     "<mujoco><asset><mesh name='m' vertex='0 0 0 1 0 0 0 1 0 0 0 1' scale='0 1 1'/></asset>"
     "<worldbody><body><joint/><geom type='mesh' mesh='m'/></body></worldbody></mujoco>",
     "<geom>|mesh 'm'|volume is too small"},
    {"mesh without surface area whose mass a body needs",
     "<mujoco><asset><mesh name='m' vertex='0 0 0 1 0 0 0 1 0 0 0 1' face='0 1 0'/></asset>"
     "<worldbody><body><joint/><geom type='mesh' mesh='m'/></body></worldbody></mujoco>",
     "<geom>|mesh 'm'|surface area is too small"},
    {"inline mesh without a name",
     "<mujoco><asset><mesh vertex='0 0 0 1 0 0 0 1 0 0 0 1'/></asset></mujoco>",
     "<mesh>|needs a name"},
    {"camera targeting its own body",
     "<mujoco><worldbody><body name='b'><joint/><geom size='1'/><camera mode='targetbody' "
     "target='b'/></body></worldbody></mujoco>",
     "<camera>|cannot target the body it is in"},
    {"light targeting the world from the world",
     "<mujoco><worldbody><light mode='targetbodycom' target='world'/></worldbody></mujoco>",
     "<light>|cannot target the body it is in"},
    {"fromto beside a pos from the class",
     "<mujoco><default><geom pos='1 1 1'/></default><worldbody><geom type='capsule' "
     "fromto='0 0 0 1 0 0' size='0.1'/></worldbody></mujoco>",
     "<geom>|pos or fromto, not both"},
    {"inertial in the world body",
     "<mujoco><worldbody><inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/></worldbody>"
     "</mujoco>",
     "<inertial>|world body"},
    {"damper whose ctrlrange comes from its class",
     "<mujoco><default><default class='d'><damper kv='1' ctrlrange='0 1'/></default></default>"
     "<worldbody><body><joint name='j'/><geom size='1'/></body></worldbody>"
     "<actuator><damper class='d' joint='j'/></actuator></mujoco>",
     "<damper>|missing required attribute 'ctrlrange'"},
    {"damper default without ctrlrange", "<mujoco><default><damper kv='1'/></default></mujoco>",
     "<damper>|missing required attribute 'ctrlrange'"},
    // Spatial tendon paths MuJoCo 2.2.2 rejects.
    {"spatial path of one site",
     "<mujoco><worldbody><site name='a'/></worldbody>"
     "<tendon><spatial><site site='a'/></spatial></tendon></mujoco>",
     "<spatial>|at least two elements"},
    {"wrapping geom without a site after it",
     "<mujoco><worldbody><site name='a'/><geom name='g' size='1'/></worldbody>"
     "<tendon><spatial><site site='a'/><geom geom='g'/></spatial></tendon></mujoco>",
     "<geom>|a site on each side"},
    {"path ending with a pulley",
     "<mujoco><worldbody><site name='a'/><site name='b'/></worldbody>"
     "<tendon><spatial><site site='a'/><site site='b'/><pulley divisor='2'/></spatial></tendon>"
     "</mujoco>",
     "<pulley>|end with a pulley"},
    {"two pulleys in a row",
     "<mujoco><worldbody><site name='a'/><site name='b'/></worldbody>"
     "<tendon><spatial><site site='a'/><site site='b'/><pulley divisor='2'/><pulley "
     "divisor='2'/><site site='a'/><site site='b'/></spatial></tendon></mujoco>",
     "<pulley>|two pulleys in a row"},
    {"site alone between pulleys",
     "<mujoco><worldbody><site name='a'/><site name='b'/></worldbody>"
     "<tendon><spatial><site site='a'/><site site='b'/><pulley divisor='2'/><site site='a'/>"
     "</spatial></tendon></mujoco>",
     "<site>|not a pulley"},
    {"bad condim", "<mujoco><worldbody><geom size='1' condim='2'/></worldbody></mujoco>",
     "<geom>|condim"},
    {"missing include", "<mujoco><include file='does/not/exist.xml'/></mujoco>",
     "model.xml:1: <include>|cannot open file"},
    // Sizes: the message says which attribute of <size> to change.
    {"default stack beyond an int", "<mujoco><size njmax='20800'/></mujoco>",
     "model.xml|<size njmax=\"20800\">|lower njmax or set nstack in <size>"},
    {"Data beyond the limit", "<mujoco><size njmax='400000' nstack='1000'/></mujoco>",
     "model.xml|njmax = 400000|GiB of constraint rows|lower njmax, nconmax or nstack in <size>"},
    {"njmax beyond the largest size", "<mujoco><size njmax='300000000' nstack='1000'/></mujoco>",
     "model.xml|njmax = 300000000|lower it in <size>"},
};

INSTANTIATE_TEST_SUITE_P(Classes, MjcfError, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           return test::test_name(param.param.what);
                         });

// MuJoCo 2.2.2 checks eulerseq's letters only where euler angles use it.
TEST(MjcfCompiler, UnusedEulerseqLettersAreNotChecked) {
  EXPECT_EQ(error_of("<mujoco><compiler eulerseq='xyw'/><worldbody><geom size='1' "
                     "quat='1 0 0 0'/></worldbody></mujoco>"),
            "");
}

// Real numbers MuJoCo 2.2.2 reads and rejects (each tried there).
TEST(MjcfNumbers, RealsAsMuJoCoReadsThem) {
  const auto margin = [](const char* v) {
    return error_of(std::string("<mujoco><worldbody><geom size='1' margin='") + v +
                    "'/></worldbody></mujoco>");
  };
  for (const char* ok : {".5", "5.", "+.5e-1", "1E2", "1e-400"}) EXPECT_EQ(margin(ok), "") << ok;
  // Read as numbers, as 2.2.2 reads them, but then refused as a field of the model (man
  // joco-compile: no model field may be infinite).
  for (const char* inf : {"inf", "-INF", "InF"}) {
    test::expect_fragments(margin(inf), "geom_margin[0] = |inf, expected a finite number", inf);
  }
  for (const char* bad : {"0x1p-2", "0X10", "infinity", "-Infinity", "+inf", "1e400"})
    EXPECT_NE(margin(bad), "") << bad;
}

TEST(MjcfInclude, ErrorsNameTheIncludedFileAndItsLine) {
  const test::TempDir temp;
  const std::filesystem::path dir = temp.path();
  std::ofstream(dir / "part.xml")
      << "<mujoco>\n<worldbody>\n  <geom size='1' bad='x'/>\n</worldbody>\n</mujoco>\n";
  const std::string message = error_of("<mujoco><include file='part.xml'/></mujoco>", dir.string());
  EXPECT_NE(message.find("part.xml:3: <geom>"), std::string::npos) << message;
  EXPECT_NE(message.find("unrecognized attribute 'bad'"), std::string::npos) << message;
}

TEST(MjcfInclude, AFileMayBeIncludedOnce) {
  const test::TempDir temp;
  const std::filesystem::path dir = temp.path();
  std::ofstream(dir / "part.xml") << "<mujoco><worldbody><geom size='1'/></worldbody></mujoco>";
  const std::string message = error_of(
      "<mujoco><include file='part.xml'/><include file='part.xml'/></mujoco>", dir.string());
  EXPECT_NE(message.find("included more than once"), std::string::npos) << message;
}

TEST(MjcfInclude, IncludedElementsCompile) {
  const test::TempDir temp;
  const std::filesystem::path dir = temp.path();
  std::ofstream(dir / "body.xml")
      << "<mujoco><body name='b'><joint/><geom size='1'/></body></mujoco>";
  const Model m = compile_mjcf("<mujoco><worldbody><include file='body.xml'/></worldbody></mujoco>",
                               "model.xml", dir.string());
  EXPECT_EQ(m.nbody, 2);
  EXPECT_EQ(m.name_to_id(kObjBody, "b"), 1);
}

}  // namespace
}  // namespace joco
