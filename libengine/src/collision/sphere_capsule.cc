// Spheres and capsules: everything reduces to pairs of spheres placed at the nearest points of the
// capsule segments.
#include <cmath>

#include "collision/narrowphase.h"

namespace joco::narrow {

using namespace joco::math;

int sphere_sphere_points(Contact* con, const double c1[3], double r1, const double c2[3], double r2,
                         double margin) {
  double normal[3];
  sub3(normal, c2, c1);
  const double dist = normalize3(normal) - r1 - r2;  // coincident centres: normal (1, 0, 0)
  if (dist > margin) return 0;
  double pos[3];
  add_scaled3(pos, c1, normal, r1 + dist / 2);  // midway between the two surfaces
  set_contact(con, dist, pos, normal);
  return 1;
}

int sphere_sphere(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  return sphere_sphere_points(con, d.geom_xpos + 3 * g1, m.geom_size[3 * g1], d.geom_xpos + 3 * g2,
                              m.geom_size[3 * g2], margin);
}

int sphere_capsule(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* c1 = d.geom_xpos + 3 * g1;
  const double* c2 = d.geom_xpos + 3 * g2;
  // capsule segment c2 +- axis
  double axis[3];
  mat_column(axis, d.geom_xmat + 9 * g2, 2);
  scale3(axis, axis, m.geom_size[3 * g2 + 1]);
  double dif[3];
  sub3(dif, c1, c2);
  double t = dot3(dif, axis) / dot3(axis, axis);
  t = t > 1 ? 1 : (t < -1 ? -1 : t);
  double nearest[3];
  add_scaled3(nearest, c2, axis, t);
  return sphere_sphere_points(con, c1, m.geom_size[3 * g1], nearest, m.geom_size[3 * g2], margin);
}

namespace {

double clip(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

}  // namespace

int capsule_capsule(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* pos1 = d.geom_xpos + 3 * g1;
  const double* pos2 = d.geom_xpos + 3 * g2;
  const double r1 = m.geom_size[3 * g1], r2 = m.geom_size[3 * g2];
  double axis1[3], axis2[3], dif[3];
  mat_column(axis1, d.geom_xmat + 9 * g1, 2);
  mat_column(axis2, d.geom_xmat + 9 * g2, 2);
  scale3(axis1, axis1, m.geom_size[3 * g1 + 1]);
  scale3(axis2, axis2, m.geom_size[3 * g2 + 1]);
  sub3(dif, pos1, pos2);

  // Segment points pos1 + x1 axis1 and pos2 + x2 axis2, x in [-1, 1]; the unconstrained nearest
  // pair solves [ma mb; mb mc] [x1; x2] = [u; v].
  const double ma = dot3(axis1, axis1);
  const double mb = -dot3(axis1, axis2);
  const double mc = dot3(axis2, axis2);
  const double u = -dot3(axis1, dif);
  const double v = dot3(axis2, dif);
  const double det = ma * mc - mb * mb;

  double p1[3], p2[3];
  if (std::abs(det) >= kMinVal) {
    double x1 = (mc * u - mb * v) / det;
    double x2 = (ma * v - mb * u) / det;
    if (x1 > 1) {
      x1 = 1;
      x2 = (v - mb) / mc;
    } else if (x1 < -1) {
      x1 = -1;
      x2 = (v + mb) / mc;
    }
    if (x2 > 1) {
      x2 = 1;
      x1 = clip((u - mb) / ma, -1, 1);
    } else if (x2 < -1) {
      x2 = -1;
      x1 = clip((u + mb) / ma, -1, 1);
    }
    add_scaled3(p1, pos1, axis1, x1);
    add_scaled3(p2, pos2, axis2, x2);
    return sphere_sphere_points(con, p1, r1, p2, r2, margin);
  }

  // Parallel axes: the ends of each segment against the other segment, at most two contacts.
  int n = 0;
  for (int end = 0; end < 2 && n < 2; ++end) {
    const double x1 = end == 0 ? 1 : -1;
    const double x2 = clip((v - mb * x1) / mc, -1, 1);
    add_scaled3(p1, pos1, axis1, x1);
    add_scaled3(p2, pos2, axis2, x2);
    n += sphere_sphere_points(con + n, p1, r1, p2, r2, margin);
  }
  for (int end = 0; end < 2 && n < 2; ++end) {
    const double x2 = end == 0 ? 1 : -1;
    const double x1 = clip((u - mb * x2) / ma, -1, 1);
    add_scaled3(p1, pos1, axis1, x1);
    add_scaled3(p2, pos2, axis2, x2);
    n += sphere_sphere_points(con + n, p1, r1, p2, r2, margin);
  }
  return n;
}

}  // namespace joco::narrow
