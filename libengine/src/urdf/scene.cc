#include "urdf/scene.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "joco/collision.h"
#include "joco/constants.h"
#include "joco/data.h"
#include "joco/forward.h"
#include "joco/mjcf.h"

namespace joco::urdf {

namespace {

// Half the side of the floor plane, and the spacing of its grid lines as drawn.
constexpr double kFloorHalfSize = 5;
constexpr double kFloorGrid = 0.05;

bool collides(const Model& m, int g) { return m.geom_contype[g] || m.geom_conaffinity[g]; }

// The lowest world z of a geom at the current geom_xpos and geom_xmat (every point of a mesh's
// vertices, which its convex hull, what collides, shares).
double lowest_z(const Model& m, const Data& d, int g) {
  const double* p = d.geom_xpos + 3 * g;
  const double* r = d.geom_xmat + 9 * g + 6;  // the third row: world z of the geom's axes
  const double* s = m.geom_size + 3 * g;
  const double axial = std::abs(r[2]), radial = std::sqrt(std::max(0.0, 1 - r[2] * r[2]));
  switch (m.geom_type[g]) {
    case kGeomSphere: return p[2] - s[0];
    case kGeomCapsule: return p[2] - axial * s[1] - s[0];
    case kGeomCylinder: return p[2] - axial * s[1] - radial * s[0];
    case kGeomEllipsoid:
      return p[2] - std::sqrt(r[0] * r[0] * s[0] * s[0] + r[1] * r[1] * s[1] * s[1] +
                              r[2] * r[2] * s[2] * s[2]);
    case kGeomBox:
      return p[2] - std::abs(r[0]) * s[0] - std::abs(r[1]) * s[1] - std::abs(r[2]) * s[2];
    case kGeomMesh: {
      const int mesh = m.geom_dataid[g];
      const float* v = m.mesh_vert + 3 * m.mesh_vertadr[mesh];
      double low = std::numeric_limits<double>::infinity();
      for (int k = 0; k < m.mesh_vertnum[mesh]; ++k, v += 3)
        low = std::min(low, p[2] + r[0] * v[0] + r[1] * v[1] + r[2] * v[2]);
      return low;
    }
    default: return std::numeric_limits<double>::infinity();  // planes, height fields
  }
}

std::string unique_name(const Model& m, ObjType type, const std::string& wanted) {
  std::string name = wanted;
  for (int k = 2; m.name_to_id(type, name) >= 0; ++k) name = wanted + "_" + std::to_string(k);
  return name;
}

std::string body_name(const Model& m, int b) { return std::string(m.name(kObjBody, b)); }

std::string millimetres(double metres) {
  return format_computed(std::round(metres * 1e4) / 10) + " mm";
}

XmlNode* child(XmlNode& n, const std::string& name) {
  for (XmlNode& c : n.children) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// Where a new top-level element goes: before the first of `after` present, else at the end.
XmlNode& insert_before(XmlNode& root, XmlNode n, const std::set<std::string>& after) {
  auto at = root.children.begin();
  while (at != root.children.end() && !after.count(at->name)) ++at;
  return *root.children.insert(at, std::move(n));
}

void add_floor(XmlNode& root, const Model& m, double base_z, UrdfReport& report) {
  const std::string texture = unique_name(m, kObjTexture, "floor_checker");
  const std::string material = unique_name(m, kObjMaterial, "floor");
  const std::string geom = unique_name(m, kObjGeom, "floor");
  const std::string light = unique_name(m, kObjLight, "floor_light");
  XmlNode* asset = child(root, "asset");
  if (!asset) asset = &insert_before(root, XmlNode("asset"), {"worldbody"});
  XmlNode t("texture");
  t.set("name", texture).set("type", "2d").set("builtin", "checker");
  t.set("rgb1", "0.1 0.2 0.3").set("rgb2", "0.2 0.3 0.4").set("width", "300").set("height", "300");
  t.set("mark", "edge").set("markrgb", "0.2 0.3 0.4");
  t.comments.push_back("the floor (option floor): a checker of 1 m squares");
  asset->add(std::move(t));
  XmlNode mat("material");
  mat.set("name", material).set("texture", texture).set("texrepeat", "1 1");
  mat.set("texuniform", "true").set("reflectance", "0.2");
  asset->add(std::move(mat));

  XmlNode* world = child(root, "worldbody");
  XmlNode l("light");
  const double height = std::max(3.0, 2 * base_z + 1);
  const double pos[3] = {0, 0, height};
  l.set("name", light).set("pos", format_numbers(pos, 3, true)).set("dir", "0 0 -1");
  l.set("directional", "true");
  l.comments.push_back("the floor and a light from above (option floor)");
  XmlNode f("geom");
  const double size[3] = {kFloorHalfSize, kFloorHalfSize, kFloorGrid};
  f.set("name", geom).set("type", "plane").set("size", format_numbers(size, 3));
  f.set("material", material);
  world->children.insert(world->children.begin(), std::move(f));
  world->children.insert(world->children.begin(), std::move(l));
  report.summary.push_back("floor: plane '" + geom + "' (" + format_number(2 * kFloorHalfSize) +
                           " m square, material '" + material + "') at z = 0 and light '" + light +
                           "'");
}

// Raises the top-level bodies with a free joint so that the lowest collision geometry of the
// free part of the robot is `margin` above z = 0.
void place_on_floor(XmlNode& root, const Model& m, const Data& d, double margin, UrdfReport& report,
                    double& base_z) {
  double low = std::numeric_limits<double>::infinity();
  int lowest = -1;
  for (int g = 0; g < m.ngeom; ++g) {
    const int top = m.body_rootid[m.geom_bodyid[g]];
    if (top == 0 || !collides(m, g) || m.body_jntnum[top] == 0 ||
        m.jnt_type[m.body_jntadr[top]] != kJointFree) {
      continue;
    }
    const double z = lowest_z(m, d, g);
    if (z < low) low = z, lowest = g;
  }
  if (lowest < 0) {
    report.summary.push_back(
        "no free body with collision geoms to place on the floor (the option floating frees the "
        "root link)");
    return;
  }
  const double raise = margin - low;
  XmlNode* world = child(root, "worldbody");
  std::string names;
  for (XmlNode& b : world->children) {
    if (b.name != "body" || !child(b, "freejoint")) continue;
    double pos[3] = {0, 0, 0};
    if (const std::string* text = b.find("pos")) {
      const char* c = text->c_str();
      for (double& v : pos) v = std::strtod(c, const_cast<char**>(&c));
    }
    pos[2] += raise;
    b.set("pos", format_numbers(pos, 3, true));
    if (names.empty()) base_z = pos[2];
    names += (names.empty() ? "'" : ", '") + *b.find("name") + "'";
  }
  const std::string geom_name(m.name(kObjGeom, lowest));
  report.summary.push_back(
      "placed on the floor: " + names + " raised " + format_computed(raise) +
      " m, to z = " + format_computed(base_z) + " m; the lowest collision geometry (" +
      (geom_name.empty() ? "" : "geom '" + geom_name + "' ") + "of body '" +
      body_name(m, m.geom_bodyid[lowest]) + "') rests " + millimetres(margin) + " above the floor");
}

void add_exclusions(XmlNode& root, const Model& m, const Data& d, UrdfReport& report) {
  std::map<std::pair<int, int>, std::string> pairs;  // body pair (lower id first) -> why
  auto compatible = [&](int b1, int b2) {
    for (int g1 = m.body_geomadr[b1]; g1 < m.body_geomadr[b1] + m.body_geomnum[b1]; ++g1) {
      for (int g2 = m.body_geomadr[b2]; g2 < m.body_geomadr[b2] + m.body_geomnum[b2]; ++g2) {
        if ((m.geom_contype[g1] & m.geom_conaffinity[g2]) ||
            (m.geom_contype[g2] & m.geom_conaffinity[g1]))
          return true;
      }
    }
    return false;
  };
  // Parent and child that MuJoCo lets collide: the world body is never excluded (the floor and the
  // URDF's world link are in it).
  for (int b = 1; b < m.nbody; ++b) {
    const int p = m.body_parentid[b];
    if (p == 0 || bodies_filtered(m, p, b) || !compatible(p, b)) continue;
    pairs[{p, b}] =
        m.opt.disableflags & kDisableFilterparent
            ? "parent and child (filterparent disabled)"
            : "parent and child, the parent welded to the world (MuJoCo filters parent and child "
              "only below moving bodies)";
  }
  std::map<std::pair<int, int>, std::pair<int, double>> touching;  // count, deepest
  for (int c = 0; c < d.ncon; ++c) {
    int b1 = m.geom_bodyid[d.contact[c].geom1], b2 = m.geom_bodyid[d.contact[c].geom2];
    if (b1 > b2) std::swap(b1, b2);
    if (b1 == 0) continue;
    auto& [count, deepest] = touching[{b1, b2}];
    ++count;
    deepest = std::min(deepest, d.contact[c].dist);
  }
  for (const auto& [pair, t] : touching) {
    if (pairs.count(pair)) continue;
    pairs[pair] = "in contact in the reference pose (" + std::to_string(t.first) +
                  (t.first == 1 ? " contact, " : " contacts, ") + millimetres(-t.second) + " deep)";
  }
  if (pairs.empty()) return;
  XmlNode contact("contact");
  contact.comments.push_back(
      "self-collision exclusions: pairs that would touch for good (the option "
      "no-exclude-self-contacts leaves them out)");
  for (const auto& [pair, why] : pairs) {
    XmlNode e("exclude");
    e.set("body1", body_name(m, pair.first)).set("body2", body_name(m, pair.second));
    e.trailing_comment = why;
    contact.add(std::move(e));
    report.summary.push_back("self-collision excluded: '" + body_name(m, pair.first) + "' and '" +
                             body_name(m, pair.second) + "', " + why);
  }
  insert_before(root, std::move(contact), {"equality", "actuator"});
}

}  // namespace

void finish_scene(MjcfDocument& doc, const std::string& source, const UrdfOptions& o,
                  UrdfReport& report) {
  if (!o.floor && !o.exclude_self_collisions) return;
  const std::string dir = o.output_dir.empty() ? o.base_dir : o.output_dir;
  const Model m = compile_mjcf(write_xml(doc.root, doc.header), source + " [as MJCF]", dir);
  Data d(m);
  fwd_position(m, d);  // the reference pose: geom frames and contacts
  double base_z = 0;
  if (o.floor && o.floating) place_on_floor(doc.root, m, d, o.floor_margin, report, base_z);
  if (o.exclude_self_collisions) add_exclusions(doc.root, m, d, report);
  if (o.floor) add_floor(doc.root, m, base_z, report);
}

}  // namespace joco::urdf
