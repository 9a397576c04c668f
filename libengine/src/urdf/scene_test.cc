// The floor, the placement of a free robot on it and the self-collision exclusions, checked on the
// compiled and simulated result.
#include "urdf/scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "joco/collision.h"
#include "joco/data.h"
#include "joco/forward.h"
#include "joco/mjcf.h"
#include "joco/urdf.h"
#include "support/test_support.h"
#include "xml/xml_tree.h"

namespace joco {
namespace {

struct Converted {
  std::string mjcf;
  UrdfReport report;
};

Converted convert_file(const std::string& relative, const UrdfOptions& options) {
  UrdfOptions o = options;
  const std::string path = test::testdata(relative);
  o.base_dir = path.substr(0, path.rfind('/'));
  Converted c;
  c.mjcf = urdf_to_mjcf(test::read_text(path), path, o, &c.report);
  return c;
}

int floor_geom(const Model& m) { return m.name_to_id(kObjGeom, "floor"); }

// Robot geoms touching the floor, and pairs of robot bodies in contact.
struct Contacts {
  int floor = 0;
  std::set<std::pair<int, int>> self;
};
Contacts contacts(const Model& m, const Data& d) {
  Contacts c;
  for (int i = 0; i < d.ncon; ++i) {
    const int b1 = m.geom_bodyid[d.contact[i].geom1], b2 = m.geom_bodyid[d.contact[i].geom2];
    if (b1 == 0 || b2 == 0) {
      ++c.floor;
    } else {
      c.self.insert({std::min(b1, b2), std::max(b1, b2)});
    }
  }
  return c;
}

TEST(UrdfScene, Solo12StandsOnTheFloorWithoutSelfContact) {
  UrdfOptions o;
  o.floating = true;
  o.floor = true;
  o.actuators = UrdfOptions::Actuators::kPosition;
  o.exclude_self_collisions = true;
  const Converted c = convert_file("urdf/solo12/solo12.urdf", o);
  const Model m = compile_mjcf(c.mjcf, "solo12 [as MJCF]", test::testdata("urdf/solo12"));
  ASSERT_GE(floor_geom(m), 0);
  EXPECT_EQ(m.nexclude, 4);  // the base and its four upper legs
  Data d(m);
  const int base = m.name_to_id(kObjBody, "base_link");
  // The reference pose: 1 mm above the floor, touching nothing.
  fwd_position(m, d);
  EXPECT_EQ(d.ncon, 0);
  const double z0 = d.xpos[3 * base + 2];
  EXPECT_NEAR(z0, 0.336992972332, 1e-9);
  // 2 s with the servos holding the reference pose: it lands and stands (or falls over), never
  // through the floor, and no two of its bodies stay in contact.
  std::map<std::pair<int, int>, int> self_steps;
  double lowest_base = z0;
  const int steps = static_cast<int>(2 / m.opt.timestep);
  int standing_on_floor = 0;
  for (int t = 0; t < steps; ++t) {
    step(m, d);
    lowest_base = std::min(lowest_base, d.xpos[3 * base + 2]);
    const Contacts now = contacts(m, d);
    if (t >= steps / 2) {
      for (const auto& p : now.self) ++self_steps[p];
      standing_on_floor += now.floor > 0;
    }
  }
  EXPECT_GT(lowest_base, 0.1) << "the base fell to the floor";
  EXPECT_GT(standing_on_floor, steps / 2 - 5) << "not resting on the floor at the end";
  for (const auto& [pair, n] : self_steps) {
    EXPECT_LT(n, steps / 4) << "bodies " << pair.first << " and " << pair.second
                            << " in contact for good";
  }
  // Without the exclusions, the base presses on its upper legs in the reference pose.
  o.exclude_self_collisions = false;
  const Model without = compile_mjcf(convert_file("urdf/solo12/solo12.urdf", o).mjcf, "solo12",
                                     test::testdata("urdf/solo12"));
  Data dw(without);
  fwd_position(without, dw);
  EXPECT_EQ(contacts(without, dw).self.size(), 4u);
}

// A free robot whose lowest point is on a tilted cylinder: placed 1 mm above the floor, 2 mm lower
// it touches, with that geom.
TEST(UrdfScene, PlacementFindsTheLowestPointOfEachGeomType) {
  const char* shapes[] = {"<cylinder radius='0.1' length='0.4'/>", "<box size='0.2 0.3 0.4'/>",
                          "<sphere radius='0.15'/>",
                          "<mesh filename='tet.obj' scale='0.3 0.3 0.3'/>"};
  for (const char* shape : shapes) {
    const std::string urdf =
        std::string(
            "<robot name='r'><link name='base'><inertial><mass value='1'/><inertia "
            "ixx='1' iyy='1' izz='1' ixy='0' ixz='0' iyz='0'/></inertial>"
            "<collision><geometry><box size='0.1 0.1 0.1'/></geometry></collision>"
            "<collision name='low'><origin xyz='0.2 0 -0.5' rpy='0.3 0.7 0.2'/>"
            "<geometry>") +
        shape + "</geometry></collision></link></robot>";
    UrdfOptions o;
    o.floating = true;
    o.floor = true;
    o.base_dir = test::testdata("urdf/formats");
    UrdfReport report;
    const std::string mjcf = urdf_to_mjcf(urdf, "r.urdf", o, &report);
    const Model m = compile_mjcf(mjcf, "r", o.base_dir);
    Data d(m);
    fwd_position(m, d);
    EXPECT_EQ(d.ncon, 0) << shape;
    d.qpos[2] -= 0.002;
    fwd_position(m, d);
    ASSERT_GE(d.ncon, 1) << shape;
    const int low = m.name_to_id(kObjGeom, "low");
    double deepest = 0;
    for (int i = 0; i < d.ncon; ++i) {
      EXPECT_TRUE(d.contact[i].geom1 == low || d.contact[i].geom2 == low) << shape;
      deepest = std::min(deepest, d.contact[i].dist);
    }
    EXPECT_NEAR(deepest, -0.001, 1e-6) << shape;
  }
}

TEST(UrdfScene, NothingChangesWithoutTheOptions) {
  const Converted a = convert_file("urdf/r2d2/r2d2.urdf", {});
  UrdfOptions o;
  o.floating = true;  // placement needs the floor
  const Converted b = convert_file("urdf/r2d2/r2d2.urdf", o);
  EXPECT_EQ(a.mjcf.find("<contact>"), std::string::npos);
  EXPECT_EQ(b.mjcf.find("floor"), std::string::npos);
  EXPECT_EQ(b.mjcf.find("<body name=\"base_link\" pos"), std::string::npos);
}

}  // namespace
}  // namespace joco
