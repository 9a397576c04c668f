// Compiler stages (compiler/compiler.h): masses and inertia of the geoms, then of the bodies.
#include <utility>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/geom_inertia.h"
#include "math/vec.h"

namespace joco::compiler {

// Mass and principal inertia of every geom (in the geom frame).
void Compiler::compute_geom_masses() {
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
bool Compiler::inertia_from_geoms_mode(const FlatBody& b) const {
  const int mode = spec_.compiler.inertiafromgeom;
  return mode == 1 || (mode == 2 && !b.spec->inertial);
}

bool Compiler::gives_inertia(const FlatGeom& g) const {
  const auto& range = spec_.compiler.inertiagrouprange;
  return g.spec->group >= range[0] && g.spec->group <= range[1];
}

// With inertiafromgeom="true", a body none of whose geoms gives inertia (none, or none in
// inertiagrouprange) keeps its <inertial>, as in 2.2.2.
bool Compiler::uses_inertial_for_want_of_geoms(int body) const {
  const FlatBody& b = bodies_[static_cast<size_t>(body)];
  if (!b.spec->inertial) return false;
  for (const FlatGeom& g : geoms_) {
    if (g.body == body && gives_inertia(g)) return false;
  }
  return true;
}

void Compiler::compute_inertia() {
  const CompilerSettings& c = spec_.compiler;
  for (size_t i = 1; i < bodies_.size(); ++i) {
    FlatBody& b = bodies_[i];
    const BodySpec& s = *b.spec;
    if (b.inertia_in_frame) {
      // Set by infer_global_frames.
    } else if (inertia_from_geoms_mode(b) &&
               !uses_inertial_for_want_of_geoms(static_cast<int>(i))) {
      inertia_from_geoms(static_cast<int>(i));
    } else if (s.inertial) {
      set_explicit_inertia(b, *s.inertial);
    } else {
      fail(s.origin, s.name, "the body has no inertial element and inertiafromgeom is false");
    }
    if (finish_inertia(b.mass, b.inertia, c) == InertiaFinish::kViolatesTriangle)
      fail(s.origin, s.name, "inertia must satisfy A + B >= C (set balanceinertia to fix it)");
  }
}

// settotalmass scales the masses and inertias of the bodies (after fusestatic: what was fused
// into the world does not count).
void Compiler::scale_to_total_mass() {
  const CompilerSettings& c = spec_.compiler;
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
void Compiler::check_moving_masses() const {
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

void Compiler::set_explicit_inertia(FlatBody& b, const InertialSpec& in) {
  b.mass = in.mass;
  b.ipos = in.pos;
  const Quat frame = orientation(in.orientation, in.origin, "");
  if (in.fullinertia) {
    double eig[3], q[4];
    principal_inertia(eig, q, *in.fullinertia);
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

// Mass-weighted centre and composite inertia of the body's geoms in the inertia group range.
void Compiler::inertia_from_geoms(int body) {
  FlatBody& b = bodies_[static_cast<size_t>(body)];
  std::vector<MassElement> elements;
  for (const FlatGeom& g : geoms_) {
    if (g.body == body && gives_inertia(g)) elements.push_back({g.mass, g.pos, g.quat, g.inertia});
  }
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

FlatBody& Compiler::zero_inertia(FlatBody& b) {
  b.mass = 0;
  b.inertia = {0, 0, 0};
  b.ipos = {0, 0, 0};
  b.iquat = {1, 0, 0, 0};
  return b;
}

// The composite of rigid masses (combine_elements) as the body's inertial.
void Compiler::combine(FlatBody& b, const std::vector<MassElement>& elements) {
  const MassElement total = combine_elements(elements);
  b.mass = total.mass;
  b.ipos = total.pos;
  b.iquat = total.quat;
  b.inertia = total.inertia;
}

}  // namespace joco::compiler
