// Box against box, reproducing MuJoCo 2.2.2's contact sets as measured against it (see the pair
// oracle test).
//
// Separating axes (3 + 3 face normals, 9 edge crossings) computed in box 1's frame, the least
// penetrating one chosen (see "Exactly aligned boxes" below for its keys and ties). Then one
// contact routine for both kinds:
//
// - a reference face of one box (the face axis found; for an edge axis, box 1's face most aligned
//   with the normal), with a fixed in-plane frame (u, v) per face (face_frame), and the other
//   box's incident feature spanned by up to two of its axes: for a face axis, its axes within 60
//   degrees of the face plane (|axis . N| < 0.5: two a face, one an edge, none a corner), each
//   oriented not against N so that corner 0 (centre minus the axes) is the deepest; for an edge
//   axis, its edge's axis (reversed) and the flatter of its other two;
// - candidate points in this order: the incident edges (corners 0-1, 0-2, 1-3, 2-3) crossing the
//   face's boundary lines (u = -su, u = su, v = -sv, v = sv), within both; the face's corners over
//   an incident face; the incident corners over the face;
// - each point is paired with its projection along N on the other surface; the contact sits
//   midway, at the depth along N, kept when that depth is not above the margin;
// - a contact at the same position as a later one is dropped (see below).
//
// Face axes: computed in the reference box's frame, centred on it; N is the face normal; incident
// corner 0 is always a candidate (even off the face); a point's depth is the axis's separation
// plus its offset along N from corner 0, the contact sits that half depth from the face, and the
// distance reported is half the depth (as MuJoCo 2.2.2 does). Edge axes: N is the edge
// normal, points are carried along N onto the face plane, the distance is the depth, and the
// crossing of the two edges is their exact nearest-point pair. The face's corners are located on
// the incident face by Cramer's rule in the face's frame, and MuJoCo 2.2.2 overwrites the
// determinant with the squared separation of each pair found: later corners' coordinates (from
// incident corner 0) come out scaled by the true determinant over that square, which usually
// rejects them (a second corner over the face is then missed) and now and then accepts a point
// that is no projection of its corner (distance minus the pair's separation, to -1.0). Both are
// reproduced (measured in 10 such trials of 20000, to 1e-15).
//
// Edge axes also admit corners off the other feature, clamped onto it, depending on what was
// added before (measured: this matches all of 2.7 million random trials, where without it about
// 1 in 1300 differed, each with the boxes apart within the margin and the edges' crossing past
// an end of either edge; otherwise that crossing is itself an edge crossing added, and nothing
// off a feature is admitted). A corner may have as many of
// its two coordinates outside the other feature as allowed: none once an edge crossing was added
// (within the margin); else one for the face's corners (their Cramer coordinates clamped to
// [0, 1], at the pair's separation, the determinant overwritten as above); and for the incident
// corners one when a face corner was added, two when nothing was (paired with the face point at
// their coordinates clamped to the face, at distance +-sqrt(depth^2 + d^2), d the clamped offset
// in the face's frame, signed as the depth).
//
// Exactly aligned boxes (faces parallel, measured on random states with sizes in multiples of
// 0.05, the 24 axis rotations for each box, offsets making faces and edges coincide; the oracle
// test box_stack_oracle_test.cc), where ties decide:
// - contacts at the same position (bit for bit) as a later one are dropped, the last kept and the
//   order otherwise unchanged: MuJoCo's contact list for a box pair has these (its box-box
//   function called directly keeps them; capsule pairs' repeated points are kept): held in all of
//   40000 states;
// - face axes are keyed by their separation |offset| - own half size - the other box's extent
//   (the value that rejects them beyond the margin, with its rounding), negated, and taken in the
//   order box 1's axis 0, box 2's axis 0, box 1's axis 1, ..., the first on ties: with the
//   separations tied, box 2's face is the reference exactly when its axis index is below box 1's
//   (all of 24800 penetrating states with no shared edge lines); keyed by the penetration summed
//   the other way, or in the order box 1's then box 2's, a third of them differ;
// - edge axes are keyed by their penetration scaled by 1 + 1e-12, the last edge axis taken on ties
//   with another: MuJoCo takes a face axis on exact (and rounding-level) ties when the boxes
//   penetrate (19428 of 19428 states report half the depth) and an edge axis when they are apart
//   within the margin (19030 of 19030 report the full separation); any scale from 1 + 1e-14 to
//   1 + 1e-10 gives the same, and no longer changes the random sweeps' choices;
// - a face's corner over the incident face, and an incident corner over the face, must lie
//   strictly inside (on the boundary they are not candidates), while the incident edges' crossings
//   with the face's boundary lines count at either end (t in [0, 1], |other| <= half size): the
//   stack of two equal cubes then gives MuJoCo's 9 points (8 crossings, corner 0), 4 once the
//   repeats are dropped.
// What remains differs by MuJoCo's own rounding of points on the boxes' boundaries (a corner a
// few ulps inside or outside) and, apart, of which of two tied edge axes it takes; measured in
// man/joco-simulate.1 (DIFFERENCES FROM MUJOCO 2.2.2).
#include <algorithm>
#include <cmath>

#include "collision/narrowphase.h"

namespace joco::narrow {

using namespace joco::math;

namespace {

// Edge axes' keys in the choice of the separating axis are their penetrations scaled by this:
// MuJoCo 2.2.2 prefers face axes on ties when the boxes penetrate, edge axes when they are apart
// (measured on exactly aligned boxes; any scale from 1 + 1e-14 to 1 + 1e-10 gives the same).
constexpr double kEdgeKeyScale = 1 + 1e-12;

struct Box {
  const double* pos;
  const double* size;
  double axis[3][3];  // local axes in world coordinates
};

// In-plane frame of face `k` on side `side` (+1 or -1): u = su_sign * axis[u_axis], v likewise.
struct FaceFrame {
  int u_axis, v_axis;
  double u_sign, v_sign;
};

FaceFrame face_frame(int k, double side) {
  if (k == 0) return side > 0 ? FaceFrame{2, 1, -1, 1} : FaceFrame{2, 1, 1, 1};
  if (k == 1) return side > 0 ? FaceFrame{0, 2, 1, -1} : FaceFrame{0, 2, 1, 1};
  return side > 0 ? FaceFrame{0, 1, 1, 1} : FaceFrame{0, 1, -1, 1};
}

struct Routine {
  const Box* ref;
  int k;             // reference face axis
  double side;       // its side, facing the other box
  const Box* inc;    // the other box
  double N[3];       // from the reference face towards the incident box
  double normal[3];  // contact normal, from box 1 to box 2
  double margin;
  bool face_axis;  // a face separating axis (else an edge axis)
  double sep = 0;  // face axes: the separation along the axis
  int first_axis;  // edge axes: the incident box's edge axis, listed first
  // edge axes: the crossing of the two edges, replaced by their nearest-point pair
  int ee_coord = -1;
  double ee_value = 0;
  double ee_pos[3] = {0, 0, 0};
  double ee_dist = 0;
};

class Writer {
 public:
  Writer(Contact* con, const Routine& r, const double* deepest)
      : con_(con), r_(r), deepest_(deepest) {}
  // Adds the contact between incident point xi and reference point xr when deep enough.
  void add(const double* xi, const double* xr) {
    if (n_ >= kMaxConPair) return;
    double dif[3], pos[3];
    double depth;
    if (r_.face_axis) {
      sub3(dif, xi, deepest_);
      depth = r_.sep + dot3(dif, r_.N);
      if (depth > r_.margin) return;
      add_scaled3(pos, xr, r_.N, depth / 2);
    } else {
      sub3(dif, xi, xr);
      depth = dot3(dif, r_.N);
      if (depth > r_.margin) return;
      add3(pos, xi, xr);
      scale3(pos, pos, 0.5);
    }
    set_contact(con_ + n_++, r_.face_axis ? depth / 2 : depth, pos, r_.normal);
  }
  void add_exact(const double* pos, double dist) {
    if (n_ >= kMaxConPair || dist > r_.margin) return;
    set_contact(con_ + n_++, dist, pos, r_.normal);
  }
  int count() const { return n_; }

 private:
  Contact* con_;
  const Routine& r_;
  const double* deepest_;
  int n_ = 0;
};

int contacts(const Routine& r, Contact* con) {
  const Box& R = *r.ref;
  const Box& I = *r.inc;
  double F[3], rc[3];
  scale3(F, R.axis[r.k], r.side);
  add_scaled3(rc, R.pos, F, R.size[r.k]);
  const FaceFrame ff = face_frame(r.k, r.side);
  double u[3], v[3];
  scale3(u, R.axis[ff.u_axis], ff.u_sign);
  scale3(v, R.axis[ff.v_axis], ff.v_sign);
  const double su = R.size[ff.u_axis], sv = R.size[ff.v_axis];
  const double nf = dot3(r.N, F);

  // the incident feature: face axes, the axes within 60 degrees of the face plane; edge axes,
  // the incident edge's axis (oriented against its box's axis) and the flatter other one
  int flat[3], nflat = 0, m = 0;
  if (r.face_axis) {
    double best = -1;
    for (int i = 0; i < 3; ++i) {
      const double c = std::abs(dot3(I.axis[i], r.N));
      if (c > best) {
        best = c;
        m = i;
      }
      // Two at most: with orthonormal axes and a unit normal no more than two are below 0.5 (their
      // squares sum to 1), but a model's axes need not be (a quaternion off unit length in a .jmb).
      if (c < 0.5 && nflat < 2) flat[nflat++] = i;
    }
  } else {
    const int a = (r.first_axis + 1) % 3, b = (r.first_axis + 2) % 3;
    const int other = std::abs(dot3(I.axis[b], r.N)) < std::abs(dot3(I.axis[a], r.N)) ? b : a;
    flat[0] = r.first_axis;
    flat[1] = other;
    nflat = 2;
    m = 3 - r.first_axis - other;
  }
  double p0[3];
  copy3(p0, I.pos);
  for (int i = 0; i < 3; ++i) {
    if (nflat > 0 && (i == flat[0] || (nflat > 1 && i == flat[1]))) continue;
    add_scaled3(p0, p0, I.axis[i], (dot3(I.axis[i], r.N) > 0 ? -1 : 1) * I.size[i]);
  }
  double e[2][3];
  for (int q = 0; q < nflat; ++q) {
    scale3(e[q], I.axis[flat[q]], I.size[flat[q]]);
    const bool edge_axis = !r.face_axis && q == 0;  // always reversed
    if (edge_axis || dot3(e[q], r.N) < 0) {
      scale3(e[q], e[q], -1);
    }
  }
  double corner[4][3];
  int ncorner = 1;
  copy3(corner[0], p0);
  if (nflat == 1) {
    ncorner = 2;
    sub3(corner[0], p0, e[0]);
    add3(corner[1], p0, e[0]);
  } else if (nflat == 2) {
    ncorner = 4;
    for (int c = 0; c < 4; ++c) {
      add_scaled3(corner[c], p0, e[0], (c & 1) ? 1 : -1);
      add_scaled3(corner[c], corner[c], e[1], (c & 2) ? 1 : -1);
    }
  }

  // point x carried along N onto the reference plane
  auto onref = [&](double* out, const double* x) {
    double w[3];
    sub3(w, x, rc);
    add_scaled3(out, x, r.N, -dot3(w, F) / nf);
  };
  // reference-frame coordinates of x (face axes: orthogonal projection; edge axes: along N)
  auto coords = [&](double* out, const double* x) {
    double y[3], w[3];
    if (r.face_axis) {
      copy3(y, x);
    } else {
      onref(y, x);
    }
    sub3(w, y, rc);
    out[0] = dot3(w, u);
    out[1] = dot3(w, v);
  };

  Writer out(con, r, corner[0]);
  // incident edges against the face's boundary lines
  static constexpr int kPairs[4][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  const int npairs = nflat == 2 ? 4 : (nflat == 1 ? 1 : 0);
  const double lines[4][2] = {{0, -su}, {0, su}, {1, -sv}, {1, sv}};
  for (int pi = 0; pi < npairs; ++pi) {
    const double* ca = corner[kPairs[pi][0]];
    const double* cb = corner[kPairs[pi][1]];
    double pa[2], pb[2];
    coords(pa, ca);
    coords(pb, cb);
    for (const auto& line : lines) {
      const int c = static_cast<int>(line[0]), o = 1 - c;
      const double val = line[1];
      const double den = pb[c] - pa[c];
      if (den == 0) continue;
      const double t = (val - pa[c]) / den;
      if (t < 0 || t > 1) continue;
      const double other = pa[o] + t * (pb[o] - pa[o]);
      if (std::abs(other) > (c == 0 ? sv : su)) continue;
      if (pi == 0 && c == r.ee_coord && val == r.ee_value) {
        out.add_exact(r.ee_pos, r.ee_dist);
        continue;
      }
      double x[3], d[3], xr[3];
      sub3(d, cb, ca);
      add_scaled3(x, ca, d, t);
      onref(xr, x);
      out.add(x, xr);
    }
  }
  // Edge axes: how many of its two coordinates a corner of one feature may have outside the
  // other feature and still count (clamped onto that feature's boundary), as in MuJoCo 2.2.2:
  // none once an edge crossing has been added (always so when the edges' crossing lies within
  // both edges, for that crossing is then one); else one for the face's corners, and for the
  // incident corners one when a face corner was added and two (any corner) when nothing was.
  // "Added" means within the margin: points found beyond it do not count.
  const int n_edges = out.count();
  // the face's corners over an incident face
  if (nflat == 2 && !r.face_axis) {
    // Edge axes: each corner's coordinates (a, b) along the incident edges corner 0-1 and 0-2,
    // both carried along N onto the face plane, by Cramer's rule; found when at most allowed_out
    // of them lie outside [0, 1], the incident point then being corner 0 + a (1 - 0) +
    // b (2 - 0) with a and b clamped to [0, 1]. As in MuJoCo 2.2.2, the determinant is replaced
    // by the squared separation of each pair found (whether or not within the margin): later
    // corners' coordinates are scaled by (true determinant) / (that square), which now and then
    // puts a point within the face that is no projection of the corner. The distance is the
    // pair's separation, negative when the incident point lies behind the face plane.
    const int allowed_out = n_edges > 0 ? 0 : 1;
    double c0[2], c1[2], c2[2];
    coords(c0, corner[0]);
    coords(c1, corner[1]);
    coords(c2, corner[2]);
    const double e0[2] = {c1[0] - c0[0], c1[1] - c0[1]};
    const double e1[2] = {c2[0] - c0[0], c2[1] - c0[1]};
    double det = e0[0] * e1[1] - e0[1] * e1[0];
    double E0[3], E1[3];
    sub3(E0, corner[1], corner[0]);
    sub3(E1, corner[2], corner[0]);
    for (int c = 0; c < 4; ++c) {
      const double x[2] = {(c & 2 ? 1 : -1) * su - c0[0], (c & 1 ? 1 : -1) * sv - c0[1]};
      const double a = (x[0] * e1[1] - x[1] * e1[0]) / det;
      const double b = (e0[0] * x[1] - e0[1] * x[0]) / det;
      const int outside = !(a >= 0 && a <= 1) + !(b >= 0 && b <= 1);
      if (outside > allowed_out || std::isnan(a + b)) continue;
      double xr[3], xi[3], dif[3], pos[3];
      add_scaled3(xr, rc, u, (c & 2 ? 1 : -1) * su);
      add_scaled3(xr, xr, v, (c & 1 ? 1 : -1) * sv);
      add_scaled3(xi, corner[0], E0, std::clamp(a, 0.0, 1.0));
      add_scaled3(xi, xi, E1, std::clamp(b, 0.0, 1.0));
      sub3(dif, xi, xr);
      det = dot3(dif, dif);
      add3(pos, xi, xr);
      scale3(pos, pos, 0.5);
      out.add_exact(pos, (dot3(dif, F) < 0 ? -1 : 1) * std::sqrt(det));
    }
  } else if (nflat == 2) {  // face axes: each corner carried along N onto the incident face
    const double* fn = I.axis[m];
    const double nfn = dot3(r.N, fn);
    for (int c = 0; c < 4; ++c) {
      double xr[3], xi[3], w[3];
      add_scaled3(xr, rc, u, (c & 2 ? 1 : -1) * su);
      add_scaled3(xr, xr, v, (c & 1 ? 1 : -1) * sv);
      sub3(w, p0, xr);
      add_scaled3(xi, xr, r.N, dot3(w, fn) / nfn);
      sub3(w, xi, p0);
      if (std::abs(dot3(w, I.axis[flat[0]])) < I.size[flat[0]] &&
          std::abs(dot3(w, I.axis[flat[1]])) < I.size[flat[1]]) {
        out.add(xi, xr);
      }
    }
  }
  // the incident corners over the face
  const int allowed_off = n_edges > 0 ? 0 : (out.count() > n_edges ? 1 : 2);
  for (int c = 0; c < ncorner; ++c) {
    double pc[2];
    coords(pc, corner[c]);
    const int outside = !(std::abs(pc[0]) <= su) + !(std::abs(pc[1]) <= sv);
    // face axes: strictly within the face (a corner on its boundary is not found)
    const bool inside = r.face_axis ? std::abs(pc[0]) < su && std::abs(pc[1]) < sv : outside == 0;
    if ((c == 0 && r.face_axis) || inside) {
      double xr[3];
      onref(xr, corner[c]);
      out.add(corner[c], xr);
    } else if (!r.face_axis && outside <= allowed_off && !std::isnan(pc[0] + pc[1])) {
      // Edge axes, a corner off the face: paired with the face point at its coordinates clamped
      // to the face, at the distance sqrt(depth^2 + d^2), d the clamped offset in the face's
      // frame (as though N were the face normal), signed as the depth.
      const double q[2] = {std::clamp(pc[0], -su, su), std::clamp(pc[1], -sv, sv)};
      double xr[3], dif[3], pos[3];
      onref(xr, corner[c]);
      sub3(dif, corner[c], xr);
      const double depth = dot3(dif, r.N);
      const double du = pc[0] - q[0], dv = pc[1] - q[1];
      const double dist = std::sqrt(depth * depth + du * du + dv * dv);
      add_scaled3(xr, rc, u, q[0]);
      add_scaled3(xr, xr, v, q[1]);
      add3(pos, corner[c], xr);
      scale3(pos, pos, 0.5);
      out.add_exact(pos, depth < 0 ? -dist : dist);
    }
  }
  return out.count();
}

// Drops each contact at the same position as a later one (the last of equal points is kept, the
// order otherwise unchanged), as in MuJoCo 2.2.2's contact list for box pairs.
int drop_repeats(Contact* con, int n) {
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    bool repeated = false;
    for (int j = i + 1; j < n && !repeated; ++j) {
      repeated = con[i].pos[0] == con[j].pos[0] && con[i].pos[1] == con[j].pos[1] &&
                 con[i].pos[2] == con[j].pos[2];
    }
    if (!repeated) con[kept++] = con[i];
  }
  return kept;
}

}  // namespace

int box_box(const Model& m, const Data& d, Contact* con, int g1, int g2, double margin) {
  Box b1{d.geom_xpos + 3 * g1, m.geom_size + 3 * g1, {}};
  Box b2{d.geom_xpos + 3 * g2, m.geom_size + 3 * g2, {}};
  const double* mat1 = d.geom_xmat + 9 * g1;
  const double* mat2 = d.geom_xmat + 9 * g2;
  for (int k = 0; k < 3; ++k) {
    mat_column(b1.axis[k], mat1, k);
    mat_column(b2.axis[k], mat2, k);
  }
  const double* s1 = b1.size;
  const double* s2 = b2.size;

  // box 2 in box 1's frame: rot[i][j] = axis1_i . axis2_j, p = offset in box 1's axes
  double dif[3], p[3], rot[3][3], q[3];
  sub3(dif, b2.pos, b1.pos);
  for (int i = 0; i < 3; ++i) {
    p[i] = dot3(b1.axis[i], dif);
    for (int j = 0; j < 3; ++j) rot[i][j] = dot3(b1.axis[i], b2.axis[j]);
  }
  for (int j = 0; j < 3; ++j) q[j] = rot[0][j] * p[0] + rot[1][j] * p[1] + rot[2][j] * p[2];

  // The least penetrating axis: the one with the smallest key, the first in this order on ties.
  // Face axes (box 1's axis 0, box 2's axis 0, box 1's axis 1, ...): apart when the separation
  // |offset| - own half size - the other box's extent, subtracted in this order, exceeds the
  // margin (MuJoCo 2.2.2's rounding: with faces exactly touching its last bit decides, +-1e-17),
  // and that separation, negated, is the key.
  double best = 1e300, best_pen = 0, best_l[3] = {0, 0, 0};
  int code = -1;
  for (int k = 0; k < 6; ++k) {
    const int i = k / 2;
    double sep;
    if (k % 2 == 0) {  // box 1's face
      sep = std::abs(p[i]) - s1[i] - s2[0] * std::abs(rot[i][0]) - s2[1] * std::abs(rot[i][1]) -
            s2[2] * std::abs(rot[i][2]);
    } else {  // box 2's face
      sep = std::abs(q[i]) - s2[i] - s1[0] * std::abs(rot[0][i]) - s1[1] * std::abs(rot[1][i]) -
            s1[2] * std::abs(rot[2][i]);
    }
    if (sep > margin) return 0;
    if (-sep < best) {
      best = -sep;
      code = k % 2 == 0 ? i : 3 + i;
    }
  }
  for (int i = 0; i < 3; ++i) {  // edge crossings, in box 1's frame
    for (int j = 0; j < 3; ++j) {
      const double c[3] = {rot[0][j], rot[1][j], rot[2][j]};
      double l[3] = {0, 0, 0};
      l[(i + 1) % 3] = -c[(i + 2) % 3];
      l[(i + 2) % 3] = c[(i + 1) % 3];
      const double len = norm3(l);
      if (len < 1e-6) continue;
      scale3(l, l, 1 / len);
      double ext2 = 0;
      for (int k = 0; k < 3; ++k) {
        ext2 += s2[k] * std::abs(l[0] * rot[0][k] + l[1] * rot[1][k] + l[2] * rot[2][k]);
      }
      const double pen = s1[0] * std::abs(l[0]) + s1[1] * std::abs(l[1]) + s1[2] * std::abs(l[2]) +
                         ext2 - std::abs(dot3(p, l));
      if (pen < -margin) return 0;
      // Edge axes: the penetration scaled by 1 + 1e-12 is the key, the last edge axis taken on
      // ties with another edge axis. So a face axis keeps an exact (or rounding-level) tie when
      // the boxes penetrate or touch, and an edge axis takes it when they are apart.
      const double key = pen * kEdgeKeyScale;
      if (key < best || (key == best && code >= 6)) {
        best = key;
        best_pen = pen;
        code = 6 + 3 * i + j;
        copy3(best_l, l);
      }
    }
  }

  Routine r;
  r.margin = margin;
  if (code < 6) {
    const bool on1 = code < 3;
    const int k = on1 ? code : code - 3;
    r.k = k;
    r.side = on1 ? (p[k] >= 0 ? 1 : -1) : (q[k] >= 0 ? -1 : 1);
    // Computed in the reference box's frame, centred on it (MuJoCo's rounding of the points
    // there), then carried back: the other box's centre and axes in that frame.
    const Box& ref = on1 ? b1 : b2;
    const double origin[3] = {0, 0, 0};
    const Box local_ref{origin, ref.size, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    double centre[3];
    Box local_inc{centre, on1 ? s2 : s1, {}};
    for (int a = 0; a < 3; ++a) {
      centre[a] = on1 ? p[a] : -q[a];
      for (int b = 0; b < 3; ++b) local_inc.axis[a][b] = on1 ? rot[b][a] : rot[a][b];
    }
    r.ref = &local_ref;
    r.inc = &local_inc;
    for (int a = 0; a < 3; ++a) r.N[a] = a == k ? r.side : 0;
    scale3(r.normal, r.N, on1 ? 1 : -1);
    r.face_axis = true;
    r.first_axis = -1;
    r.sep = -best;
    const int n = contacts(r, con);
    for (int c = 0; c < n; ++c) {
      double pos[3], normal[3];
      for (int a = 0; a < 3; ++a) {
        pos[a] = ref.pos[a] + ref.axis[0][a] * con[c].pos[0] + ref.axis[1][a] * con[c].pos[1] +
                 ref.axis[2][a] * con[c].pos[2];
        normal[a] = ref.axis[0][a] * con[c].frame[0] + ref.axis[1][a] * con[c].frame[1] +
                    ref.axis[2][a] * con[c].frame[2];
      }
      set_contact(con + c, con[c].dist, pos, normal);
    }
    return drop_repeats(con, n);
  }

  // edge against edge: normal in world coordinates, from box 1 to box 2
  const int i = (code - 6) / 3, j = (code - 6) % 3;
  double n[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) add_scaled3(n, n, b1.axis[k], best_l[k]);
  if (dot3(p, best_l) < 0) scale3(n, n, -1);

  // the nearest points of the two supporting edges
  double p1[3], p2[3];
  copy3(p1, b1.pos);
  copy3(p2, b2.pos);
  for (int k = 0; k < 3; ++k) {
    if (k != i) add_scaled3(p1, p1, b1.axis[k], (dot3(b1.axis[k], n) > 0 ? 1 : -1) * s1[k]);
    if (k != j) add_scaled3(p2, p2, b2.axis[k], (dot3(b2.axis[k], n) > 0 ? -1 : 1) * s2[k]);
  }
  const double* ua = b1.axis[i];
  const double* vb = b2.axis[j];
  double w[3];
  sub3(w, p1, p2);
  const double uv = dot3(ua, vb), uw = dot3(ua, w), vw = dot3(vb, w);
  const double den = 1 - uv * uv;
  double sa = 0, tb = 0;
  if (den > kMinVal) {
    sa = (uv * vw - uw) / den;
    tb = (vw - uv * uw) / den;
  }
  double q1[3], q2[3];
  add_scaled3(q1, p1, ua, sa);
  add_scaled3(q2, p2, vb, tb);
  add3(r.ee_pos, q1, q2);
  scale3(r.ee_pos, r.ee_pos, 0.5);
  r.ee_dist = -best_pen;

  // box 1's face most aligned with the normal as the reference, box 2's edge axis listed first
  int k = 0;
  double align = -1;
  for (int a = 0; a < 3; ++a) {
    const double c = std::abs(dot3(b1.axis[a], n));
    if (c > align) {
      align = c;
      k = a;
    }
  }
  r.ref = &b1;
  r.inc = &b2;
  r.k = k;
  r.side = dot3(b1.axis[k], n) > 0 ? 1 : -1;
  copy3(r.N, n);
  copy3(r.normal, n);
  r.face_axis = false;
  r.first_axis = j;
  // box 1's edge on that face: the boundary line along axis i, on the side facing box 2
  const FaceFrame ff = face_frame(k, r.side);
  const int c = 3 - i - k;
  const double side_c = dot3(b1.axis[c], n) > 0 ? 1 : -1;
  if (ff.u_axis == c) {
    r.ee_coord = 0;
    r.ee_value = ff.u_sign * side_c * s1[c];
  } else {
    r.ee_coord = 1;
    r.ee_value = ff.v_sign * side_c * s1[c];
  }
  return drop_repeats(con, contacts(r, con));
}

}  // namespace joco::narrow
