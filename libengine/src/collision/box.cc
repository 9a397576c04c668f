// Spheres and capsules against boxes, in the box's frame.
#include <algorithm>
#include <cmath>

#include "collision/narrowphase.h"

namespace joco::narrow {

using namespace joco::math;

namespace {

// Contact between a sphere at local point p of a box's frame and the box (as sphere_box), written
// in world coordinates. Returns how many (0 or 1).
int sphere_box_local(Contact* con, const double* p, double radius, const double* size,
                     const double* bpos, const double* bmat, double margin) {
  double nearest[3];
  bool inside = true;
  for (int i = 0; i < 3; ++i) {
    if (p[i] > size[i]) {
      nearest[i] = size[i];
      inside = false;
    } else if (p[i] < -size[i]) {
      nearest[i] = -size[i];
      inside = false;
    } else {
      nearest[i] = p[i];
    }
  }
  double normal_local[3], pos_local[3], dist;
  if (!inside) {
    // normalized however short (a point outside a face by rounding, 1e-17 off, still gets the
    // face's normal, as in MuJoCo 2.2.2, not normalize3's fallback below kMinVal)
    sub3(normal_local, nearest, p);
    const double len = norm3(normal_local);
    if (len > 0) {
      scale3(normal_local, normal_local, 1 / len);
    } else {  // only if the offset's square underflows
      normalize3(normal_local);
    }
    dist = len - radius;
    if (dist > margin) return 0;
    add_scaled3(pos_local, p, normal_local, radius + dist / 2);
  } else {
    int k = 0;
    double best = size[0] - std::abs(p[0]);
    for (int i = 1; i < 3; ++i) {
      const double gap = size[i] - std::abs(p[i]);
      if (gap < best) {
        best = gap;
        k = i;
      }
    }
    const double side = p[k] > 0 ? 1 : -1;
    zero3(normal_local);
    normal_local[k] = -side;
    dist = -radius;
    double face[3], deepest[3];
    copy3(face, p);
    face[k] = side * size[k];
    add_scaled3(deepest, p, normal_local, radius);
    add3(pos_local, face, deepest);
    scale3(pos_local, pos_local, 0.5);
  }
  double normal[3], pos[3];
  mat_vec3(normal, bmat, normal_local);
  mat_vec3(pos, bmat, pos_local);
  add3(pos, pos, bpos);
  set_contact(con, dist, pos, normal);
  return 1;
}

double clip1(double x) { return x < -1 ? -1 : (x > 1 ? 1 : x); }

// The interval of t over which c + t a lies within the slab |x_i| <= s_i (all t if a_i = 0).
void slab(double* lo, double* hi, const double* c, const double* a, const double* s, int i) {
  if (a[i] == 0) return;
  double t_a = (-s[i] - c[i]) / a[i], t_b = (s[i] - c[i]) / a[i];
  if (t_a > t_b) std::swap(t_a, t_b);
  *lo = std::max(*lo, t_a);
  *hi = std::min(*hi, t_b);
}

// For a segment end past the edge along axis l (the other axes at side[] * s): whether the
// segment's line passes nearest the edge's line beyond one of its corners; if so side[l] is set to
// that corner's side. MuJoCo 2.2.2 treats such an end as past the corner (measured: 113 of 672
// ends past an edge in 20000 trials; the corner's rule gives MuJoCo's second contact in 106 of
// them, the edge's in 43).
bool beyond_corner(const double* c, const double* a, const double* s, double* side, int l) {
  double w[3];
  for (int i = 0; i < 3; ++i) w[i] = i == l ? c[i] : c[i] - side[i] * s[i];
  const double aa = dot3(a, a), bb = a[l] * s[l], cc = s[l] * s[l];
  const double dd = dot3(a, w), ee = s[l] * w[l];
  const double det = aa * cc - bb * bb;
  if (det <= kMinVal) return false;  // parallel: no nearest point
  const double u = (aa * ee - bb * dd) / det;
  if (std::abs(u) <= 1) return false;
  side[l] = u > 0 ? 1 : -1;
  return true;
}

}  // namespace

int sphere_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  double dif[3], local[3];
  sub3(dif, d.geom_xpos + 3 * g1, d.geom_xpos + 3 * g2);
  mat_t_vec3(local, d.geom_xmat + 9 * g2, dif);
  return sphere_box_local(con, local, m.geom_size[3 * g1], m.geom_size + 3 * g2,
                          d.geom_xpos + 3 * g2, d.geom_xmat + 9 * g2, margin);
}

// The segment point nearest the box (over the segment's ends and the segment-edge nearest points)
// as a sphere against the box; then a second sphere elsewhere on the segment, chosen by the region
// of the box's surroundings the first point lies in. The rules reproduce MuJoCo 2.2.2 as measured
// (see the pair oracle test): a point over a face (one axis outside) adds the far end of the
// segment's stretch over that face, only when the first point is a segment end; past an edge or a
// corner (two or three axes outside), the segment is carried across the box along the outside axis
// it runs most along (past a corner: of the axes it runs outward along, or those it runs inward
// along, whichever have the larger norm, the one whose slab it crosses in the shortest stretch),
// kept over the face of the other (largest excess) outside axis; an end past an edge whose line the
// segment's line passes nearest beyond a corner counts as past that corner; an end that runs away
// from the box on every outside axis adds nothing; a segment point inside the box (deep) is carried
// across along its nearest face's axis, kept within the slab of the farthest face; an end inside
// the box adds nothing. The second sphere is tried even when the first is beyond the margin.
int capsule_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  const double* bpos = d.geom_xpos + 3 * g2;
  const double* bmat = d.geom_xmat + 9 * g2;
  const double* s = m.geom_size + 3 * g2;
  const double radius = m.geom_size[3 * g1], half = m.geom_size[3 * g1 + 1];
  double axis[3], dif[3], c[3], a[3];
  mat_column(axis, d.geom_xmat + 9 * g1, 2);
  sub3(dif, d.geom_xpos + 3 * g1, bpos);
  mat_t_vec3(c, bmat, dif);
  mat_t_vec3(a, bmat, axis);
  scale3(a, a, half);  // segment c + t a, t in [-1, 1]

  double best = 1e300, tbest = 0;
  for (const double t : {-1.0, 1.0}) {  // the ends against the box
    double p[3], q[3], r[3];
    add_scaled3(p, c, a, t);
    for (int i = 0; i < 3; ++i) q[i] = std::clamp(p[i], -s[i], s[i]);
    sub3(r, p, q);
    const double dist = norm3(r);
    if (dist < best) {
      best = dist;
      tbest = t;
    }
  }
  for (int l = 0; l < 3; ++l) {  // the 12 edges: axis l free, the others at +-s
    const int j = (l + 1) % 3, k = (l + 2) % 3;
    for (int sj = -1; sj <= 1; sj += 2) {
      for (int sk = -1; sk <= 1; sk += 2) {
        double e0[3] = {0, 0, 0}, el[3] = {0, 0, 0}, w[3];
        e0[j] = sj * s[j];
        e0[k] = sk * s[k];
        el[l] = s[l];
        sub3(w, c, e0);
        const double aa = dot3(a, a), bb = dot3(a, el), cc = dot3(el, el);
        const double dd = dot3(a, w), ee = dot3(el, w);
        const double det = aa * cc - bb * bb;
        double t = 0;
        if (det > kMinVal) t = clip1((bb * ee - cc * dd) / det);
        const double u = std::clamp((bb * t + ee) / cc, -1.0, 1.0);
        t = clip1((bb * u - dd) / aa);
        double p[3], q[3], r[3];
        add_scaled3(p, c, a, t);
        add_scaled3(q, e0, el, u);
        sub3(r, p, q);
        const double dist = norm3(r);
        if (dist < best) {
          best = dist;
          tbest = t;
        }
      }
    }
  }

  double p[3];
  add_scaled3(p, c, a, tbest);
  // no early return when this point is beyond the margin: the second point can still touch (a
  // thin capsule through the box, both ends and the edges far, touches where the segment crosses
  // a face), as in MuJoCo 2.2.2
  int n = sphere_box_local(con, p, radius, s, bpos, bmat, margin);
  const bool end = tbest == -1 || tbest == 1;

  int outside[3], nout = 0;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(p[i]) > s[i]) outside[nout++] = i;
  }
  double t2;
  if (nout == 0) {  // inside the box
    if (end) return n;
    int order[3] = {0, 1, 2};  // axes by the gap between p and their faces, nearest first
    std::sort(order, order + 3,
              [&](int x, int y) { return s[x] - std::abs(p[x]) < s[y] - std::abs(p[y]); });
    const int k = order[0];
    if (a[k] == 0) return n;
    double lo = -1e300, hi = 1e300;
    slab(&lo, &hi, c, a, s, order[2]);
    t2 = tbest - 2 * (p[k] > 0 ? 1 : -1) * s[k] / a[k];
    t2 = std::min(hi, std::max(lo, t2));
  } else if (nout == 1) {  // over a face: the far end of the stretch over it
    if (!end) return n;
    double lo = -1, hi = 1;
    for (int i = 0; i < 3; ++i) {
      if (i != outside[0]) slab(&lo, &hi, c, a, s, i);
    }
    if (lo > hi) return n;
    t2 = std::abs(hi - tbest) > std::abs(lo - tbest) ? hi : lo;
  } else {           // past an edge or a corner
    double side[3];  // the box's side, per axis, the point lies on (or beyond)
    for (int i = 0; i < 3; ++i) side[i] = p[i] > 0 ? 1 : -1;
    if (end && nout == 2 && beyond_corner(c, a, s, side, 3 - outside[0] - outside[1])) {
      outside[nout++] = 3 - outside[0] - outside[1];
    }
    if (end) {
      bool away = true;
      for (int k = 0; k < nout; ++k) {
        const int i = outside[k];
        if (-tbest * a[i] * side[i] < 0) away = false;
      }
      if (away) return n;
    }
    int j = outside[0];  // the outside axis the segment runs most along
    for (int k = 1; k < nout; ++k) {
      if (std::abs(a[outside[k]]) > std::abs(a[j])) j = outside[k];
    }
    if (nout == 3) {
      // past a corner the axes split by whether the segment runs outward (a_i along the corner's
      // side) or inward along them; MuJoCo 2.2.2 carries along an axis of the group whose
      // components have the larger norm, the one whose slab the segment crosses in the shortest
      // stretch (least s_i / |a_i|). Measured by constructed sweeps: turning the direction in a
      // plane, the switch falls where a_j^2 = a_k^2 + a_l^2 (l running the same way as k), not
      // where |a_j| = |a_k|; shrinking one size of a group of two, where s_j / |a_j| = s_k / |a_k|.
      double norm2[2] = {0, 0};
      for (int i = 0; i < 3; ++i) norm2[side[i] * a[i] > 0] += a[i] * a[i];
      const bool outward = norm2[1] > norm2[0];
      j = -1;
      for (int i = 0; i < 3; ++i) {
        if ((side[i] * a[i] > 0) == outward &&
            (j < 0 || std::abs(a[i]) * s[j] > std::abs(a[j]) * s[i])) {
          j = i;
        }
      }
    }
    int f = -1;  // the other outside axis of largest excess
    double excess = -1;
    for (int k = 0; k < nout; ++k) {
      const int i = outside[k];
      if (i != j && std::abs(p[i]) - s[i] > excess) {
        excess = std::abs(p[i]) - s[i];
        f = i;
      }
    }
    t2 = tbest - 2 * side[j] * s[j] / a[j];
    if (nout == 2) {  // kept over face f; when the segment never is, the bound nearest tbest
      double lo = -1e300, hi = 1e300;
      for (int i = 0; i < 3; ++i) {
        if (i != f) slab(&lo, &hi, c, a, s, i);
      }
      if (lo > hi) {
        t2 = std::abs(lo - tbest) < std::abs(hi - tbest) ? lo : hi;
      } else {
        t2 = std::min(hi, std::max(lo, t2));
      }
    }
  }
  t2 = clip1(t2);
  double p2[3];
  add_scaled3(p2, c, a, t2);
  return n + sphere_box_local(con + n, p2, radius, s, bpos, bmat, margin);
}

}  // namespace joco::narrow
