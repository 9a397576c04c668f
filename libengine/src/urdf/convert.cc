// The conversion rules. Frames: a URDF <origin> becomes pos + euler (the file's own numbers, with
// <compiler eulerseq="XYZ">, which is URDF's rpy); compositions (fused links) become pos + quat.
// Masses: MuJoCo 2.2.2's importer is followed (a link without <inertial> takes its mass from its
// collision geoms; links fused into a body join it as its fusestatic joins static bodies: each
// finished on its own, then one at a time), except that a moving body left without mass gets a tiny
// one instead of failing. MuJoCo's <mujoco><compiler> extension is honoured as its importer does.
#include "urdf/convert.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "compiler/body_inertia.h"
#include "compiler/geom_inertia.h"
#include "compiler/orientation.h"
#include "decode/mesh_file.h"
#include "joco/constants.h"
#include "joco/error.h"
#include "math/vec.h"
#include "xml/attributes.h"
#include "xml/xml_limits.h"

namespace joco::urdf {

namespace fs = std::filesystem;

namespace {

// MuJoCo's default geom density, used for links without <inertial>.
constexpr double kDensity = 1000;
// Given to moving bodies without mass, and without rotational inertia.
constexpr double kTinyMass = 1e-6;
constexpr double kTinyInertia = 1e-10;

// A frame in a body's frame. `xyz` and `rpy` point at URDF numbers the frame's position and
// rotation equal, when they do (so they can be written as the file has them).
struct Frame {
  double pos[3] = {0, 0, 0};
  double quat[4] = {1, 0, 0, 0};
  const Vec3* xyz = nullptr;
  const Vec3* rpy = nullptr;
  bool identity() const { return translation_free() && rotation_free(); }
  bool translation_free() const { return pos[0] == 0 && pos[1] == 0 && pos[2] == 0; }
  bool rotation_free() const {
    return quat[0] == 1 && quat[1] == 0 && quat[2] == 0 && quat[3] == 0;
  }
};

void rpy_to_quat(double* q, const Vec3& rpy) {
  compiler::Orientation o;
  o.kind = compiler::Orientation::kEuler;
  o.values = {rpy[0], rpy[1], rpy[2], 0, 0, 0};
  const compiler::Quat r = compiler::resolve_orientation(o, {1, 0, 0, 0}, false, "XYZ", "");
  math::copy4(q, r.data());
}

Frame frame_of(const Pose& p) {
  Frame f;
  math::copy3(f.pos, p.xyz.data());
  rpy_to_quat(f.quat, p.rpy);
  f.xyz = &p.xyz;
  f.rpy = &p.rpy;
  return f;
}

// a * b, keeping b's URDF numbers where a does not change them.
Frame compose(const Frame& a, const Frame& b) {
  if (a.identity()) return b;
  Frame f;
  math::frame_mul(f.pos, f.quat, a.pos, a.quat, b.pos, b.quat);
  math::quat_normalize(f.quat);
  if (f.quat[0] < 0) {
    for (double& v : f.quat) v = -v;
  }
  if (a.rotation_free()) {
    math::copy4(f.quat, b.quat);
    f.rpy = b.rpy;
  } else if (b.rotation_free()) {
    math::copy4(f.quat, a.quat);
    f.rpy = a.rpy;
  }
  if (b.translation_free()) f.xyz = a.xyz;
  return f;
}

bool near_identity_quat(const double* q) {
  return std::abs(q[1]) < 1e-12 && std::abs(q[2]) < 1e-12 && std::abs(q[3]) < 1e-12;
}

void set_pose(XmlNode& n, const Frame& f) {
  if (f.xyz) {
    if (*f.xyz != Vec3{0, 0, 0}) n.set("pos", format_numbers(f.xyz->data(), 3));
  } else if (!f.translation_free()) {
    const std::string pos = format_numbers(f.pos, 3, true);
    if (pos != "0 0 0") n.set("pos", pos);
  }
  if (f.rpy) {
    if (*f.rpy != Vec3{0, 0, 0}) n.set("euler", format_numbers(f.rpy->data(), 3));
  } else if (!near_identity_quat(f.quat)) {
    n.set("quat", format_numbers(f.quat, 4, true));
  }
}

using compiler::MassElement;

bool massless(const MassElement& e) { return e.mass == 0 && e.inertia == compiler::Vec3{0, 0, 0}; }

std::string lower_extension(const std::string& filename) {
  std::string ext = fs::path(filename).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// "a, b, c and 4 more"
std::string name_list(const std::vector<std::string>& names, size_t most = 8) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < most; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > most) s += " and " + std::to_string(names.size() - most) + " more";
  return s;
}

// "1 body", "3 bodies"
std::string quantity(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool exists_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

fs::path absolute_normal(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p.empty() ? fs::path(".") : fs::path(p), ec);
  if (ec) a = fs::path(p);
  return a.lexically_normal();
}

// A unique name within one MJCF namespace.
class Names {
 public:
  void reserve(const std::string& name) { used_.insert(name); }
  bool used(const std::string& name) const { return used_.count(name) > 0; }
  std::string unique(const std::string& wanted) {
    std::string name = wanted;
    for (int k = 2; used_.count(name); ++k) name = wanted + "_" + std::to_string(k);
    used_.insert(name);
    return name;
  }

 private:
  std::set<std::string> used_;
};

// A link's mass in its body. A body's parts are in the order MuJoCo 2.2.2 fuses static bodies into
// their parent (its own link first, then the fused links depth first), each finished on its own.
struct Part {
  int link = -1;
  Frame frame;              // the link's frame in the body
  bool from_geoms = false;  // no <inertial>: the link weighs its collision geoms
  MassElement element;      // filled in by finish_masses for from_geoms
};

struct OutBody {
  int link = -1;
  int parent = -1;  // index in Converter::bodies_, -1: the world
  XmlNode node{"body"};
  std::vector<XmlNode> joints;
  std::vector<XmlNode> items;       // geoms and sites, in order
  std::vector<int> massless_geoms;  // items: collision geoms of links whose <inertial> says no mass
  std::vector<int> children;
  std::vector<Part> parts;
  MassElement total;                // the parts fused, as MuJoCo fuses them
  const Inertial* exact = nullptr;  // the body's own <inertial>, written as the URDF has it
  bool moving = false;
  bool infer = false;   // no <inertial> anywhere: MJCF computes the mass from the geoms
  bool bumped = false;  // given a tiny mass or inertia
};

struct PendingChild {
  int link;
  Frame frame;
  int joint;
};

struct MeshAsset {
  std::string name;
  fs::path path;
  Vec3 scale;
};

struct OutJoint {
  std::string name;  // MJCF name
  int urdf_joint;
  bool limited = false;
  double lower = 0, upper = 0;
};

// What the conversion follows: MuJoCo's URDF extension <robot><mujoco><compiler .../></mujoco>
// as MuJoCo 2.2.2's importer honours it, with the options over it.
struct Settings {
  bool fuse = true;       // fusestatic
  bool visual = true;     // !discardvisual
  bool strippath = true;  // a mesh may be found by its file name alone
  std::string meshdir;
  // balanceinertia, boundmass, boundinertia (each link's inertia is finished with them),
  // inertiafromgeom and inertiagrouprange (which links weigh their geoms).
  compiler::CompilerSettings compiler;
  // Attributes the MJCF's <compiler> carries as written: what the compiler applies the same way.
  std::vector<std::pair<std::string, std::string>> copied;
  std::string visual_reason;  // why visual geoms are dropped
};

// Attributes of the extension's <compiler> that MuJoCo 2.2.2's importer reads with no effect on
// a URDF robot (rpy is always radians about fixed axes, limits are explicit, no textures or
// fitted primitives).
const std::set<std::string> kIgnoredCompilerAttributes = {
    "angle", "coordinate", "eulerseq", "autolimits", "fitaabb", "usethread", "texturedir"};
// Copied onto the MJCF's <compiler> as written.
const std::set<std::string> kCopiedCompilerAttributes = {"boundmass",    "boundinertia",
                                                         "settotalmass", "exactmeshinertia",
                                                         "convexhull",   "inertiagrouprange"};
// Applied by the converter itself.
const std::set<std::string> kAppliedCompilerAttributes = {
    "meshdir", "strippath", "discardvisual", "fusestatic", "balanceinertia", "inertiafromgeom"};

class Converter {
 public:
  Converter(const Robot& r, const std::string& source, const UrdfOptions& o, UrdfReport& report)
      : r_(r), source_(source), o_(o), report_(report) {
    body_names_.reserve("world");  // MJCF's world body
  }

  MjcfDocument run();

 private:
  void warn(const std::string& where, const std::string& message) {
    if (o_.strict) throw InputError(where + ": " + message + " (an error with --strict)");
    report_.warnings.push_back(where + ": " + message);
  }
  void note(const std::string& key, const std::string& name) { notes_[key].push_back(name); }

  bool is_world_link(int link) const { return world_link_ && link == r_.root; }
  bool fused(const Joint& j) const {
    return settings_.fuse && j.type == Joint::kFixed && !is_world_link(r_.link_index.at(j.parent));
  }
  bool welded_to_world(int body) const;

  void read_settings();
  const Inertial* inertial_of(const Link& l);
  bool weighs_geoms(const Link& l);
  bool mesh_readable(const Geometry& g);
  std::string converted_mesh(const Geometry& g);
  MassElement link_element(const Inertial& in, const std::string& link, const Frame& t);
  MassElement geoms_element(const Link& l, const Frame& t);

  int make_body(int link, const Frame& frame, int joint, int parent, bool top_level, int depth = 1);
  void collect(int link, const Frame& t, int body, bool main, std::vector<PendingChild>& pending);
  void add_joints(OutBody& b, int joint, bool top_level);
  void add_hinge_or_slide(OutBody& b, const Joint& j);
  std::optional<XmlNode> make_geom(const Shape& s, const Frame& t, bool visual,
                                   const std::optional<Rgba>& link_rgba);
  std::string mesh_asset(const Shape& s);
  void finish_masses();
  void write_inertial(OutBody& b);
  XmlNode body_node(int index);
  void add_actuators(XmlNode& root);
  void add_mimics(XmlNode& root);
  XmlNode compiler_node();
  std::vector<std::string> header() const;

  const Robot& r_;
  const std::string& source_;
  const UrdfOptions& o_;
  UrdfReport& report_;
  bool world_link_ = false;
  std::vector<OutBody> bodies_;
  std::vector<int> top_;
  std::vector<XmlNode> world_items_;
  std::vector<MeshAsset> meshes_;
  std::map<std::pair<std::string, Vec3>, int> mesh_index_;
  Names body_names_, joint_names_, geom_names_, mesh_names_, actuator_names_;
  std::vector<OutJoint> out_joints_;
  std::map<int, std::vector<std::string>> urdf_to_mjcf_joints_;  // URDF joint -> MJCF joints
  std::map<std::string, std::vector<std::string>> notes_;
  std::vector<std::string> dropped_meshes_[2];      // unreadable formats: [0] collision, [1] visual
  std::vector<std::string> by_name_;                // mesh paths resolved by file name
  std::map<std::string, std::string> conversions_;  // mesh path -> its readable copy ("": none)
  std::vector<std::string> conversion_notes_;       // one per mesh converted
  Settings settings_;
  int max_depth_ = 0;  // bodies nested in bodies
  int collision_geoms_ = 0, visual_geoms_ = 0, transmission_actuators_ = -1;
};

void Converter::read_settings() {
  Settings& s = settings_;
  std::optional<bool> fuse, visual, balance;
  if (r_.mujoco) {
    for (const compiler::XmlElement& e : r_.mujoco->children) {
      if (e.name == "option" || e.name == "size") continue;  // copied as written
      if (e.name != "compiler") {
        warn(e.where(), "<mujoco> extension element <" + e.name +
                            "> ignored (compiler, option and size are used, as in MuJoCo's "
                            "importer)");
        continue;
      }
      for (const auto& [key, value] : e.attributes) {
        if (kCopiedCompilerAttributes.count(key)) {
          s.copied.emplace_back(key, value);
        } else if (kIgnoredCompilerAttributes.count(key)) {
          note("<mujoco><compiler> attributes that MuJoCo's importer ignores too", key);
        } else if (!kAppliedCompilerAttributes.count(key)) {
          warn(e.where(), "unknown attribute '" + key + "' ignored");
        }
      }
      const compiler::AttributeReader a(e);
      bool flag = false;
      a.read("meshdir", s.meshdir);
      a.read_bool("strippath", s.strippath);
      if (a.read_bool("fusestatic", flag)) fuse = flag;
      if (a.read_bool("discardvisual", flag)) visual = !flag;
      if (a.read_bool("balanceinertia", flag)) balance = flag;
      a.read("boundmass", s.compiler.boundmass);
      a.read("boundinertia", s.compiler.boundinertia);
      a.read("settotalmass", s.compiler.settotalmass);
      a.read_keyword("inertiafromgeom", s.compiler.inertiafromgeom,
                     {{"false", 0}, {"true", 1}, {"auto", 2}});
      a.read("inertiagrouprange", s.compiler.inertiagrouprange);
      a.read_bool("exactmeshinertia", flag);
      a.read_bool("convexhull", flag);
    }
  }
  // The options win over the extension.
  s.fuse = o_.fuse_fixed.value_or(fuse.value_or(true));
  s.visual = o_.visual.value_or(visual.value_or(true));
  s.compiler.balanceinertia = o_.balance_inertia.value_or(balance.value_or(false));
  s.visual_reason = o_.visual ? "--no-visual" : "discardvisual in the URDF's <mujoco><compiler>";
}

// Whether the compiler reads the mesh: its own format, or a copy converted by options.convert_mesh.
bool Converter::mesh_readable(const Geometry& g) {
  return mesh_file::readable(g.filename) || !converted_mesh(g).empty();
}

// The readable copy of a mesh in another format, converted once per file; "" when there is none (no
// converter, the file missing or the conversion failed: the mesh is then left out as before).
std::string Converter::converted_mesh(const Geometry& g) {
  if (!o_.convert_mesh) return "";
  const std::string path =
      resolve_mesh_path(g.filename, o_, settings_.meshdir, settings_.strippath, nullptr, nullptr);
  if (path.empty()) return "";
  auto it = conversions_.find(path);
  if (it == conversions_.end()) {
    std::string message;
    it = conversions_.emplace(path, o_.convert_mesh(path, message)).first;
    if (it->second.empty()) {
      warn(g.where, "mesh '" + g.filename + "' could not be converted: " + message);
    } else {
      conversion_notes_.push_back(message);
    }
  }
  return it->second;
}

// Collision geoms are in group 0: they weigh when inertiagrouprange takes group 0.
bool Converter::weighs_geoms(const Link& l) {
  const auto& range = settings_.compiler.inertiagrouprange;
  if (range[0] > 0 || range[1] < 0) return false;
  for (const Shape& c : l.collisions) {
    if (c.geometry.type != Geometry::kMesh || mesh_readable(c.geometry)) return true;
  }
  return false;
}

// The <inertial> that gives the link its mass: none with inertiafromgeom="true" where the link has
// geoms that weigh (MuJoCo's importer then weighs them instead).
const Inertial* Converter::inertial_of(const Link& l) {
  if (!l.inertial || (settings_.compiler.inertiafromgeom == 1 && weighs_geoms(l))) return nullptr;
  return &*l.inertial;
}

// A link's <inertial> as a principal element in the body (t: the link's frame in it), checked and
// finished as MuJoCo 2.2.2 finishes each body before fusing static bodies: bounds, then A + B >= C.
MassElement Converter::link_element(const Inertial& in, const std::string& link, const Frame& t) {
  double eig[3], q[4];
  compiler::principal_inertia(eig, q, in.inertia);
  const double scale = std::max({std::abs(eig[0]), std::abs(eig[1]), std::abs(eig[2])});
  const std::string moments =
      format_computed(eig[0]) + ", " + format_computed(eig[1]) + ", " + format_computed(eig[2]);
  if (eig[2] < -1e-12 * scale) {
    throw InputError(in.where + ": the inertia of link '" + link +
                     "' is not positive semi-definite (principal moments " + moments +
                     "): not a physical inertia");
  }
  MassElement e;
  e.mass = in.mass;
  e.inertia = {eig[0], eig[1], eig[2]};
  const compiler::InertiaFinish finish =
      compiler::finish_inertia(e.mass, e.inertia, settings_.compiler);
  if (finish == compiler::InertiaFinish::kViolatesTriangle) {
    throw InputError(in.where + ": the principal moments of inertia of link '" + link + "' (" +
                     moments +
                     ") violate A + B >= C: not a physical inertia (fix it, or use "
                     "--balance-inertia to let the compiler replace it by the mean)");
  }
  if (finish == compiler::InertiaFinish::kBalanced) {
    note(
        "inertias that violate A + B >= C replaced by the mean of their principal moments "
        "(balanceinertia)",
        link);
  } else if (finish == compiler::InertiaFinish::kBounded && settings_.compiler.boundinertia > 0) {
    note("principal moments raised to boundinertia", link);
  }
  if (e.mass != in.mass) note("masses raised to boundmass", link);
  const Frame f = compose(t, frame_of(in.origin));
  math::copy3(e.pos.data(), f.pos);
  math::quat_mul(e.quat.data(), f.quat, q);
  return e;
}

// What a link without <inertial> weighs: its primitive collision geoms at MuJoCo's density (meshes
// cannot be weighed here), as one element, finished like a body.
MassElement Converter::geoms_element(const Link& l, const Frame& t) {
  std::vector<MassElement> geoms;
  for (const Shape& s : l.collisions) {
    const Geometry& g = s.geometry;
    int type = 0;
    compiler::Vec3 size{0, 0, 0};
    switch (g.type) {
      case Geometry::kBox:
        type = kGeomBox, size = {g.size[0] / 2, g.size[1] / 2, g.size[2] / 2};
        break;
      case Geometry::kCylinder: type = kGeomCylinder, size = {g.radius, g.length / 2, 0}; break;
      case Geometry::kCapsule: type = kGeomCapsule, size = {g.radius, g.length / 2, 0}; break;
      case Geometry::kSphere: type = kGeomSphere, size = {g.radius, 0, 0}; break;
      case Geometry::kMesh:
        if (!mesh_readable(g)) continue;
        warn(s.where, "link '" + l.name +
                          "' has no <inertial> and is fused with links that have one: its mesh "
                          "geom adds no mass");
        continue;
    }
    const compiler::GeomMassProperties mp = compiler::primitive_mass_properties(type, size, false);
    const Frame f = compose(t, frame_of(s.origin));
    MassElement e;
    e.mass = kDensity * mp.volume;
    math::copy3(e.pos.data(), f.pos);
    math::copy4(e.quat.data(), f.quat);
    for (int k = 0; k < 3; ++k) e.inertia[k] = kDensity * mp.inertia[k];
    geoms.push_back(e);
  }
  // One geom gives its own frame, as the compiler does.
  MassElement e =
      geoms.size() == 1 && geoms[0].mass >= kMinVal ? geoms[0] : compiler::combine_elements(geoms);
  compiler::finish_inertia(e.mass, e.inertia, settings_.compiler);
  return e;
}

bool Converter::welded_to_world(int body) const {
  for (int b = body; b >= 0; b = bodies_[static_cast<size_t>(b)].parent) {
    if (bodies_[static_cast<size_t>(b)].moving) return false;
  }
  return true;
}

std::string Converter::mesh_asset(const Shape& s) {
  const Geometry& g = s.geometry;
  std::vector<std::string> tried;
  bool by_name = false;
  const std::string path =
      resolve_mesh_path(g.filename, o_, settings_.meshdir, settings_.strippath, &tried, &by_name);
  if (path.empty()) {
    std::string message = "mesh file '" + g.filename + "' not found";
    if (!tried.empty()) message += " (looked for " + name_list(tried, 6) + ")";
    if (!settings_.strippath) {
      message +=
          "; strippath=\"false\" in the URDF's <mujoco><compiler> stops the search by file name";
    }
    if (g.filename.rfind("package://", 0) == 0) {
      const std::string rest = g.filename.substr(10);
      message += "; say where package '" + rest.substr(0, rest.find('/')) +
                 "' is with --package-path " + rest.substr(0, rest.find('/')) +
                 "=DIR or ROS_PACKAGE_PATH";
    }
    throw InputError(g.where + ": " + message);
  }
  if (by_name) by_name_.push_back(fs::path(g.filename).filename().string());
  const std::string file = mesh_file::readable(g.filename) ? path : converted_mesh(g);
  const auto key = std::make_pair(path, g.scale);
  const auto it = mesh_index_.find(key);
  if (it != mesh_index_.end()) return meshes_[static_cast<size_t>(it->second)].name;
  MeshAsset m;
  m.name = mesh_names_.unique(fs::path(path).stem().string());
  m.path = fs::path(file);
  m.scale = g.scale;
  mesh_index_.emplace(key, static_cast<int>(meshes_.size()));
  meshes_.push_back(m);
  return m.name;
}

std::optional<XmlNode> Converter::make_geom(const Shape& s, const Frame& t, bool visual,
                                            const std::optional<Rgba>& link_rgba) {
  const Geometry& g = s.geometry;
  XmlNode geom("geom");
  if (g.type == Geometry::kMesh && !mesh_readable(g)) {
    dropped_meshes_[visual ? 1 : 0].push_back(fs::path(g.filename).filename().string());
    if (!visual) {
      warn(g.where,
           "collision mesh '" + g.filename + "' is in a format the compiler cannot read (" +
               lower_extension(g.filename) + "; STL, OBJ and MSH are read): left out of collision");
    }
    return std::nullopt;
  }
  if (!s.name.empty() && !geom_names_.used(s.name)) geom.set("name", geom_names_.unique(s.name));
  geom.set("class", visual ? "visual" : "collision");
  switch (g.type) {
    case Geometry::kBox: {
      const double half[3] = {g.size[0] / 2, g.size[1] / 2, g.size[2] / 2};
      geom.set("type", "box").set("size", format_numbers(half, 3));
      break;
    }
    case Geometry::kCylinder:
    case Geometry::kCapsule: {
      const double size[2] = {g.radius, g.length / 2};
      geom.set("type", g.type == Geometry::kCylinder ? "cylinder" : "capsule")
          .set("size", format_numbers(size, 2));
      break;
    }
    case Geometry::kSphere: geom.set("type", "sphere").set("size", format_number(g.radius)); break;
    case Geometry::kMesh: geom.set("type", "mesh").set("mesh", mesh_asset(s)); break;
  }
  set_pose(geom, compose(t, frame_of(s.origin)));
  std::optional<Rgba> rgba = s.rgba;
  if (!rgba && !s.material.empty()) {
    const auto m = r_.materials.find(s.material);
    if (m == r_.materials.end()) {
      warn(s.where, "material '" + s.material + "' is not defined: default colour");
    } else {
      rgba = m->second.rgba;
      if (!m->second.texture.empty()) note("textures are not converted (colours are)", s.material);
    }
  }
  // MuJoCo's importer colours collision geoms like the link's visuals; a colour of their own wins.
  if (!visual && !rgba) rgba = link_rgba;
  if (rgba) geom.set("rgba", format_numbers(rgba->data(), 4));
  ++(visual ? visual_geoms_ : collision_geoms_);
  return geom;
}

void Converter::add_hinge_or_slide(OutBody& b, const Joint& j) {
  XmlNode n("joint");
  OutJoint out;
  out.urdf_joint = r_.joint_index.at(j.name);
  out.name = joint_names_.unique(j.name);
  n.set("name", out.name);
  n.set("type", j.type == Joint::kPrismatic ? "slide" : "hinge");
  n.set("axis", format_numbers(j.axis.data(), 3));
  std::vector<std::string> comment;
  if (j.type == Joint::kContinuous) comment.push_back("continuous");
  const bool has_range = j.limit && (j.limit->lower || j.limit->upper);
  const double lower = j.limit && j.limit->lower ? *j.limit->lower : 0;
  const double upper = j.limit && j.limit->upper ? *j.limit->upper : 0;
  if (j.type == Joint::kContinuous) {
    if (has_range && lower < upper) {
      warn(j.where, "continuous joint with limits " + format_number(lower) + " " +
                        format_number(upper) +
                        ": ignored, a continuous joint has none (MuJoCo's importer applies them)");
    }
  } else if (lower < upper) {
    n.set("range", format_number(lower) + " " + format_number(upper));
    out.limited = true;
    out.lower = lower;
    out.upper = upper;
  } else if (lower > upper) {
    warn(j.limit->where, "joint '" + j.name + "' has lower limit " + format_number(lower) +
                             " above upper limit " + format_number(upper) +
                             ": converted without limits (as MuJoCo's importer does)");
  } else {
    note(
        std::string(j.type == Joint::kPrismatic ? "prismatic" : "revolute") +
            " joints without lower < upper limits, converted unlimited (as MuJoCo's importer does)",
        j.name);
  }
  if (j.damping != 0) n.set("damping", format_number(j.damping));
  if (j.friction != 0) n.set("frictionloss", format_number(j.friction));
  if (j.limit && j.limit->has_effort) comment.push_back("effort " + format_number(j.limit->effort));
  if (j.limit && j.limit->has_velocity)
    comment.push_back("velocity " + format_number(j.limit->velocity));
  if (j.safety_controller) note("safety_controller elements ignored", j.name);
  if (j.calibration) note("calibration elements ignored", j.name);
  std::string text;
  for (const std::string& c : comment) text += (text.empty() ? "" : ", ") + c;
  n.trailing_comment = text;
  urdf_to_mjcf_joints_[out.urdf_joint].push_back(out.name);
  out_joints_.push_back(out);
  b.joints.push_back(std::move(n));
}

void Converter::add_joints(OutBody& b, int joint, bool top_level) {
  auto freejoint = [&](const std::string& name, const std::string& comment) {
    XmlNode n("freejoint");
    n.set("name", joint_names_.unique(name));
    n.trailing_comment = comment;
    b.joints.push_back(std::move(n));
    b.moving = true;
  };
  if (joint < 0) {
    if (o_.floating) freejoint("floating_base", "the root set free by the option floating");
    return;
  }
  const Joint& j = r_.joints[static_cast<size_t>(joint)];
  switch (j.type) {
    case Joint::kFixed:
      if (o_.floating && is_world_link(r_.link_index.at(j.parent))) {
        freejoint(j.name, "fixed joint to 'world', set free by the option floating");
      }
      return;
    case Joint::kRevolute:
    case Joint::kContinuous:
    case Joint::kPrismatic:
      add_hinge_or_slide(b, j);
      b.moving = true;
      return;
    case Joint::kFloating:
      if (j.limit) note("limits of floating and planar joints ignored", j.name);
      if (top_level) {
        freejoint(j.name, "floating");
        return;
      }
      {
        // MJCF allows free joints only in top-level bodies: three slides and a ball make the same
        // six degrees of freedom anywhere in the tree.
        const char* axes[3] = {"1 0 0", "0 1 0", "0 0 1"};
        const char* suffix[3] = {"_TX", "_TY", "_TZ"};
        for (int k = 0; k < 3; ++k) {
          XmlNode n("joint");
          n.set("name", joint_names_.unique(j.name + suffix[k]))
              .set("type", "slide")
              .set("axis", axes[k]);
          if (k == 0)
            n.comments.push_back("floating joint '" + j.name +
                                 "' below the top level: three slides and a ball");
          b.joints.push_back(std::move(n));
        }
        XmlNode ball("joint");
        ball.set("name", joint_names_.unique(j.name + "_R")).set("type", "ball");
        b.joints.push_back(std::move(ball));
        note(
            "floating joints below the top level converted to three slides and a ball (MuJoCo's "
            "importer rejects them)",
            j.name);
      }
      b.moving = true;
      return;
    case Joint::kPlanar: {
      if (j.limit) note("limits of floating and planar joints ignored", j.name);
      // Translations along the plane's x and y (the minimal rotation of z onto the normal, as
      // MuJoCo's importer does), rotation about the normal.
      const compiler::Quat q = compiler::quat_from_zaxis({j.axis[0], j.axis[1], j.axis[2]});
      double x[3], y[3], normal[3] = {j.axis[0], j.axis[1], j.axis[2]};
      const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
      math::quat_rotate(x, q.data(), ex);
      math::quat_rotate(y, q.data(), ey);
      math::normalize3(normal);
      const std::pair<const char*, const double*> parts[3] = {
          {"_TX", x}, {"_TY", y}, {"_RZ", normal}};
      for (int k = 0; k < 3; ++k) {
        XmlNode n("joint");
        OutJoint out;
        out.urdf_joint = joint;
        out.name = joint_names_.unique(j.name + parts[k].first);
        n.set("name", out.name)
            .set("type", k < 2 ? "slide" : "hinge")
            .set("axis", format_numbers(parts[k].second, 3, true));
        if (k == 0)
          n.comments.push_back("planar joint '" + j.name +
                               "': two slides in the plane, a hinge about its normal");
        if (j.damping != 0) n.set("damping", format_number(j.damping));
        if (j.friction != 0) n.set("frictionloss", format_number(j.friction));
        urdf_to_mjcf_joints_[joint].push_back(out.name);
        out_joints_.push_back(out);
        b.joints.push_back(std::move(n));
      }
      b.moving = true;
      return;
    }
  }
}

int Converter::make_body(int link, const Frame& frame, int joint, int parent, bool top_level,
                         int depth) {
  const int index = static_cast<int>(bodies_.size());
  max_depth_ = std::max(max_depth_, depth);
  bodies_.emplace_back();
  {
    OutBody& b = bodies_.back();
    b.link = link;
    b.parent = parent;
    b.node.set("name", body_names_.unique(r_.links[static_cast<size_t>(link)].name));
    set_pose(b.node, frame);
    add_joints(b, joint, top_level);
  }
  std::vector<PendingChild> pending;
  collect(link, Frame{}, index, true, pending);
  for (const PendingChild& c : pending) {
    const Joint& j = r_.joints[static_cast<size_t>(c.joint)];
    const OutBody& self = bodies_[static_cast<size_t>(index)];
    // A free joint under a body welded to the world: the child goes to the top level, where MJCF
    // allows free joints (the welded body does not move, so its frame is fixed in the world).
    if (j.type == Joint::kFloating && !self.moving && self.parent < 0) {
      const Frame world = compose(frame, c.frame);
      const int child = make_body(c.link, world, c.joint, -1, true);
      bodies_[static_cast<size_t>(child)].node.comments.push_back(
          "child of '" + r_.links[static_cast<size_t>(link)].name + "' through floating joint '" +
          j.name + "': MJCF puts free bodies at the top level");
      top_.push_back(child);
      continue;
    }
    const int child = make_body(c.link, c.frame, c.joint, index, false, depth + 1);
    bodies_[static_cast<size_t>(index)].children.push_back(child);
  }
  return index;
}

void Converter::collect(int link, const Frame& t, int body, bool main,
                        std::vector<PendingChild>& pending) {
  const Link& l = r_.links[static_cast<size_t>(link)];
  if (!main) {
    const Joint& pj = r_.joints[static_cast<size_t>(r_.parent_joint[static_cast<size_t>(link)])];
    XmlNode site("site");
    site.set("name", l.name);
    set_pose(site, t);
    site.comments.push_back("link '" + l.name + "', fused through fixed joint '" + pj.name +
                            "' from '" + pj.parent + "'");
    bodies_[static_cast<size_t>(body)].items.push_back(std::move(site));
    note("links on fixed joints fused into their parent body, each kept as a site of its name",
         l.name);
  }
  if (!l.ignored.empty()) {
    for (const std::string& e : l.ignored) note("link elements ignored: <" + e + ">", l.name);
  }
  Part part;
  part.link = link;
  part.frame = t;
  const Inertial* inertial = inertial_of(l);
  if (inertial) {
    part.element = link_element(*inertial, l.name, t);
  } else if (l.inertial) {
    note(
        "<inertial> of links with collision geoms ignored: they weigh their geoms "
        "(inertiafromgeom)",
        l.name);
  }
  std::optional<Rgba> link_rgba;
  for (const Shape& v : l.visuals) {
    std::optional<Rgba> c = v.rgba;
    if (!c && r_.materials.count(v.material)) c = r_.materials.at(v.material).rgba;
    if (c) link_rgba = c;
  }
  size_t collision_count = 0;
  for (const Shape& s : l.collisions) {
    if (auto g = make_geom(s, t, false, link_rgba)) {
      OutBody& b = bodies_[static_cast<size_t>(body)];
      if (inertial) b.massless_geoms.push_back(static_cast<int>(b.items.size()));
      b.items.push_back(std::move(*g));
      ++collision_count;
    }
  }
  // Without <inertial>, the link weighs its collision geoms (those the compiler can read), unless
  // inertiafromgeom="false".
  part.from_geoms = !inertial && collision_count > 0 && weighs_geoms(l) &&
                    settings_.compiler.inertiafromgeom != 0;
  {
    OutBody& b = bodies_[static_cast<size_t>(body)];
    const MassElement& e = part.element;
    if (main) {
      if (inertial && !massless(e)) b.exact = inertial;
      if (!massless(e) && e.mass < kMinVal && welded_to_world(body)) {
        note(
            "links with zero mass but a non-zero inertia accepted, as MuJoCo's importer does: "
            "welded to the world, their inertial is never used",
            l.name);
      }
      b.parts.push_back(part);
    } else if (part.from_geoms || e.mass >= kMinVal) {
      b.parts.push_back(part);
    } else if (!massless(e)) {
      note(
          "links with zero mass but a non-zero inertia fused into their parent add nothing (as "
          "MuJoCo's fusestatic does)",
          l.name);
    }
  }
  if (settings_.visual) {
    const size_t first_collision =
        bodies_[static_cast<size_t>(body)].items.size() - collision_count;
    for (const Shape& s : l.visuals) {
      auto g = make_geom(s, t, true, link_rgba);
      if (!g) continue;
      OutBody& b = bodies_[static_cast<size_t>(body)];
      // A visual geom that repeats a collision geom of the link (same shape, place and colour) adds
      // nothing: the collision geom is drawn too.
      bool repeated = false;
      for (size_t k = first_collision; k < b.items.size() && !repeated; ++k) {
        auto strip = [](XmlNode n) {
          n.erase("class");
          n.erase("name");
          return n.attributes;
        };
        repeated = b.items[k].name == "geom" && strip(b.items[k]) == strip(*g);
      }
      if (repeated) {
        --visual_geoms_;
        note("visual geoms identical to a collision geom of their link, not repeated", l.name);
        continue;
      }
      b.items.push_back(std::move(*g));
    }
  }
  for (int j : r_.child_joints[static_cast<size_t>(link)]) {
    const Joint& joint = r_.joints[static_cast<size_t>(j)];
    const int child = r_.link_index.at(joint.child);
    const Frame f = compose(t, frame_of(joint.origin));
    if (fused(joint)) {
      collect(child, f, body, false, pending);
    } else {
      pending.push_back({child, f, j});
    }
  }
}

void Converter::finish_masses() {
  const std::string from_geoms_note =
      "links without <inertial>: mass from their collision geoms at density 1000 (as MuJoCo's "
      "importer does)";
  for (OutBody& b : bodies_) {
    bool infer = false, explicit_mass = false;
    for (const Part& p : b.parts) {
      infer |= p.from_geoms;
      explicit_mass |= !p.from_geoms && !massless(p.element);
    }
    if (infer && !explicit_mass) {
      // The compiler weighs every geom of the body: those of links that said "no mass" weigh
      // nothing.
      b.infer = true;
      for (int k : b.massless_geoms) b.items[static_cast<size_t>(k)].set("density", "0");
      for (const Part& p : b.parts) {
        if (p.from_geoms) note(from_geoms_note, r_.links[static_cast<size_t>(p.link)].name);
      }
      continue;
    }
    // Some links of the body have <inertial> and some do not: the latter weigh what their primitive
    // collision geoms would (the compiler's density).
    std::vector<Part> parts;
    for (Part& p : b.parts) {
      if (p.from_geoms) {
        p.element = geoms_element(r_.links[static_cast<size_t>(p.link)], p.frame);
        note(from_geoms_note, r_.links[static_cast<size_t>(p.link)].name);
        b.exact = nullptr;
      }
      if (parts.empty() || p.element.mass >= kMinVal) parts.push_back(p);
    }
    b.parts = std::move(parts);
    // Fused one link at a time, each time to principal axes, as MuJoCo 2.2.2's fusestatic does (its
    // eigensolver's tolerance makes the order matter in the last digits).
    b.total = b.parts.empty() ? MassElement{} : b.parts[0].element;
    for (size_t k = 1; k < b.parts.size(); ++k)
      b.total = compiler::combine_elements({b.total, b.parts[k].element});
    if (b.parts.size() > 1) b.exact = nullptr;
  }
  // MuJoCo's importer fuses the links welded to the world into the world body, whose mass
  // settotalmass leaves out: here they stay bodies, so they go without mass.
  if (settings_.compiler.settotalmass > 0 && settings_.fuse) {
    for (size_t i = 0; i < bodies_.size(); ++i) {
      if (!welded_to_world(static_cast<int>(i))) continue;
      OutBody& b = bodies_[i];
      b.total = MassElement{};
      b.exact = nullptr;
      b.infer = false;
      note(
          "links welded to the world written without mass, so that settotalmass scales the "
          "others as in MuJoCo's importer (which fuses them into the world body)",
          r_.links[static_cast<size_t>(b.link)].name);
    }
  }
  // A moving body, with the bodies welded to it, needs mass and rotational inertia.
  for (size_t i = 0; i < bodies_.size(); ++i) {
    OutBody& b = bodies_[i];
    if (!b.moving) continue;
    double mass = 0, moments[3] = {0, 0, 0};
    bool infer = false;
    std::vector<int> group = {static_cast<int>(i)};
    for (size_t k = 0; k < group.size(); ++k) {
      const OutBody& g = bodies_[static_cast<size_t>(group[k])];
      infer |= g.infer;
      mass += g.total.mass;
      for (int a = 0; a < 3; ++a) moments[a] += g.total.inertia[static_cast<size_t>(a)];
      for (int c : g.children) {
        if (!bodies_[static_cast<size_t>(c)].moving) group.push_back(c);
      }
    }
    if (infer) continue;
    const Link& link = r_.links[static_cast<size_t>(b.link)];
    const std::string& name = link.name;
    if (mass < kMinVal && std::max({moments[0], moments[1], moments[2]}) > 0) {
      throw InputError((link.inertial ? link.inertial->where : link.where) + ": link '" + name +
                       "' moves but has zero mass and a non-zero inertia: give it a mass (MuJoCo "
                       "2.2.2 rejects it too)");
    }
    MassElement tiny;
    tiny.inertia = {kTinyInertia, kTinyInertia, kTinyInertia};
    if (mass < kMinVal) {
      tiny.mass = kTinyMass;
      b.total = tiny;
      b.bumped = true;
      warn(link.where, "link '" + name + "' moves but has no mass: given " +
                           format_number(kTinyMass) + " kg and " + format_number(kTinyInertia) +
                           " kg m^2 so that it can be simulated (MuJoCo's importer fails here)");
    } else if (moments[0] < kMinVal || moments[1] < kMinVal || moments[2] < kMinVal) {
      tiny.pos = b.total.pos;
      b.total = compiler::combine_elements({b.total, tiny});
      b.bumped = true;
      warn(link.where, "link '" + name + "' moves but has no rotational inertia about some axis: " +
                           format_number(kTinyInertia) +
                           " kg m^2 added so that it can be simulated");
    }
  }
}

void Converter::write_inertial(OutBody& b) {
  if (b.infer) return;
  XmlNode n("inertial");
  if (b.exact && !b.bumped) {
    const Inertial& in = *b.exact;
    const auto& i = in.inertia;
    const bool diagonal = i[3] == 0 && i[4] == 0 && i[5] == 0;
    double eig[3], q[4];
    compiler::principal_inertia(eig, q, i);
    const bool positive = eig[2] > 1e-9 * eig[0] && eig[2] > kMinVal;
    if (diagonal || (in.origin.rpy == Vec3{0, 0, 0} && positive)) {
      n.set("pos", format_numbers(in.origin.xyz.data(), 3));
      if (diagonal && in.origin.rpy != Vec3{0, 0, 0})
        n.set("euler", format_numbers(in.origin.rpy.data(), 3));
      n.set("mass", format_number(in.mass));
      if (diagonal) {
        n.set("diaginertia", format_numbers(i.data(), 3));
      } else {
        n.set("fullinertia", format_numbers(i.data(), 6));
      }
      b.items.insert(b.items.begin(), std::move(n));
      return;
    }
  }
  // Principal axes: what MuJoCo's compiler makes of any inertia, fused or not.
  const MassElement& t = b.total;
  n.set("pos", format_numbers(t.pos.data(), 3, true));
  if (!near_identity_quat(t.quat.data())) n.set("quat", format_numbers(t.quat.data(), 4, true));
  n.set("mass", format_computed(t.mass));
  double moments[3];
  for (int k = 0; k < 3; ++k) moments[k] = std::max(t.inertia[static_cast<size_t>(k)], 0.0);
  n.set("diaginertia", format_numbers(moments, 3, true));
  b.items.insert(b.items.begin(), std::move(n));
}

XmlNode Converter::body_node(int index) {
  OutBody& b = bodies_[static_cast<size_t>(index)];
  write_inertial(b);
  XmlNode n = b.node;
  size_t at = 0;
  // inertial first, then joints, then the rest
  if (!b.items.empty() && b.items[0].name == "inertial") n.add(b.items[at++]);
  for (XmlNode& j : b.joints) n.add(std::move(j));
  for (; at < b.items.size(); ++at) n.add(std::move(b.items[at]));
  for (int c : b.children) n.add(body_node(c));
  return n;
}

void Converter::add_mimics(XmlNode& root) {
  XmlNode equality("equality");
  for (const Joint& j : r_.joints) {
    if (!j.mimic) continue;
    const int follower = r_.joint_index.at(j.name);
    const int leader = r_.joint_index.at(j.mimic->joint);
    const auto f = urdf_to_mjcf_joints_.find(follower);
    const auto l = urdf_to_mjcf_joints_.find(leader);
    const auto single = [&](int k) {
      const Joint::Type t = r_.joints[static_cast<size_t>(k)].type;
      return t == Joint::kRevolute || t == Joint::kContinuous || t == Joint::kPrismatic;
    };
    if (f == urdf_to_mjcf_joints_.end() || l == urdf_to_mjcf_joints_.end() || !single(follower) ||
        !single(leader)) {
      warn(j.mimic->where,
           "mimic of joint '" + j.mimic->joint + "' by joint '" + j.name +
               "' is not converted: both must be revolute, continuous or prismatic");
      continue;
    }
    XmlNode e("joint");
    e.set("joint1", f->second[0]).set("joint2", l->second[0]);
    const double poly[5] = {j.mimic->offset, j.mimic->multiplier, 0, 0, 0};
    e.set("polycoef", format_numbers(poly, 5));
    e.trailing_comment = "mimic: " + j.name + " = " + format_number(j.mimic->multiplier) + " * " +
                         j.mimic->joint +
                         (j.mimic->offset != 0 ? " + " + format_number(j.mimic->offset) : "");
    equality.add(std::move(e));
    note("mimic joints converted to joint equalities (MuJoCo's importer ignores <mimic>)", j.name);
  }
  if (!equality.children.empty()) root.add(std::move(equality));
}

void Converter::add_actuators(XmlNode& root) {
  if (o_.actuators == UrdfOptions::Actuators::kNone) return;
  const bool position = o_.actuators == UrdfOptions::Actuators::kPosition;
  XmlNode actuator("actuator");
  std::set<int> followers;
  for (const Joint& j : r_.joints) {
    if (j.mimic) followers.insert(r_.joint_index.at(j.name));
  }
  auto make = [&](const std::string& name, const OutJoint& out, double gear) {
    const Joint& j = r_.joints[static_cast<size_t>(out.urdf_joint)];
    XmlNode a(position ? "position" : "motor");
    a.set("name", actuator_names_.unique(name)).set("joint", out.name);
    if (gear != 1) a.set("gear", format_number(gear));
    const double effort = j.limit && j.limit->has_effort ? j.limit->effort : 0;
    const bool force_limited = effort > 0 && std::isfinite(effort);
    const double f = force_limited ? effort / std::abs(gear) : 0;
    if (position) {
      a.set("kp", format_number(o_.kp));
      if (out.limited) {
        double lo = out.lower * gear, hi = out.upper * gear;
        if (lo > hi) std::swap(lo, hi);
        a.set("ctrlrange", format_number(lo) + " " + format_number(hi));
      }
    } else if (force_limited) {
      a.set("ctrlrange", format_number(-f) + " " + format_number(f));
    }
    if (force_limited) a.set("forcerange", format_number(-f) + " " + format_number(f));
    if (!force_limited) note("actuators without force limits (no effort in the URDF)", out.name);
    actuator.add(std::move(a));
  };
  if (!r_.transmissions.empty()) {
    for (const Transmission& t : r_.transmissions) {
      const bool simple = t.type.empty() || t.type.find("SimpleTransmission") != std::string::npos;
      if (!simple || t.joints.size() != 1 || t.actuators.size() > 1) {
        warn(t.where,
             "transmission '" + t.name + "' (" + t.type +
                 ") is not converted: only simple transmissions (one joint, one actuator) are");
        continue;
      }
      const auto ji = r_.joint_index.find(t.joints[0]);
      if (ji == r_.joint_index.end()) {
        throw InputError(t.where + ": transmission '" + t.name + "' drives joint '" + t.joints[0] +
                         "', which does not exist");
      }
      const auto m = urdf_to_mjcf_joints_.find(ji->second);
      const Joint::Type type = r_.joints[static_cast<size_t>(ji->second)].type;
      if (m == urdf_to_mjcf_joints_.end() || type == Joint::kPlanar) {
        warn(t.where, "transmission '" + t.name + "' drives joint '" + t.joints[0] + "' (" +
                          r_.joints[static_cast<size_t>(ji->second)].type_name +
                          "), which takes no actuator");
        continue;
      }
      for (const OutJoint& out : out_joints_) {
        if (out.urdf_joint != ji->second) continue;
        const std::string name = t.actuators.empty() ? t.name : t.actuators[0].first;
        make(name.empty() ? out.name : name, out,
             t.actuators.empty() ? 1.0 : t.actuators[0].second);
      }
    }
    transmission_actuators_ = static_cast<int>(actuator.children.size());
  } else {
    for (const OutJoint& out : out_joints_) {
      if (followers.count(out.urdf_joint)) {
        note("mimic joints get no actuator (their equality drives them)", out.name);
        continue;
      }
      make(out.name, out, 1.0);
    }
  }
  if (!actuator.children.empty()) root.add(std::move(actuator));
}

XmlNode Converter::compiler_node() {
  XmlNode c("compiler");
  c.set("angle", "radian").set("eulerseq", "XYZ").set("autolimits", "true");
  // MuJoCo's URDF extension: what the compiler applies as it would to the robot (links fused here
  // were finished one by one with the same settings, so the compiler's pass leaves them be).
  if (settings_.compiler.balanceinertia) c.set("balanceinertia", "true");
  for (const auto& [key, value] : settings_.copied) c.set(key, value);
  if (!meshes_.empty()) {
    // meshdir: the folder holding every mesh, relative to where the MJCF is read from.
    fs::path common = meshes_[0].path.parent_path();
    for (const MeshAsset& m : meshes_) {
      const fs::path dir = m.path.parent_path();
      fs::path prefix;
      auto a = common.begin(), b = dir.begin();
      for (; a != common.end() && b != dir.end() && *a == *b; ++a, ++b) prefix /= *a;
      common = prefix;
    }
    const fs::path out = absolute_normal(o_.output_dir.empty() ? o_.base_dir : o_.output_dir);
    fs::path rel = common.lexically_relative(out);
    const std::string meshdir = rel.empty() ? common.string() : rel.string();
    if (meshdir != ".") c.set("meshdir", meshdir);
    for (MeshAsset& m : meshes_) m.path = m.path.lexically_relative(common);
  }
  return c;
}

std::vector<std::string> Converter::header() const {
  std::vector<std::string> h;
  h.push_back("MJCF of the URDF robot '" + r_.name + "' (" + source_ + "), written by " +
              o_.generator + ".");
  h.push_back("Options: " +
              (o_.options_text.empty() ? std::string("the defaults") : o_.options_text) + ".");
  h.push_back(
      "euler=\"r p y\" is URDF's rpy: radians, about the fixed x, y and z axes in turn (eulerseq "
      "XYZ).");
  if (visual_geoms_ > 0) {
    h.push_back(
        "Visual geoms (group 2) are only drawn: no contacts, no mass. Collision geoms are in group "
        "0.");
  }
  if (settings_.fuse) {
    h.push_back(
        "Links on fixed joints are fused into their parent body; a site keeps each one's frame and "
        "name.");
  }
  if (world_link_) {
    h.push_back("The link 'world' is MJCF's world body.");
  } else if (!o_.floating) {
    h.push_back("The root link '" + r_.links[static_cast<size_t>(r_.root)].name +
                "' is welded to the world (the option floating gives it a free joint).");
  }
  return h;
}

MjcfDocument Converter::run() {
  read_settings();
  for (const Joint& j : r_.joints) {
    for (const std::string& e : j.ignored) note("joint elements ignored: <" + e + ">", j.name);
  }
  const Link& root = r_.links[static_cast<size_t>(r_.root)];
  world_link_ = root.name == "world";
  if (world_link_) {
    if (root.inertial) note("the inertial of the 'world' link is ignored", "world");
    std::vector<PendingChild> pending;
    OutBody world;
    world.link = r_.root;
    bodies_.push_back(world);
    collect(r_.root, Frame{}, 0, true, pending);
    world_items_ = std::move(bodies_[0].items);
    bodies_.clear();
    for (const PendingChild& c : pending)
      top_.push_back(make_body(c.link, c.frame, c.joint, -1, true));
  } else {
    top_.push_back(make_body(r_.root, Frame{}, -1, -1, true));
  }
  finish_masses();

  MjcfDocument doc;
  XmlNode& mj = doc.root;
  mj.name = "mujoco";
  if (!r_.name.empty()) mj.set("model", r_.name);
  XmlNode worldbody("worldbody");
  for (XmlNode& g : world_items_) worldbody.add(std::move(g));
  std::sort(top_.begin(), top_.end());
  for (int t : top_) worldbody.add(body_node(t));

  mj.add(compiler_node());
  if (r_.mujoco) {
    for (const compiler::XmlElement& e : r_.mujoco->children) {
      if (e.name != "option" && e.name != "size") continue;
      // Copied as written.
      std::function<XmlNode(const compiler::XmlElement&)> copy =
          [&](const compiler::XmlElement& x) {
            XmlNode n(x.name);
            for (const auto& [key, value] : x.attributes) n.set(key, value);
            for (const compiler::XmlElement& c : x.children) n.add(copy(c));
            return n;
          };
      mj.add(copy(e));
    }
  }
  if (!meshes_.empty()) {
    XmlNode asset("asset");
    for (const MeshAsset& m : meshes_) {
      XmlNode n("mesh");
      n.set("name", m.name).set("file", m.path.string());
      if (m.scale != Vec3{1, 1, 1}) n.set("scale", format_numbers(m.scale.data(), 3));
      asset.add(std::move(n));
    }
    mj.add(std::move(asset));
  }
  mj.add(std::move(worldbody));
  add_mimics(mj);
  add_actuators(mj);

  if (o_.default_classes) {
    std::vector<DefaultGroup> groups;
    groups.push_back({"joint", "", {{"damping", "0"}, {"frictionloss", "0"}}, {}, ""});
    groups.push_back({"geom", "collision", {{"rgba", "0.5 0.5 0.5 1"}}, {}, "collision geoms"});
    groups.push_back({"geom",
                      "visual",
                      {{"rgba", "0.5 0.5 0.5 1"}},
                      {{"contype", "0"}, {"conaffinity", "0"}, {"group", "2"}, {"density", "0"}},
                      "visual geoms: drawn only, no contacts, no mass"});
    XmlNode* world = nullptr;
    for (XmlNode& c : mj.children) {
      if (c.name == "worldbody") world = &c;
    }
    XmlNode defaults = factor_defaults(*world, groups);
    if (!defaults.children.empty()) {
      auto at = mj.children.begin();
      while (at != mj.children.end() &&
             (at->name == "compiler" || at->name == "option" || at->name == "size"))
        ++at;
      mj.children.insert(at, std::move(defaults));
    }
  } else {
    // Without classes, the visual class's attributes go on every visual geom.
    std::function<void(XmlNode&)> expand = [&](XmlNode& n) {
      if (n.name == "geom" && n.find("class")) {
        if (*n.find("class") == "visual") {
          n.set("contype", "0").set("conaffinity", "0").set("group", "2").set("density", "0");
        }
        n.erase("class");
      }
      for (XmlNode& c : n.children) expand(c);
    };
    expand(mj);
  }

  // The summary.
  auto& s = report_.summary;
  size_t nlinks = r_.links.size(), njoints = r_.joints.size();
  s.push_back("robot '" + r_.name + "': " + quantity(nlinks, "link", "links") + ", " +
              quantity(njoints, "joint", "joints") + " -> " +
              quantity(bodies_.size(), "body", "bodies") + ", " +
              quantity(out_joints_.size(), "joint", "joints") + " (hinge and slide), " +
              quantity(static_cast<size_t>(collision_geoms_), "collision geom", "collision geoms") +
              ", " + quantity(static_cast<size_t>(visual_geoms_), "visual geom", "visual geoms") +
              ", " + quantity(meshes_.size(), "mesh", "meshes"));
  if (!settings_.visual) s.push_back("visual geoms dropped (" + settings_.visual_reason + ")");
  if (transmission_actuators_ >= 0) {
    s.push_back(quantity(static_cast<size_t>(transmission_actuators_), "actuator", "actuators") +
                " made from <transmission> elements");
  }
  if (!dropped_meshes_[1].empty()) {
    const std::string line =
        quantity(dropped_meshes_[1].size(), "visual mesh", "visual meshes") +
        " in formats the compiler cannot read left out (STL, OBJ and MSH are read): " +
        name_list(dropped_meshes_[1]);
    if (o_.strict) throw InputError(source_ + ": " + line + " (an error with --strict)");
    report_.warnings.push_back(line);
  }
  for (const std::string& n : conversion_notes_) s.push_back(n);
  if (!by_name_.empty()) {
    s.push_back(
        quantity(by_name_.size(), "mesh", "meshes") +
        " not found where the URDF says, found by file name in its folder (as MuJoCo's importer "
        "does; --package-path NAME=DIR says where a package is): " +
        name_list(by_name_, 6));
  }
  for (const auto& [what, names] : notes_) s.push_back(what + ": " + name_list(names));
  for (const auto& [what, count] : r_.ignored)
    s.push_back("top-level <" + what + "> ignored (" + std::to_string(count) + ")");
  // MJCF nests bodies as XML elements, which joco's MJCF reader (and MuJoCo 2.2.2's) read to
  // kMaxBodyDepth levels: deeper, the MJCF would be refused by every reader of it, joco-compile
  // included, so it is not written.
  if (max_depth_ > kMaxBodyDepth) {
    throw InputError(r_.where + ": bodies nest " + std::to_string(max_depth_) +
                     " deep, more than the " + std::to_string(kMaxBodyDepth) +
                     " levels of <body> MJCF readers take (XML elements nest at most " +
                     std::to_string(kMaxXmlDepth) + " deep in joco's and MuJoCo 2.2.2's)");
  }
  doc.header = header();
  return doc;
}

}  // namespace

std::string resolve_mesh_path(const std::string& filename, const UrdfOptions& o,
                              const std::string& meshdir, bool strippath,
                              std::vector<std::string>* tried, bool* by_name) {
  std::vector<fs::path> candidates;
  const fs::path base = absolute_normal(o.base_dir);
  if (filename.rfind("package://", 0) == 0) {
    const std::string rest = filename.substr(10);
    const size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    for (const auto& [name, dir] : o.package_paths) {
      if (name == package) candidates.push_back(absolute_normal(dir) / inside);
    }
    for (const std::string& dir : o.ros_package_path) {
      if (dir.empty()) continue;
      candidates.push_back(absolute_normal(dir) / package / inside);
      if (absolute_normal(dir).filename() == package)
        candidates.push_back(absolute_normal(dir) / inside);
    }
  } else if (filename.rfind("file://", 0) == 0) {
    candidates.push_back(fs::path(filename.substr(7)));
  } else {
    const fs::path p(filename);
    if (p.is_absolute()) {
      candidates.push_back(p);
    } else {
      candidates.push_back(base / p);
      if (!meshdir.empty()) candidates.push_back(base / meshdir / p);
    }
  }
  const size_t as_written = candidates.size();
  // MuJoCo's importer strips every path to the file name (unless strippath="false") and looks in
  // meshdir.
  if (strippath) {
    const fs::path name = fs::path(filename).filename();
    if (!meshdir.empty()) candidates.push_back(base / meshdir / name);
    candidates.push_back(base / name);
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    const fs::path c = candidates[i].lexically_normal();
    if (tried) tried->push_back(c.string());
    if (exists_file(c)) {
      if (by_name) *by_name = i >= as_written;
      return absolute_normal(c.string()).string();
    }
  }
  return "";
}

MjcfDocument convert(const Robot& robot, const std::string& source, const UrdfOptions& options,
                     UrdfReport& report) {
  Converter c(robot, source, options, report);
  return c.run();
}

}  // namespace joco::urdf
