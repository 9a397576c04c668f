#include "compiler/compile.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "compiler/assets.h"
#include "compiler/body_inertia.h"
#include "compiler/fluid_coefficients.h"
#include "compiler/geom_inertia.h"
#include "compiler/orientation.h"
#include "compiler/set_const.h"
#include "joco/constraint.h"
#include "joco/error.h"
#include "joco/validate.h"
#include "math/eig3.h"
#include "math/vec.h"

namespace joco::compiler {

namespace {

[[noreturn]] void fail(const Origin& origin, const std::string& name, const std::string& reason) {
  throw InputError(origin.describe(name) + ": " + reason);
}

bool is_identity(const Quat& q) { return q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0; }
bool is_zero(const Vec3& v) { return v[0] == 0 && v[1] == 0 && v[2] == 0; }

template <size_t N>
void copy_to(double* dst, const std::array<double, N>& src) {
  std::copy(src.begin(), src.end(), dst);
}
template <size_t N>
void copy_to(float* dst, const std::array<double, N>& src) {
  for (size_t i = 0; i < N; ++i) dst[i] = static_cast<float>(src[i]);
}

// One body of the flattened tree, with what compilation derives for it.
struct FlatBody {
  BodySpec* spec = nullptr;
  int parent = 0;
  int depth = 0;
  Vec3 pos{};
  Quat quat{1, 0, 0, 0};
  // inertial frame and properties
  Vec3 ipos{};
  Quat iquat{1, 0, 0, 0};
  double mass = 0;
  Vec3 inertia{};
  int first_joint = 0, first_geom = 0, first_site = 0;
  int first_dof = 0, ndof = 0;
  bool has_children = false;
  // Mass, inertia, ipos and iquat already set (a body whose frame is that of its inertia).
  bool inertia_in_frame = false;
  // Masses fused into this body from static children (fusestatic) that do not arrive as geoms.
  std::vector<struct MassElement> fused;
};

struct FlatGeom {
  GeomSpec* spec;
  int body;
  Vec3 pos;
  Quat quat;
  int mesh = -1, hfield = -1, material = -1;
  MeshGeom mesh_geom;              // for geoms that reference a mesh
  bool counts_for_inertia = true;  // false for geoms fused from a body with an explicit inertial
  double mass = 0;
  Vec3 inertia{};  // principal moments in the geom frame
};

struct FlatSite {
  SiteSpec* spec;
  int body;
  Vec3 pos;
  Quat quat;
  int material = -1;
};

class Compiler {
 public:
  explicit Compiler(ModelSpec& spec) : spec_(spec) {}

  Model run() {
    flatten(&spec_.world, 0, 0);
    sort_pairs_and_excludes();
    resolve_frames();
    assets_ = compile_assets(spec_);
    resolve_geoms();
    compute_geom_masses();
    infer_global_frames();
    fuse_static_bodies();
    compute_inertia();
    build_dofs();
    Model m(sizes());
    fill(m);
    // Before set_const makes a Data: its sizes are checked before they are allocated.
    validate_model(m, spec_.source);
    std::vector<std::array<double, 2>> springdamper;
    for (const auto& joint : joints_) springdamper.push_back(joint.first->springdamper);
    set_const(m, spec_, springdamper);
    return m;
  }

 private:
  // ---- tree ----

  void flatten(BodySpec* body, int parent, int depth) {
    const int id = static_cast<int>(bodies_.size());
    FlatBody b;
    b.spec = body;
    b.parent = parent;
    b.depth = depth;
    if (id > 0) bodies_[static_cast<size_t>(parent)].has_children = true;
    bodies_.push_back(b);
    for (JointSpec& j : body->joints) joints_.push_back({&j, id});
    for (GeomSpec& g : body->geoms) geoms_.push_back({&g, id, g.pos, {1, 0, 0, 0}});
    for (SiteSpec& s : body->sites) sites_.push_back({&s, id, s.pos, {1, 0, 0, 0}});
    for (CameraSpec& c : body->cameras) cameras_.push_back({&c, id});
    for (LightSpec& l : body->lights) lights_.push_back({&l, id});
    for (BodySpec& child : body->bodies) flatten(&child, id, depth + 1);
  }

  // MuJoCo keeps explicit pairs and excluded body pairs sorted by their body signature (for binary
  // search during collision), with each pair's geoms ordered by body. Names follow that order.
  void sort_pairs_and_excludes() {
    std::map<std::string, int> body_of_geom, geom_id, body_id;
    for (size_t g = 0; g < geoms_.size(); ++g) {
      if (geoms_[g].spec->name.empty()) continue;
      body_of_geom.emplace(geoms_[g].spec->name, geoms_[g].body);
      geom_id.emplace(geoms_[g].spec->name, static_cast<int>(g));
    }
    for (size_t b = 0; b < bodies_.size(); ++b) {
      if (!bodies_[b].spec->name.empty())
        body_id.emplace(bodies_[b].spec->name, static_cast<int>(b));
    }
    auto lookup = [](const std::map<std::string, int>& ids, const std::string& name,
                     const Origin& origin, const std::string& element, const char* what) {
      auto it = ids.find(name);
      if (it == ids.end())
        fail(origin, element, std::string("unknown ") + what + " '" + name + "'");
      return it->second;
    };
    auto signature = [](int b1, int b2) {
      return ((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1;
    };
    std::vector<std::pair<int, PairSpec>> pairs;
    for (PairSpec& p : spec_.pairs) {
      int g1 = lookup(geom_id, p.geom1, p.origin, p.name, "geom");
      int g2 = lookup(geom_id, p.geom2, p.origin, p.name, "geom");
      int b1 = body_of_geom.at(p.geom1), b2 = body_of_geom.at(p.geom2);
      if (b1 > b2 || (b1 == b2 && g1 > g2)) {
        std::swap(p.geom1, p.geom2);
        std::swap(b1, b2);
        std::swap(g1, g2);
      }
      pairs.emplace_back(signature(b1, b2), std::move(p));
    }
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    spec_.pairs.clear();
    for (auto& entry : pairs) spec_.pairs.push_back(std::move(entry.second));
    std::vector<std::pair<int, ExcludeSpec>> excludes;
    for (ExcludeSpec& x : spec_.excludes) {
      const int b1 = lookup(body_id, x.body1, x.origin, x.name, "body");
      const int b2 = lookup(body_id, x.body2, x.origin, x.name, "body");
      excludes.emplace_back(signature(b1, b2), std::move(x));
    }
    std::stable_sort(excludes.begin(), excludes.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    spec_.excludes.clear();
    for (auto& entry : excludes) spec_.excludes.push_back(std::move(entry.second));
  }

  Quat orientation(const Orientation& o, const Origin& origin, const std::string& name) const {
    return resolve_orientation(o, {1, 0, 0, 0}, spec_.compiler.degree, spec_.compiler.eulerseq,
                               origin.describe(name));
  }

  // Resolves every frame to a position and unit quaternion in its body (global coordinates are
  // converted), applies fromto, and converts joint angles to radians. In global coordinates a body
  // without pos takes the frame of its inertia, known once the masses are (infer_global_frames):
  // until then its elements and its children stay in global coordinates.
  void resolve_frames() {
    const bool global = spec_.compiler.global_coordinates;
    const double to_radians = spec_.compiler.degree ? kPi / 180 : 1;
    // Bodies: local frames; in global coordinates, body i's global frame is known before its
    // children are converted.
    xpos_.assign(bodies_.size(), Vec3{0, 0, 0});
    xquat_.assign(bodies_.size(), Quat{1, 0, 0, 0});
    frame_from_inertia_.assign(bodies_.size(), false);
    for (size_t i = 1; i < bodies_.size(); ++i) {
      FlatBody& b = bodies_[i];
      const BodySpec& s = *b.spec;
      const size_t parent = static_cast<size_t>(b.parent);
      if (s.mocap && b.parent != 0)
        fail(s.origin, s.name, "a mocap body must be a child of the world");
      Quat q = orientation(s.orientation, s.origin, s.name);
      Vec3 p = s.pos.value_or(Vec3{0, 0, 0});
      if (global) {
        frame_from_inertia_[i] = !s.pos;
        if (!s.pos) continue;
        xpos_[i] = p;
        xquat_[i] = q;
        if (!frame_from_inertia_[parent]) to_local(xpos_[parent], xquat_[parent], p, q);
      } else {
        math::frame_mul(xpos_[i].data(), xquat_[i].data(), xpos_[parent].data(),
                        xquat_[parent].data(), p.data(), q.data());
      }
      b.pos = p;
      b.quat = q;
    }
    for (FlatGeom& g : geoms_) {
      GeomSpec& s = *g.spec;
      g.quat = orientation(s.orientation, s.origin, s.name);
      if (s.fromto) apply_fromto(*s.fromto, s.type, s.size, g.pos, g.quat, s.origin, s.name);
    }
    for (FlatSite& t : sites_) {
      SiteSpec& s = *t.spec;
      t.quat = orientation(s.orientation, s.origin, s.name);
      if (s.fromto) apply_fromto(*s.fromto, s.type, s.size, t.pos, t.quat, s.origin, s.name);
    }
    for (auto& [spec, body] : cameras_)
      camera_quat_.push_back(orientation(spec->orientation, spec->origin, spec->name));
    for (auto& [spec, body] : joints_) {
      if (spec->type == kJointHinge) {
        spec->ref *= to_radians;
        spec->springref *= to_radians;
      }
      // Ball and free joints have no axis: MuJoCo 2.2.2 stores +z of the frame they are written
      // in; a free joint's pos is ignored.
      if (spec->type == kJointBall || spec->type == kJointFree) spec->axis = {0, 0, 1};
      if (spec->type == kJointFree) spec->pos = {0, 0, 0};
    }
    if (global) {
      for (size_t i = 0; i < bodies_.size(); ++i) {
        if (!frame_from_inertia_[i]) elements_to_local(static_cast<int>(i));
      }
    }
  }

  // In global coordinates, the elements of `body` (geoms, sites, cameras, lights, joints) from
  // global coordinates into its frame.
  void elements_to_local(int body) {
    const Vec3& xpos = xpos_[static_cast<size_t>(body)];
    const Quat& xquat = xquat_[static_cast<size_t>(body)];
    double conj[4];
    math::quat_conj(conj, xquat.data());
    auto rotate = [&conj](Vec3& v) {
      double local[3];
      math::quat_rotate(local, conj, v.data());
      v = {local[0], local[1], local[2]};
    };
    for (FlatGeom& g : geoms_) {
      if (g.body != body) continue;
      math::quat_normalize(g.quat.data());
      to_local(xpos, xquat, g.pos, g.quat);
    }
    for (FlatSite& t : sites_) {
      if (t.body == body) to_local(xpos, xquat, t.pos, t.quat);
    }
    for (size_t c = 0; c < cameras_.size(); ++c) {
      if (cameras_[c].second == body)
        to_local(xpos, xquat, cameras_[c].first->pos, camera_quat_[c]);
    }
    for (auto& [spec, b] : lights_) {
      if (b != body) continue;
      Quat unused{1, 0, 0, 0};
      to_local(xpos, xquat, spec->pos, unused);
      // MuJoCo 2.2.2 turns a light's direction by the body's orientation, not by its inverse (so
      // light_dir0 is the given direction turned twice). Reproduced: only rendering reads it.
      double dir[3];
      math::quat_rotate(dir, xquat.data(), spec->dir.data());
      spec->dir = {dir[0], dir[1], dir[2]};
    }
    for (auto& [spec, b] : joints_) {
      if (b != body) continue;
      Quat unused{1, 0, 0, 0};
      if (spec->type != kJointFree) to_local(xpos, xquat, spec->pos, unused);
      rotate(spec->axis);
    }
  }

  // In global coordinates, each body without pos takes the frame of its inertia (position and
  // orientation; its own orientation is ignored), as the MJCF reference describes: from its
  // inertial element, or from the geoms that give it inertia, in global coordinates. Then its
  // elements and children are expressed in that frame. Before fuse_static_bodies, after the geom
  // masses.
  void infer_global_frames() {
    for (size_t i = 1; i < bodies_.size(); ++i) {
      if (!frame_from_inertia_[i]) continue;
      FlatBody& b = bodies_[i];
      const BodySpec& s = *b.spec;
      // Its inertia, in global coordinates while the body stands at the world's frame.
      if (inertia_from_geoms_mode(b)) {
        if (!has_inertia_geoms(static_cast<int>(i))) {
          fail(s.origin, s.name,
               "in global coordinates a body without pos needs an inertial element or geoms "
               "that give it inertia");
        }
        inertia_from_geoms(static_cast<int>(i));
      } else if (s.inertial) {
        set_explicit_inertia(b, *s.inertial);
      } else {
        fail(s.origin, s.name, "the body has no inertial element and inertiafromgeom is false");
      }
      const size_t parent = static_cast<size_t>(b.parent);
      xpos_[i] = b.ipos;
      xquat_[i] = b.iquat;
      b.pos = b.ipos;
      b.quat = b.iquat;
      // The inertia stays as computed, its frame expressed in the body's (position 0, the
      // orientation identity up to rounding, as MuJoCo 2.2.2 has it).
      to_local(xpos_[i], xquat_[i], b.ipos, b.iquat);
      b.inertia_in_frame = true;
      // (The parent's frame is set by now: it comes first.)
      to_local(xpos_[parent], xquat_[parent], b.pos, b.quat);
      frame_from_inertia_[i] = false;
      elements_to_local(static_cast<int>(i));
      for (size_t c = i + 1; c < bodies_.size(); ++c) {
        FlatBody& child = bodies_[c];
        if (child.parent == static_cast<int>(i) && !frame_from_inertia_[c])
          to_local(xpos_[i], xquat_[i], child.pos, child.quat);
      }
    }
  }

  bool has_inertia_geoms(int body) const {
    const auto& range = spec_.compiler.inertiagrouprange;
    for (const FlatGeom& g : geoms_) {
      if (g.body == body && g.spec->group >= range[0] && g.spec->group <= range[1]) return true;
    }
    return false;
  }

  static void to_local(const Vec3& parent_pos, const Quat& parent_quat, Vec3& pos, Quat& quat) {
    double d[3], conj[4], local[3], q[4];
    math::sub3(d, pos.data(), parent_pos.data());
    math::quat_conj(conj, parent_quat.data());
    math::quat_rotate(local, conj, d);
    math::quat_mul(q, conj, quat.data());
    math::quat_normalize(q);
    pos = {local[0], local[1], local[2]};
    quat = {q[0], q[1], q[2], q[3]};
  }

  // fromto: the frame sits midway along the segment with +z along it; the length sets a size.
  static void apply_fromto(const std::array<double, 6>& ft, int type, Vec3& size, Vec3& pos,
                           Quat& quat, const Origin& origin, const std::string& name) {
    if (type != kGeomCapsule && type != kGeomCylinder && type != kGeomBox &&
        type != kGeomEllipsoid) {
      fail(origin, name, "fromto requires a capsule, cylinder, box or ellipsoid");
    }
    // MuJoCo 2.2.2 rejects a pos other than 0 beside fromto (from the element or its class).
    if (pos[0] != 0 || pos[1] != 0 || pos[2] != 0)
      fail(origin, name, "give pos or fromto, not both");
    const Vec3 from = {ft[0], ft[1], ft[2]}, to = {ft[3], ft[4], ft[5]};
    // MuJoCo 2.2.2 points +z from the second point towards the first.
    Vec3 dir = {from[0] - to[0], from[1] - to[1], from[2] - to[2]};
    const double length = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (length < kMinVal) fail(origin, name, "fromto has coincident end points");
    pos = {(from[0] + to[0]) / 2, (from[1] + to[1]) / 2, (from[2] + to[2]) / 2};
    quat = quat_from_zaxis(dir);
    if (type == kGeomCapsule || type == kGeomCylinder) {
      size[1] = length / 2;
    } else {
      size[1] = size[0];
      size[2] = length / 2;
    }
  }

  // ---- geoms: asset references, sizes ----

  void resolve_geoms() {
    for (FlatGeom& g : geoms_) {
      GeomSpec& s = *g.spec;
      const std::string& name = s.name;
      if (!s.material.empty())
        g.material = find_asset(assets_.material_ids, s.material, s.origin, name, "material");
      if (s.type == kGeomHfield) {
        if (s.hfield.empty())
          fail(s.origin, name, "a height field geom needs the hfield attribute");
        g.hfield = find_asset(assets_.hfield_ids, s.hfield, s.origin, name, "hfield");
      }
      if (!s.mesh.empty()) {
        g.mesh = find_asset(assets_.mesh_ids, s.mesh, s.origin, name, "mesh");
        fit_to_mesh(g);
      } else if (s.type == kGeomMesh) {
        fail(s.origin, name, "a mesh geom needs the mesh attribute");
      }
      if (s.shellinertia && s.type != kGeomMesh) {
        fail(s.origin, name, "shellinertia is only available for meshes");
      }
      check_size(s);
    }
    for (FlatSite& t : sites_) {
      if (!t.spec->material.empty()) {
        t.material = find_asset(assets_.material_ids, t.spec->material, t.spec->origin,
                                t.spec->name, "material");
      }
    }
  }

  static int find_asset(const std::map<std::string, int>& ids, const std::string& name,
                        const Origin& origin, const std::string& element, const char* kind) {
    auto it = ids.find(name);
    if (it == ids.end()) fail(origin, element, std::string("unknown ") + kind + " '" + name + "'");
    return it->second;
  }

  // A mesh geom takes the mesh's frame offset and size; a primitive referencing a mesh is fitted to
  // it (the geom frame moves by the offset either way).
  void fit_to_mesh(FlatGeom& g) {
    const CompiledMesh& mesh = assets_.meshes[static_cast<size_t>(g.mesh)];
    MeshGeomSpec request;
    request.type = g.spec->type;
    request.shellinertia = g.spec->shellinertia;
    request.fitaabb = spec_.compiler.fitaabb;
    request.fitscale = g.spec->fitscale;
    g.mesh_geom = mesh_geom(mesh, request, g.spec->origin.describe(g.spec->name));
    math::quat_normalize(g.quat.data());
    double pos[3], quat[4];
    compose_mesh_frame(pos, quat, g.pos.data(), g.quat.data(), g.mesh_geom);
    g.pos = {pos[0], pos[1], pos[2]};
    g.quat = {quat[0], quat[1], quat[2], quat[3]};
    g.spec->size = {g.mesh_geom.size[0], g.mesh_geom.size[1], g.mesh_geom.size[2]};
  }

  // Geoms and sites alike (MuJoCo 2.2.2 checks both).
  template <class Spec>
  static void check_size(const Spec& s) {
    int needed = 0;
    switch (s.type) {
      case kGeomSphere: needed = 1; break;
      case kGeomCapsule:
      case kGeomCylinder: needed = 2; break;
      case kGeomEllipsoid:
      case kGeomBox: needed = 3; break;
      case kGeomPlane:
        if (s.size[2] < 0) fail(s.origin, s.name, "plane size must be non-negative");
        return;
      default: return;
    }
    for (int i = 0; i < needed; ++i) {
      if (!(s.size[static_cast<size_t>(i)] > 0)) {
        fail(s.origin, s.name, "size " + std::to_string(i) + " must be positive");
      }
    }
  }

  // ---- inertia ----

  // Mass and principal inertia of every geom (in the geom frame).
  void compute_geom_masses() {
    for (FlatGeom& g : geoms_) {
      const GeomSpec& s = *g.spec;
      GeomMassProperties p;
      if (g.mesh >= 0 && !g.mesh_geom.error.empty()) {
        // A degenerate mesh: an error only where the body's inertia comes from its geoms.
        if (g.body > 0 && inertia_from_geoms_mode(bodies_[static_cast<size_t>(g.body)]))
          fail(s.origin, s.name, "mesh '" + s.mesh + "': " + g.mesh_geom.error);
      } else if (g.mesh >= 0) {
        p.volume = g.mesh_geom.volume;
        p.inertia = {g.mesh_geom.unit_inertia[0], g.mesh_geom.unit_inertia[1],
                     g.mesh_geom.unit_inertia[2]};
      } else {
        p = primitive_mass_properties(s.type, s.size, false);
      }
      double density = s.density;
      if (s.mass) {
        density = p.volume > 0 ? *s.mass / p.volume : 0;
        g.mass = *s.mass;
      } else {
        g.mass = density * p.volume;
      }
      g.inertia = {p.inertia[0] * density, p.inertia[1] * density, p.inertia[2] * density};
      if (s.mass && p.volume <= 0 && *s.mass > 0 && s.type != kGeomPlane && s.type != kGeomHfield) {
        fail(s.origin, s.name, "cannot give mass to a geom without volume");
      }
    }
  }

  // Whether a body's inertia comes from its geoms (inertiafromgeom true, or auto without an
  // inertial element).
  bool inertia_from_geoms_mode(const FlatBody& b) const {
    const int mode = spec_.compiler.inertiafromgeom;
    return mode == 1 || (mode == 2 && !b.spec->inertial);
  }

  void compute_inertia() {
    const CompilerSettings& c = spec_.compiler;
    for (size_t i = 1; i < bodies_.size(); ++i) {
      FlatBody& b = bodies_[i];
      const BodySpec& s = *b.spec;
      if (b.inertia_in_frame) {
        // Set by infer_global_frames.
      } else if (inertia_from_geoms_mode(b)) {
        inertia_from_geoms(static_cast<int>(i));
      } else if (s.inertial) {
        set_explicit_inertia(b, *s.inertial);
        if (!b.fused.empty()) add_fused_masses(b);
      } else {
        fail(s.origin, s.name, "the body has no inertial element and inertiafromgeom is false");
      }
      if (finish_inertia(b.mass, b.inertia, c) == InertiaFinish::kViolatesTriangle)
        fail(s.origin, s.name, "inertia must satisfy A + B >= C (set balanceinertia to fix it)");
    }
    check_moving_masses();
    if (c.settotalmass > 0) {
      double total = 0;
      for (size_t i = 1; i < bodies_.size(); ++i) total += bodies_[i].mass;
      if (total > 0) {
        const double scale = c.settotalmass / total;
        for (size_t i = 1; i < bodies_.size(); ++i) {
          bodies_[i].mass *= scale;
          for (double& v : bodies_[i].inertia) v *= scale;
        }
      }
    }
  }

  // A body with joints, together with the bodies welded to it, must have positive mass and inertia
  // (else its dofs have no inertia). Welded bodies are those without joints below it.
  void check_moving_masses() const {
    std::vector<int> weld(bodies_.size(), 0);
    std::vector<double> mass(bodies_.size(), 0);
    std::vector<Vec3> inertia(bodies_.size(), Vec3{0, 0, 0});
    for (size_t i = 1; i < bodies_.size(); ++i) {
      const FlatBody& b = bodies_[i];
      weld[i] = b.spec->joints.empty() ? weld[static_cast<size_t>(b.parent)] : static_cast<int>(i);
      const size_t w = static_cast<size_t>(weld[i]);
      mass[w] += b.mass;
      for (size_t k = 0; k < 3; ++k) inertia[w][k] += b.inertia[k];
    }
    for (size_t i = 1; i < bodies_.size(); ++i) {
      if (weld[i] != static_cast<int>(i)) continue;
      if (mass[i] < kMinVal || inertia[i][0] < kMinVal || inertia[i][1] < kMinVal ||
          inertia[i][2] < kMinVal) {
        fail(bodies_[i].spec->origin, bodies_[i].spec->name,
             "mass and inertia of moving bodies must be positive");
      }
    }
  }

  void set_explicit_inertia(FlatBody& b, const InertialSpec& in) {
    b.mass = in.mass;
    b.ipos = in.pos;
    const Quat frame = orientation(in.orientation, in.origin, "");
    if (in.fullinertia) {
      const auto& f = *in.fullinertia;  // ixx iyy izz ixy ixz iyz
      const double full[9] = {f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2]};
      double eig[3], q[4];
      math::eig3(eig, q, full);
      b.inertia = {eig[0], eig[1], eig[2]};
      double combined[4];
      math::quat_mul(combined, frame.data(), q);
      b.iquat = {combined[0], combined[1], combined[2], combined[3]};
    } else {
      b.inertia = *in.diaginertia;
      b.iquat = frame;
    }
    if (spec_.compiler.global_coordinates) {
      to_local(xpos_[static_cast<size_t>(&b - bodies_.data())],
               xquat_[static_cast<size_t>(&b - bodies_.data())], b.ipos, b.iquat);
    }
  }

  // Mass-weighted centre and composite inertia of the body's geoms in the inertia group range (and
  // of masses fused into it from static children).
  void inertia_from_geoms(int body) {
    FlatBody& b = bodies_[static_cast<size_t>(body)];
    const auto& range = spec_.compiler.inertiagrouprange;
    std::vector<MassElement> elements;
    for (const FlatGeom& g : geoms_) {
      if (g.body != body || !g.counts_for_inertia || g.spec->group < range[0] ||
          g.spec->group > range[1])
        continue;
      elements.push_back({g.mass, g.pos, g.quat, g.inertia});
    }
    if (!elements.empty() && !b.fused.empty()) {
      // As MuJoCo 2.2.2: the body's own geoms give its inertial first (principal axes and all),
      // which is then combined with the masses fused into it, as an explicit inertial would be.
      std::vector<MassElement> fused = std::move(b.fused);
      b.fused.clear();
      inertia_from_geoms(body);
      b.fused = std::move(fused);
      add_fused_masses(b);
      return;
    }
    elements.insert(elements.end(), b.fused.begin(), b.fused.end());
    if (elements.empty()) {
      // No geoms: MuJoCo 2.2.2 takes the undefined inertial frame from the body's own frame (its
      // pose in the parent), as the documentation's frame-copy rule says.
      b.mass = 0;
      b.inertia = {0, 0, 0};
      b.ipos = b.pos;
      b.iquat = b.quat;
      return;
    }
    if (elements.size() == 1) {
      // A single geom: the body's inertial frame is the geom's frame.
      b.mass = elements[0].mass;
      b.ipos = elements[0].pos;
      b.iquat = elements[0].quat;
      math::quat_normalize(b.iquat.data());
      b.inertia = elements[0].inertia;
      if (b.mass < kMinVal) zero_inertia(b);
      return;
    }
    combine(b, elements);
  }

  static FlatBody& zero_inertia(FlatBody& b) {
    b.mass = 0;
    b.inertia = {0, 0, 0};
    b.ipos = {0, 0, 0};
    b.iquat = {1, 0, 0, 0};
    return b;
  }

  // The composite of rigid masses (combine_elements) as the body's inertial.
  static void combine(FlatBody& b, const std::vector<MassElement>& elements) {
    const MassElement total = combine_elements(elements);
    b.mass = total.mass;
    b.ipos = total.pos;
    b.iquat = total.quat;
    b.inertia = total.inertia;
  }

  // An explicit inertial combined with masses fused into the body.
  void add_fused_masses(FlatBody& b) {
    std::vector<MassElement> elements = {{b.mass, b.ipos, b.iquat, b.inertia}};
    elements.insert(elements.end(), b.fused.begin(), b.fused.end());
    combine(b, elements);
  }

  // ---- fusestatic ----

  // MuJoCo's fusestatic: bodies without joints (static relative to their parent) are merged into
  // their parent, their geoms and sites moved there with composed frames and their children
  // re-attached; their mass joins the parent's. Only done when nothing in the model refers to
  // bodies inside the tree by name (the elements the XML reference lists).
  void fuse_static_bodies() {
    const ModelSpec& s = spec_;
    if (!s.compiler.fusestatic) return;
    if (!s.skins.empty() || !s.pairs.empty() || !s.excludes.empty() || !s.tendons.empty() ||
        !s.actuators.empty() || !s.sensors.empty() || !s.tuples.empty() || !cameras_.empty() ||
        !lights_.empty()) {
      return;
    }
    const size_t n = bodies_.size();
    std::vector<int> target(n);  // the body each body ends up in
    std::vector<Vec3> rel_pos(n, Vec3{0, 0, 0});
    std::vector<Quat> rel_quat(n, Quat{1, 0, 0, 0});
    std::vector<bool> fused(n, false);
    for (size_t i = 0; i < n; ++i) {
      FlatBody& b = bodies_[i];
      target[i] = static_cast<int>(i);
      if (i == 0 || !b.spec->joints.empty() || b.spec->mocap) {
        // Kept: its pose is now relative to where its parent ended up.
        if (i > 0) {
          const size_t p = static_cast<size_t>(b.parent);
          math::frame_mul(b.pos.data(), b.quat.data(), rel_pos[p].data(), rel_quat[p].data(),
                          b.pos.data(), b.quat.data());
          b.parent = target[p];
        }
        continue;
      }
      const size_t p = static_cast<size_t>(b.parent);
      fused[i] = true;
      target[i] = target[p];
      math::frame_mul(rel_pos[i].data(), rel_quat[i].data(), rel_pos[p].data(), rel_quat[p].data(),
                      b.pos.data(), b.quat.data());
    }
    // Move geoms and sites; a fused body's mass goes with its geoms when the target infers its
    // inertia from geoms too, else as one mass element.
    for (size_t i = 1; i < n; ++i) {
      if (!fused[i]) continue;
      FlatBody& t = bodies_[static_cast<size_t>(target[i])];
      t.inertia_in_frame = false;  // what it receives counts too: computed again
      const bool own_geoms_count = inertia_from_geoms_mode(bodies_[i]);
      if (!own_geoms_count || !inertia_from_geoms_mode(t)) {
        // The fused body's own inertia, computed now, travels as a mass element.
        FlatBody copy = bodies_[i];
        if (own_geoms_count) {
          inertia_from_geoms(static_cast<int>(i));
        } else if (copy.spec->inertial) {
          set_explicit_inertia(bodies_[i], *copy.spec->inertial);
        }
        MassElement e{bodies_[i].mass, {}, {}, bodies_[i].inertia};
        math::frame_mul(e.pos.data(), e.quat.data(), rel_pos[i].data(), rel_quat[i].data(),
                        bodies_[i].ipos.data(), bodies_[i].iquat.data());
        if (e.mass > 0) t.fused.push_back(e);
        for (FlatGeom& g : geoms_) {
          if (g.body == static_cast<int>(i)) g.counts_for_inertia = false;
        }
      }
      for (MassElement e : bodies_[i].fused) {
        math::frame_mul(e.pos.data(), e.quat.data(), rel_pos[i].data(), rel_quat[i].data(),
                        e.pos.data(), e.quat.data());
        t.fused.push_back(e);
      }
    }
    for (FlatGeom& g : geoms_) {
      const size_t b = static_cast<size_t>(g.body);
      if (!fused[b]) continue;
      math::frame_mul(g.pos.data(), g.quat.data(), rel_pos[b].data(), rel_quat[b].data(),
                      g.pos.data(), g.quat.data());
      g.body = target[b];
    }
    for (FlatSite& t : sites_) {
      const size_t b = static_cast<size_t>(t.body);
      if (!fused[b]) continue;
      math::frame_mul(t.pos.data(), t.quat.data(), rel_pos[b].data(), rel_quat[b].data(),
                      t.pos.data(), t.quat.data());
      t.body = target[b];
    }
    // Renumber the remaining bodies in order, and keep geoms and sites grouped by body.
    std::vector<int> new_index(n, -1);
    std::vector<FlatBody> kept;
    for (size_t i = 0; i < n; ++i) {
      if (fused[i]) continue;
      new_index[i] = static_cast<int>(kept.size());
      kept.push_back(std::move(bodies_[i]));
    }
    for (FlatBody& b : kept) b.parent = new_index[static_cast<size_t>(b.parent)];
    for (size_t i = 0; i < kept.size(); ++i) kept[i].has_children = false;
    for (size_t i = 1; i < kept.size(); ++i)
      kept[static_cast<size_t>(kept[i].parent)].has_children = true;
    bodies_ = std::move(kept);
    for (FlatGeom& g : geoms_) g.body = new_index[static_cast<size_t>(g.body)];
    for (FlatSite& t : sites_) t.body = new_index[static_cast<size_t>(t.body)];
    for (auto& j : joints_) j.second = new_index[static_cast<size_t>(j.second)];
    std::stable_sort(geoms_.begin(), geoms_.end(),
                     [](const FlatGeom& a, const FlatGeom& b) { return a.body < b.body; });
    std::stable_sort(sites_.begin(), sites_.end(),
                     [](const FlatSite& a, const FlatSite& b) { return a.body < b.body; });
    // Global frames of the kept bodies (used for global-coordinate inertials).
    std::vector<Vec3> xpos;
    std::vector<Quat> xquat;
    for (size_t i = 0; i < n; ++i) {
      if (new_index[i] < 0) continue;
      xpos.push_back(xpos_[i]);
      xquat.push_back(xquat_[i]);
    }
    xpos_ = std::move(xpos);
    xquat_ = std::move(xquat);
  }

  // ---- joints and dofs ----

  void build_dofs() {
    int dof = 0, qpos = 0;
    size_t joint = 0;
    for (size_t i = 0; i < bodies_.size(); ++i) {
      FlatBody& b = bodies_[i];
      b.first_joint = static_cast<int>(joint);
      b.first_dof = dof;
      int nfree = 0;
      for (const JointSpec& j : b.spec->joints) {
        if (i == 0) fail(j.origin, j.name, "the world body cannot have joints");
        if (j.type == kJointFree) {
          ++nfree;
          if (b.parent != 0)
            fail(j.origin, j.name, "a free joint can only be used on a child of the world");
        }
        jnt_qposadr_.push_back(qpos);
        jnt_dofadr_.push_back(dof);
        qpos += joint_nq(j.type);
        dof += joint_nv(j.type);
        ++joint;
      }
      if (nfree && b.spec->joints.size() > 1) {
        fail(b.spec->origin, b.spec->name, "a free joint must be the only joint of its body");
      }
      if (b.spec->mocap && !b.spec->joints.empty()) {
        fail(b.spec->origin, b.spec->name, "a mocap body cannot have joints");
      }
      b.ndof = dof - b.first_dof;
      if (b.ndof > 6)
        fail(b.spec->origin, b.spec->name, "more than 6 degrees of freedom in one body");
    }
    nq_ = qpos;
    nv_ = dof;
    // dof tree: a dof's parent is the previous dof of its body, or the last dof of the nearest
    // ancestor that has dofs.
    dof_parent_.assign(static_cast<size_t>(nv_), -1);
    dof_body_.assign(static_cast<size_t>(nv_), 0);
    dof_joint_.assign(static_cast<size_t>(nv_), 0);
    last_dof_.assign(bodies_.size(), -1);
    for (size_t i = 1; i < bodies_.size(); ++i) {
      const FlatBody& b = bodies_[i];
      int previous = last_dof_[static_cast<size_t>(b.parent)];
      for (int k = 0; k < b.ndof; ++k) {
        const int d = b.first_dof + k;
        dof_parent_[static_cast<size_t>(d)] = previous;
        dof_body_[static_cast<size_t>(d)] = static_cast<int>(i);
        previous = d;
      }
      last_dof_[i] = previous;
    }
    for (size_t j = 0; j < joints_.size(); ++j) {
      for (int k = 0; k < joint_nv(joints_[j].first->type); ++k) {
        dof_joint_[static_cast<size_t>(jnt_dofadr_[j] + k)] = static_cast<int>(j);
      }
    }
    nM_ = 0;
    for (int d = 0; d < nv_; ++d) {
      dof_madr_.push_back(nM_);
      for (int p = d; p >= 0; p = dof_parent_[static_cast<size_t>(p)]) ++nM_;
    }
    // nD: non-zeros of the dof-dof "same branch" pattern (M's pattern, both triangles).
    nD_ = 0;
    for (int d = 0; d < nv_; ++d) {
      int depth = 0;
      for (int p = d; p >= 0; p = dof_parent_[static_cast<size_t>(p)]) ++depth;
      nD_ += 2 * depth - 1;
    }
  }

  // ---- sizes and arrays ----

  int user_size(int declared, size_t largest, const char* what) const {
    if (declared >= 0) {
      if (largest > static_cast<size_t>(declared)) {
        throw InputError(spec_.source + ": user data of some " + what + " is longer than nuser_" +
                         what);
      }
      return declared;
    }
    return static_cast<int>(largest);
  }

  template <class T>
  static size_t longest_user(const std::vector<T>& items) {
    size_t n = 0;
    for (const auto& item : items) n = std::max(n, item.user.size());
    return n;
  }

  ModelSizes sizes() {
    ModelSizes s;
    s.nq = nq_;
    s.nv = nv_;
    s.nu = static_cast<int>(spec_.actuators.size());
    s.nbody = static_cast<int>(bodies_.size());
    s.njnt = static_cast<int>(joints_.size());
    s.ngeom = static_cast<int>(geoms_.size());
    s.nsite = static_cast<int>(sites_.size());
    s.ncam = static_cast<int>(cameras_.size());
    s.nlight = static_cast<int>(lights_.size());
    assets_.add_sizes(s);
    s.npair = static_cast<int>(spec_.pairs.size());
    s.nexclude = static_cast<int>(spec_.excludes.size());
    s.neq = static_cast<int>(spec_.equalities.size());
    s.ntendon = static_cast<int>(spec_.tendons.size());
    for (const TendonSpec& t : spec_.tendons) s.nwrap += static_cast<int>(t.path.size());
    s.nsensor = static_cast<int>(spec_.sensors.size());
    s.nnumeric = static_cast<int>(spec_.numerics.size());
    for (const NumericSpec& n : spec_.numerics) s.nnumericdata += static_cast<int>(n.data.size());
    s.ntext = static_cast<int>(spec_.texts.size());
    for (const TextSpec& t : spec_.texts) s.ntextdata += static_cast<int>(t.data.size()) + 1;
    s.ntuple = static_cast<int>(spec_.tuples.size());
    for (const TupleSpec& t : spec_.tuples) s.ntupledata += static_cast<int>(t.elements.size());
    s.nkey = std::max(static_cast<int>(spec_.keys.size()), spec_.size.nkey);
    for (const FlatBody& b : bodies_) s.nmocap += b.spec->mocap;
    for (const ActuatorSpec& u : spec_.actuators) s.na += u.dyntype != kDynNone;

    std::vector<BodySpec*> body_specs;
    size_t body_user = 0;
    for (const FlatBody& b : bodies_) body_user = std::max(body_user, b.spec->user.size());
    size_t jnt_user = 0, geom_user = 0, site_user = 0, cam_user = 0;
    for (const auto& j : joints_) jnt_user = std::max(jnt_user, j.first->user.size());
    for (const FlatGeom& g : geoms_) geom_user = std::max(geom_user, g.spec->user.size());
    for (const FlatSite& t : sites_) site_user = std::max(site_user, t.spec->user.size());
    for (const auto& c : cameras_) cam_user = std::max(cam_user, c.first->user.size());
    const SizeSettings& z = spec_.size;
    s.nuser_body = user_size(z.nuser_body, body_user, "body");
    s.nuser_jnt = user_size(z.nuser_jnt, jnt_user, "jnt");
    s.nuser_geom = user_size(z.nuser_geom, geom_user, "geom");
    s.nuser_site = user_size(z.nuser_site, site_user, "site");
    s.nuser_cam = user_size(z.nuser_cam, cam_user, "cam");
    s.nuser_tendon = user_size(z.nuser_tendon, longest_user(spec_.tendons), "tendon");
    s.nuser_actuator = user_size(z.nuser_actuator, longest_user(spec_.actuators), "actuator");
    s.nuser_sensor = user_size(z.nuser_sensor, longest_user(spec_.sensors), "sensor");

    s.nnames = static_cast<int>(names_buffer().size());
    s.nM = nM_;
    s.nD = nD_;
    for (const EqualitySpec& e : spec_.equalities) {
      s.nemax += e.type == kEqConnect ? 3 : e.type == kEqWeld ? 7 : 1;
    }
    s.njmax = z.njmax >= 0 ? z.njmax : 500;
    s.nconmax = z.nconmax >= 0 ? z.nconmax : 100;
    s.nuserdata = z.nuserdata;
    s.nsensordata = 0;
    for (const SensorSpec& sensor : spec_.sensors) s.nsensordata += sensor_dimension(sensor);
    if (z.nstack >= 0) {
      s.nstack = z.nstack;
    } else {
      const int64_t rows = int64_t{s.njmax} + s.neq + s.nv;
      const int64_t objects = int64_t{s.nq} + s.nv + s.nu + s.na + s.nbody + s.njnt + s.ngeom +
                              s.nsite + s.neq + s.ntendon + s.nwrap;
      const int64_t nstack = std::max<int64_t>(1000, 5 * rows * rows + 20 * objects);
      // nstack is an int (in the Model as in MuJoCo, which cannot load such a model either).
      if (nstack > std::numeric_limits<int>::max()) {
        throw InputError(spec_.source + ": <size njmax=\"" + std::to_string(s.njmax) +
                         "\"> asks for a default stack of " + std::to_string(nstack) +
                         " doubles, more than the " +
                         std::to_string(std::numeric_limits<int>::max()) +
                         " an int counts: lower njmax or set nstack in <size>");
      }
      s.nstack = static_cast<int>(nstack);
    }
    return s;
  }

  static int sensor_dimension(const SensorSpec& s) {
    switch (s.type) {
      case kSensTouch:
      case kSensRangefinder:
      case kSensJointPos:
      case kSensJointVel:
      case kSensTendonPos:
      case kSensTendonVel:
      case kSensActuatorPos:
      case kSensActuatorVel:
      case kSensActuatorFrc:
      case kSensJointLimitPos:
      case kSensJointLimitVel:
      case kSensJointLimitFrc:
      case kSensTendonLimitPos:
      case kSensTendonLimitVel:
      case kSensTendonLimitFrc:
      case kSensClock: return 1;
      case kSensBallQuat:
      case kSensFrameQuat: return 4;
      case kSensUser: return s.dim;
      default: return 3;
    }
  }

  // All names, zero-terminated, in MuJoCo's order: the model name, then each object type in turn.
  const std::string& names_buffer() {
    if (!names_.empty()) return names_;
    auto add = [this](const std::string& name, std::vector<int>& adr) {
      adr.push_back(static_cast<int>(names_.size()));
      names_ += name;
      names_.push_back('\0');
    };
    std::vector<int> unused;
    add(spec_.modelname, unused);
    for (const FlatBody& b : bodies_) add(b.spec->name, name_adr_[kObjBody]);
    for (const auto& j : joints_) add(j.first->name, name_adr_[kObjJoint]);
    for (const FlatGeom& g : geoms_) add(g.spec->name, name_adr_[kObjGeom]);
    for (const FlatSite& t : sites_) add(t.spec->name, name_adr_[kObjSite]);
    for (const auto& c : cameras_) add(c.first->name, name_adr_[kObjCamera]);
    for (const auto& l : lights_) add(l.first->name, name_adr_[kObjLight]);
    for (const std::string& n : assets_.mesh_names) add(n, name_adr_[kObjMesh]);
    for (const std::string& n : assets_.skin_names) add(n, name_adr_[kObjSkin]);
    for (const std::string& n : assets_.hfield_names) add(n, name_adr_[kObjHfield]);
    for (const std::string& n : assets_.texture_names) add(n, name_adr_[kObjTexture]);
    for (const std::string& n : assets_.material_names) add(n, name_adr_[kObjMaterial]);
    for (const PairSpec& p : spec_.pairs) add(p.name, name_adr_[kObjPair]);
    for (const ExcludeSpec& x : spec_.excludes) add(x.name, name_adr_[kObjExclude]);
    for (const EqualitySpec& e : spec_.equalities) add(e.name, name_adr_[kObjEquality]);
    for (const TendonSpec& t : spec_.tendons) add(t.name, name_adr_[kObjTendon]);
    for (const ActuatorSpec& u : spec_.actuators) add(u.name, name_adr_[kObjActuator]);
    for (const SensorSpec& s : spec_.sensors) add(s.name, name_adr_[kObjSensor]);
    for (const NumericSpec& n : spec_.numerics) add(n.name, name_adr_[kObjNumeric]);
    for (const TextSpec& t : spec_.texts) add(t.name, name_adr_[kObjText]);
    for (const TupleSpec& t : spec_.tuples) add(t.name, name_adr_[kObjTuple]);
    for (const KeySpec& k : spec_.keys) add(k.name, name_adr_[kObjKey]);
    for (int k = static_cast<int>(spec_.keys.size());
         k < std::max(static_cast<int>(spec_.keys.size()), spec_.size.nkey); ++k) {
      add("", name_adr_[kObjKey]);
    }
    return names_;
  }

  // Names must be unique within their type.
  void check_unique_names() {
    auto check = [](const auto& items, auto name_of, auto origin_of, const char* what) {
      std::set<std::string> seen;
      for (const auto& item : items) {
        const std::string& name = name_of(item);
        if (name.empty()) continue;
        if (!seen.insert(name).second) {
          throw InputError(origin_of(item).describe(name) + ": repeated " + what + " name '" +
                           name + "'");
        }
      }
    };
    check(
        bodies_, [](const FlatBody& b) -> const std::string& { return b.spec->name; },
        [](const FlatBody& b) -> const Origin& { return b.spec->origin; }, "body");
    check(
        joints_, [](const auto& j) -> const std::string& { return j.first->name; },
        [](const auto& j) -> const Origin& { return j.first->origin; }, "joint");
    check(
        geoms_, [](const FlatGeom& g) -> const std::string& { return g.spec->name; },
        [](const FlatGeom& g) -> const Origin& { return g.spec->origin; }, "geom");
    check(
        sites_, [](const FlatSite& t) -> const std::string& { return t.spec->name; },
        [](const FlatSite& t) -> const Origin& { return t.spec->origin; }, "site");
    check(
        cameras_, [](const auto& c) -> const std::string& { return c.first->name; },
        [](const auto& c) -> const Origin& { return c.first->origin; }, "camera");
    check(
        lights_, [](const auto& l) -> const std::string& { return l.first->name; },
        [](const auto& l) -> const Origin& { return l.first->origin; }, "light");
    auto by_name = [](const auto& x) -> const std::string& { return x.name; };
    auto by_origin = [](const auto& x) -> const Origin& { return x.origin; };
    check(spec_.pairs, by_name, by_origin, "pair");
    check(spec_.excludes, by_name, by_origin, "exclude");
    check(spec_.equalities, by_name, by_origin, "equality");
    check(spec_.tendons, by_name, by_origin, "tendon");
    check(spec_.actuators, by_name, by_origin, "actuator");
    check(spec_.sensors, by_name, by_origin, "sensor");
    check(spec_.numerics, by_name, by_origin, "numeric");
    check(spec_.texts, by_name, by_origin, "text");
    check(spec_.tuples, by_name, by_origin, "tuple");
    check(spec_.keys, by_name, by_origin, "key");
  }

  int id_of(ObjType type, const std::string& name, const Origin& origin, const std::string& element,
            const char* what) const {
    const auto& ids = ids_.at(type);
    auto it = ids.find(name);
    if (it == ids.end()) fail(origin, element, std::string("unknown ") + what + " '" + name + "'");
    return it->second;
  }

  void index_names() {
    auto index = [this](ObjType type, int count, auto name_at) {
      auto& map = ids_[type];
      for (int i = 0; i < count; ++i) {
        const std::string& n = name_at(i);
        if (!n.empty()) map.emplace(n, i);
      }
    };
    index(kObjBody, static_cast<int>(bodies_.size()), [this](int i) -> const std::string& {
      return bodies_[static_cast<size_t>(i)].spec->name;
    });
    index(kObjJoint, static_cast<int>(joints_.size()), [this](int i) -> const std::string& {
      return joints_[static_cast<size_t>(i)].first->name;
    });
    index(kObjGeom, static_cast<int>(geoms_.size()), [this](int i) -> const std::string& {
      return geoms_[static_cast<size_t>(i)].spec->name;
    });
    index(kObjSite, static_cast<int>(sites_.size()), [this](int i) -> const std::string& {
      return sites_[static_cast<size_t>(i)].spec->name;
    });
    index(kObjCamera, static_cast<int>(cameras_.size()), [this](int i) -> const std::string& {
      return cameras_[static_cast<size_t>(i)].first->name;
    });
    index(kObjLight, static_cast<int>(lights_.size()), [this](int i) -> const std::string& {
      return lights_[static_cast<size_t>(i)].first->name;
    });
    index(kObjTendon, static_cast<int>(spec_.tendons.size()), [this](int i) -> const std::string& {
      return spec_.tendons[static_cast<size_t>(i)].name;
    });
    index(kObjActuator, static_cast<int>(spec_.actuators.size()),
          [this](int i) -> const std::string& {
            return spec_.actuators[static_cast<size_t>(i)].name;
          });
    index(kObjSensor, static_cast<int>(spec_.sensors.size()), [this](int i) -> const std::string& {
      return spec_.sensors[static_cast<size_t>(i)].name;
    });
    index(kObjEquality, static_cast<int>(spec_.equalities.size()),
          [this](int i) -> const std::string& {
            return spec_.equalities[static_cast<size_t>(i)].name;
          });
    index(kObjPair, static_cast<int>(spec_.pairs.size()),
          [this](int i) -> const std::string& { return spec_.pairs[static_cast<size_t>(i)].name; });
    index(kObjExclude, static_cast<int>(spec_.excludes.size()),
          [this](int i) -> const std::string& {
            return spec_.excludes[static_cast<size_t>(i)].name;
          });
    index(kObjNumeric, static_cast<int>(spec_.numerics.size()),
          [this](int i) -> const std::string& {
            return spec_.numerics[static_cast<size_t>(i)].name;
          });
    index(kObjText, static_cast<int>(spec_.texts.size()),
          [this](int i) -> const std::string& { return spec_.texts[static_cast<size_t>(i)].name; });
    index(kObjTuple, static_cast<int>(spec_.tuples.size()), [this](int i) -> const std::string& {
      return spec_.tuples[static_cast<size_t>(i)].name;
    });
    index(kObjKey, static_cast<int>(spec_.keys.size()),
          [this](int i) -> const std::string& { return spec_.keys[static_cast<size_t>(i)].name; });
    ids_[kObjXBody] = ids_[kObjBody];
    for (const auto& [name, id] : assets_.mesh_ids) ids_[kObjMesh].emplace(name, id);
    for (const auto& [name, id] : assets_.skin_ids) ids_[kObjSkin].emplace(name, id);
    for (const auto& [name, id] : assets_.hfield_ids) ids_[kObjHfield].emplace(name, id);
    for (const auto& [name, id] : assets_.texture_ids) ids_[kObjTexture].emplace(name, id);
    for (const auto& [name, id] : assets_.material_ids) ids_[kObjMaterial].emplace(name, id);
  }

  void fill(Model& m) {
    check_unique_names();
    index_names();
    fill_names(m);
    fill_options(m);
    fill_bodies(m);
    fill_joints(m);
    fill_geoms(m);
    fill_sites(m);
    fill_cameras_and_lights(m);
    assets_.fill(m, ids_.at(kObjBody), spec_);
    fill_pairs_and_excludes(m);
    fill_equalities(m);
    fill_tendons(m);
    fill_actuators(m);
    fill_sensors(m);
    fill_custom(m);
    fill_keys(m);
  }

  void fill_names(Model& m) {
    std::memcpy(m.names, names_.data(), names_.size());
    auto copy = [](int* dst, const std::vector<int>& src) {
      if (!src.empty()) std::memcpy(dst, src.data(), sizeof(int) * src.size());
    };
    copy(m.name_bodyadr, name_adr_[kObjBody]);
    copy(m.name_jntadr, name_adr_[kObjJoint]);
    copy(m.name_geomadr, name_adr_[kObjGeom]);
    copy(m.name_siteadr, name_adr_[kObjSite]);
    copy(m.name_camadr, name_adr_[kObjCamera]);
    copy(m.name_lightadr, name_adr_[kObjLight]);
    copy(m.name_meshadr, name_adr_[kObjMesh]);
    copy(m.name_skinadr, name_adr_[kObjSkin]);
    copy(m.name_hfieldadr, name_adr_[kObjHfield]);
    copy(m.name_texadr, name_adr_[kObjTexture]);
    copy(m.name_matadr, name_adr_[kObjMaterial]);
    copy(m.name_pairadr, name_adr_[kObjPair]);
    copy(m.name_excludeadr, name_adr_[kObjExclude]);
    copy(m.name_eqadr, name_adr_[kObjEquality]);
    copy(m.name_tendonadr, name_adr_[kObjTendon]);
    copy(m.name_actuatoradr, name_adr_[kObjActuator]);
    copy(m.name_sensoradr, name_adr_[kObjSensor]);
    copy(m.name_numericadr, name_adr_[kObjNumeric]);
    copy(m.name_textadr, name_adr_[kObjText]);
    copy(m.name_tupleadr, name_adr_[kObjTuple]);
    copy(m.name_keyadr, name_adr_[kObjKey]);
  }

  void fill_options(Model& m) {
    m.opt = spec_.option;
    m.vis = spec_.visual;
  }

  void fill_bodies(Model& m) {
    int mocap = 0;
    for (int i = 0; i < m.nbody; ++i) {
      const FlatBody& b = bodies_[static_cast<size_t>(i)];
      const BodySpec& s = *b.spec;
      m.body_parentid[i] = b.parent;
      m.body_rootid[i] = (i == 0 || b.parent == 0) ? i : m.body_rootid[b.parent];
      m.body_weldid[i] = (i == 0 || !s.joints.empty()) ? i : m.body_weldid[b.parent];
      m.body_mocapid[i] = s.mocap ? mocap++ : -1;
      const int njnt = static_cast<int>(s.joints.size());
      m.body_jntnum[i] = njnt;
      m.body_jntadr[i] = njnt ? b.first_joint : -1;
      m.body_dofnum[i] = b.ndof;
      m.body_dofadr[i] = b.ndof ? b.first_dof : -1;
      int ngeom = 0, first = -1;
      for (size_t g = 0; g < geoms_.size(); ++g) {
        if (geoms_[g].body != i) continue;
        if (first < 0) first = static_cast<int>(g);
        ++ngeom;
      }
      m.body_geomnum[i] = ngeom;
      m.body_geomadr[i] = first;
      copy_to(m.body_pos + 3 * i, b.pos);
      copy_to(m.body_quat + 4 * i, b.quat);
      copy_to(m.body_ipos + 3 * i, b.ipos);
      copy_to(m.body_iquat + 4 * i, b.iquat);
      m.body_mass[i] = b.mass;
      copy_to(m.body_inertia + 3 * i, b.inertia);
      std::copy(s.user.begin(), s.user.end(), m.body_user + i * m.nuser_body);
      const bool sameframe = is_zero(b.ipos) && is_identity(b.iquat);
      m.body_sameframe[i] = sameframe;
      // Simple bodies have a diagonal block in M: nothing moves above or below them.
      m.body_simple[i] = i == 0 || (m.body_weldid[b.parent] == 0 && sameframe && !b.has_children &&
                                    simple_joints(s));
    }
  }

  // Whether a body's joints keep its inertia diagonal in dof space: no anchor offsets, hinge and
  // slide axes along coordinate axes, and at most one rotational joint.
  static bool simple_joints(const BodySpec& s) {
    int rotational = 0;
    for (const JointSpec& j : s.joints) {
      if (!is_zero(j.pos)) return false;
      if (j.type == kJointHinge || j.type == kJointSlide) {
        const int nonzero = (j.axis[0] != 0) + (j.axis[1] != 0) + (j.axis[2] != 0);
        if (nonzero != 1) return false;
      }
      if (j.type != kJointSlide) ++rotational;
    }
    return rotational <= 1;
  }

  void fill_joints(Model& m) {
    const bool autolimits = spec_.compiler.autolimits;
    for (int j = 0; j < m.njnt; ++j) {
      const JointSpec& s = *joints_[static_cast<size_t>(j)].first;
      const int body = joints_[static_cast<size_t>(j)].second;
      m.jnt_type[j] = s.type;
      m.jnt_qposadr[j] = jnt_qposadr_[static_cast<size_t>(j)];
      m.jnt_dofadr[j] = jnt_dofadr_[static_cast<size_t>(j)];
      m.jnt_bodyid[j] = body;
      m.jnt_group[j] = s.group;
      // A free joint is never limited, whatever its class says.
      m.jnt_limited[j] =
          s.type != kJointFree && resolve_limited(s.limited, s.range_given, autolimits, s.origin,
                                                  s.name, "limited", "range");
      if (m.jnt_limited[j] && s.range[0] >= s.range[1] && s.type != kJointBall) {
        fail(s.origin, s.name, "range[0] must be smaller than range[1]");
      }
      if (m.jnt_limited[j] && s.type == kJointBall && s.range[0] != 0)
        fail(s.origin, s.name, "a ball joint's range[0] must be 0");
      copy_to(m.jnt_solref + kNREF * j, s.solref_limit);
      copy_to(m.jnt_solimp + kNIMP * j, s.solimp_limit);
      // (0, 0) is no springdamper; set_const applies the others.
      if ((s.springdamper[0] != 0 || s.springdamper[1] != 0) &&
          !(s.springdamper[0] > 0 && s.springdamper[1] > 0)) {
        fail(s.origin, s.name, "springdamper values must be positive (or both 0, for none)");
      }
      copy_to(m.jnt_pos + 3 * j, s.pos);
      Vec3 axis = s.axis;
      if (s.type == kJointHinge || s.type == kJointSlide) {
        const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (n < kMinVal) fail(s.origin, s.name, "joint axis cannot be zero");
        for (double& a : axis) a /= n;
      }
      copy_to(m.jnt_axis + 3 * j, axis);
      m.jnt_stiffness[j] = s.stiffness;
      // Angular ranges are converted to radians, but only where they are used (limited joints).
      std::array<double, 2> range = s.range;
      if (m.jnt_limited[j] && (s.type == kJointHinge || s.type == kJointBall)) {
        const double to_radians = spec_.compiler.degree ? kPi / 180 : 1;
        range = {range[0] * to_radians, range[1] * to_radians};
      }
      copy_to(m.jnt_range + 2 * j, range);
      m.jnt_margin[j] = s.margin;
      std::copy(s.user.begin(), s.user.end(), m.jnt_user + j * m.nuser_jnt);
      // Positions: hinge and slide start at ref, ball and free at the body frame.
      const int adr = m.jnt_qposadr[j];
      switch (s.type) {
        case kJointFree: {
          const FlatBody& b = bodies_[static_cast<size_t>(body)];
          copy_to(m.qpos0 + adr, b.pos);
          copy_to(m.qpos0 + adr + 3, b.quat);
          copy_to(m.qpos_spring + adr, b.pos);
          copy_to(m.qpos_spring + adr + 3, b.quat);
          break;
        }
        case kJointBall: m.qpos0[adr] = m.qpos_spring[adr] = 1; break;
        default: m.qpos0[adr] = s.ref; m.qpos_spring[adr] = s.springref;
      }
      // Dofs of this joint.
      for (int k = 0; k < joint_nv(s.type); ++k) {
        const int d = m.jnt_dofadr[j] + k;
        m.dof_bodyid[d] = body;
        m.dof_jntid[d] = j;
        m.dof_parentid[d] = dof_parent_[static_cast<size_t>(d)];
        m.dof_Madr[d] = dof_madr_[static_cast<size_t>(d)];
        copy_to(m.dof_solref + kNREF * d, s.solref_friction);
        copy_to(m.dof_solimp + kNIMP * d, s.solimp_friction);
        m.dof_frictionloss[d] = s.frictionloss;
        m.dof_armature[d] = s.armature;
        m.dof_damping[d] = s.damping;
      }
    }
    // Simple dofs: those of simple bodies, counted in runs.
    for (int d = m.nv - 1; d >= 0; --d) {
      const bool simple = m.body_simple[m.dof_bodyid[d]];
      m.dof_simplenum[d] = simple ? 1 + (d + 1 < m.nv ? m.dof_simplenum[d + 1] : 0) : 0;
    }
  }

  // limited="auto": with autolimits, limited iff a range was given; without, a range alone is an
  // error (as in MuJoCo 2.2.2, which asks the user to be explicit).
  static bool resolve_limited(TriState limited, bool range_given, bool autolimits,
                              const Origin& origin, const std::string& name, const char* flag,
                              const char* range) {
    if (limited != TriState::kAuto) return limited == TriState::kTrue;
    if (autolimits) return range_given;
    if (range_given) {
      fail(origin, name,
           std::string("has '") + range + "' but not '" + flag +
               "': set autolimits=\"true\" in <compiler>, give '" + flag +
               "' explicitly, or remove '" + range + "'");
    }
    return false;
  }

  void fill_geoms(Model& m) {
    for (int g = 0; g < m.ngeom; ++g) {
      const FlatGeom& f = geoms_[static_cast<size_t>(g)];
      const GeomSpec& s = *f.spec;
      m.geom_type[g] = s.type;
      m.geom_contype[g] = s.contype;
      m.geom_conaffinity[g] = s.conaffinity;
      m.geom_condim[g] = s.condim;
      m.geom_bodyid[g] = f.body;
      m.geom_dataid[g] = s.type == kGeomMesh ? f.mesh : s.type == kGeomHfield ? f.hfield : -1;
      m.geom_matid[g] = f.material;
      m.geom_group[g] = s.group;
      m.geom_priority[g] = s.priority;
      m.geom_solmix[g] = s.solmix;
      copy_to(m.geom_solref + kNREF * g, s.solref);
      copy_to(m.geom_solimp + kNIMP * g, s.solimp);
      Vec3 size = s.size;
      if (s.type == kGeomHfield) size = assets_.hfield_geom_size(f.hfield);
      copy_to(m.geom_size + 3 * g, size);
      m.geom_rbound[g] = bounding_radius(s.type, size, f);
      copy_to(m.geom_pos + 3 * g, f.pos);
      Quat q = f.quat;
      math::quat_normalize(q.data());
      copy_to(m.geom_quat + 4 * g, q);
      copy_to(m.geom_friction + 3 * g, s.friction);
      m.geom_margin[g] = s.margin;
      m.geom_gap[g] = s.gap;
      std::copy(s.user.begin(), s.user.end(), m.geom_user + g * m.nuser_geom);
      copy_to(m.geom_rgba + 4 * g, s.rgba);
      m.geom_sameframe[g] = sameframe(f.pos, q, f.body);
      fluid_coefficients(s.type, m.geom_size + 3 * g, s.fluid_ellipsoid, s.fluidcoef.data(),
                         m.geom_fluid + kNFLUID * g);
    }
  }

  // An equality's anchor in the frame of `body`, which it is written in (in global coordinates,
  // converted: the connect's into body1, the weld's into body2).
  Vec3 anchor_in(int body, Vec3 anchor) const {
    if (spec_.compiler.global_coordinates) {
      Quat unused{1, 0, 0, 0};
      to_local(xpos_[static_cast<size_t>(body)], xquat_[static_cast<size_t>(body)], anchor, unused);
    }
    return anchor;
  }

  // 1 when a frame equals its body frame, 2 when it equals the body's inertial frame, else 0.
  uint8_t sameframe(const Vec3& pos, const Quat& quat, int body) const {
    if (is_zero(pos) && is_identity(quat)) return 1;
    const FlatBody& b = bodies_[static_cast<size_t>(body)];
    if (pos == b.ipos && quat == b.iquat) return 2;
    return 0;
  }

  double bounding_radius(int type, const Vec3& size, const FlatGeom& f) const {
    switch (type) {
      case kGeomSphere: return size[0];
      case kGeomCapsule: return size[0] + size[1];
      case kGeomCylinder: return std::sqrt(size[0] * size[0] + size[1] * size[1]);
      case kGeomEllipsoid: return std::max({size[0], size[1], size[2]});
      case kGeomBox: return std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
      case kGeomMesh: return f.mesh_geom.rbound;
      default: return 0;
    }
  }

  void fill_sites(Model& m) {
    for (int i = 0; i < m.nsite; ++i) {
      const FlatSite& f = sites_[static_cast<size_t>(i)];
      const SiteSpec& s = *f.spec;
      m.site_type[i] = s.type;
      m.site_bodyid[i] = f.body;
      m.site_matid[i] = f.material;
      m.site_group[i] = s.group;
      check_size(s);
      copy_to(m.site_size + 3 * i, s.size);
      copy_to(m.site_pos + 3 * i, f.pos);
      Quat q = f.quat;
      math::quat_normalize(q.data());
      copy_to(m.site_quat + 4 * i, q);
      std::copy(s.user.begin(), s.user.end(), m.site_user + i * m.nuser_site);
      copy_to(m.site_rgba + 4 * i, s.rgba);
      m.site_sameframe[i] = sameframe(f.pos, q, f.body);
    }
  }

  void fill_cameras_and_lights(Model& m) {
    for (int i = 0; i < m.ncam; ++i) {
      const CameraSpec& c = *cameras_[static_cast<size_t>(i)].first;
      m.cam_mode[i] = c.mode;
      m.cam_bodyid[i] = cameras_[static_cast<size_t>(i)].second;
      m.cam_targetbodyid[i] = target_body(c.mode, c.target, m.cam_bodyid[i], c.origin, c.name);
      copy_to(m.cam_pos + 3 * i, c.pos);
      Quat q = camera_quat_[static_cast<size_t>(i)];
      math::quat_normalize(q.data());
      copy_to(m.cam_quat + 4 * i, q);
      m.cam_fovy[i] = c.fovy;
      m.cam_ipd[i] = c.ipd;
      std::copy(c.user.begin(), c.user.end(), m.cam_user + i * m.nuser_cam);
    }
    for (int i = 0; i < m.nlight; ++i) {
      const LightSpec& l = *lights_[static_cast<size_t>(i)].first;
      m.light_mode[i] = l.mode;
      m.light_bodyid[i] = lights_[static_cast<size_t>(i)].second;
      m.light_targetbodyid[i] = target_body(l.mode, l.target, m.light_bodyid[i], l.origin, l.name);
      m.light_directional[i] = l.directional;
      m.light_castshadow[i] = l.castshadow;
      m.light_active[i] = l.active;
      copy_to(m.light_pos + 3 * i, l.pos);
      Vec3 dir = l.dir;
      const double n = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
      if (n < kMinVal) fail(l.origin, l.name, "light direction cannot be zero");
      for (double& v : dir) v /= n;
      copy_to(m.light_dir + 3 * i, dir);
      copy_to(m.light_attenuation + 3 * i, l.attenuation);
      m.light_cutoff[i] = static_cast<float>(l.cutoff);
      m.light_exponent[i] = static_cast<float>(l.exponent);
      copy_to(m.light_ambient + 3 * i, l.ambient);
      copy_to(m.light_diffuse + 3 * i, l.diffuse);
      copy_to(m.light_specular + 3 * i, l.specular);
    }
  }

  // The body a camera or light in `own` body targets; MuJoCo 2.2.2 rejects targeting `own`, and
  // accepts a target mode without a target (-1: the camera or light stays fixed).
  int target_body(int mode, const std::string& target, int own, const Origin& origin,
                  const std::string& name) const {
    if (mode == kCamLightTargetBody || mode == kCamLightTargetBodyCom) {
      if (target.empty()) return -1;
      const int id = id_of(kObjBody, target, origin, name, "target body");
      if (id == own) fail(origin, name, "cannot target the body it is in");
      return id;
    }
    return -1;
  }

  void fill_pairs_and_excludes(Model& m) {
    for (int i = 0; i < m.npair; ++i) {
      const PairSpec& p = spec_.pairs[static_cast<size_t>(i)];
      const int g1 = id_of(kObjGeom, p.geom1, p.origin, p.name, "geom");
      const int g2 = id_of(kObjGeom, p.geom2, p.origin, p.name, "geom");
      m.pair_dim[i] = p.condim;
      m.pair_geom1[i] = g1;
      m.pair_geom2[i] = g2;
      const int b1 = m.geom_bodyid[g1], b2 = m.geom_bodyid[g2];
      m.pair_signature[i] = ((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1;
      copy_to(m.pair_solref + kNREF * i, p.solref);
      copy_to(m.pair_solimp + kNIMP * i, p.solimp);
      m.pair_margin[i] = p.margin;
      m.pair_gap[i] = p.gap;
      copy_to(m.pair_friction + 5 * i, p.friction);
    }
    for (int i = 0; i < m.nexclude; ++i) {
      const ExcludeSpec& x = spec_.excludes[static_cast<size_t>(i)];
      const int b1 = id_of(kObjBody, x.body1, x.origin, x.name, "body");
      const int b2 = id_of(kObjBody, x.body2, x.origin, x.name, "body");
      m.exclude_signature[i] = ((std::min(b1, b2) + 1) << 16) + std::max(b1, b2) + 1;
    }
  }

  void fill_equalities(Model& m) {
    for (int i = 0; i < m.neq; ++i) {
      const EqualitySpec& e = spec_.equalities[static_cast<size_t>(i)];
      m.eq_type[i] = e.type;
      m.eq_active[i] = e.active;
      copy_to(m.eq_solref + kNREF * i, e.solref);
      copy_to(m.eq_solimp + kNIMP * i, e.solimp);
      double* data = m.eq_data + kNEQDATA * i;
      data[10] = e.torquescale;  // MuJoCo keeps it in the last slot for every type
      ObjType type = kObjBody;
      const char* what = "body";
      if (e.type == kEqJoint) {
        type = kObjJoint;
        what = "joint";
      } else if (e.type == kEqTendon) {
        type = kObjTendon;
        what = "tendon";
      } else if (e.type == kEqDistance) {
        type = kObjGeom;
        what = "geom";
      }
      m.eq_obj1id[i] = id_of(type, e.name1, e.origin, e.name, what);
      if (e.name2.empty()) {
        m.eq_obj2id[i] = (type == kObjBody) ? 0 : -1;
      } else {
        m.eq_obj2id[i] = id_of(type, e.name2, e.origin, e.name, what);
      }
      if (m.eq_obj1id[i] == m.eq_obj2id[i]) {
        fail(e.origin, e.name,
             "an equality constraint cannot relate " + std::string(what) + " '" +
                 (e.name1.empty() ? "world" : e.name1) + "' to itself");
      }
      switch (e.type) {
        case kEqConnect: copy_to(data, anchor_in(m.eq_obj1id[i], e.anchor)); break;
        case kEqWeld:
          copy_to(data, anchor_in(m.eq_obj2id[i], e.anchor));
          copy_to(data + 3, e.relpose);
          data[10] = e.torquescale;
          break;
        case kEqJoint:
        case kEqTendon:
          copy_to(data, e.polycoef);
          if (e.type == kEqJoint) check_scalar_joint(m, m.eq_obj1id[i], m.eq_obj2id[i], e);
          break;
        case kEqDistance:
          data[0] = e.distance;
          if (!geom_distance_supported(m.geom_type[m.eq_obj1id[i]], m.geom_type[m.eq_obj2id[i]])) {
            fail(e.origin, e.name,
                 "distance equality between geom types " +
                     std::string(kGeomTypeNames[m.geom_type[m.eq_obj1id[i]]]) + " and " +
                     kGeomTypeNames[m.geom_type[m.eq_obj2id[i]]] +
                     " is not supported (spheres and capsules with each other, a box with a sphere "
                     "or capsule, a plane with any geom but a plane or height field)");
          }
          break;
        default: break;
      }
    }
  }

  static void check_scalar_joint(const Model& m, int j1, int j2, const EqualitySpec& e) {
    for (int j : {j1, j2}) {
      if (j >= 0 && m.jnt_type[j] != kJointHinge && m.jnt_type[j] != kJointSlide) {
        fail(e.origin, e.name, "joint equality is only for hinge and slide joints");
      }
    }
  }

  // The shape of a spatial tendon's path as MuJoCo 2.2.2 requires it (each rule observed as an
  // error there): at least two elements; no pulley at the end or next to another; a wrapping geom
  // between two sites; a site next to at least one element that is not a pulley.
  static void check_spatial_path(const TendonSpec& s) {
    const std::vector<WrapSpec>& path = s.path;
    const size_t n = path.size();
    if (n < 2) fail(s.origin, s.name, "a spatial tendon's path needs at least two elements");
    auto is = [&](size_t i, int type) { return i < n && path[i].type == type; };
    if (is(n - 1, kWrapPulley)) fail(path[n - 1].origin, s.name, "a path cannot end with a pulley");
    for (size_t i = 0; i < n; ++i) {
      const WrapSpec& w = path[i];
      if (w.type == kWrapPulley && is(i + 1, kWrapPulley))
        fail(path[i + 1].origin, s.name, "two pulleys in a row");
      if (w.type == kWrapSphere && !(i > 0 && is(i - 1, kWrapSite) && is(i + 1, kWrapSite)))
        fail(w.origin, s.name, "a wrapping geom must have a site on each side");
      if (w.type == kWrapSite && !(i > 0 && !is(i - 1, kWrapPulley)) &&
          !(i + 1 < n && !is(i + 1, kWrapPulley))) {
        fail(w.origin, s.name, "a site needs a neighbour in the path that is not a pulley");
      }
    }
  }

  void fill_tendons(Model& m) {
    int wrap = 0;
    const bool autolimits = spec_.compiler.autolimits;
    for (int t = 0; t < m.ntendon; ++t) {
      const TendonSpec& s = spec_.tendons[static_cast<size_t>(t)];
      if (s.path.empty()) fail(s.origin, s.name, "a tendon needs at least one path element");
      if (s.spatial) check_spatial_path(s);
      m.tendon_adr[t] = wrap;
      m.tendon_num[t] = static_cast<int>(s.path.size());
      m.tendon_matid[t] =
          s.material.empty() ? -1 : id_of(kObjMaterial, s.material, s.origin, s.name, "material");
      m.tendon_group[t] = s.group;
      m.tendon_limited[t] = resolve_limited(s.limited, s.range_given, autolimits, s.origin, s.name,
                                            "limited", "range");
      if (m.tendon_limited[t] && !(s.range[0] < s.range[1]))
        fail(s.origin, s.name, "range[0] must be smaller than range[1]");
      m.tendon_width[t] = s.width;
      copy_to(m.tendon_solref_lim + kNREF * t, s.solref_limit);
      copy_to(m.tendon_solimp_lim + kNIMP * t, s.solimp_limit);
      copy_to(m.tendon_solref_fri + kNREF * t, s.solref_friction);
      copy_to(m.tendon_solimp_fri + kNIMP * t, s.solimp_friction);
      copy_to(m.tendon_range + 2 * t, s.range);
      m.tendon_margin[t] = s.margin;
      m.tendon_stiffness[t] = s.stiffness;
      m.tendon_damping[t] = s.damping;
      m.tendon_frictionloss[t] = s.frictionloss;
      m.tendon_lengthspring[t] = s.springlength;
      std::copy(s.user.begin(), s.user.end(), m.tendon_user + t * m.nuser_tendon);
      copy_to(m.tendon_rgba + 4 * t, s.rgba);
      for (const WrapSpec& w : s.path) {
        int type = w.type;
        int id = -1;
        double prm = 0;
        switch (w.type) {
          case kWrapJoint:
            if (s.spatial) fail(w.origin, s.name, "joints can only be in fixed tendons");
            id = id_of(kObjJoint, w.target, w.origin, s.name, "joint");
            prm = w.coef;
            break;
          case kWrapSite: id = id_of(kObjSite, w.target, w.origin, s.name, "site"); break;
          case kWrapPulley: prm = w.coef; break;
          default: {
            id = id_of(kObjGeom, w.target, w.origin, s.name, "geom");
            const int gtype = m.geom_type[id];
            if (gtype == kGeomSphere)
              type = kWrapSphere;
            else if (gtype == kGeomCylinder)
              type = kWrapCylinder;
            else
              fail(w.origin, s.name, "wrapping geoms must be spheres or cylinders");
            prm = w.sidesite.empty() ? -1
                                     : id_of(kObjSite, w.sidesite, w.origin, s.name, "side site");
          }
        }
        m.wrap_type[wrap] = type;
        m.wrap_objid[wrap] = id;
        m.wrap_prm[wrap] = prm;
        ++wrap;
      }
    }
  }

  void fill_actuators(Model& m) {
    const bool autolimits = spec_.compiler.autolimits;
    bool stateful_seen = false;
    for (int i = 0; i < m.nu; ++i) {
      const ActuatorSpec& u = spec_.actuators[static_cast<size_t>(i)];
      if (u.dyntype != kDynNone) {
        stateful_seen = true;
      } else if (stateful_seen) {
        fail(u.origin, u.name,
             "actuators without activation (dyntype none) must come before those with");
      }
      m.actuator_trntype[i] = u.trntype;
      m.actuator_dyntype[i] = u.dyntype;
      m.actuator_gaintype[i] = u.gaintype;
      m.actuator_biastype[i] = u.biastype;
      int* trnid = m.actuator_trnid + 2 * i;
      trnid[0] = trnid[1] = -1;
      switch (u.trntype) {
        case kTrnJoint:
        case kTrnJointInParent:
          trnid[0] = id_of(kObjJoint, u.target, u.origin, u.name, "joint");
          break;
        case kTrnTendon: trnid[0] = id_of(kObjTendon, u.target, u.origin, u.name, "tendon"); break;
        case kTrnSliderCrank:
          trnid[0] = id_of(kObjSite, u.target, u.origin, u.name, "crank site");
          if (u.slidersite.empty()) fail(u.origin, u.name, "a slider-crank needs slidersite");
          trnid[1] = id_of(kObjSite, u.slidersite, u.origin, u.name, "slider site");
          if (!(u.cranklength > 0)) fail(u.origin, u.name, "cranklength must be positive");
          break;
        case kTrnSite:
          trnid[0] = id_of(kObjSite, u.target, u.origin, u.name, "site");
          if (!u.refsite.empty())
            trnid[1] = id_of(kObjSite, u.refsite, u.origin, u.name, "reference site");
          break;
        case kTrnBody: trnid[0] = id_of(kObjBody, u.target, u.origin, u.name, "body"); break;
        default: fail(u.origin, u.name, "the actuator has no transmission target");
      }
      m.actuator_group[i] = u.group;
      m.actuator_ctrllimited[i] = resolve_limited(u.ctrllimited, u.ctrlrange_given, autolimits,
                                                  u.origin, u.name, "ctrllimited", "ctrlrange");
      m.actuator_forcelimited[i] = resolve_limited(u.forcelimited, u.forcerange_given, autolimits,
                                                   u.origin, u.name, "forcelimited", "forcerange");
      m.actuator_actlimited[i] = resolve_limited(u.actlimited, u.actrange_given, autolimits,
                                                 u.origin, u.name, "actlimited", "actrange");
      if (m.actuator_ctrllimited[i] && u.ctrlrange[0] >= u.ctrlrange[1]) {
        fail(u.origin, u.name, "ctrlrange[0] must be smaller than ctrlrange[1]");
      }
      if (m.actuator_forcelimited[i] && u.forcerange[0] >= u.forcerange[1]) {
        fail(u.origin, u.name, "forcerange[0] must be smaller than forcerange[1]");
      }
      if (m.actuator_actlimited[i] && u.actrange[0] >= u.actrange[1]) {
        fail(u.origin, u.name, "actrange[0] must be smaller than actrange[1]");
      }
      copy_to(m.actuator_dynprm + kNDYN * i, u.dynprm);
      copy_to(m.actuator_gainprm + kNGAIN * i, u.gainprm);
      copy_to(m.actuator_biasprm + kNBIAS * i, u.biasprm);
      copy_to(m.actuator_ctrlrange + 2 * i, u.ctrlrange);
      copy_to(m.actuator_forcerange + 2 * i, u.forcerange);
      copy_to(m.actuator_actrange + 2 * i, u.actrange);
      copy_to(m.actuator_gear + 6 * i, u.gear);
      m.actuator_cranklength[i] = u.cranklength;
      copy_to(m.actuator_lengthrange + 2 * i, u.lengthrange);
      std::copy(u.user.begin(), u.user.end(), m.actuator_user + i * m.nuser_actuator);
    }
  }

  void fill_sensors(Model& m) {
    int adr = 0;
    for (int i = 0; i < m.nsensor; ++i) {
      const SensorSpec& s = spec_.sensors[static_cast<size_t>(i)];
      m.sensor_type[i] = s.type;
      m.sensor_objtype[i] = s.objtype;
      m.sensor_reftype[i] = s.reftype;
      m.sensor_refid[i] = -1;
      m.sensor_objid[i] = -1;
      if (s.objtype != kObjUnknown && !s.objname.empty()) {
        m.sensor_objid[i] =
            id_of(static_cast<ObjType>(s.objtype), s.objname, s.origin, s.name, "object");
      } else if (s.type != kSensClock && s.type != kSensUser) {
        fail(s.origin, s.name, "the sensor needs an object");
      }
      if (s.reftype != kObjUnknown) {
        if (s.refname.empty()) fail(s.origin, s.name, "reftype needs refname");
        m.sensor_refid[i] =
            id_of(static_cast<ObjType>(s.reftype), s.refname, s.origin, s.name, "reference object");
      }
      const int dim = sensor_dimension(s);
      m.sensor_dim[i] = dim;
      m.sensor_adr[i] = adr;
      adr += dim;
      m.sensor_cutoff[i] = s.cutoff;
      m.sensor_noise[i] = s.noise;
      std::copy(s.user.begin(), s.user.end(), m.sensor_user + i * m.nuser_sensor);
      m.sensor_datatype[i] = sensor_datatype(s);
      m.sensor_needstage[i] = sensor_stage(s);
      check_sensor_object(m, s, i);
    }
  }

  static int sensor_datatype(const SensorSpec& s) {
    switch (s.type) {
      case kSensTouch:
      case kSensRangefinder: return kDataPositive;
      case kSensFrameXAxis:
      case kSensFrameYAxis:
      case kSensFrameZAxis: return kDataAxis;
      case kSensBallQuat:
      case kSensFrameQuat: return kDataQuaternion;
      case kSensUser: return s.datatype;
      default: return kDataReal;
    }
  }

  static int sensor_stage(const SensorSpec& s) {
    switch (s.type) {
      case kSensMagnetometer:
      case kSensRangefinder:
      case kSensJointPos:
      case kSensTendonPos:
      case kSensActuatorPos:
      case kSensBallQuat:
      case kSensJointLimitPos:
      case kSensTendonLimitPos:
      case kSensFramePos:
      case kSensFrameQuat:
      case kSensFrameXAxis:
      case kSensFrameYAxis:
      case kSensFrameZAxis:
      case kSensSubtreeCom:
      case kSensClock: return kStagePos;
      case kSensVelocimeter:
      case kSensGyro:
      case kSensJointVel:
      case kSensTendonVel:
      case kSensActuatorVel:
      case kSensBallAngVel:
      case kSensJointLimitVel:
      case kSensTendonLimitVel:
      case kSensFrameLinVel:
      case kSensFrameAngVel:
      case kSensSubtreeLinVel:
      case kSensSubtreeAngMom: return kStageVel;
      case kSensUser: return s.needstage;
      default: return kStageAcc;
    }
  }

  static void check_sensor_object(const Model& m, const SensorSpec& s, int i) {
    const int id = m.sensor_objid[i];
    switch (s.type) {
      case kSensJointPos:
      case kSensJointVel:
      case kSensJointLimitPos:
      case kSensJointLimitVel:
      case kSensJointLimitFrc:
        if (m.jnt_type[id] != kJointHinge && m.jnt_type[id] != kJointSlide &&
            !(s.type >= kSensJointLimitPos && m.jnt_type[id] == kJointBall)) {
          fail(s.origin, s.name, "the joint must be a hinge or slide joint");
        }
        if (s.type >= kSensJointLimitPos && !m.jnt_limited[id])
          fail(s.origin, s.name, "the joint must be limited");
        break;
      case kSensBallQuat:
      case kSensBallAngVel:
        if (m.jnt_type[id] != kJointBall) fail(s.origin, s.name, "the joint must be a ball joint");
        break;
      case kSensTendonLimitPos:
      case kSensTendonLimitVel:
      case kSensTendonLimitFrc:
        if (!m.tendon_limited[id]) fail(s.origin, s.name, "the tendon must be limited");
        break;
      default: break;
    }
  }

  void fill_custom(Model& m) {
    int adr = 0;
    for (int i = 0; i < m.nnumeric; ++i) {
      const NumericSpec& n = spec_.numerics[static_cast<size_t>(i)];
      m.numeric_adr[i] = adr;
      m.numeric_size[i] = static_cast<int>(n.data.size());
      std::copy(n.data.begin(), n.data.end(), m.numeric_data + adr);
      adr += m.numeric_size[i];
    }
    adr = 0;
    for (int i = 0; i < m.ntext; ++i) {
      const TextSpec& t = spec_.texts[static_cast<size_t>(i)];
      m.text_adr[i] = adr;
      m.text_size[i] = static_cast<int>(t.data.size()) + 1;
      std::memcpy(m.text_data + adr, t.data.c_str(), t.data.size() + 1);
      adr += m.text_size[i];
    }
    adr = 0;
    for (int i = 0; i < m.ntuple; ++i) {
      const TupleSpec& t = spec_.tuples[static_cast<size_t>(i)];
      if (t.elements.empty()) fail(t.origin, t.name, "a tuple needs at least one element");
      m.tuple_adr[i] = adr;
      m.tuple_size[i] = static_cast<int>(t.elements.size());
      for (const TupleSpec::Element& e : t.elements) {
        m.tuple_objtype[adr] = e.objtype;
        m.tuple_objid[adr] =
            id_of(static_cast<ObjType>(e.objtype), e.objname, t.origin, t.name, "object");
        m.tuple_objprm[adr] = e.prm;
        ++adr;
      }
    }
  }

  void fill_keys(Model& m) {
    for (int k = 0; k < m.nkey; ++k) {
      std::copy(m.qpos0, m.qpos0 + m.nq, m.key_qpos + k * m.nq);
      for (int b = 0; b < m.nbody; ++b) {
        const int id = m.body_mocapid[b];
        if (id < 0) continue;
        std::copy(m.body_pos + 3 * b, m.body_pos + 3 * b + 3,
                  m.key_mpos + k * 3 * m.nmocap + 3 * id);
        std::copy(m.body_quat + 4 * b, m.body_quat + 4 * b + 4,
                  m.key_mquat + k * 4 * m.nmocap + 4 * id);
      }
    }
    for (int k = 0; k < static_cast<int>(spec_.keys.size()); ++k) {
      const KeySpec& key = spec_.keys[static_cast<size_t>(k)];
      m.key_time[k] = key.time;
      auto copy = [&](const std::optional<std::vector<double>>& v, double* dst, int n,
                      const char* what) {
        if (!v) return;
        if (static_cast<int>(v->size()) != n) {
          fail(key.origin, key.name,
               std::string(what) + " has " + std::to_string(v->size()) +
                   " values, the model needs " + std::to_string(n));
        }
        std::copy(v->begin(), v->end(), dst);
      };
      copy(key.qpos, m.key_qpos + k * m.nq, m.nq, "qpos");
      copy(key.qvel, m.key_qvel + k * m.nv, m.nv, "qvel");
      copy(key.act, m.key_act + k * m.na, m.na, "act");
      copy(key.ctrl, m.key_ctrl + k * m.nu, m.nu, "ctrl");
      copy(key.mpos, m.key_mpos + k * 3 * m.nmocap, 3 * m.nmocap, "mpos");
      copy(key.mquat, m.key_mquat + k * 4 * m.nmocap, 4 * m.nmocap, "mquat");
      // Quaternions are normalised, as MuJoCo 2.2.2 does (a zero one becomes the identity).
      for (int q = 0; q < m.nmocap; ++q)
        math::quat_normalize(m.key_mquat + k * 4 * m.nmocap + 4 * q);
      for (int j = 0; j < m.njnt; ++j) {
        double* qpos = m.key_qpos + k * m.nq + m.jnt_qposadr[j];
        if (m.jnt_type[j] == kJointBall) math::quat_normalize(qpos);
        if (m.jnt_type[j] == kJointFree) math::quat_normalize(qpos + 3);
      }
    }
  }

  ModelSpec& spec_;
  CompiledAssets assets_;
  std::vector<FlatBody> bodies_;
  std::vector<std::pair<JointSpec*, int>> joints_;
  std::vector<FlatGeom> geoms_;
  std::vector<FlatSite> sites_;
  std::vector<std::pair<CameraSpec*, int>> cameras_;
  std::vector<Quat> camera_quat_;
  std::vector<std::pair<LightSpec*, int>> lights_;
  std::vector<Vec3> xpos_;
  std::vector<Quat> xquat_;
  // In global coordinates, bodies without pos whose frame infer_global_frames has yet to set.
  std::vector<bool> frame_from_inertia_;
  std::vector<int> jnt_qposadr_, jnt_dofadr_, dof_parent_, dof_body_, dof_joint_, dof_madr_,
      last_dof_;
  int nq_ = 0, nv_ = 0, nM_ = 0, nD_ = 0;
  std::string names_;
  std::map<int, std::vector<int>> name_adr_;
  std::map<int, std::map<std::string, int>> ids_;
};

}  // namespace

Model compile_model(ModelSpec& spec) { return Compiler(spec).run(); }

}  // namespace joco::compiler
