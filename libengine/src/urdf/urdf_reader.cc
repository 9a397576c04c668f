// Reading a URDF document into a Robot, with every check that needs only the file itself.
#include <cmath>
#include <set>

#include "joco/error.h"
#include "urdf/urdf_model.h"
#include "xml/attributes.h"

namespace joco::urdf {

namespace {

using compiler::AttributeReader;
using compiler::XmlElement;

// "robot.urdf:12: <joint 'elbow'>"
std::string where_named(const XmlElement& e, const std::string& name) {
  std::string w = e.where();
  if (!name.empty()) w.insert(w.size() - 1, " '" + name + "'");
  return w;
}

[[noreturn]] void fail(const std::string& where, const std::string& reason) {
  throw InputError(where + ": " + reason);
}

// Finite reals, exactly `count` of them.
template <size_t N>
bool read_finite(const XmlElement& e, const char* attribute, std::array<double, N>& out) {
  AttributeReader a(e);
  if (!a.read(attribute, out)) return false;
  for (double v : out) {
    if (!std::isfinite(v)) a.fail(attribute, "values must be finite");
  }
  return true;
}

bool read_finite(const XmlElement& e, const char* attribute, double& out) {
  std::array<double, 1> v{out};
  if (!read_finite(e, attribute, v)) return false;
  out = v[0];
  return true;
}

double required_finite(const XmlElement& e, const char* attribute) {
  double v = 0;
  if (!read_finite(e, attribute, v))
    fail(e.where(), "missing required attribute '" + std::string(attribute) + "'");
  return v;
}

std::string required_name(const XmlElement& e, const char* attribute = "name") {
  const std::string* v = e.find(attribute);
  if (!v) fail(e.where(), "missing required attribute '" + std::string(attribute) + "'");
  if (v->empty()) fail(e.where(), "attribute '" + std::string(attribute) + "' is empty");
  return *v;
}

// The only child of a given name; null when absent, an error when repeated.
const XmlElement* single_child(const XmlElement& e, const std::string& where, const char* name) {
  const XmlElement* found = nullptr;
  for (const XmlElement& c : e.children) {
    if (c.name != name) continue;
    if (found)
      fail(where, "more than one <" + std::string(name) + "> (lines " +
                      std::to_string(found->line) + " and " + std::to_string(c.line) + ")");
    found = &c;
  }
  return found;
}

Pose read_origin(const XmlElement& parent, const std::string& where) {
  Pose p;
  if (const XmlElement* o = single_child(parent, where, "origin")) {
    read_finite(*o, "xyz", p.xyz);
    read_finite(*o, "rpy", p.rpy);
  }
  return p;
}

Rgba read_rgba(const XmlElement& e) {
  Rgba c{};
  if (!read_finite(e, "rgba", c)) fail(e.where(), "missing required attribute 'rgba'");
  for (double v : c) {
    if (v < 0 || v > 1) AttributeReader(e).fail("rgba", "values must be between 0 and 1");
  }
  return c;
}

Material read_material(const XmlElement& e, bool name_required) {
  Material m;
  m.where = e.where();
  if (name_required) {
    m.name = required_name(e);
  } else if (const std::string* n = e.find("name")) {
    m.name = *n;
  }
  m.where = where_named(e, m.name);
  if (const XmlElement* c = single_child(e, m.where, "color")) m.rgba = read_rgba(*c);
  if (const XmlElement* t = single_child(e, m.where, "texture")) {
    if (const std::string* f = t->find("filename")) m.texture = *f;
  }
  return m;
}

double positive(const XmlElement& e, const char* attribute) {
  const double v = required_finite(e, attribute);
  if (v <= 0) AttributeReader(e).fail(attribute, "must be positive");
  return v;
}

Geometry read_geometry(const XmlElement& g) {
  const std::string where = g.where();
  if (g.children.empty())
    fail(where, "no shape: expected one of <box>, <cylinder>, <sphere>, <mesh>");
  if (g.children.size() > 1)
    fail(where, "more than one shape (lines " + std::to_string(g.children[0].line) + " and " +
                    std::to_string(g.children[1].line) + ")");
  const XmlElement& s = g.children[0];
  Geometry geo;
  geo.where = s.where();
  if (s.name == "box") {
    geo.type = Geometry::kBox;
    if (!read_finite(s, "size", geo.size)) fail(geo.where, "missing required attribute 'size'");
    for (double v : geo.size) {
      if (v <= 0) AttributeReader(s).fail("size", "box sides must be positive");
    }
  } else if (s.name == "cylinder" || s.name == "capsule") {
    geo.type = s.name == "cylinder" ? Geometry::kCylinder : Geometry::kCapsule;
    geo.radius = positive(s, "radius");
    geo.length = positive(s, "length");
  } else if (s.name == "sphere") {
    geo.type = Geometry::kSphere;
    geo.radius = positive(s, "radius");
  } else if (s.name == "mesh") {
    geo.type = Geometry::kMesh;
    geo.filename = required_name(s, "filename");
    if (read_finite(s, "scale", geo.scale)) {
      for (double v : geo.scale) {
        if (v == 0) AttributeReader(s).fail("scale", "values must not be zero");
      }
    }
  } else {
    fail(geo.where,
         "unknown geometry type <" + s.name + ">: expected <box>, <cylinder>, <sphere> or <mesh>");
  }
  return geo;
}

Shape read_shape(const XmlElement& e, const std::string& link) {
  Shape s;
  if (const std::string* n = e.find("name")) s.name = *n;
  s.where = e.where() + " of link '" + link + "'";
  s.origin = read_origin(e, s.where);
  const XmlElement* g = single_child(e, s.where, "geometry");
  if (!g) fail(s.where, "missing <geometry>");
  s.geometry = read_geometry(*g);
  if (const XmlElement* m = single_child(e, s.where, "material")) {
    const Material mat = read_material(*m, false);
    s.material = mat.name;
    s.rgba = mat.rgba;
  }
  return s;
}

Inertial read_inertial(const XmlElement& e, const std::string& link) {
  Inertial in;
  in.where = e.where() + " of link '" + link + "'";
  in.origin = read_origin(e, in.where);
  const XmlElement* mass = single_child(e, in.where, "mass");
  if (!mass) fail(in.where, "missing <mass>");
  in.mass = required_finite(*mass, "value");
  const XmlElement* inertia = single_child(e, in.where, "inertia");
  if (!inertia) fail(in.where, "missing <inertia>");
  const char* names[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  for (size_t i = 0; i < 6; ++i) in.inertia[i] = required_finite(*inertia, names[i]);
  if (in.mass < 0) fail(mass->where(), "link '" + link + "' has a negative mass");
  // Zero mass with a non-zero inertia is judged by the converter, where it knows whether the link
  // moves (MuJoCo 2.2.2 accepts it where the inertial is never used).
  for (size_t i = 0; i < 3; ++i) {
    if (in.inertia[i] < 0)
      AttributeReader(*inertia).fail(names[i], "a moment of inertia cannot be negative");
  }
  return in;
}

Link read_link(const XmlElement& e) {
  Link l;
  l.name = required_name(e);
  l.where = where_named(e, l.name);
  for (const XmlElement& c : e.children) {
    if (c.name == "inertial") {
      if (l.inertial) fail(l.where, "more than one <inertial>");
      l.inertial = read_inertial(c, l.name);
    } else if (c.name == "visual") {
      l.visuals.push_back(read_shape(c, l.name));
    } else if (c.name == "collision") {
      l.collisions.push_back(read_shape(c, l.name));
    } else {
      l.ignored.push_back(c.name);
    }
  }
  return l;
}

Joint read_joint(const XmlElement& e) {
  Joint j;
  j.name = required_name(e);
  j.where = where_named(e, j.name);
  const std::string* type = e.find("type");
  if (!type) fail(j.where, "missing required attribute 'type'");
  j.type_name = *type;
  static const std::pair<const char*, Joint::Type> kTypes[] = {
      {"revolute", Joint::kRevolute},   {"continuous", Joint::kContinuous},
      {"prismatic", Joint::kPrismatic}, {"fixed", Joint::kFixed},
      {"floating", Joint::kFloating},   {"planar", Joint::kPlanar}};
  bool known = false;
  for (const auto& [word, value] : kTypes) {
    if (*type == word) {
      j.type = value;
      known = true;
    }
  }
  if (!known) {
    fail(j.where, "unknown joint type '" + *type +
                      "': expected revolute, continuous, prismatic, fixed, floating or planar");
  }
  j.origin = read_origin(e, j.where);
  const XmlElement* parent = single_child(e, j.where, "parent");
  if (!parent) fail(j.where, "missing <parent>");
  j.parent = required_name(*parent, "link");
  const XmlElement* child = single_child(e, j.where, "child");
  if (!child) fail(j.where, "missing <child>");
  j.child = required_name(*child, "link");
  if (const XmlElement* axis = single_child(e, j.where, "axis")) {
    j.has_axis = read_finite(*axis, "xyz", j.axis);
    if (j.axis == Vec3{0, 0, 0}) AttributeReader(*axis).fail("xyz", "the axis must not be zero");
  }
  if (const XmlElement* limit = single_child(e, j.where, "limit")) {
    Limit l;
    l.where = limit->where();
    double v = 0;
    if (read_finite(*limit, "lower", v)) l.lower = v;
    if (read_finite(*limit, "upper", v)) l.upper = v;
    AttributeReader a(*limit);
    l.has_effort = a.read("effort", l.effort);
    l.has_velocity = a.read("velocity", l.velocity);
    if (std::isnan(l.effort) || l.effort < 0) a.fail("effort", "must not be negative");
    if (std::isnan(l.velocity) || l.velocity < 0) a.fail("velocity", "must not be negative");
    j.limit = l;
  }
  if (const XmlElement* dyn = single_child(e, j.where, "dynamics")) {
    read_finite(*dyn, "damping", j.damping);
    read_finite(*dyn, "friction", j.friction);
    if (j.damping < 0) AttributeReader(*dyn).fail("damping", "must not be negative");
    if (j.friction < 0) AttributeReader(*dyn).fail("friction", "must not be negative");
  }
  if (const XmlElement* mimic = single_child(e, j.where, "mimic")) {
    Mimic m;
    m.where = mimic->where();
    m.joint = required_name(*mimic, "joint");
    read_finite(*mimic, "multiplier", m.multiplier);
    read_finite(*mimic, "offset", m.offset);
    j.mimic = m;
  }
  j.safety_controller = single_child(e, j.where, "safety_controller") != nullptr;
  j.calibration = single_child(e, j.where, "calibration") != nullptr;
  for (const XmlElement& c : e.children) {
    static const std::set<std::string> kKnown = {
        "origin",     "parent", "child", "axis", "limit", "dynamics", "mimic", "safety_controller",
        "calibration"};
    if (!kKnown.count(c.name)) j.ignored.push_back(c.name);
  }
  return j;
}

Transmission read_transmission(const XmlElement& e) {
  Transmission t;
  if (const std::string* n = e.find("name")) t.name = *n;
  t.where = where_named(e, t.name);
  if (const std::string* type = e.find("type")) t.type = *type;
  for (const XmlElement& c : e.children) {
    if (c.name == "type") {
      t.type = c.text;
    } else if (c.name == "joint") {
      t.joints.push_back(required_name(c));
    } else if (c.name == "actuator") {
      double reduction = 1;
      for (const XmlElement& a : c.children) {
        if (a.name != "mechanicalReduction") continue;
        char* end = nullptr;
        reduction = std::strtod(a.text.c_str(), &end);
        if (a.text.empty() || *end != '\0' || !std::isfinite(reduction) || reduction == 0) {
          fail(a.where(), "'" + a.text + "' is not a non-zero number");
        }
      }
      t.actuators.emplace_back(required_name(c), reduction);
    }
  }
  return t;
}

void reject_xacro(const XmlElement& e) {
  if (e.name.rfind("xacro:", 0) == 0) {
    fail(e.where(),
         "this is a xacro file, not a URDF: expand it first (xacro robot.urdf.xacro > robot.urdf)");
  }
  for (const XmlElement& c : e.children) reject_xacro(c);
}

constexpr int kMaxDepth = 2000;

// One root, every other link the child of exactly one joint, no cycles.
void build_tree(Robot& r) {
  const size_t n = r.links.size();
  r.parent_joint.assign(n, -1);
  r.child_joints.assign(n, {});
  for (size_t j = 0; j < r.joints.size(); ++j) {
    const Joint& joint = r.joints[j];
    const auto parent = r.link_index.find(joint.parent);
    if (parent == r.link_index.end())
      fail(joint.where, "parent link '" + joint.parent + "' does not exist");
    const auto child = r.link_index.find(joint.child);
    if (child == r.link_index.end())
      fail(joint.where, "child link '" + joint.child + "' does not exist");
    if (parent->second == child->second)
      fail(joint.where, "link '" + joint.child + "' is its own parent (a cycle)");
    int& pj = r.parent_joint[static_cast<size_t>(child->second)];
    if (pj >= 0) {
      fail(joint.where, "link '" + joint.child + "' already has a parent, through joint '" +
                            r.joints[static_cast<size_t>(pj)].name + "' (" +
                            r.joints[static_cast<size_t>(pj)].where +
                            "): a link has at most one parent");
    }
    pj = static_cast<int>(j);
    r.child_joints[static_cast<size_t>(parent->second)].push_back(static_cast<int>(j));
  }
  std::vector<int> roots;
  for (size_t i = 0; i < n; ++i) {
    if (r.parent_joint[i] < 0) roots.push_back(static_cast<int>(i));
  }
  if (roots.size() > 1) {
    std::string names;
    for (size_t k = 0; k < roots.size() && k < 5; ++k) {
      names += (k ? ", " : "") + r.links[static_cast<size_t>(roots[k])].where;
    }
    if (roots.size() > 5) names += ", ...";
    fail(r.links[static_cast<size_t>(roots[1])].where,
         std::to_string(roots.size()) +
             " links have no parent joint, but a robot has one root: " + names);
  }
  // Every non-root link has one parent, so links not reached from the root lie on cycles.
  std::vector<char> reached(n, 0);
  std::vector<int> depth(n, 0);
  if (!roots.empty()) {
    std::vector<int> stack = {roots[0]};
    reached[static_cast<size_t>(roots[0])] = 1;
    while (!stack.empty()) {
      const int l = stack.back();
      stack.pop_back();
      for (int j : r.child_joints[static_cast<size_t>(l)]) {
        const int c = r.link_index.at(r.joints[static_cast<size_t>(j)].child);
        if (!reached[static_cast<size_t>(c)]) {
          reached[static_cast<size_t>(c)] = 1;
          depth[static_cast<size_t>(c)] = depth[static_cast<size_t>(l)] + 1;
          // The converter walks the tree recursively; MJCF readers stop far earlier (XML depth).
          if (depth[static_cast<size_t>(c)] > kMaxDepth) {
            fail(r.joints[static_cast<size_t>(j)].where,
                 "the kinematic chain is deeper than " + std::to_string(kMaxDepth) + " links");
          }
          stack.push_back(c);
        }
      }
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (reached[i]) continue;
    // Walk up from i until a link repeats: that stretch is the cycle.
    std::set<int> seen;
    int l = static_cast<int>(i);
    while (!seen.count(l)) {
      seen.insert(l);
      l = r.link_index.at(
          r.joints[static_cast<size_t>(r.parent_joint[static_cast<size_t>(l)])].parent);
    }
    std::string cycle = "'" + r.links[static_cast<size_t>(l)].name + "'";
    int k = l;
    do {
      const Joint& pj = r.joints[static_cast<size_t>(r.parent_joint[static_cast<size_t>(k)])];
      cycle += " <- '" + pj.parent + "'";
      k = r.link_index.at(pj.parent);
    } while (k != l);
    const Joint& closing = r.joints[static_cast<size_t>(r.parent_joint[static_cast<size_t>(l)])];
    fail(closing.where, "the joints form a cycle (child <- parent): " + cycle +
                            "; URDF describes trees, so one of these joints must go");
  }
  r.root = roots[0];
}

}  // namespace

Robot read_urdf(const XmlElement& root) {
  if (root.name != "robot") fail(root.where(), "the root element of a URDF must be <robot>");
  reject_xacro(root);
  Robot r;
  if (const std::string* n = root.find("name")) r.name = *n;
  r.where = root.where();
  std::vector<const XmlElement*> inline_materials;
  for (const XmlElement& c : root.children) {
    if (c.name == "link") {
      Link l = read_link(c);
      const auto [it, inserted] = r.link_index.emplace(l.name, static_cast<int>(r.links.size()));
      if (!inserted) {
        fail(l.where, "link name '" + l.name + "' is used twice (also " +
                          r.links[static_cast<size_t>(it->second)].where + ")");
      }
      r.links.push_back(std::move(l));
    } else if (c.name == "joint") {
      Joint j = read_joint(c);
      const auto [it, inserted] = r.joint_index.emplace(j.name, static_cast<int>(r.joints.size()));
      if (!inserted) {
        fail(j.where, "joint name '" + j.name + "' is used twice (also " +
                          r.joints[static_cast<size_t>(it->second)].where + ")");
      }
      r.joints.push_back(std::move(j));
    } else if (c.name == "material") {
      Material m = read_material(c, true);
      if (r.materials.count(m.name)) {
        fail(m.where, "material '" + m.name + "' is defined twice (also " +
                          r.materials.at(m.name).where + ")");
      }
      r.materials.emplace(m.name, m);
    } else if (c.name == "transmission") {
      r.transmissions.push_back(read_transmission(c));
    } else if (c.name == "mujoco") {
      // MuJoCo 2.2.2 reads one <mujoco>, with at most one of each child it uses.
      if (r.mujoco)
        fail(c.where(),
             "more than one <mujoco> (also line " + std::to_string(r.mujoco->line) + ")");
      for (const char* name : {"compiler", "option", "size"}) single_child(c, c.where(), name);
      r.mujoco = c;
    } else {
      ++r.ignored[c.name];
    }
  }
  if (r.links.empty()) fail(root.where(), "the robot has no <link>");
  // Materials defined inside a visual are named for the whole robot (as in ROS's parser); the first
  // definition of a name counts, and a reference may come before it.
  for (Link& l : r.links) {
    for (auto* shapes : {&l.visuals, &l.collisions}) {
      for (const Shape& s : *shapes) {
        if (!s.material.empty() && s.rgba && !r.materials.count(s.material)) {
          Material m;
          m.name = s.material;
          m.rgba = s.rgba;
          m.where = s.where;
          r.materials.emplace(m.name, m);
        }
      }
    }
  }
  for (Joint& j : r.joints) {
    if (j.mimic) {
      if (!r.joint_index.count(j.mimic->joint)) {
        fail(j.mimic->where,
             "joint '" + j.name + "' mimics joint '" + j.mimic->joint + "', which does not exist");
      }
      if (j.mimic->joint == j.name) fail(j.mimic->where, "joint '" + j.name + "' mimics itself");
    }
  }
  build_tree(r);
  return r;
}

}  // namespace joco::urdf
