// The narrow-phase functions, one per pair of geom types MuJoCo 2.2.2 treats specially, and the
// general convex one (MPR). Each has the CollisionFunction signature of joco/collision.h.
#pragma once

#include "joco/collision.h"
#include "math/vec.h"

namespace joco::narrow {

// plane.cc
// Adds a contact for `point` of the other geom when its height above the plane is at most the
// margin: at the point's depth, midway between the point and the plane (the plane pairs' and
// plane_convex's one rule). Returns the number added (0 or 1).
int plane_point(Contact* con, const double* plane_pos, const double normal[3],
                const double point[3], double margin);
int plane_sphere(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int plane_capsule(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int plane_cylinder(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int plane_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);

// sphere_capsule.cc
int sphere_sphere(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int sphere_capsule(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int capsule_capsule(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);

// box.cc
int sphere_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int capsule_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);

// box_box.cc
int box_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);

// convex.cc: MPR on support functions; plane against the support point (ellipsoid, mesh).
int convex_convex(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);
int plane_convex(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);

// hfield.cc: the height field as a union of triangular prisms, each against the geom by MPR.
int hfield_convex(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin);

// ---- helpers shared by the narrow-phase files
// ----------------------------------------------------

// Writes a contact with the given distance, point and normal; tangent rows zero.
inline void set_contact(Contact* c, double dist, const double pos[3], const double normal[3]) {
  c->dist = dist;
  math::copy3(c->pos, pos);
  math::copy3(c->frame, normal);
  for (int i = 3; i < 9; ++i) c->frame[i] = 0;
}

// Column k of a row-major 3x3 matrix (a local axis of a geom in world coordinates).
inline void mat_column(double* r, const double* mat, int k) {
  r[0] = mat[k];
  r[1] = mat[3 + k];
  r[2] = mat[6 + k];
}

// Contact between two spheres (centres c1, c2, radii r1, r2), normal from 1 to 2: at most one
// contact, written to con when closer than margin. Returns how many.
int sphere_sphere_points(Contact* con, const double c1[3], double r1, const double c2[3], double r2,
                         double margin);

}  // namespace joco::narrow
