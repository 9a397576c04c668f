// A plane (its geom z axis is the normal, infinite extent) against spheres, capsules, cylinders and
// boxes. Each contact lies midway between the geom's deepest point and its projection on the plane.
#include <cmath>

#include "collision/narrowphase.h"

namespace joco::narrow {

using namespace joco::math;

int plane_point(Contact* con, const double* plane_pos, const double normal[3],
                const double point[3], double margin) {
  double dif[3];
  sub3(dif, point, plane_pos);
  const double dist = dot3(dif, normal);
  if (dist > margin) return 0;
  double pos[3];
  add_scaled3(pos, point, normal, -dist / 2);
  set_contact(con, dist, pos, normal);
  return 1;
}

namespace {}  // namespace

int plane_sphere(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  double normal[3], point[3];
  mat_column(normal, d.geom_xmat + 9 * g1, 2);
  add_scaled3(point, d.geom_xpos + 3 * g2, normal, -m.geom_size[3 * g2]);
  return plane_point(con, d.geom_xpos + 3 * g1, normal, point, margin);
}

int plane_capsule(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  double normal[3], axis[3];
  mat_column(normal, d.geom_xmat + 9 * g1, 2);
  mat_column(axis, d.geom_xmat + 9 * g2, 2);
  const double radius = m.geom_size[3 * g2], half = m.geom_size[3 * g2 + 1];
  int n = 0;
  for (const double side : {1.0, -1.0}) {  // the +z end first
    double point[3];
    add_scaled3(point, d.geom_xpos + 3 * g2, axis, side * half);
    add_scaled3(point, point, normal, -radius);
    if (plane_point(con + n, d.geom_xpos + 3 * g1, normal, point, margin)) {
      copy3(con[n].frame + 3, axis);  // tangent hint: along the capsule
      ++n;
    }
  }
  return n;
}

int plane_cylinder(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* plane_pos = d.geom_xpos + 3 * g1;
  const double* center = d.geom_xpos + 3 * g2;
  const double* mat = d.geom_xmat + 9 * g2;
  const double radius = m.geom_size[3 * g2], half = m.geom_size[3 * g2 + 1];
  double normal[3], axis[3];
  mat_column(normal, d.geom_xmat + 9 * g1, 2);
  mat_column(axis, mat, 2);

  // rim vector towards the plane: the normal's part across the axis, reversed
  const double prjaxis = dot3(normal, axis);
  double rim[3];
  add_scaled3(rim, normal, axis, -prjaxis);
  scale3(rim, rim, -1);
  const double len = norm3(rim);
  if (len < kMinVal) {
    mat_column(rim, mat, 0);  // cap parallel to the plane: start at the local x axis
    scale3(rim, rim, radius);
  } else {
    scale3(rim, rim, radius / len);
  }
  // the cap nearer the plane
  double cap[3], other_cap[3];
  const double side = prjaxis > 0 ? -half : half;
  add_scaled3(cap, center, axis, side);
  add_scaled3(other_cap, center, axis, -side);

  // the deepest rim point first: when it is beyond the margin, so is the cylinder (MuJoCo 2.2.2
  // stops there too, which matters where the rim direction is rounding noise: an upright cylinder)
  double point[3];
  add3(point, cap, rim);
  if (!plane_point(con, plane_pos, normal, point, margin)) return 0;
  int n = 1;
  add3(point, other_cap, rim);  // the same rim line on the other cap
  n += plane_point(con + n, plane_pos, normal, point, margin);
  // the rim points at +-120 degrees around the nearer cap; the direction across the rim has the
  // full radius even where the rim vector, from rounding noise, is not square to the axis
  double across[3], away[3];
  scale3(away, axis, side > 0 ? -1 : 1);  // the axis towards the far cap
  cross3(across, away, rim);
  const double across_len = norm3(across);
  if (across_len > kMinVal) scale3(across, across, radius / across_len);
  for (const double s : {1.0, -1.0}) {
    add_scaled3(point, cap, rim, -0.5);
    add_scaled3(point, point, across, s * std::sqrt(3.0) / 2);
    n += plane_point(con + n, plane_pos, normal, point, margin);
  }
  return n;
}

int plane_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* plane_pos = d.geom_xpos + 3 * g1;
  const double* center = d.geom_xpos + 3 * g2;
  const double* mat = d.geom_xmat + 9 * g2;
  const double* size = m.geom_size + 3 * g2;
  double normal[3];
  mat_column(normal, d.geom_xmat + 9 * g1, 2);
  int n = 0;
  // corners with x varying fastest, then y, then z; only the 4 on the plane's side count
  for (int i = 0; i < 8 && n < 4; ++i) {
    const double local[3] = {(i & 1) ? size[0] : -size[0], (i & 2) ? size[1] : -size[1],
                             (i & 4) ? size[2] : -size[2]};
    double offset[3];
    mat_vec3(offset, mat, local);
    if (dot3(offset, normal) > 0) continue;
    double point[3];
    add3(point, center, offset);
    n += plane_point(con + n, plane_pos, normal, point, margin);
  }
  return n;
}

}  // namespace joco::narrow
