// The URDF converter against MuJoCo 2.2.2's own URDF importer, robot by robot:
//  (1) MuJoCo loads the MJCF joco writes;
//  (2) MuJoCo's model of that MJCF, and (3) joco's compiled model of it, equal MuJoCo's model of
//  the
//      original URDF: bodies (frames at qpos0, masses, centres of mass, inertia tensors), joints
//      (types, axes, anchors, limits, damping, friction), collision geoms (types, sizes, frames,
//      colours, contact bits) to 1e-9, except for the differences listed per robot, each of which
//      is a deliberate choice explained where it is listed.
// Bodies and joints are matched by name; geoms by the body they are welded to, in order. Frames and
// inertias are compared in the world frame, so that representations that differ but mean the same
// (a quaternion and its negative, principal axes in another order) compare equal.
// Then small URDFs written for the purpose (testdata/urdf/cases): MuJoCo's URDF extension, inertias
// MuJoCo balances or bounds link by link before fusing, zero masses with inertia.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "joco/error.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "math/vec.h"
#include "oracle/oracle.h"
#include "support/test_support.h"

namespace joco {
namespace {

constexpr double kTolerance = 1e-9;
struct BodyInfo {
  std::string weld;  // the body it is welded to ("world" for the world)
  int parent_moving = 0;
  double xpos[3], xmat[9];
  double mass;
  double com[3];
  double inertia[9];  // about the centre of mass, world frame
};

struct JointInfo {
  std::string body;
  int type;
  int limited;
  double range[2];
  double axis[3], anchor[3];  // world frame at qpos0
  double damping, frictionloss, armature;
};

struct GeomInfo {
  int type;
  double size[3];
  double xpos[3], xmat[9];
  double rgba[4];
  int contype, conaffinity;
  double friction[3];
  std::string mesh;
};

struct Summary {
  int nq = 0, nv = 0, njnt = 0, nbody = 0, neq = 0, nsite = 0;
  std::map<std::string, BodyInfo> bodies;   // moving bodies by name (and bodies welded to them)
  std::map<std::string, JointInfo> joints;  // by name
  std::map<std::string, std::vector<GeomInfo>> geoms;  // collision geoms by weld body, in order
  std::vector<std::string> static_bodies;  // bodies welded to the world, besides the world
};

template <class M>
std::string name_of(const M& m, const int* adr, int i) {
  return adr[i] >= 0 ? std::string(m.names + adr[i]) : std::string();
}

// The same summary of a joco Model or an mjModel (they share MuJoCo's field names).
template <class M>
Summary summarize(const M& m) {
  Summary s;
  s.nq = m.nq, s.nv = m.nv, s.njnt = m.njnt, s.nbody = m.nbody, s.neq = m.neq, s.nsite = m.nsite;
  std::vector<std::array<double, 3>> xpos(static_cast<size_t>(m.nbody));
  std::vector<std::array<double, 4>> xquat(static_cast<size_t>(m.nbody));
  xpos[0] = {0, 0, 0};
  xquat[0] = {1, 0, 0, 0};
  for (int b = 1; b < m.nbody; ++b) {
    const int p = m.body_parentid[b];
    math::frame_mul(xpos[b].data(), xquat[b].data(), xpos[p].data(), xquat[p].data(),
                    m.body_pos + 3 * b, m.body_quat + 4 * b);
  }
  auto body_name = [&](int b) {
    return b == 0 ? std::string("world") : name_of(m, m.name_bodyadr, b);
  };
  for (int b = 1; b < m.nbody; ++b) {
    const int weld = m.body_weldid[b];
    if (weld == 0) {
      s.static_bodies.push_back(body_name(b));
      continue;
    }
    BodyInfo info;
    info.weld = body_name(weld);
    math::copy3(info.xpos, xpos[b].data());
    math::quat_to_mat(info.xmat, xquat[b].data());
    info.mass = m.body_mass[b];
    double ipos[3], iquat[4];
    math::frame_mul(ipos, iquat, xpos[b].data(), xquat[b].data(), m.body_ipos + 3 * b,
                    m.body_iquat + 4 * b);
    math::copy3(info.com, ipos);
    double r[9], d[9] = {m.body_inertia[3 * b],    0, 0, 0, m.body_inertia[3 * b + 1], 0, 0, 0,
                         m.body_inertia[3 * b + 2]};
    double tmp[9];
    math::quat_to_mat(r, iquat);
    math::mat_mat3(tmp, r, d);
    math::mat_mat_t3(info.inertia, tmp, r);
    s.bodies[body_name(b)] = info;
  }
  for (int j = 0; j < m.njnt; ++j) {
    JointInfo info;
    const int b = m.jnt_bodyid[j];
    info.body = body_name(b);
    info.type = m.jnt_type[j];
    info.limited = m.jnt_limited[j];
    info.range[0] = m.jnt_range[2 * j], info.range[1] = m.jnt_range[2 * j + 1];
    math::quat_rotate(info.axis, xquat[b].data(), m.jnt_axis + 3 * j);
    double a[3];
    math::quat_rotate(a, xquat[b].data(), m.jnt_pos + 3 * j);
    math::add3(info.anchor, a, xpos[b].data());
    const int dof = m.jnt_dofadr[j];
    info.damping = m.dof_damping[dof], info.frictionloss = m.dof_frictionloss[dof],
    info.armature = m.dof_armature[dof];
    s.joints[name_of(m, m.name_jntadr, j)] = info;
  }
  for (int g = 0; g < m.ngeom; ++g) {
    if (m.geom_contype[g] == 0 && m.geom_conaffinity[g] == 0) continue;  // visual
    GeomInfo info;
    const int b = m.geom_bodyid[g];
    info.type = m.geom_type[g];
    for (int k = 0; k < 3; ++k)
      info.size[k] = m.geom_size[3 * g + k], info.friction[k] = m.geom_friction[3 * g + k];
    double q[4];
    math::frame_mul(info.xpos, q, xpos[b].data(), xquat[b].data(), m.geom_pos + 3 * g,
                    m.geom_quat + 4 * g);
    math::quat_to_mat(info.xmat, q);
    for (int k = 0; k < 4; ++k) info.rgba[k] = m.geom_rgba[4 * g + k];
    info.contype = m.geom_contype[g], info.conaffinity = m.geom_conaffinity[g];
    info.mesh = m.geom_dataid[g] >= 0 && info.type == mjGEOM_MESH
                    ? name_of(m, m.name_meshadr, m.geom_dataid[g])
                    : "";
    s.geoms[body_name(m.body_weldid[b])].push_back(info);
  }
  return s;
}

// Worst error per quantity, and the problems found.
struct Comparison {
  std::map<std::string, double> worst;
  std::vector<std::string> problems;

  void number(const std::string& what, const std::string& where, double a, double b, double scale,
              double tolerance = kTolerance) {
    oracle::count_compared();
    const double e = std::abs(a - b) / std::max(scale, 1e-300);
    double& w = worst[what];
    w = std::max(w, e);
    if (!(e <= tolerance)) {
      std::ostringstream s;
      s.precision(17);
      s << where << ": " << what << " " << a << " vs MuJoCo " << b << " (error " << e << ")";
      problems.push_back(s.str());
    }
  }
  void numbers(const std::string& what, const std::string& where, const double* a, const double* b,
               int n, double floor = 1, double tolerance = kTolerance) {
    double scale = floor;
    for (int i = 0; i < n; ++i) scale = std::max(scale, std::abs(b[i]));
    for (int i = 0; i < n; ++i)
      number(what, where + "[" + std::to_string(i) + "]", a[i], b[i], scale, tolerance);
  }
  void same(const std::string& what, const std::string& where, long a, long b) {
    oracle::count_compared();
    if (a != b)
      problems.push_back(where + ": " + what + " " + std::to_string(a) + " vs MuJoCo " +
                         std::to_string(b));
  }
  std::string table() const {
    std::string t;
    for (const auto& [what, e] : worst) {
      char line[128];
      std::snprintf(line, sizeof line, "  %-22s worst error %.2e\n", what.c_str(), e);
      t += line;
    }
    return t;
  }
};

// `ours` against MuJoCo's import `ref`. Joints named in `unlimited_by_design` are compared except
// for their limits (see the robot table).
Comparison compare(const Summary& ours, const Summary& ref,
                   const std::set<std::string>& unlimited_by_design) {
  Comparison c;
  c.same("nq", "model", ours.nq, ref.nq);
  c.same("nv", "model", ours.nv, ref.nv);
  c.same("njnt", "model", ours.njnt, ref.njnt);
  c.same("moving bodies", "model", static_cast<long>(ours.bodies.size()),
         static_cast<long>(ref.bodies.size()));
  for (const auto& [name, r] : ref.bodies) {
    const auto it = ours.bodies.find(name);
    if (it == ours.bodies.end()) {
      c.problems.push_back("body '" + name + "' missing");
      continue;
    }
    const BodyInfo& o = it->second;
    const std::string where = "body '" + name + "'";
    if (o.weld != r.weld)
      c.problems.push_back(where + ": welded to '" + o.weld + "' vs MuJoCo '" + r.weld + "'");
    c.numbers("body position", where, o.xpos, r.xpos, 3);
    c.numbers("body orientation", where, o.xmat, r.xmat, 9);
    c.number("body mass", where, o.mass, r.mass, std::abs(r.mass));
    c.numbers("body centre of mass", where, o.com, r.com, 3);
    c.numbers("body inertia", where, o.inertia, r.inertia, 9, 0);
  }
  for (const auto& [name, r] : ref.joints) {
    const auto it = ours.joints.find(name);
    if (it == ours.joints.end()) {
      c.problems.push_back("joint '" + name + "' missing");
      continue;
    }
    const JointInfo& o = it->second;
    const std::string where = "joint '" + name + "'";
    if (o.body != r.body)
      c.problems.push_back(where + ": in body '" + o.body + "' vs MuJoCo '" + r.body + "'");
    c.same("type", where, o.type, r.type);
    c.numbers("joint axis", where, o.axis, r.axis, 3);
    c.numbers("joint anchor", where, o.anchor, r.anchor, 3);
    if (!unlimited_by_design.count(name)) {
      c.same("limited", where, o.limited, r.limited);
      if (r.limited) c.numbers("joint range", where, o.range, r.range, 2);
    } else {
      c.same("limited (by design)", where, o.limited, 0);
    }
    c.number("joint damping", where, o.damping, r.damping, std::max(1.0, std::abs(r.damping)));
    c.number("joint frictionloss", where, o.frictionloss, r.frictionloss,
             std::max(1.0, std::abs(r.frictionloss)));
    c.number("joint armature", where, o.armature, r.armature, 1);
  }
  for (const auto& [weld, rg] : ref.geoms) {
    const auto it = ours.geoms.find(weld);
    const size_t n = it == ours.geoms.end() ? 0 : it->second.size();
    c.same("collision geoms", "welded to '" + weld + "'", static_cast<long>(n),
           static_cast<long>(rg.size()));
    for (size_t i = 0; i < std::min(n, rg.size()); ++i) {
      const GeomInfo& o = it->second[i];
      const GeomInfo& r = rg[i];
      const std::string where = "geom " + std::to_string(i) + " of '" + weld + "'";
      c.same("type", where, o.type, r.type);
      c.numbers("geom size", where, o.size, r.size, 3);
      c.numbers("geom position", where, o.xpos, r.xpos, 3);
      c.numbers("geom orientation", where, o.xmat, r.xmat, 9);
      c.numbers("geom rgba", where, o.rgba, r.rgba, 4);
      c.numbers("geom friction", where, o.friction, r.friction, 3);
      c.same("contype", where, o.contype, r.contype);
      c.same("conaffinity", where, o.conaffinity, r.conaffinity);
      if (o.mesh != r.mesh)
        c.problems.push_back(where + ": mesh '" + o.mesh + "' vs MuJoCo '" + r.mesh + "'");
    }
  }
  return c;
}

struct RobotCase {
  const char* folder;
  const char* urdf;
  // Joints MuJoCo limits and joco deliberately does not: continuous joints, which URDF defines
  // without limits, but whose <limit lower upper> MuJoCo 2.2.2's importer applies.
  std::set<std::string> unlimited_by_design;
  // <mimic> joints: joco writes a joint equality each; MuJoCo 2.2.2 ignores <mimic>.
  int mimics;
};

void PrintTo(const RobotCase& r, std::ostream* os) { *os << r.folder; }

const RobotCase kRobots[] = {
    {"r2d2", "r2d2.urdf", {"head_swivel"}, 0}, {"minitaur_primitive", "quadruped.urdf", {}, 0},
    {"ur5", "ur5_robot.urdf", {}, 0},          {"panda", "panda.urdf", {}, 1},
    {"solo12", "solo12.urdf", {}, 0},
};

class UrdfOracle : public ::testing::TestWithParam<RobotCase> {};

TEST_P(UrdfOracle, ConvertedRobotMatchesMuJoCosImport) {
  const RobotCase& robot = GetParam();
  const std::string folder = test::testdata(std::string("urdf/") + robot.folder);
  const std::string urdf_path = folder + "/" + robot.urdf;
  std::string error;
  auto reference = oracle::load(urdf_path, &error);
  ASSERT_TRUE(reference) << "MuJoCo cannot load " << urdf_path << ": " << error;
  const Summary ref = summarize(*reference);

  // (1) Our MJCF, written to another folder (so meshdir must point back), loads in MuJoCo.
  UrdfOptions options;
  options.base_dir = folder;
  const test::TempDir output;
  options.output_dir = output.path();
  UrdfReport report;
  const std::string mjcf = urdf_to_mjcf(test::read_text(urdf_path), urdf_path, options, &report);
  const std::string mjcf_path = options.output_dir + "/robot.xml";
  std::ofstream(mjcf_path) << mjcf;
  auto ours_in_mujoco = oracle::load(mjcf_path, &error);
  ASSERT_TRUE(ours_in_mujoco) << "MuJoCo cannot load joco's MJCF: " << error << "\n" << mjcf;

  // (2) MuJoCo's model of our MJCF against MuJoCo's model of the URDF.
  const Summary mine = summarize(*ours_in_mujoco);
  Comparison c = compare(mine, ref, robot.unlimited_by_design);
  EXPECT_TRUE(c.problems.empty()) << "MuJoCo(joco's MJCF) vs MuJoCo(URDF):\n"
                                  << testing::PrintToString(c.problems);
  std::cout << robot.folder << ": MuJoCo(joco's MJCF) vs MuJoCo(URDF)\n" << c.table();
  // Deliberate differences in size: the root link stays a body (welded to the world) where MuJoCo
  // fuses it into the world body, and each fused link leaves a site.
  EXPECT_EQ(mine.nbody, ref.nbody + 1);
  EXPECT_EQ(mine.static_bodies.size(), 1u);
  EXPECT_EQ(mine.neq, ref.neq + robot.mimics);
  EXPECT_EQ(ref.neq, 0);

  // (3) joco's compiled model of our MJCF against MuJoCo's model of the URDF.
  const Model m = compile_urdf(test::read_text(urdf_path), urdf_path, options);
  const Summary compiled = summarize(m);
  c = compare(compiled, ref, robot.unlimited_by_design);
  EXPECT_TRUE(c.problems.empty()) << "joco(joco's MJCF) vs MuJoCo(URDF):\n"
                                  << testing::PrintToString(c.problems);
  std::cout << robot.folder << ": joco(joco's MJCF) vs MuJoCo(URDF)\n" << c.table();
  EXPECT_EQ(compiled.nbody, mine.nbody);
  EXPECT_EQ(compiled.nsite, mine.nsite);
  EXPECT_EQ(compiled.neq, mine.neq);
}

INSTANTIATE_TEST_SUITE_P(Robots, UrdfOracle, ::testing::ValuesIn(kRobots),
                         [](const ::testing::TestParamInfo<RobotCase>& p) {
                           return std::string(p.param.folder);
                         });

// Each moving body's inertial against MuJoCo's in the body frame, to `tolerance` of its scale:
// body_mass, body_ipos, the inertia tensor that body_inertia and body_iquat make, and the fields
// themselves (iquat up to sign) where they list the principal moments in the same order (a link
// written with the URDF's diaginertia keeps the URDF's order; MuJoCo sorts). Returns the number of
// bodies whose fields were compared.
int expect_same_inertials(const Model& ours, const mjModel& ref, double tolerance) {
  int same_fields = 0;
  for (int b = 1; b < ref.nbody; ++b) {
    if (ref.body_weldid[b] == 0) continue;
    const std::string name = ref.names + ref.name_bodyadr[b];
    int o = -1;
    for (int k = 1; k < ours.nbody; ++k) {
      if (name == ours.names + ours.name_bodyadr[k]) o = k;
    }
    if (o < 0) {
      ADD_FAILURE() << "body '" << name << "' missing";
      continue;
    }
    const double* I = ref.body_inertia + 3 * b;
    const double* J = ours.body_inertia + 3 * o;
    const double scale = std::max({I[0], I[1], I[2]});
    oracle::count_compared(1 + 3 + 9);  // mass, centre of mass, inertia tensor
    EXPECT_NEAR(ours.body_mass[o], ref.body_mass[b], tolerance * ref.body_mass[b]) << name;
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(ours.body_ipos[3 * o + k], ref.body_ipos[3 * b + k], tolerance) << name;
    auto tensor = [](const double* quat, const double* moments) {
      std::array<double, 9> r{}, t{};
      math::quat_to_mat(r.data(), quat);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k) t[3 * i + j] += r[3 * i + k] * moments[k] * r[3 * j + k];
      return t;
    };
    const auto to = tensor(ours.body_iquat + 4 * o, J), tr = tensor(ref.body_iquat + 4 * b, I);
    for (int k = 0; k < 9; ++k)
      EXPECT_NEAR(to[k], tr[k], tolerance * scale) << name << " inertia tensor " << k;
    bool same_order = true;
    for (int k = 0; k < 3; ++k) same_order &= std::abs(J[k] - I[k]) <= tolerance * scale;
    if (!same_order) continue;
    ++same_fields;
    const double gap = std::min(std::abs(I[0] - I[1]), std::abs(I[1] - I[2]));
    if (gap > 1e-6 * scale) {
      const double* qo = ours.body_iquat + 4 * o;
      const double* qr = ref.body_iquat + 4 * b;
      const double sign = math::dot(qo, qr, 4) < 0 ? -1 : 1;
      for (int k = 0; k < 4; ++k)
        EXPECT_NEAR(sign * qo[k], qr[k], tolerance) << name << " iquat " << k;
    }
  }
  return same_fields;
}

// URDFs written for the purpose (testdata/urdf/cases/README.md): MuJoCo's import of each against
// joco's compiled model, and against MuJoCo's model of joco's MJCF.
struct SmallCase {
  const char* urdf;
  UrdfOptions options;
  // Bodies and geoms joco has beyond MuJoCo's: the root link stays a body when links are fused
  // (MuJoCo fuses it into the world); visual geoms are kept (MuJoCo discards them unless
  // discardvisual is false).
  int extra_bodies = 1, extra_geoms = 0;
  // Of inertias, relative to the body's largest moment. A body whose links all weigh their geoms is
  // weighed by the compiler from all of its geoms at once, where MuJoCo weighs each link and fuses
  // them one at a time (its eigensolver's tolerance shows at 1e-9).
  double inertia_tolerance = 1e-10;
};

void PrintTo(const SmallCase& c, std::ostream* os) { *os << c.urdf; }

const SmallCase kSmallCases[] = {
    {"zero_mass_root.urdf", {}},
    {"balance_fused.urdf", {}},
    {"extension_fusestatic.urdf", {}, 0, 0},
    {"extension_bounds.urdf", {}, 1, 1},
    {"extension_inertiafromgeom.urdf", {}, 1, 1, 1e-8},
    {"extension_no_inertiafromgeom.urdf", {}, 1, 1},
    {"extension_settotalmass.urdf", {}, 1, 1},
    {"extension_ignored.urdf", {}, 1, 1},
};

class UrdfCaseOracle : public ::testing::TestWithParam<SmallCase> {};

TEST_P(UrdfCaseOracle, CompiledLikeMuJoCosImport) {
  const SmallCase& c = GetParam();
  const std::string folder = test::testdata("urdf/cases");
  const std::string path = folder + "/" + c.urdf;
  std::string error;
  auto ref = oracle::load(path, &error);
  ASSERT_TRUE(ref) << "MuJoCo cannot load " << path << ": " << error;
  UrdfOptions options = c.options;
  options.base_dir = folder;
  const test::TempDir output;
  options.output_dir = output.path();
  const std::string text = test::read_text(path);
  const std::string mjcf = urdf_to_mjcf(text, path, options);
  std::ofstream(output.path() + "/robot.xml") << mjcf;
  auto ours_in_mujoco = oracle::load(output.path() + "/robot.xml", &error);
  ASSERT_TRUE(ours_in_mujoco) << "MuJoCo cannot load joco's MJCF: " << error << "\n" << mjcf;
  const Model m = compile_urdf(text, path, options);

  const Summary expected = summarize(*ref);
  for (const Summary& s : {summarize(*ours_in_mujoco), summarize(m)}) {
    const Comparison cmp = compare(s, expected, {});
    EXPECT_TRUE(cmp.problems.empty()) << testing::PrintToString(cmp.problems) << "\n" << mjcf;
  }
  EXPECT_GT(expect_same_inertials(m, *ref, c.inertia_tolerance), 0);
  EXPECT_EQ(m.nbody, ref->nbody + c.extra_bodies);
  EXPECT_EQ(m.ngeom, ref->ngeom + c.extra_geoms);
  EXPECT_EQ(m.opt.timestep, ref->opt.timestep);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(m.opt.gravity[k], ref->opt.gravity[k]);
  EXPECT_EQ(m.njmax, ref->njmax);
  EXPECT_EQ(m.nconmax, ref->nconmax);
  EXPECT_EQ(m.nmeshgraph, ref->nmeshgraph);
}

INSTANTIATE_TEST_SUITE_P(Cases, UrdfCaseOracle, ::testing::ValuesIn(kSmallCases),
                         [](const ::testing::TestParamInfo<SmallCase>& p) {
                           std::string name = p.param.urdf;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

// URDFs MuJoCo refuses: joco refuses them too, naming the line and the reason. (Written here, not
// in testdata, where every model is expected to simulate.)
struct Refused {
  const char* name;
  const char* urdf;
  const char* mujoco_says;
  const char* joco_says[2];
};

void PrintTo(const Refused& r, std::ostream* os) { *os << r.name; }

const Refused kRefused[] = {
    {"zero_mass_moving",
     "<robot name='r'>\n"
     "<link name='base'/>\n"
     "<link name='arm'><inertial><mass value='0'/>\n"
     "<inertia ixx='0.01' iyy='0.02' izz='0.025' ixy='0' ixz='0' iyz='0'/></inertial></link>\n"
     "<joint name='shoulder' type='revolute'><parent link='base'/><child link='arm'/>"
     "<axis xyz='0 0 1'/></joint>\n"
     "</robot>\n",
     "mass and inertia of moving bodies",
     {"t.urdf:3: <inertial> of link 'arm'", "moves but has zero mass and a non-zero inertia"}},
    // strippath="false": a package:// mesh is not looked for by its file name in meshdir.
    {"strippath_false",
     "<robot name='r'>\n"
     "<mujoco><compiler meshdir='.' strippath='false'/></mujoco>\n"
     "<link name='base'><collision><geometry>\n"
     "<mesh filename='package://any_package/meshes/tet.obj'/></geometry></collision></link>\n"
     "</robot>\n",
     "package://any_package/meshes/tet.obj",
     {"t.urdf:4: <mesh>", "strippath=\"false\""}},
};

class UrdfRefusedOracle : public ::testing::TestWithParam<Refused> {};

TEST_P(UrdfRefusedOracle, RefusedLikeMuJoCo) {
  const Refused& r = GetParam();
  // Beside tet.obj, so that only the path decides.
  const test::TempDir dir;
  std::filesystem::copy_file(test::testdata("urdf/formats/tet.obj"), dir.path() + "/tet.obj");
  const std::string path = dir.path() + "/t.urdf";
  std::ofstream(path) << r.urdf;
  std::string error;
  EXPECT_FALSE(oracle::load(path, &error));
  EXPECT_NE(error.find(r.mujoco_says), std::string::npos) << error;
  oracle::count_compared();  // MuJoCo's verdict, joco's below
  UrdfOptions options;
  options.base_dir = dir.path();
  try {
    compile_urdf(r.urdf, "t.urdf", options);
    ADD_FAILURE() << "joco accepts it";
  } catch (const InputError& e) {
    for (const char* fragment : r.joco_says)
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
  // Without strippath="false", both find the mesh by its name.
  const std::string text = r.urdf;
  if (text.find("strippath") != std::string::npos) {
    std::string stripped = text;
    stripped.erase(stripped.find(" strippath='false'"), 18);
    std::ofstream(path) << stripped;
    EXPECT_TRUE(oracle::load(path, &error)) << error;
    EXPECT_EQ(compile_urdf(stripped, "t.urdf", options).nmesh, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, UrdfRefusedOracle, ::testing::ValuesIn(kRefused),
                         [](const ::testing::TestParamInfo<Refused>& p) {
                           return std::string(p.param.name);
                         });

}  // namespace
}  // namespace joco
