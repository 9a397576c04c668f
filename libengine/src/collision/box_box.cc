// Box against box: separating axes (3 + 3 face normals, 9 edge crossings), then the incident face
// clipped against the reference face (up to 8 contacts), or one contact between two edges.
#include <cmath>
#include <utility>

#include "collision/narrowphase.h"

namespace joco::narrow {

using namespace joco::math;

namespace {

struct Box {
  const double* pos;
  const double* mat;
  const double* size;
  double axis[3][3];  // local axes in world coordinates
};

// Half-extent of box b along unit direction l.
double extent(const Box& b, const double* l) {
  double r = 0;
  for (int k = 0; k < 3; ++k) r += b.size[k] * std::abs(dot3(b.axis[k], l));
  return r;
}

// Clips polygon `in` (n points, 2-D) to the half-plane sign * x[c] <= h; returns the new count.
int clip_polygon(const double (*in)[2], int n, double (*out)[2], int c, double sign, double h) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const double* p = in[i];
    const double* q = in[(i + 1) % n];
    const double dp = sign * p[c] - h, dq = sign * q[c] - h;
    if (dp <= 0) {
      out[m][0] = p[0];
      out[m][1] = p[1];
      ++m;
    }
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
      const double t = dp / (dp - dq);
      out[m][0] = p[0] + t * (q[0] - p[0]);
      out[m][1] = p[1] + t * (q[1] - p[1]);
      ++m;
    }
  }
  return m;
}

// Face contacts: reference face of box `ref` with outward unit normal `normal` (pointing to the
// other box) on local axis `axis`, incident box `inc`. Contacts' normals point along `out_normal`.
int face_contacts(const Box& ref, int axis, const double* normal, const Box& inc,
                  const double* out_normal, double margin, Contact* con) {
  // incident face: the face of inc most opposed to the normal
  int k = 0;
  double best = -1;
  for (int i = 0; i < 3; ++i) {
    const double v = std::abs(dot3(inc.axis[i], normal));
    if (v > best) {
      best = v;
      k = i;
    }
  }
  const double kside = dot3(inc.axis[k], normal) > 0 ? -1 : 1;
  const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
  double face_center[3];
  add_scaled3(face_center, inc.pos, inc.axis[k], kside * inc.size[k]);

  // reference face frame
  const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  double ref_center[3];
  const double rside = dot3(ref.axis[axis], normal) > 0 ? 1 : -1;
  add_scaled3(ref_center, ref.pos, ref.axis[axis], rside * ref.size[axis]);

  // incident quad in reference face coordinates
  double poly[8][2], tmp[8][2];
  const double signs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (int i = 0; i < 4; ++i) {
    double corner[3], dif[3];
    add_scaled3(corner, face_center, inc.axis[k1], signs[i][0] * inc.size[k1]);
    add_scaled3(corner, corner, inc.axis[k2], signs[i][1] * inc.size[k2]);
    sub3(dif, corner, ref_center);
    poly[i][0] = dot3(dif, ref.axis[a1]);
    poly[i][1] = dot3(dif, ref.axis[a2]);
  }
  int n = 4;
  n = clip_polygon(poly, n, tmp, 0, 1, ref.size[a1]);
  n = clip_polygon(tmp, n, poly, 0, -1, ref.size[a1]);
  n = clip_polygon(poly, n, tmp, 1, 1, ref.size[a2]);
  n = clip_polygon(tmp, n, poly, 1, -1, ref.size[a2]);

  // depth of each clipped point below the reference face, along the normal
  int count = 0;
  const double* fn = inc.axis[k];
  for (int i = 0; i < n && count < 8; ++i) {
    double point[3];
    add_scaled3(point, ref_center, ref.axis[a1], poly[i][0]);
    add_scaled3(point, point, ref.axis[a2], poly[i][1]);
    // move along the normal onto the incident face plane
    double dif[3];
    sub3(dif, face_center, point);
    const double denom = dot3(fn, normal);
    const double t = dot3(dif, fn) / denom;
    // MuJoCo 2.2.2 reports half the incident point's height over the reference face
    const double dist = t / 2;
    if (dist > margin) continue;
    double pos[3];
    add_scaled3(pos, point, normal, t / 2);
    set_contact(con + count, dist, pos, out_normal);
    ++count;
  }
  // deepest first
  for (int i = 1; i < count; ++i) {
    for (int j = i; j > 0 && con[j].dist < con[j - 1].dist; --j) std::swap(con[j], con[j - 1]);
  }
  return count;
}

}  // namespace

int box_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  Box b1{d.geom_xpos + 3 * g1, d.geom_xmat + 9 * g1, m.geom_size + 3 * g1, {}};
  Box b2{d.geom_xpos + 3 * g2, d.geom_xmat + 9 * g2, m.geom_size + 3 * g2, {}};
  for (int k = 0; k < 3; ++k) {
    mat_column(b1.axis[k], b1.mat, k);
    mat_column(b2.axis[k], b2.mat, k);
  }
  double dif[3];
  sub3(dif, b2.pos, b1.pos);

  double best = 1e300, best_axis[3] = {0, 0, 0};
  int code = -1;
  for (int c = 0; c < 15; ++c) {
    double l[3];
    if (c < 3) {
      copy3(l, b1.axis[c]);
    } else if (c < 6) {
      copy3(l, b2.axis[c - 3]);
    } else {
      cross3(l, b1.axis[(c - 6) / 3], b2.axis[(c - 6) % 3]);
      if (normalize3(l) < 1e-6) continue;
    }
    const double pen = extent(b1, l) + extent(b2, l) - std::abs(dot3(dif, l));
    if (pen < -margin) return 0;
    if (pen < best) {
      best = pen;
      code = c;
      copy3(best_axis, l);
    }
  }
  double normal[3];  // from box 1 to box 2
  scale3(normal, best_axis, dot3(dif, best_axis) >= 0 ? 1 : -1);

  if (code < 3) return face_contacts(b1, code, normal, b2, normal, margin, con);
  if (code < 6) {
    double back[3];
    scale3(back, normal, -1);
    return face_contacts(b2, code - 3, back, b1, normal, margin, con);
  }

  // edge against edge: the nearest points of the two supporting edges
  const int i = (code - 6) / 3, j = (code - 6) % 3;
  double p1[3], p2[3];
  copy3(p1, b1.pos);
  copy3(p2, b2.pos);
  for (int k = 0; k < 3; ++k) {
    if (k != i)
      add_scaled3(p1, p1, b1.axis[k], (dot3(b1.axis[k], normal) > 0 ? 1 : -1) * b1.size[k]);
    if (k != j)
      add_scaled3(p2, p2, b2.axis[k], (dot3(b2.axis[k], normal) > 0 ? -1 : 1) * b2.size[k]);
  }
  const double* u = b1.axis[i];
  const double* v = b2.axis[j];
  double w[3];
  sub3(w, p1, p2);
  const double uv = dot3(u, v), uw = dot3(u, w), vw = dot3(v, w);
  const double den = 1 - uv * uv;
  double s = 0, t = 0;
  if (den > kMinVal) {
    s = (uv * vw - uw) / den;
    t = (vw - uv * uw) / den;
  }
  double q1[3], q2[3], pos[3];
  add_scaled3(q1, p1, u, s);
  add_scaled3(q2, p2, v, t);
  add3(pos, q1, q2);
  scale3(pos, pos, 0.5);
  set_contact(con, -best, pos, normal);
  return 1;
}

}  // namespace joco::narrow
