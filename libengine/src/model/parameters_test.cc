#include "joco/parameters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/set_const.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "support/errors.h"
#include "support/test_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

// Every array, option, visual and statistic byte of a and b equal; returns the fields compared.
int expect_same_model(const Model& a, const Model& b) {
  int compared = 0;
  const std::vector<ArrayField> fa = a.arrays(), fb = b.arrays();
  EXPECT_EQ(fa.size(), fb.size());
  for (size_t i = 0; i < fa.size() && i < fb.size(); ++i) {
    EXPECT_EQ(fa[i].bytes(), fb[i].bytes()) << fa[i].name;
    if (fa[i].bytes() != fb[i].bytes()) continue;
    if (fa[i].bytes()) {
      EXPECT_EQ(std::memcmp(fa[i].data, fb[i].data, fa[i].bytes()), 0) << fa[i].name;
    }
    ++compared;
  }
  const std::vector<StructField> sa = a.struct_fields(), sb = b.struct_fields();
  for (size_t i = 0; i < sa.size(); ++i) {
    EXPECT_EQ(std::memcmp(sa[i].data, sb[i].data, scalar_size(sa[i].type) * size_t(sa[i].count)), 0)
        << sa[i].name;
    ++compared;
  }
  return compared;
}

std::string cart_xml() { return test::read_text(test::testdata("params/cart.xml")); }

Model compile_text(const std::string& xml) {
  return compile_mjcf(xml, "cart.xml", test::testdata("params"));
}

// The XML with `from` replaced by `to` (exactly once).
std::string edited(std::string xml, const std::string& from, const std::string& to) {
  const size_t at = xml.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) xml.replace(at, from.size(), to);
  return xml;
}

// qpos, qvel and sensordata of `steps` steps with a fixed control, bit for bit.
std::vector<double> rollout(const Model& m, int steps) {
  Data d(m);
  std::vector<double> out;
  for (int t = 0; t < steps; ++t) {
    for (int u = 0; u < m.nu; ++u) d.ctrl[u] = 0.5 * std::sin(0.01 * t + u);
    step(m, d);
    out.insert(out.end(), d.qpos, d.qpos + m.nq);
    out.insert(out.end(), d.qvel, d.qvel + m.nv);
    out.insert(out.end(), d.sensordata, d.sensordata + m.nsensordata);
  }
  return out;
}

Model with(const Model& base, const std::vector<std::string>& assignments) {
  Model m = base;
  std::vector<ParameterValue> values;
  for (const std::string& a : assignments) values.push_back(parse_parameter_assignment(m, a));
  set_parameters(m, values, "--set");
  return m;
}

// Recomputing the constants of an unchanged compiled model changes no bit: the recomputation is the
// compiler's own.
TEST(Parameters, RecomputingConstantsOfACompiledModelChangesNothing) {
  int compared = 0;
  for (const std::string& path : test::quick_models()) {
    SCOPED_TRACE(path);
    const Model m = compile_mjcf_file(test::testdata(path));
    Model again = m;
    compiler::recompute_constants(again, compiler::derived_statistics(m));
    compared += expect_same_model(m, again);
  }
  EXPECT_GT(compared, 0);
}

struct XmlCase {
  std::vector<std::string> set;                          // --set assignments
  std::vector<std::pair<std::string, std::string>> xml;  // the same change in the XML: from, to
};

// Each change made by set_parameters gives the model compiled from the edited XML, every field
// bit for bit, and the same trajectory.
TEST(Parameters, SetEqualsTheSameChangeInTheXml) {
  const std::pair<std::string, std::string> tilt = {R"(<option )",
                                                    R"(<option gravity="1 0 -9.81" )"};
  const std::vector<XmlCase> cases = {
      {{"opt.timestep=0.002"}, {{R"(timestep="0.005")", R"(timestep="0.002")"}}},
      {{"opt.gravity=1 0 -9.81"}, {tilt}},
      {{"geom_friction[floor]=0.3 0.005 0.0001", "opt.gravity=1 0 -9.81"},
       {tilt, {R"(friction="1 0.005 0.0001")", R"(friction="0.3 0.005 0.0001")"}}},
      {{"body_mass[cart]=5"}, {{R"(mass="1")", R"(mass="5")"}}},
      {{"body_mass[2]=1.5"}, {{R"(mass="0.5")", R"(mass="1.5")"}}},
      {{"body_inertia[pole]=0.02 0.025 0.01"},
       {{R"(diaginertia="0.015 0.015 0.001")", R"(diaginertia="0.02 0.025 0.01")"}}},
      {{"dof_damping[slide]=0.7"}, {{R"(damping="0.2")", R"(damping="0.7")"}}},
      {{"dof_armature[slide]=0.5"}, {{R"(armature="0.01")", R"(armature="0.5")"}}},
      {{"dof_damping[ball_free]=1 1 1 1 1 1", "opt.gravity=1 0 -9.81"},
       {tilt,
        {R"(<freejoint name="ball_free"/>)",
         R"(<joint type="free" name="ball_free" damping="1"/>)"}}},
      {{"jnt_stiffness[hinge]=2"}, {{R"(stiffness="0.1")", R"(stiffness="2")"}}},
      {{"jnt_range[slide]=-0.001 0.002"}, {{R"(range="-2 2")", R"(range="-0.001 0.002")"}}},
      {{"actuator_gear[push]=3 0 0 0 0 0"}, {{R"(gear="2")", R"(gear="3")"}}},
      {{"actuator_gainprm[tilt]=5 0 0 0 0 0 0 0 0 0",
        "actuator_biasprm[tilt]=0 -5 0 0 0 0 0 0 0 0"},
       {{R"(kp="3")", R"(kp="5")"}}},
      {{"tendon_stiffness[couple]=0.9"}, {{R"(stiffness="0.5")", R"(stiffness="0.9")"}}},
      {{"geom_condim[ball_geom]=1", "opt.gravity=1 0 -9.81"},
       {tilt, {R"(size="0.1" )", R"(size="0.1" condim="1" )"}}},
  };
  const Model base = compile_text(cart_xml());
  int compared = 0;
  for (const XmlCase& c : cases) {
    SCOPED_TRACE(c.set[0]);
    std::string xml = cart_xml();
    for (const auto& [from, to] : c.xml) xml = edited(xml, from, to);
    const Model expected = compile_text(xml);
    const Model changed = with(base, c.set);
    compared += expect_same_model(expected, changed);
    EXPECT_EQ(rollout(expected, 300), rollout(changed, 300));
    // The change matters: the trajectory differs from the base model's.
    EXPECT_NE(rollout(base, 300), rollout(changed, 300));
  }
  EXPECT_GT(compared, 0);
}

// The mass statistics <statistic> gives stay; the others follow the masses.
TEST(Parameters, GivenStatisticsStay) {
  const std::string given =
      edited(cart_xml(), "<worldbody>", R"(<statistic meaninertia="2"/><worldbody>)");
  const Model changed = with(compile_text(given), {"body_mass[cart]=5"});
  const Model expected = compile_text(edited(given, R"(mass="1")", R"(mass="5")"));
  EXPECT_EQ(changed.stat.meaninertia, 2);
  EXPECT_GT(expect_same_model(expected, changed), 0);
}

TEST(Parameters, ElementsByNameOrIndex) {
  const Model m = compile_text(cart_xml());
  const ModelParameter p = find_parameter(m, "geom_friction[ball_geom]");
  EXPECT_EQ(p.element, m.name_to_id(kObjGeom, "ball_geom"));
  EXPECT_EQ(p.offset, 3 * p.element);
  EXPECT_EQ(p.count, 3);
  EXPECT_EQ(find_parameter(m, "geom_friction[3]").offset, 9);
  const ModelParameter free = find_parameter(m, "dof_damping[ball_free]");
  EXPECT_EQ(free.count, 6);
  EXPECT_EQ(free.offset, 2);
  EXPECT_EQ(find_parameter(m, "dof_damping[4]").count, 1);
  EXPECT_EQ(find_parameter(m, "opt.gravity").count, 3);
}

// Enumerated options take MJCF's keywords (the <option> attribute's words) as well as codes.
TEST(Parameters, EnumeratedOptionsByKeyword) {
  const Model m = compile_text(cart_xml());
  const auto value = [&](const char* assignment) {
    return parse_parameter_assignment(m, assignment).values;
  };
  EXPECT_EQ(value("opt.integrator=RK4"), std::vector<double>{kIntRK4});
  EXPECT_EQ(value("opt.integrator=implicitfast"), std::vector<double>{kIntImplicitFast});
  EXPECT_EQ(value("opt.integrator=1"), std::vector<double>{kIntRK4});
  EXPECT_EQ(value("opt.solver=CG"), std::vector<double>{kSolverCG});
  EXPECT_EQ(value("opt.cone=elliptic"), std::vector<double>{kConeElliptic});
  EXPECT_EQ(value("opt.jacobian=sparse"), std::vector<double>{kJacSparse});
  EXPECT_EQ(value("opt.collision=predefined"), std::vector<double>{kCollisionPair});
  // the same words as the XML reader takes, nothing else
  EXPECT_THROW(value("opt.iterations=RK4"), InputError);
  EXPECT_THROW(value("geom_friction[0]=elliptic 0 0"), InputError);
}

TEST(Parameters, BadNamesAndValuesAreRefusedNamingThem) {
  const Model m = compile_text(cart_xml());
  const auto refused = [&](const std::vector<std::string>& set,
                           const std::vector<std::string>& fragments) {
    SCOPED_TRACE(set[0]);
    try {
      with(m, set);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      std::string expected;
      for (const std::string& f : fragments) expected += (expected.empty() ? "" : "|") + f;
      test::expect_fragments(e.what(), expected, set[0]);
    }
  };
  refused({"geom_frict[floor]=1 0 0"}, {"geom_frict", "no such Model field"});
  refused({"geom_friction[nofloor]=1 0 0"}, {"geom_friction[nofloor]", "no geom named 'nofloor'"});
  refused({"geom_friction[9]=1 0 0"}, {"geom_friction[9]", "out of range"});
  refused({"geom_friction=1 0 0"}, {"geom_friction", "needs an element"});
  refused({"geom_friction[floor]=1 0"}, {"geom_friction[floor]", "2 values given, 3 expected"});
  refused({"geom_friction[floor]=1 x 0"}, {"geom_friction[floor]", "'x' is not a number"});
  refused({"geom_friction[floor]"}, {"expected NAME=VALUES"});
  refused({"geom_size[floor]=1 1 1"}, {"geom_size", "bounding spheres", "not recomputed"});
  refused({"body_subtreemass[cart]=1"}, {"body_subtreemass", "derived by the compiler"});
  refused({"body_parentid[cart]=0"}, {"body_parentid", "structure"});
  refused({"ngeom[0]=1"}, {"ngeom", "is a size"});
  refused({"opt.timestpe=1"}, {"opt.timestpe", "no such option"});
  refused({"opt.timestep=0"}, {"--set: opt.timestep", "must be positive"});
  refused({"opt.timestep=nan"}, {"opt.timestep", "finite"});
  refused({"opt.integrator=9"}, {"opt.integrator", "unknown"});
  refused({"opt.integrator=rk4"},
          {"opt.integrator", "'rk4' is not a number or one of Euler, RK4, implicit, implicitfast"});
  refused({"opt.iterations=2.5"}, {"opt.iterations", "whole number"});
  refused({"body_mass[cart]=-1"}, {"body_mass[cart]", "cannot be negative"});
  refused({"body_mass[ball]=0"},
          {"body ball", "mass and inertia of moving bodies must be positive"});
  refused({"body_inertia[ball]=1 1 3"}, {"body_inertia[ball]", "A + B >= C"});
  refused({"jnt_range[slide]=1 -1"}, {"jnt_range[slide]", "range[0] must be smaller"});
  refused({"geom_condim[floor]=2"}, {"geom_condim[floor]", "1, 3, 4 or 6"});
  // Nothing is changed when one value of several is refused.
  Model kept = m;
  std::vector<ParameterValue> values = {parse_parameter_assignment(m, "body_mass[cart]=3"),
                                        parse_parameter_assignment(m, "body_mass[ball]=-1")};
  EXPECT_THROW(set_parameters(kept, values), InputError);
  EXPECT_EQ(kept.body_mass[1], m.body_mass[1]);
  EXPECT_THROW(check_parameters(kept, values), InputError);
  EXPECT_EQ(kept.body_mass[1], m.body_mass[1]);
  // check_parameters leaves the model as it was when the values are good too.
  check_parameters(kept, {values.begin(), 1});
  EXPECT_EQ(kept.body_mass[1], m.body_mass[1]);
  EXPECT_GT(expect_same_model(m, kept), 0);
}

// A model whose actuators have length ranges (which the compiler may have simulated) refuses the
// fields that simulation reads, and takes the others.
TEST(Parameters, LengthRangeReadersAreRefusedWhereRangesExist) {
  const Model m = compile_mjcf_file(test::testdata("actuation/actuators.xml"));
  bool ranges = false;
  for (int i = 0; i < m.nu; ++i)
    ranges = ranges || m.actuator_lengthrange[2 * i] < m.actuator_lengthrange[2 * i + 1];
  ASSERT_TRUE(ranges);
  try {
    with(m, {"body_mass[1]=2"});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    test::expect_fragments(e.what(), "body_mass[1]|length range|not recomputed", "body_mass");
  }
  const Model changed = with(m, {"opt.gravity=0 0 -1", "geom_friction[0]=0.5 0.01 0.001"});
  EXPECT_EQ(changed.opt.gravity[2], -1);
}

TEST(Parameters, TheTableListsOnlyRealFields) {
  const Model m = compile_text(cart_xml());
  int listed = 0;
  for (const SettableField& f : settable_fields()) {
    const std::string name = f.field;
    bool exists = false;
    if (name.starts_with("opt.")) {
      for (const StructField& s : m.struct_fields()) exists = exists || s.name == name;
    } else {
      for (const ArrayField& a : m.arrays()) exists = exists || name == a.name;
    }
    EXPECT_TRUE(exists) << name;
    ++listed;
  }
  EXPECT_GT(listed, 50);
}

}  // namespace
}  // namespace joco
