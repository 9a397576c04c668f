// Compiler stages (compiler/compiler.h): each frame in its body: orientations, fromto, global
// coordinates to local, frames inferred from inertia.
#include <array>
#include <cmath>
#include <string>

#include "compiler/compiler.h"
#include "compiler/orientation.h"
#include "math/vec.h"

namespace joco::compiler {

Quat Compiler::orientation(const Orientation& o, const Origin& origin,
                           const std::string& name) const {
  return resolve_orientation(o, {1, 0, 0, 0}, spec_.compiler.degree, spec_.compiler.eulerseq,
                             origin.describe(name));
}

// Resolves every frame to a position and unit quaternion in its body (global coordinates are
// converted), applies fromto, and converts joint angles to radians. In global coordinates a body
// without pos takes the frame of its inertia, known once the masses are (infer_global_frames):
// until then its elements and its children stay in global coordinates.
void Compiler::resolve_frames() {
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
void Compiler::elements_to_local(int body) {
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
    if (cameras_[c].second == body) to_local(xpos, xquat, cameras_[c].first->pos, camera_quat_[c]);
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
void Compiler::infer_global_frames() {
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

bool Compiler::has_inertia_geoms(int body) const {
  const auto& range = spec_.compiler.inertiagrouprange;
  for (const FlatGeom& g : geoms_) {
    if (g.body == body && g.spec->group >= range[0] && g.spec->group <= range[1]) return true;
  }
  return false;
}

void Compiler::to_local(const Vec3& parent_pos, const Quat& parent_quat, Vec3& pos, Quat& quat) {
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
void Compiler::apply_fromto(const std::array<double, 6>& ft, int type, Vec3& size, Vec3& pos,
                            Quat& quat, const Origin& origin, const std::string& name) {
  if (type != kGeomCapsule && type != kGeomCylinder && type != kGeomBox && type != kGeomEllipsoid) {
    fail(origin, name, "fromto requires a capsule, cylinder, box or ellipsoid");
  }
  // MuJoCo 2.2.2 rejects a pos other than 0 beside fromto (from the element or its class).
  if (pos[0] != 0 || pos[1] != 0 || pos[2] != 0) fail(origin, name, "give pos or fromto, not both");
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

}  // namespace joco::compiler
