// Tendon wrapping: the 2D problem in the plane of the path (spheres) or across the axis
// (cylinders), lifted back to 3D.
#include "tendon/wrap.h"

#include <algorithm>
#include <cmath>

#include "math/vec.h"

namespace joco::wrap {

using namespace math;

namespace {

constexpr double kInvalid = 1e300;

inline double cross2(const double a[2], const double b[2]) { return a[0] * b[1] - a[1] * b[0]; }

// |(x, y)|: the plain square root, several times cheaper than std::hypot, whose guard against
// overflow is not needed at the scale of a model.
inline double norm2(double x, double y) { return std::sqrt(x * x + y * y); }

// The point of the segment q0-q1 closest to the origin.
void closest_point(const double q0[2], const double q1[2], double c[2]) {
  const double dir[2] = {q1[0] - q0[0], q1[1] - q0[1]};
  const double dd = dir[0] * dir[0] + dir[1] * dir[1];
  double t = dd > kMinVal ? -(q0[0] * dir[0] + q0[1] * dir[1]) / dd : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  c[0] = q0[0] + t * dir[0];
  c[1] = q0[1] + t * dir[1];
}

// Do the segments a0-a1 and b0-b1 cross?
bool segments_intersect(const double a0[2], const double a1[2], const double b0[2],
                        const double b1[2]) {
  const double da[2] = {a1[0] - a0[0], a1[1] - a0[1]};
  const double db[2] = {b1[0] - b0[0], b1[1] - b0[1]};
  const double det = cross2(da, db);
  if (std::fabs(det) < kMinVal) return false;
  const double w[2] = {b0[0] - a0[0], b0[1] - a0[1]};
  const double s = cross2(w, db) / det;
  const double t = cross2(w, da) / det;
  return s > 0 && s < 1 && t > 0 && t < 1;
}

}  // namespace

void inside_point(const double q0[2], const double q1[2], double r, double u[2]) {
  // With z the sine of the angle between the path and the circle's normal at u, A = r/|q0|,
  // B = r/|q1| and G the angle between q0 and q1, the reflection law (the shortest path) is
  // f(z) = asin(A z) + asin(B z) - 2 asin(z) + G = 0, and u is q0's direction turned towards q1 by
  // asin(z) - asin(A z). f is concave and decreasing on [0, 1], so Newton steps from the right
  // approach the root from the right. As MuJoCo 2.2.2 (observed: its touch points agree with this
  // to 5e-15, and are up to 5e-7 from the exact root): the steps start at z = 1 - 1e-7 and stop
  // once |f| <= 1e-6; if f is positive there (the segment nearly grazes the circle), or 20 steps do
  // not converge, u is the direction of q0 + q1. MuJoCo turns the direction of the end from which
  // the arc to the other runs counterclockwise (this matters as z is not exact).
  if (cross2(q0, q1) < 0) {
    inside_point(q1, q0, r, u);
    return;
  }
  const double d0 = norm2(q0[0], q0[1]);
  const double d1 = norm2(q1[0], q1[1]);
  const double A = r / d0, B = r / d1;
  const double dq[2] = {q1[0] - q0[0], q1[1] - q0[1]};
  const double cos_g = (d0 * d0 + d1 * d1 - (dq[0] * dq[0] + dq[1] * dq[1])) / (2 * d0 * d1);
  const double g = std::acos(std::clamp(cos_g, -1.0, 1.0));
  auto f = [&](double z) { return std::asin(A * z) + std::asin(B * z) - 2 * std::asin(z) + g; };
  double z = 1 - 1e-7, value = f(z);
  bool found = value <= 0;
  for (int iter = 0; found && std::fabs(value) > 1e-6; ++iter) {
    const double slope = A / std::sqrt(1 - A * A * z * z) + B / std::sqrt(1 - B * B * z * z) -
                         2 / std::sqrt(1 - z * z);
    z -= value / slope;
    value = f(z);
    found = iter < 20 && z > 0 && z < 1;
  }
  if (!found) {
    const double mid[2] = {q0[0] + q1[0], q0[1] + q1[1]};
    const double n = norm2(mid[0], mid[1]);
    u[0] = r * mid[0] / n;
    u[1] = r * mid[1] / n;
    return;
  }
  // Rotate the direction of q0 by a, counterclockwise towards q1.
  const double a = std::asin(z) - std::asin(A * z);
  const double ca = std::cos(a), sa = std::sin(a);
  u[0] = r * (ca * q0[0] - sa * q0[1]) / d0;
  u[1] = r * (sa * q0[0] + ca * q0[1]) / d0;
}

double circle(const double q0[2], const double q1[2], const double* side, double r, double u0[2],
              double u1[2]) {
  const double sq0 = q0[0] * q0[0] + q0[1] * q0[1];
  const double sq1 = q1[0] * q1[0] + q1[1] * q1[1];
  const double rr = r * r;
  if (sq0 < rr || sq1 < rr || r < kMinVal) return -1;
  double closest[2];
  closest_point(q0, q1, closest);
  const bool crosses = closest[0] * closest[0] + closest[1] * closest[1] < rr;

  if (side && side[0] * side[0] + side[1] * side[1] < rr) {
    // Through the geom: a segment that already crosses it is the path.
    if (crosses) return -1;
    inside_point(q0, q1, r, u0);
    u1[0] = u0[0];
    u1[1] = u0[1];
    return 0;
  }

  if (!crosses && (!side || side[0] * closest[0] + side[1] * closest[1] > 0)) return -1;

  // The two candidate paths: counterclockwise around the centre (meeting the circle at q0's
  // direction turned by alpha0 = acos(r / |q0|) counterclockwise, leaving it at q1's turned by
  // alpha1 clockwise) and clockwise. Turning q by +-alpha and scaling to r is algebra on q and its
  // perpendicular: r (cos alpha q + -sin alpha q_perp) / |q|, with cos alpha = r / |q| and
  // sin alpha = h / |q|, h = sqrt(|q|^2 - r^2) the tangent's length; no angle is formed.
  const double h0 = r * std::sqrt(sq0 - rr) / sq0, h1 = r * std::sqrt(sq1 - rr) / sq1;
  const double c0 = rr / sq0, c1 = rr / sq1;
  double a[2][2], b[2][2];  // each candidate's tangent points
  for (int k = 0; k < 2; ++k) {
    const double turn = k == 0 ? 1 : -1;  // counterclockwise at q0 for the first, clockwise else
    a[k][0] = c0 * q0[0] - turn * h0 * q0[1];
    a[k][1] = c0 * q0[1] + turn * h0 * q0[0];
    b[k][0] = c1 * q1[0] + turn * h1 * q1[1];
    b[k][1] = c1 * q1[1] - turn * h1 * q1[0];
  }
  // Arc of candidate k: the angle in [0, 2 pi) from a to b counterclockwise (k = 0), or from b to
  // a (k = 1).
  auto arc = [&](int k) {
    const double* from = k == 0 ? a[k] : b[k];
    const double* to = k == 0 ? b[k] : a[k];
    const double angle = std::atan2(cross2(from, to), from[0] * to[0] + from[1] * to[1]);
    return angle < 0 ? angle + 2 * kPi : angle;
  };
  int pick;
  if (!side) {
    // The shorter arc: the angle from q0 to q1 counterclockwise, theta, less the tangents' angles
    // alpha0 + alpha1 counterclockwise, 2 pi - theta less them clockwise; so counterclockwise when
    // theta < pi.
    pick = cross2(q0, q1) > 0 ? 0 : 1;
  } else {
    // A candidate whose straight parts cross each other is no path. Of the others, the side site
    // picks the one whose tangent points lie towards it: the direction of their chord's midpoint.
    double closeness[2];
    for (int k = 0; k < 2; ++k) {
      const double middle[2] = {a[k][0] + b[k][0], a[k][1] + b[k][1]};
      const double n = norm2(middle[0], middle[1]);
      closeness[k] = n > kMinVal ? (middle[0] * side[0] + middle[1] * side[1]) / n : 0;
      if (segments_intersect(q0, a[k], b[k], q1)) closeness[k] = -kInvalid;
    }
    if (closeness[0] == -kInvalid && closeness[1] == -kInvalid) return -1;
    pick = closeness[0] > closeness[1] ? 0 : 1;
  }
  u0[0] = a[pick][0];
  u0[1] = a[pick][1];
  u1[0] = b[pick][0];
  u1[1] = b[pick][1];
  return r * arc(pick);
}

double geom(const double p0[3], const double p1[3], const double xpos[3], const double xmat[9],
            double r, bool is_sphere, const double* side, double t0[3], double t1[3]) {
  // Ends (and side site) in the geom's frame.
  double l0[3], l1[3], ls[3], tmp[3];
  sub3(tmp, p0, xpos);
  mat_t_vec3(l0, xmat, tmp);
  sub3(tmp, p1, xpos);
  mat_t_vec3(l1, xmat, tmp);
  if (side) {
    sub3(tmp, side, xpos);
    mat_t_vec3(ls, xmat, tmp);
  }

  // The 2D frame: the plane through the centre and both ends (sphere), or across the axis (the
  // cylinder's x and y, taken as they are).
  double axis0[3] = {1, 0, 0}, axis1[3] = {0, 1, 0};
  double q0[2] = {l0[0], l0[1]}, q1[2] = {l1[0], l1[1]}, qs[2] = {};
  if (side) {
    qs[0] = ls[0];
    qs[1] = ls[1];
  }
  if (is_sphere) {
    copy3(axis0, l0);
    normalize3(axis0);
    double normal[3];
    cross3(normal, l0, l1);
    if (norm3(normal) < kMinVal) {
      // Both ends on a line through the centre: any plane containing it will do.
      const double other[3] = {1, 1, 1};
      cross3(normal, axis0, other);
      if (norm3(normal) < kMinVal) {
        const double other2[3] = {0, 1, 0};
        cross3(normal, axis0, other2);
      }
    }
    normalize3(normal);
    cross3(axis1, normal, axis0);
    q0[0] = dot3(l0, axis0);
    q0[1] = dot3(l0, axis1);
    q1[0] = dot3(l1, axis0);
    q1[1] = dot3(l1, axis1);
    if (side) {
      qs[0] = dot3(ls, axis0);
      qs[1] = dot3(ls, axis1);
    }
  }
  double u0[2], u1[2];
  const double arc = circle(q0, q1, side ? qs : nullptr, r, u0, u1);
  if (arc < 0) return -1;

  double w0[3] = {u0[0], u0[1], 0}, w1[3] = {u1[0], u1[1], 0}, length = arc;
  if (is_sphere) {
    for (int k = 0; k < 3; ++k) {
      w0[k] = u0[0] * axis0[k] + u0[1] * axis1[k];
      w1[k] = u1[0] * axis0[k] + u1[1] * axis1[k];
    }
  } else {
    // The helix unrolls to a straight line: heights interpolate along the 2D path length.
    const double len0 = norm2(q0[0] - u0[0], q0[1] - u0[1]);
    const double len1 = norm2(q1[0] - u1[0], q1[1] - u1[1]);
    const double total = len0 + arc + len1;
    const double dz = l1[2] - l0[2];
    w0[2] = total > kMinVal ? l0[2] + dz * len0 / total : l0[2];
    w1[2] = total > kMinVal ? l0[2] + dz * (len0 + arc) / total : l1[2];
    length = norm2(arc, w1[2] - w0[2]);
  }
  mat_vec3(tmp, xmat, w0);
  add3(t0, tmp, xpos);
  mat_vec3(tmp, xmat, w1);
  add3(t1, tmp, xpos);
  return length;
}

}  // namespace joco::wrap
