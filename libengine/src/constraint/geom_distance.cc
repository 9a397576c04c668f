// Nearest distance between two geoms for the distance equality (computation chapter, "Equality":
// the collision detector in a special mode that reports the nearest distance even without
// contact). Spheres and capsules are points and segments with a radius and a plane is a
// half-space, in closed form; boxes against spheres and capsules, and a plane against boxes,
// cylinders, ellipsoids and meshes, by the narrow-phase functions, which find the nearest features
// exactly at any distance within their margin.
#include <algorithm>
#include <cmath>
#include <utility>

#include "joco/collision.h"
#include "joco/constraint.h"
#include "math/vec.h"

namespace joco {

using namespace math;

namespace {

// A geom as a segment [a, b] (a point when a == b) inflated by radius.
struct Rounded {
  double a[3], b[3];
  double radius;
};

bool rounded(const Model& m, const Data& d, int g, Rounded* r) {
  const double* pos = d.geom_xpos + 3 * g;
  const double* mat = d.geom_xmat + 9 * g;
  const double* size = m.geom_size + 3 * g;
  switch (m.geom_type[g]) {
    case kGeomSphere:
      copy3(r->a, pos);
      copy3(r->b, pos);
      r->radius = size[0];
      return true;
    case kGeomCapsule: {
      const double axis[3] = {mat[2] * size[1], mat[5] * size[1], mat[8] * size[1]};
      add3(r->a, pos, axis);
      sub3(r->b, pos, axis);
      r->radius = size[0];
      return true;
    }
    default: return false;
  }
}

// Closest points of segments [p0, p1] and [q0, q1] (Ericson, Real-Time Collision Detection 5.1.9).
void closest_segment_points(const double* p0, const double* p1, const double* q0, const double* q1,
                            double* cp, double* cq) {
  double d1[3], d2[3], r[3];
  sub3(d1, p1, p0);
  sub3(d2, q1, q0);
  sub3(r, p0, q0);
  const double a = dot3(d1, d1), e = dot3(d2, d2), f = dot3(d2, r);
  double s = 0, t = 0;
  if (a <= kMinVal && e <= kMinVal) {
    s = t = 0;
  } else if (a <= kMinVal) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = dot3(d1, r);
    if (e <= kMinVal) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = dot3(d1, d2);
      const double denom = a * e - b * b;
      s = denom > kMinVal ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  add_scaled3(cp, p0, d1, s);
  add_scaled3(cq, q0, d2, t);
}

// Distance from rounded geom 1 to rounded geom 2.
void rounded_distance(const Rounded& g1, const Rounded& g2, double* dist, double* normal,
                      double* point) {
  double c1[3], c2[3];
  closest_segment_points(g1.a, g1.b, g2.a, g2.b, c1, c2);
  sub3(normal, c2, c1);
  const double centre = normalize3(normal);
  *dist = centre - g1.radius - g2.radius;
  add_scaled3(point, c1, normal, g1.radius + *dist / 2);
}

// Distance from a plane (geom p) to a rounded geom: its lowest point along the plane's normal.
void plane_distance(const Data& d, int p, const Rounded& g, double* dist, double* normal,
                    double* point) {
  const double* mat = d.geom_xmat + 9 * p;
  const double n[3] = {mat[2], mat[5], mat[8]};
  double rel[3];
  sub3(rel, g.a, d.geom_xpos + 3 * p);
  const double ha = dot3(n, rel);
  sub3(rel, g.b, d.geom_xpos + 3 * p);
  const double hb = dot3(n, rel);
  const double* low = ha <= hb ? g.a : g.b;
  *dist = std::min(ha, hb) - g.radius;
  copy3(normal, n);
  add_scaled3(point, low, n, -g.radius - *dist / 2);
}

}  // namespace

bool geom_distance_supported(int type1, int type2) {
  if (type1 > type2) std::swap(type1, type2);
  const auto is_rounded = [](int t) { return t == kGeomSphere || t == kGeomCapsule; };
  if (type1 == kGeomPlane) return type2 != kGeomPlane && type2 != kGeomHfield;
  return (is_rounded(type1) && is_rounded(type2)) || (is_rounded(type1) && type2 == kGeomBox);
}

namespace {

// The pairs measured by the narrow phase: its function with a margin beyond any separation the
// pair can have (geom centres lie inside their geoms, so the centre distance bounds it; a plane's
// own position can be anywhere on it, so the height of the other centre and that geom's bounding
// radius), and its deepest contact.
bool narrow_phase_distance(const Model& m, const Data& d, int geom1, int geom2, double* dist,
                           double normal[3], double point[3]) {
  int g1 = geom1, g2 = geom2;
  if (m.geom_type[g1] > m.geom_type[g2]) std::swap(g1, g2);
  const CollisionFunction collide = collision_function(m.geom_type[g1], m.geom_type[g2]);
  if (!collide) return false;
  double between[3];
  sub3(between, d.geom_xpos + 3 * g2, d.geom_xpos + 3 * g1);
  const double margin = 2 * (norm3(between) + m.geom_rbound[g1] + m.geom_rbound[g2]) + 1;
  Contact con[kMaxConPair];
  const int n = collide(m, d, con, g1, g2, margin);
  if (n == 0) return false;
  int deepest = 0;
  for (int i = 1; i < n; ++i) {
    if (con[i].dist < con[deepest].dist) deepest = i;
  }
  *dist = con[deepest].dist;
  copy3(point, con[deepest].pos);
  copy3(normal, con[deepest].frame);
  if (g1 != geom1) scale3(normal, normal, -1);  // from geom1 to geom2
  return true;
}

}  // namespace

bool geom_distance(const Model& m, const Data& d, int geom1, int geom2, double* dist,
                   double normal[3], double point[3]) {
  if (!geom_distance_supported(m.geom_type[geom1], m.geom_type[geom2])) return false;
  Rounded r1, r2;
  const bool is1 = rounded(m, d, geom1, &r1), is2 = rounded(m, d, geom2, &r2);
  if (is1 && is2) {
    rounded_distance(r1, r2, dist, normal, point);
    return true;
  }
  if (is2 && m.geom_type[geom1] == kGeomPlane) {
    plane_distance(d, geom1, r2, dist, normal, point);
    return true;
  }
  if (is1 && m.geom_type[geom2] == kGeomPlane) {
    plane_distance(d, geom2, r1, dist, normal, point);
    scale3(normal, normal, -1);  // from geom 1 to geom 2
    return true;
  }
  return narrow_phase_distance(m, d, geom1, geom2, dist, normal, point);
}

}  // namespace joco
