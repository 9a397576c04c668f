#include "xml/composite.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "compiler/geom_inertia.h"
#include "compiler/orientation.h"
#include "joco/error.h"
#include "xml/attributes.h"
#include "xml/composite_skin.h"
#include "xml/mjcf_reader.h"

namespace joco::compiler {

namespace {

enum JointKind { kJointMain = 0, kJointTwist, kJointStretch, kNumJointKinds };
enum TendonKind { kTendonMain = 0, kTendonShear, kNumTendonKinds };

using Solref = std::array<double, kNREF>;
using Solimp = std::array<double, kNIMP>;

// A joint or tendon kind: whether its subelement was given, the attributes of the generated
// elements, and the solver parameters of the equality constraints that fix them.
template <class Spec>
struct Kind {
  bool given = false;
  Spec spec;
  Solref solreffix = kDefaultSolref;
  Solimp solimpfix = kDefaultSolimp;
};

// Everything a <composite> element says, with MuJoCo's per-type defaults applied.
struct Composite {
  Origin origin;
  const XmlElement* element = nullptr;
  std::string prefix;
  CompositeType type = CompositeType::kParticle;
  std::array<int, 3> count = {1, 1, 1};
  int dim = 0;
  double spacing = 0;
  Vec3 offset = {0, 0, 0};
  double flatinertia = 0;
  Solref solrefsmooth = kDefaultSolref;
  Solimp solimpsmooth = kDefaultSolimp;
  std::array<Kind<JointSpec>, kNumJointKinds> joint;
  std::array<Kind<TendonSpec>, kNumTendonKinds> tendon;
  GeomSpec geom;
  SiteSpec site;
  CompositeSkin skin;
  std::vector<std::array<int, 2>> pins;

  [[noreturn]] void fail(const std::string& reason) const {
    throw InputError(element->where() + ": " + reason);
  }
  std::string name(const std::string& kind, std::initializer_list<int> indices) const {
    std::string s = prefix + kind;
    bool first = true;
    for (int i : indices) {
      if (!first) s += "_";
      s += std::to_string(i);
      first = false;
    }
    return s;
  }
};

const std::initializer_list<std::pair<const char*, int>> kTypes = {
    {"particle", static_cast<int>(CompositeType::kParticle)},
    {"grid", static_cast<int>(CompositeType::kGrid)},
    {"rope", static_cast<int>(CompositeType::kRope)},
    {"loop", static_cast<int>(CompositeType::kLoop)},
    {"cloth", static_cast<int>(CompositeType::kCloth)},
    {"box", static_cast<int>(CompositeType::kBox)},
    {"cylinder", static_cast<int>(CompositeType::kCylinder)},
    {"ellipsoid", static_cast<int>(CompositeType::kEllipsoid)}};

bool is_shell(CompositeType t) {
  return t == CompositeType::kBox || t == CompositeType::kCylinder ||
         t == CompositeType::kEllipsoid;
}

// More elements than this is a mistake (and would exhaust memory before MuJoCo's own limits).
constexpr long kMaxElements = 1000000;

// ---- reading -----------------------------------------------------------------------------------

// The type, counts and spacing, checked as MuJoCo checks them.
void read_layout(const AttributeReader& a, Composite& c) {
  int type = 0;
  if (!a.has("type")) c.fail("missing required attribute 'type'");
  a.read_keyword("type", type, kTypes);
  c.type = static_cast<CompositeType>(type);
  if (!a.read("count", c.count, 1)) c.fail("missing required attribute 'count'");
  long total = 1;
  for (int n : c.count) {
    if (n < 1) a.fail("count", "counts must be positive");
    total *= n;
    if (total > kMaxElements)
      a.fail("count", "too many elements (at most " + std::to_string(kMaxElements) + ")");
  }
  for (int i = 0; i < 3; ++i) {
    if (c.count[static_cast<size_t>(i)] == 1) {
      for (int k = i + 1; k < 3; ++k) {
        if (c.count[static_cast<size_t>(k)] > 1) a.fail("count", "singleton counts must come last");
      }
    }
    if (c.count[static_cast<size_t>(i)] > 1) c.dim = i + 1;
  }
  if (!a.read("spacing", c.spacing)) c.fail("missing required attribute 'spacing'");
  if (!(c.spacing > 0)) a.fail("spacing", "must be positive");
  switch (c.type) {
    case CompositeType::kGrid:
      if (c.dim > 2) a.fail("count", "a grid can only be 1D or 2D");
      break;
    case CompositeType::kRope:
    case CompositeType::kLoop:
      if (c.dim != 1)
        a.fail("count", std::string("a ") + (c.type == CompositeType::kRope ? "rope" : "loop") +
                            " must be one-dimensional");
      break;
    case CompositeType::kCloth:
      if (c.dim != 2) a.fail("count", "a cloth must be two-dimensional");
      break;
    case CompositeType::kBox:
    case CompositeType::kCylinder:
    case CompositeType::kEllipsoid:
      if (c.dim != 3) a.fail("count", "box, cylinder and ellipsoid must be three-dimensional");
      break;
    default: break;
  }
}

// MuJoCo's defaults for each type, set before the subelements are read (so that what they give
// explicitly wins).
void set_type_defaults(Composite& c, bool has_skin) {
  for (auto& j : c.joint) j.spec.group = 3;
  c.site.group = 3;
  if (has_skin) {
    c.geom.group = 3;
    for (auto& t : c.tendon) t.spec.group = 3;
  }
  const Solref stiff_ref = {0.01, 1};
  const Solimp stiff_imp = {0.99, 0.99, 0.001, 0.5, 2};
  switch (c.type) {
    case CompositeType::kParticle:
      c.geom.condim = 1;
      c.geom.priority = 1;
      break;
    case CompositeType::kGrid:
      c.tendon[kTendonMain].solreffix = stiff_ref;
      c.tendon[kTendonMain].solimpfix = stiff_imp;
      break;
    case CompositeType::kLoop:
      c.solrefsmooth = stiff_ref;
      c.solimpsmooth = stiff_imp;
      break;
    case CompositeType::kBox:
    case CompositeType::kCylinder:
    case CompositeType::kEllipsoid:
      c.geom.contype = 0;
      c.tendon[kTendonMain].solreffix = stiff_ref;
      c.tendon[kTendonMain].solimpfix = stiff_imp;
      c.joint[kJointMain].solimpfix = {0.9, 0.9, 0.001, 0.5, 2};
      c.solimpsmooth = {0.9, 0.9, 0.001, 0.5, 2};
      break;
    default: break;
  }
}

Composite read_composite(const XmlElement& e, const ModelSpec& spec) {
  Composite c;
  c.element = &e;
  c.origin = Origin{e.file, e.line, e.name};
  if (spec.compiler.global_coordinates) c.fail("composite objects require local coordinates");
  AttributeReader a(e);
  a.read("prefix", c.prefix);
  read_layout(a, c);
  a.read("offset", c.offset);
  a.read("flatinertia", c.flatinertia);
  if (c.flatinertia < 0) a.fail("flatinertia", "must be non-negative");
  bool has_skin = false;
  for (const XmlElement& child : e.children) has_skin |= child.name == "skin";
  if (has_skin && c.type == CompositeType::kGrid && c.dim != 2)
    c.fail("a grid needs two dimensions to have a skin");
  // Particles, ropes and loops have no skin: the subelement is ignored.
  has_skin &= c.type != CompositeType::kParticle && c.type != CompositeType::kRope &&
              c.type != CompositeType::kLoop;
  set_type_defaults(c, has_skin);
  a.read("solrefsmooth", c.solrefsmooth, 1);
  a.read("solimpsmooth", c.solimpsmooth, 1);

  for (const XmlElement& child : e.children) {
    AttributeReader r(child);
    if (child.name == "joint") {
      int kind = 0;
      if (!r.read_keyword(
              "kind", kind,
              {{"main", kJointMain}, {"twist", kJointTwist}, {"stretch", kJointStretch}})) {
        throw InputError(child.where() + ": missing required attribute 'kind'");
      }
      Kind<JointSpec>& k = c.joint[static_cast<size_t>(kind)];
      k.given = true;
      read_joint(r, k.spec);
      k.spec.limited = TriState::kAuto;  // MuJoCo 2.2.2 ignores 'limited' here: autolimits decides
      r.read("solreffix", k.solreffix, 1);
      r.read("solimpfix", k.solimpfix, 1);
    } else if (child.name == "tendon") {
      int kind = 0;
      if (!r.read_keyword("kind", kind, {{"main", kTendonMain}, {"shear", kTendonShear}})) {
        throw InputError(child.where() + ": missing required attribute 'kind'");
      }
      Kind<TendonSpec>& k = c.tendon[static_cast<size_t>(kind)];
      k.given = true;
      read_tendon(r, k.spec);
      k.spec.limited = TriState::kAuto;  // as for joints
      r.read("solreffix", k.solreffix, 1);
      r.read("solimpfix", k.solimpfix, 1);
    } else if (child.name == "geom") {
      read_geom(r, c.geom);
      if (c.geom.type != kGeomSphere && c.geom.type != kGeomCapsule &&
          c.geom.type != kGeomEllipsoid) {
        r.fail("type", "composite geoms must be spheres, capsules or ellipsoids");
      }
    } else if (child.name == "site") {
      read_site(r, c.site);
    } else if (child.name == "skin") {
      c.skin.given = true;
      r.read("material", c.skin.material);
      r.read("rgba", c.skin.rgba);
      r.read("inflate", c.skin.inflate);
      r.read("subgrid", c.skin.subgrid);
      r.read("group", c.skin.group);
      r.read_bool("texcoord", c.skin.texcoord);
      if (c.skin.subgrid < 0) r.fail("subgrid", "must be non-negative");
    } else if (child.name == "pin") {
      std::array<int, 2> pin = {0, 0};
      if (!r.read("coord", pin, 1))
        throw InputError(child.where() + ": missing required attribute 'coord'");
      // A pin outside the grid pins nothing (MuJoCo 2.2.2 accepts it).
      if (pin[0] >= 0 && pin[0] < c.count[0] && pin[1] >= 0 && pin[1] < c.count[1])
        c.pins.push_back(pin);
    }
  }
  // The geom types each composite type supports: particles and grids are spheres; the soft shells
  // turn ellipsoids into spheres.
  if (c.type == CompositeType::kParticle || c.type == CompositeType::kGrid)
    c.geom.type = kGeomSphere;
  if (is_shell(c.type) && c.geom.type == kGeomEllipsoid) c.geom.type = kGeomSphere;
  return c;
}

// ---- generation helpers ------------------------------------------------------------------------

JointSpec make_joint(const Composite& c, JointKind kind, const std::string& name, int type,
                     const Vec3& pos, const Vec3& axis) {
  JointSpec j = c.joint[kind].spec;
  j.origin = c.origin;
  j.name = name;
  j.type = type;
  j.pos = pos;
  j.axis = axis;
  return j;
}

GeomSpec make_geom(const Composite& c, const std::string& name) {
  GeomSpec g = c.geom;
  g.origin = c.origin;
  g.name = name;
  return g;
}

SiteSpec make_site(const Composite& c, const std::string& name) {
  SiteSpec s = c.site;
  s.origin = c.origin;
  s.name = name;
  return s;
}

BodySpec make_body(const Composite& c, const std::string& name, const Vec3& pos) {
  BodySpec b;
  b.origin = c.origin;
  b.name = name;
  b.pos = pos;
  return b;
}

void set_quat(Orientation& o, const Quat& q) {
  o.kind = Orientation::kQuat;
  for (size_t i = 0; i < 4; ++i) o.values[i] = q[i];
}

void add_joint_equality(const Composite& c, JointKind kind, ModelSpec& spec,
                        const std::string& joint1, const std::string& joint2, bool smooth) {
  EqualitySpec q;
  q.origin = c.origin;
  q.type = kEqJoint;
  q.name1 = joint1;
  q.name2 = joint2;
  q.solref = smooth ? c.solrefsmooth : c.joint[kind].solreffix;
  q.solimp = smooth ? c.solimpsmooth : c.joint[kind].solimpfix;
  spec.equalities.push_back(std::move(q));
}

void add_tendon_equality(const Composite& c, TendonKind kind, ModelSpec& spec,
                         const std::string& tendon) {
  EqualitySpec q;
  q.origin = c.origin;
  q.type = kEqTendon;
  q.name1 = tendon;
  q.solref = c.tendon[kind].solreffix;
  q.solimp = c.tendon[kind].solimpfix;
  spec.equalities.push_back(std::move(q));
}

// A spatial tendon between two sites, held at its length by an equality constraint.
void add_site_tendon(const Composite& c, TendonKind kind, ModelSpec& spec, const std::string& name,
                     const std::string& site1, const std::string& site2) {
  TendonSpec t = c.tendon[kind].spec;
  t.origin = c.origin;
  t.name = name;
  t.spatial = true;
  for (const std::string* site : {&site1, &site2}) {
    WrapSpec w;
    w.origin = c.origin;
    w.type = kWrapSite;
    w.target = *site;
    t.path.push_back(std::move(w));
  }
  spec.tendons.push_back(std::move(t));
}

// The shear tendons of a 2D grid or cloth: one along each cell's diagonal.
void add_shear_tendons(const Composite& c, ModelSpec& spec) {
  for (int ix = 0; ix < c.count[0] - 1; ++ix) {
    for (int iy = 0; iy < c.count[1] - 1; ++iy) {
      const std::string name = c.name("TS", {ix, iy});
      add_site_tendon(c, kTendonShear, spec, name, c.name("S", {ix, iy}),
                      c.name("S", {ix + 1, iy + 1}));
      add_tendon_equality(c, kTendonShear, spec, name);
    }
  }
}

// The body named `name` among the parent's name; rope, loop and cloth attach there.
std::array<int, 2> root_coordinates(const Composite& c, const std::string& parent_name) {
  const std::string head = c.prefix + "B";
  if (parent_name.compare(0, head.size(), head) != 0) {
    c.fail("the parent body must be named '" + head + "<coordinates>' to place the " +
           (c.type == CompositeType::kCloth  ? "cloth"
            : c.type == CompositeType::kRope ? "rope"
                                             : "loop"));
  }
  std::array<int, 2> coord = {0, 0};
  const std::string rest = parent_name.substr(head.size());
  const int wanted = c.type == CompositeType::kCloth ? 2 : 1;
  size_t at = 0;
  for (int i = 0; i < wanted; ++i) {
    if (i > 0) {
      if (at >= rest.size() || rest[at] != '_')
        c.fail("cannot read grid coordinates from the parent body name '" + parent_name + "'");
      ++at;
    }
    size_t end = at;
    while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end]))) ++end;
    if (end == at || end - at > 9)
      c.fail("cannot read grid coordinates from the parent body name '" + parent_name + "'");
    coord[static_cast<size_t>(i)] = std::stoi(rest.substr(at, end - at));
    at = end;
  }
  if (at != rest.size())
    c.fail("cannot read grid coordinates from the parent body name '" + parent_name + "'");
  if (coord[0] >= c.count[0] || coord[1] >= c.count[1]) {
    c.fail("the parent body '" + parent_name + "' is outside the composite's grid");
  }
  return coord;
}

// ---- particle and grid -------------------------------------------------------------------------

void make_particles(const Composite& c, BodySpec& parent) {
  for (int ix = 0; ix < c.count[0]; ++ix) {
    for (int iy = 0; iy < c.count[1]; ++iy) {
      for (int iz = 0; iz < c.count[2]; ++iz) {
        const int index[3] = {ix, iy, iz};
        Vec3 pos;
        for (size_t k = 0; k < 3; ++k)
          pos[k] = c.offset[k] + c.spacing * (index[k] - 0.5 * c.count[k]);
        BodySpec b = make_body(c, "", pos);
        for (int axis = 0; axis < 3; ++axis) {
          Vec3 dir = {0, 0, 0};
          dir[static_cast<size_t>(axis)] = 1;
          b.joints.push_back(make_joint(c, kJointMain, "", kJointSlide, {0, 0, 0}, dir));
        }
        b.geoms.push_back(make_geom(c, ""));
        parent.bodies.push_back(std::move(b));
      }
    }
  }
}

void make_grid(const Composite& c, BodySpec& parent, ModelSpec& spec) {
  auto pinned = [&c](int ix, int iy) {
    for (const auto& p : c.pins) {
      if (p[0] == ix && p[1] == iy) return true;
    }
    return false;
  };
  for (int ix = 0; ix < c.count[0]; ++ix) {
    for (int iy = 0; iy < c.count[1]; ++iy) {
      const Vec3 pos = {c.offset[0] + c.spacing * (ix - 0.5 * c.count[0]),
                        c.offset[1] + c.spacing * (iy - 0.5 * c.count[1]), c.offset[2]};
      BodySpec b = make_body(c, c.name("B", {ix, iy}), pos);
      if (!pinned(ix, iy)) {
        for (int axis = 0; axis < 3; ++axis) {
          Vec3 dir = {0, 0, 0};
          dir[static_cast<size_t>(axis)] = 1;
          b.joints.push_back(
              make_joint(c, kJointMain, c.name("J", {axis, ix, iy}), kJointSlide, {0, 0, 0}, dir));
        }
      }
      b.geoms.push_back(make_geom(c, c.name("G", {ix, iy})));
      b.sites.push_back(make_site(c, c.name("S", {ix, iy})));
      parent.bodies.push_back(std::move(b));
    }
  }
  // Neighbours along x, then along y, then (2D, if asked for) the diagonals.
  for (int dir = 0; dir < 2; ++dir) {
    for (int ix = 0; ix < c.count[0] - (dir == 0); ++ix) {
      for (int iy = 0; iy < c.count[1] - (dir == 1); ++iy) {
        const std::string name = c.name("T", {dir, ix, iy});
        add_site_tendon(c, kTendonMain, spec, name, c.name("S", {ix, iy}),
                        c.name("S", {ix + (dir == 0), iy + (dir == 1)}));
        add_tendon_equality(c, kTendonMain, spec, name);
      }
    }
  }
  if (c.tendon[kTendonShear].given && c.dim == 2) add_shear_tendons(c, spec);
}

// ---- rope and loop -----------------------------------------------------------------------------

// One element of a chain: the universal joint to the previous element (plus the optional twist and
// stretch joints), at the point midway between the two.
void add_chain_joints(const Composite& c, BodySpec& b, const std::string& index,
                      const Vec3& joint_pos, const Vec3& axis0, const Vec3& axis1,
                      const Vec3& along) {
  b.joints.push_back(
      make_joint(c, kJointMain, c.prefix + "J0_" + index, kJointHinge, joint_pos, axis0));
  b.joints.push_back(
      make_joint(c, kJointMain, c.prefix + "J1_" + index, kJointHinge, joint_pos, axis1));
  if (c.joint[kJointTwist].given) {
    b.joints.push_back(
        make_joint(c, kJointTwist, c.prefix + "JT" + index, kJointHinge, joint_pos, along));
  }
  if (c.joint[kJointStretch].given) {
    b.joints.push_back(
        make_joint(c, kJointStretch, c.prefix + "JS" + index, kJointSlide, joint_pos, along));
  }
}

void add_chain_equalities(const Composite& c, ModelSpec& spec, const std::string& index) {
  if (c.joint[kJointTwist].given)
    add_joint_equality(c, kJointTwist, spec, c.prefix + "JT" + index, "", false);
  if (c.joint[kJointStretch].given)
    add_joint_equality(c, kJointStretch, spec, c.prefix + "JS" + index, "", false);
}

void make_rope(const Composite& c, BodySpec& parent, ModelSpec& spec) {
  const int n = c.count[0];
  const int root = root_coordinates(c, parent.name)[0];
  const bool loop = c.type == CompositeType::kLoop;
  const double angle = loop ? 2 * kPi / n : 0;
  // Capsules and ellipsoids lie along the chain.
  Quat geom_quat = quat_from_zaxis({1, 0, 0});
  GeomSpec root_geom = make_geom(c, c.name("G", {root}));
  set_quat(root_geom.orientation, geom_quat);
  parent.geoms.push_back(std::move(root_geom));
  // Forward from the root to the end, then backward to the start; each element nests in the
  // previous.
  for (int dir : {1, -1}) {
    BodySpec* previous = &parent;
    for (int i = root + dir; i >= 0 && i < n; i += dir) {
      const double turn = dir * angle;
      const Vec3 pos = {dir * c.spacing / 2 * (1 + std::cos(turn)),
                        dir * c.spacing / 2 * std::sin(turn), 0};
      BodySpec b = make_body(c, c.name("B", {i}), pos);
      if (loop) set_quat(b.orientation, {std::cos(turn / 2), 0, 0, std::sin(turn / 2)});
      const std::string index = std::to_string(i);
      add_chain_joints(c, b, index, {-dir * c.spacing / 2, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0});
      GeomSpec g = make_geom(c, c.name("G", {i}));
      set_quat(g.orientation, geom_quat);
      b.geoms.push_back(std::move(g));
      add_chain_equalities(c, spec, index);
      previous->bodies.push_back(std::move(b));
      previous = &previous->bodies.back();
    }
  }
  if (loop) {
    // Close the loop: the first element's back end stays at the last element.
    ExcludeSpec x;
    x.origin = c.origin;
    x.body1 = c.name("B", {0});
    x.body2 = c.name("B", {n - 1});
    spec.excludes.push_back(std::move(x));
    EqualitySpec q;
    q.origin = c.origin;
    q.type = kEqConnect;
    q.name1 = c.name("B", {0});
    q.name2 = c.name("B", {n - 1});
    q.anchor = {-c.spacing / 2, 0, 0};
    q.anchor_given = true;
    q.solref = c.solrefsmooth;
    q.solimp = c.solimpsmooth;
    spec.equalities.push_back(std::move(q));
  }
}

// ---- cloth -------------------------------------------------------------------------------------

// Elongated geoms alternate between the x and y directions, filling the holes between elements.
Quat cloth_geom_quat(int ix, int iy) {
  if ((ix + iy) % 2 == 0) return {0.5, 0.5, 0.5, 0.5};
  const double h = std::sqrt(0.5);
  return {h, h, 0, 0};
}

// Flat box inertia: the element's mass spread over a spacing-sized square of thickness
// flatinertia * spacing.
void set_flat_inertia(const Composite& c, BodySpec& b) {
  const GeomMassProperties p = primitive_mass_properties(c.geom.type, c.geom.size, false);
  const double mass = c.geom.mass ? *c.geom.mass : c.geom.density * p.volume;
  const double s = c.spacing, t = c.flatinertia * c.spacing;
  InertialSpec in;
  in.origin = c.origin;
  in.mass = mass;
  in.diaginertia =
      Vec3{mass * (s * s + t * t) / 12, mass * (s * s + t * t) / 12, mass * (s * s + s * s) / 12};
  b.inertial = in;
}

BodySpec make_cloth_body(const Composite& c, ModelSpec& spec, int ix, int iy, const Vec3& pos,
                         bool along_y) {
  BodySpec b = make_body(c, c.name("B", {ix, iy}), pos);
  const Vec3 joint_pos = {-pos[0], -pos[1], 0};
  const std::string index = std::to_string(ix) + "_" + std::to_string(iy);
  if (along_y) {
    add_chain_joints(c, b, index, joint_pos, {1, 0, 0}, {0, 0, 1}, {0, 1, 0});
  } else {
    add_chain_joints(c, b, index, joint_pos, {0, 1, 0}, {0, 0, 1}, {1, 0, 0});
  }
  GeomSpec g = make_geom(c, c.name("G", {ix, iy}));
  set_quat(g.orientation, cloth_geom_quat(ix, iy));
  b.geoms.push_back(std::move(g));
  b.sites.push_back(make_site(c, c.name("S", {ix, iy})));
  if (c.flatinertia > 0) set_flat_inertia(c, b);
  add_chain_equalities(c, spec, index);
  return b;
}

// The chains along y from the body at (ix, iy0): up, then down.
void add_cloth_column(const Composite& c, ModelSpec& spec, BodySpec& base, int ix, int iy0) {
  for (int dir : {1, -1}) {
    BodySpec* previous = &base;
    for (int iy = iy0 + dir; iy >= 0 && iy < c.count[1]; iy += dir) {
      previous->bodies.push_back(make_cloth_body(c, spec, ix, iy, {0, dir * c.spacing, 0}, true));
      previous = &previous->bodies.back();
    }
  }
}

void make_cloth(const Composite& c, BodySpec& parent, ModelSpec& spec) {
  const auto [ix0, iy0] = root_coordinates(c, parent.name);
  GeomSpec g = make_geom(c, c.name("G", {ix0, iy0}));
  set_quat(g.orientation, cloth_geom_quat(ix0, iy0));
  parent.geoms.push_back(std::move(g));
  parent.sites.push_back(make_site(c, c.name("S", {ix0, iy0})));
  if (c.flatinertia > 0) set_flat_inertia(c, parent);
  // A spanning tree: the root's column, then the rows out from the root, each body with its column.
  add_cloth_column(c, spec, parent, ix0, iy0);
  for (int dir : {1, -1}) {
    BodySpec* previous = &parent;
    for (int ix = ix0 + dir; ix >= 0 && ix < c.count[0]; ix += dir) {
      previous->bodies.push_back(make_cloth_body(c, spec, ix, iy0, {dir * c.spacing, 0, 0}, false));
      previous = &previous->bodies.back();
      add_cloth_column(c, spec, *previous, ix, iy0);
    }
  }
  // Neighbours not joined by joints (along x, off the root row) are held by tendons.
  for (int iy = 0; iy < c.count[1]; ++iy) {
    if (iy == iy0) continue;
    for (int ix = 0; ix < c.count[0] - 1; ++ix) {
      const std::string name = c.name("T", {ix, iy});
      add_site_tendon(c, kTendonMain, spec, name, c.name("S", {ix, iy}), c.name("S", {ix + 1, iy}));
      add_tendon_equality(c, kTendonMain, spec, name);
    }
  }
  if (c.tendon[kTendonShear].given) add_shear_tendons(c, spec);
}

// ---- box, cylinder, ellipsoid ------------------------------------------------------------------

bool on_shell(const Composite& c, int ix, int iy, int iz) {
  return ix == 0 || ix == c.count[0] - 1 || iy == 0 || iy == c.count[1] - 1 || iz == 0 ||
         iz == c.count[2] - 1;
}

// The reference position of a shell element: on the box, or moved onto the cylinder or ellipsoid
// inscribed in it, keeping each ring of elements (points of equal largest coordinate, in units of
// the half-size) on its own circle or ellipse.
Vec3 shell_position(const Composite& c, int ix, int iy, int iz) {
  const int index[3] = {ix, iy, iz};
  Vec3 pos, unit;
  for (size_t k = 0; k < 3; ++k) {
    const double half = 0.5 * (c.count[k] - 1);
    pos[k] = c.spacing * (index[k] - half);
    unit[k] = (index[k] - half) / half;
  }
  if (c.type == CompositeType::kBox) return pos;
  const size_t n = c.type == CompositeType::kCylinder ? 2 : 3;
  double largest = 0, norm = 0;
  for (size_t k = 0; k < n; ++k) {
    largest = std::max(largest, std::abs(unit[k]));
    norm += unit[k] * unit[k];
  }
  norm = std::sqrt(norm);
  if (norm > 0) {
    for (size_t k = 0; k < n; ++k) pos[k] *= largest / norm;
  }
  return pos;
}

void make_shell(const Composite& c, BodySpec& parent, ModelSpec& spec) {
  // A contact-free sphere at the centre gives the parent mass.
  GeomSpec center = make_geom(c, c.prefix + "Gcenter");
  center.type = kGeomSphere;
  center.size = {2 * c.geom.size[0], 0, 0};
  parent.geoms.push_back(std::move(center));
  TendonSpec volume = c.tendon[kTendonMain].spec;
  volume.origin = c.origin;
  volume.name = c.prefix + "T";
  volume.spatial = false;
  // Elongated geoms point outward from the inside of the shell.
  const double inset =
      c.geom.type == kGeomCapsule ? c.geom.size[0] + c.geom.size[1] : c.geom.size[0];
  for (int ix = 0; ix < c.count[0]; ++ix) {
    for (int iy = 0; iy < c.count[1]; ++iy) {
      for (int iz = 0; iz < c.count[2]; ++iz) {
        if (!on_shell(c, ix, iy, iz)) continue;
        const Vec3 pos = shell_position(c, ix, iy, iz);
        BodySpec b = make_body(c, c.name("B", {ix, iy, iz}), pos);
        set_quat(b.orientation, quat_from_zaxis(pos));
        const std::string joint = c.name("J", {ix, iy, iz});
        b.joints.push_back(make_joint(c, kJointMain, joint, kJointSlide, {0, 0, 0}, {0, 0, 1}));
        GeomSpec g = make_geom(c, c.name("G", {ix, iy, iz}));
        g.pos = {0, 0, -inset};
        b.geoms.push_back(std::move(g));
        parent.bodies.push_back(std::move(b));
        WrapSpec w;
        w.origin = c.origin;
        w.type = kWrapJoint;
        w.target = joint;
        w.coef = 1;
        volume.path.push_back(std::move(w));
        // Each joint keeps its length, and moves with its neighbours for smooth deformation.
        add_joint_equality(c, kJointMain, spec, joint, "", false);
        const int next[3][3] = {{ix + 1, iy, iz}, {ix, iy + 1, iz}, {ix, iy, iz + 1}};
        for (const auto& n : next) {
          if (n[0] < c.count[0] && n[1] < c.count[1] && n[2] < c.count[2] &&
              on_shell(c, n[0], n[1], n[2])) {
            add_joint_equality(c, kJointMain, spec, joint, c.name("J", {n[0], n[1], n[2]}), true);
          }
        }
      }
    }
  }
  spec.tendons.push_back(std::move(volume));
  add_tendon_equality(c, kTendonMain, spec, c.prefix + "T");
}

// The skin, for the types that have one (2D grids, cloth, shells).
void make_skin(const Composite& c, ModelSpec& spec) {
  const bool surface =
      (c.type == CompositeType::kGrid && c.dim == 2) || c.type == CompositeType::kCloth;
  if (!c.skin.given || !(surface || is_shell(c.type))) return;
  SkinSpec skin;
  if (surface) {
    if (c.skin.subgrid > 0 && (c.count[0] < 3 || c.count[1] < 3)) {
      c.fail("a skin with subgrid needs at least 3x3 elements");
    }
    skin = make_grid_skin(c.skin, c.count, c.spacing, [&c](int ix, int iy, int) {
      return c.name("B", {ix, iy});
    });
  } else {
    skin = make_shell_skin(c.skin, c.type, c.count, [&c](int ix, int iy, int iz) {
      return c.name("B", {ix, iy, iz});
    });
  }
  skin.origin = c.origin;
  skin.name = c.prefix + "Skin";
  for (SkinBoneSpec& b : skin.bones) b.origin = c.origin;
  spec.skins.push_back(std::move(skin));
}

}  // namespace

void expand_composite(const XmlElement& e, BodySpec& parent, ModelSpec& spec) {
  const Composite c = read_composite(e, spec);
  switch (c.type) {
    case CompositeType::kParticle: make_particles(c, parent); break;
    case CompositeType::kGrid: make_grid(c, parent, spec); break;
    case CompositeType::kRope:
    case CompositeType::kLoop: make_rope(c, parent, spec); break;
    case CompositeType::kCloth: make_cloth(c, parent, spec); break;
    case CompositeType::kBox:
    case CompositeType::kCylinder:
    case CompositeType::kEllipsoid: make_shell(c, parent, spec); break;
  }
  make_skin(c, spec);
}

}  // namespace joco::compiler
