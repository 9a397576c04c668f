// The constraint rows (computation chapter, "Constraint model"): equality, friction loss, limits
// and contacts, in that order, each row a residual efc_pos and the residual's Jacobian in efc_J.
//
// Every row is built on the list of dofs that can move it (the union of the dof chains of the
// bodies involved, increasing), which is its sparsity pattern: a dense row is scattered into
// nv columns, a sparse row keeps exactly that pattern, as MuJoCo 2.2.2 does.
#include <algorithm>
#include <cstring>

#include "constraint/polynomial.h"
#include "joco/constraint.h"
#include "joco/jacobian.h"
#include "math/vec.h"

namespace joco {

using namespace math;

double polynomial_residual(const double* a, double y, double y0, bool with_x, double x, double x0,
                           double* slope) {
  if (!with_x) {
    *slope = 0;
    return y - y0 - a[0];
  }
  const double dx = x - x0;
  *slope = a[1] + dx * (2 * a[2] + dx * (3 * a[3] + dx * 4 * a[4]));
  return y - y0 - (a[0] + dx * (a[1] + dx * (a[2] + dx * (a[3] + dx * a[4]))));
}

double joint_equality_position(const Model& m, int equality, const double* qpos) {
  const double* a = m.eq_data + static_cast<size_t>(equality) * kNEQDATA;
  const int q1 = m.jnt_qposadr[m.eq_obj1id[equality]], j2 = m.eq_obj2id[equality];
  const int q2 = j2 >= 0 ? m.jnt_qposadr[j2] : -1;
  double slope;
  // polynomial_residual(y = y0 = 0) is -poly(x - x0).
  return m.qpos0[q1] - polynomial_residual(a, 0, 0, q2 >= 0, q2 >= 0 ? qpos[q2] : 0,
                                           q2 >= 0 ? m.qpos0[q2] : 0, &slope);
}

namespace {

bool disabled(const Model& m, int flag) { return (m.opt.disableflags & flag) != 0; }

// Appends rows to the constraint arrays, dense or packed sparse.
class RowWriter {
 public:
  // same_pattern: njmax flags, set for each row written with its predecessor's columns.
  RowWriter(const Model& m, Data& d, unsigned char* same_pattern)
      : m_(m), d_(d), sparse_(is_sparse(m)), same_pattern_(same_pattern) {}

  // Whether n more rows fit; if not, raises kWarnConstraintFull (the rows are then dropped).
  bool fits(int n) {
    if (d_.nefc + n <= m_.njmax) return true;
    raise_warning(d_, kWarnConstraintFull, d_.nefc + n);
    return false;
  }

  // One row with values `vals` on the increasing columns `cols` (ncol of them). same_pattern: the
  // caller knows them to be the last row's (the rows of one constraint), which spares comparing
  // the two patterns for the supernodes.
  void add(const double* vals, const int* cols, int ncol, double pos, double margin,
           double frictionloss, int type, int id, bool same_pattern = false) {
    add_rows(
        1, [vals](int, int k) { return vals[k]; }, cols, ncol, pos, margin, frictionloss, type, id,
        same_pattern);
  }

  // g rows on the same columns (those of one constraint, which share pos, margin and friction
  // loss; same_pattern as for add, for the first), row r's k-th value value(r, k), written straight
  // into the rows a column at a time for all g, each column index read once.
  template <class Value>
  void add_rows(int g, Value value, const int* cols, int ncol, double pos, double margin,
                double frictionloss, int type, int id, bool same_pattern = false) {
    const int first = d_.nefc;
    const int nv = m_.nv;
    d_.nefc += g;
    for (int i = first; i < first + g; ++i) {
      same_pattern_[i] = (same_pattern || i > first) && i > 0;
      d_.efc_type[i] = type;
      d_.efc_id[i] = id;
      d_.efc_pos[i] = pos;
      d_.efc_margin[i] = margin;
      d_.efc_frictionloss[i] = frictionloss;
      d_.efc_J_rownnz[i] = ncol;
      if (sparse_) {
        const int adr = i ? d_.efc_J_rowadr[i - 1] + d_.efc_J_rownnz[i - 1] : 0;
        d_.efc_J_rowadr[i] = adr;
        std::memcpy(d_.efc_J_colind + adr, cols, sizeof(int) * static_cast<size_t>(ncol));
      } else {
        std::memset(d_.efc_J + static_cast<size_t>(i) * nv, 0,
                    sizeof(double) * static_cast<size_t>(nv));
        // the row's pattern too, so that products can skip the columns outside it
        d_.efc_J_rowadr[i] = i * nv;
        std::memcpy(d_.efc_J_colind + static_cast<size_t>(i) * nv, cols,
                    sizeof(int) * static_cast<size_t>(ncol));
      }
    }
    if (sparse_) {
      double* vals = d_.efc_J + d_.efc_J_rowadr[first];  // the g rows follow each other
      for (int r = 0; r < g; ++r) {
        for (int k = 0; k < ncol; ++k) vals[r * ncol + k] = value(r, k);
      }
    } else {
      double* rows = d_.efc_J + static_cast<size_t>(first) * nv;
      for (int k = 0; k < ncol; ++k) {
        const int c = cols[k];
        for (int r = 0; r < g; ++r) rows[static_cast<size_t>(r) * nv + c] = value(r, k);
      }
    }
  }

 private:
  const Model& m_;
  Data& d_;
  bool sparse_;
  unsigned char* same_pattern_;
};

// Work arrays for one constraint: a column list and up to 10 rows on it.
struct Scratch {
  int* cols;           // nv
  int* cols2;          // 2 nv
  double* jacp;        // 3 x nv: translational Jacobian difference on cols
  double* jacr;        // 3 x nv: rotational Jacobian difference on cols
  double* rows;        // 10 x nv
  unsigned char* in1;  // nv flags: column moves body 1
  unsigned char* in2;  // nv flags: column moves body 2
};

// The increasing union of two increasing lists; returns its length.
int merge(const int* a, int na, const int* b, int nb, int* out) {
  int i = 0, j = 0, n = 0;
  while (i < na || j < nb) {
    if (j >= nb || (i < na && a[i] < b[j])) {
      out[n++] = a[i++];
    } else if (i >= na || b[j] < a[i]) {
      out[n++] = b[j++];
    } else {
      out[n++] = a[i++];
      ++j;
    }
  }
  return n;
}

// The dofs moving body b1 or b2 (increasing) into s.cols, with s.in1 / s.in2 telling which (the
// union as merge() makes it, flagged on the way).
int body_pair_chain(const Model& m, int b1, int b2, Scratch& s) {
  // (s.cols2 has room for 2 nv: each chain ends its half)
  const int* c1 = dof_chain_before(m, b1, s.cols2 + m.nv);
  const int* c2 = dof_chain_before(m, b2, s.cols2 + 2 * m.nv);
  const int n1 = static_cast<int>(s.cols2 + m.nv - c1);
  const int n2 = static_cast<int>(s.cols2 + 2 * m.nv - c2);
  if (n1 == 0 || n2 == 0) {  // (a body of the world: the other chain as it is)
    const int* c = n1 ? c1 : c2;
    const int n = n1 + n2;
    for (int k = 0; k < n; ++k) {
      s.cols[k] = c[k];
      s.in1[k] = n1 > 0;
      s.in2[k] = n2 > 0;
    }
    return n;
  }
  int i = 0, j = 0, n = 0;
  while (i < n1 || j < n2) {
    const bool from1 = j >= n2 || (i < n1 && c1[i] <= c2[j]);
    const bool from2 = i >= n1 || (j < n2 && c2[j] <= c1[i]);
    s.cols[n] = from1 ? c1[i] : c2[j];
    s.in1[n] = from1;
    s.in2[n] = from2;
    i += from1;
    j += from2;
    ++n;
  }
  return n;
}

// Velocity of a point p attached to the body whose chain holds dof `dof` (com-based motion axes):
// linear (cdof_lin + cdof_ang x offset, offset = p - com of the tree) and angular.
inline void dof_point_velocity(const Data& d, int dof, const double* offset, double* lin,
                               double* ang) {
  const double* cdof = d.cdof + 6 * dof;
  double wx[3];
  cross3(wx, cdof, offset);
  lin[0] = cdof[3] + wx[0];
  lin[1] = cdof[4] + wx[1];
  lin[2] = cdof[5] + wx[2];
  ang[0] = cdof[0];
  ang[1] = cdof[1];
  ang[2] = cdof[2];
}

// On the n columns of s.cols (from body_pair_chain(b1, b2)): jacp = J(p2 on b2) - J(p1 on b1),
// translational, and jacr the rotational difference (3 x n each, row-major). Shared dofs cancel
// exactly when p1 == p2.
void jac_difference(const Model& m, const Data& d, int n, const double* p1, int b1,
                    const double* p2, int b2, Scratch& s) {
  // the points relative to their trees' centres of mass, once for all columns
  double offset1[3], offset2[3];
  sub3(offset1, p1, d.subtree_com + 3 * m.body_rootid[b1]);
  sub3(offset2, p2, d.subtree_com + 3 * m.body_rootid[b2]);
  for (int k = 0; k < n; ++k) {
    double lin1[3], ang1[3], lin2[3], ang2[3];
    if (s.in1[k] && s.in2[k]) {
      dof_point_velocity(d, s.cols[k], offset1, lin1, ang1);
      dof_point_velocity(d, s.cols[k], offset2, lin2, ang2);
      for (int r = 0; r < 3; ++r) {
        s.jacp[r * n + k] = lin2[r] - lin1[r];
        s.jacr[r * n + k] = ang2[r] - ang1[r];
      }
    } else if (s.in2[k]) {
      // (x - 0 is x, bit for bit)
      dof_point_velocity(d, s.cols[k], offset2, lin2, ang2);
      for (int r = 0; r < 3; ++r) {
        s.jacp[r * n + k] = lin2[r];
        s.jacr[r * n + k] = ang2[r];
      }
    } else {
      // (0 - x, which is +0 where x is 0, unlike -x)
      dof_point_velocity(d, s.cols[k], offset1, lin1, ang1);
      for (int r = 0; r < 3; ++r) {
        s.jacp[r * n + k] = 0.0 - lin1[r];
        s.jacr[r * n + k] = 0.0 - ang1[r];
      }
    }
  }
}

// Global position of a point given in a body's frame.
inline void body_point(const Data& d, int body, const double* local, double* global) {
  mat_vec3(global, d.xmat + 9 * body, local);
  add3(global, global, d.xpos + 3 * body);
}

// The dense tendon row t and its pattern (the pattern is needed only for sparse rows).
inline const double* tendon_row(const Model& m, const Data& d, int t) {
  return d.ten_J + static_cast<size_t>(t) * m.nv;
}
inline int tendon_pattern(const Data& d, int t, const int** cols) {
  *cols = d.ten_J_colind + d.ten_J_rowadr[t];
  return d.ten_J_rownnz[t];
}

// All columns 0..nv-1 (the pattern of a dense tendon row when the Jacobian is dense).
int all_columns(const Model& m, int* cols) {
  for (int k = 0; k < m.nv; ++k) cols[k] = k;
  return m.nv;
}

// A tendon row on its pattern (or on every column when dense): values into vals, pattern in cols.
int tendon_on_pattern(const Model& m, const Data& d, int t, bool sparse, int* cols, double* vals) {
  const double* row = tendon_row(m, d, t);
  int n;
  if (sparse) {
    const int* pattern;
    n = tendon_pattern(d, t, &pattern);
    std::memcpy(cols, pattern, sizeof(int) * static_cast<size_t>(n));
  } else {
    n = all_columns(m, cols);
  }
  for (int k = 0; k < n; ++k) vals[k] = row[cols[k]];
  return n;
}

// ---- equality -----------------------------------------------------------------------------------

void connect_rows(const Model& m, Data& d, RowWriter& w, Scratch& s, int e) {
  const double* data = m.eq_data + kNEQDATA * e;
  const int b1 = m.eq_obj1id[e], b2 = m.eq_obj2id[e];
  double p1[3], p2[3], pos[3];
  body_point(d, b1, data, p1);
  body_point(d, b2, data + 3, p2);
  sub3(pos, p1, p2);
  // residual p1 - p2: its Jacobian is J(p1 on b1) - J(p2 on b2)
  const int n = body_pair_chain(m, b2, b1, s);
  jac_difference(m, d, n, p2, b2, p1, b1, s);
  if (!w.fits(3)) return;
  for (int r = 0; r < 3; ++r) {
    w.add(s.jacp + r * n, s.cols, n, pos[r], 0, 0, kCnstrEquality, e, r > 0);
  }
}

void weld_rows(const Model& m, Data& d, RowWriter& w, Scratch& s, int e) {
  const double* data = m.eq_data + kNEQDATA * e;
  const int b1 = m.eq_obj1id[e], b2 = m.eq_obj2id[e];
  const double torquescale = data[10];
  // data: anchor in body 2's frame, the relative pose of body 2's anchor and orientation in body
  // 1's frame, torquescale.
  double p1[3], p2[3], pos[6];
  body_point(d, b1, data + 3, p1);
  body_point(d, b2, data, p2);
  sub3(pos, p1, p2);
  // orientation error: the vector part of conj(q2) q1 rel, which vanishes when welded. MuJoCo
  // 2.2.2 scales the rotation rows of the Jacobian by torquescale but not their residual.
  double q1rel[4], q2conj[4], qerr[4];
  quat_mul(q1rel, d.xquat + 4 * b1, data + 6);
  quat_conj(q2conj, d.xquat + 4 * b2);
  quat_mul(qerr, q2conj, q1rel);
  for (int r = 0; r < 3; ++r) pos[3 + r] = qerr[1 + r];

  // jacp: J(p1 on b1) - J(p2 on b2); jacr: w1 - w2 per column
  const int n = body_pair_chain(m, b2, b1, s);
  jac_difference(m, d, n, p2, b2, p1, b1, s);
  // d/dt Im(conj(q2) q1rel) = Im(0.5 conj(q2) (w1 - w2) q1rel)
  double* rot = s.rows;  // 3 x n
  for (int k = 0; k < n; ++k) {
    const double omega[4] = {0, s.jacr[k], s.jacr[n + k], s.jacr[2 * n + k]};
    double t[4], u[4];
    quat_mul(t, q2conj, omega);
    quat_mul(u, t, q1rel);
    for (int r = 0; r < 3; ++r) rot[r * n + k] = 0.5 * u[1 + r] * torquescale;
  }
  if (!w.fits(6)) return;
  for (int r = 0; r < 3; ++r) {
    w.add(s.jacp + r * n, s.cols, n, pos[r], 0, 0, kCnstrEquality, e, r > 0);
  }
  for (int r = 0; r < 3; ++r) {
    w.add(rot + r * n, s.cols, n, pos[3 + r], 0, 0, kCnstrEquality, e, true);
  }
}

void joint_equality_row(const Model& m, Data& d, RowWriter& w, Scratch& s, int e) {
  const double* a = m.eq_data + kNEQDATA * e;
  const int j1 = m.eq_obj1id[e], j2 = m.eq_obj2id[e];
  const int q1 = m.jnt_qposadr[j1], v1 = m.jnt_dofadr[j1];
  double slope = 0;
  double pos;
  int n = 0;
  if (j2 >= 0) {
    const int q2 = m.jnt_qposadr[j2], v2 = m.jnt_dofadr[j2];
    pos = polynomial_residual(a, d.qpos[q1], m.qpos0[q1], true, d.qpos[q2], m.qpos0[q2], &slope);
    if (v1 < v2) {
      s.cols[0] = v1, s.rows[0] = 1, s.cols[1] = v2, s.rows[1] = -slope;
    } else {
      s.cols[0] = v2, s.rows[0] = -slope, s.cols[1] = v1, s.rows[1] = 1;
    }
    n = 2;
  } else {
    pos = polynomial_residual(a, d.qpos[q1], m.qpos0[q1], false, 0, 0, &slope);
    s.cols[0] = v1, s.rows[0] = 1;
    n = 1;
  }
  if (w.fits(1)) w.add(s.rows, s.cols, n, pos, 0, 0, kCnstrEquality, e);
}

void tendon_equality_row(const Model& m, Data& d, RowWriter& w, Scratch& s, int e, bool sparse) {
  const double* a = m.eq_data + kNEQDATA * e;
  const int t1 = m.eq_obj1id[e], t2 = m.eq_obj2id[e];
  double slope = 0;
  const double pos = polynomial_residual(a, d.ten_length[t1], m.tendon_length0[t1], t2 >= 0,
                                         t2 >= 0 ? d.ten_length[t2] : 0,
                                         t2 >= 0 ? m.tendon_length0[t2] : 0, &slope);
  int n;
  if (!sparse) {
    n = all_columns(m, s.cols);
  } else if (t2 >= 0) {
    const int *c1, *c2;
    const int n1 = tendon_pattern(d, t1, &c1), n2 = tendon_pattern(d, t2, &c2);
    n = merge(c1, n1, c2, n2, s.cols);
  } else {
    const int* c1;
    n = tendon_pattern(d, t1, &c1);
    std::memcpy(s.cols, c1, sizeof(int) * static_cast<size_t>(n));
  }
  const double* r1 = tendon_row(m, d, t1);
  const double* r2 = t2 >= 0 ? tendon_row(m, d, t2) : nullptr;
  for (int k = 0; k < n; ++k) {
    const int c = s.cols[k];
    s.rows[k] = r2 ? r1[c] - slope * r2[c] : r1[c];
  }
  if (w.fits(1)) w.add(s.rows, s.cols, n, pos, 0, 0, kCnstrEquality, e);
}

void distance_row(const Model& m, Data& d, RowWriter& w, Scratch& s, int e) {
  const int g1 = m.eq_obj1id[e], g2 = m.eq_obj2id[e];
  double dist, normal[3], point[3];
  if (!geom_distance(m, d, g1, g2, &dist, normal, point)) return;
  const int b1 = m.geom_bodyid[g1], b2 = m.geom_bodyid[g2];
  const int n = body_pair_chain(m, b1, b2, s);
  jac_difference(m, d, n, point, b1, point, b2, s);
  for (int k = 0; k < n; ++k) {
    s.rows[k] = normal[0] * s.jacp[k] + normal[1] * s.jacp[n + k] + normal[2] * s.jacp[2 * n + k];
  }
  const double target = m.eq_data[kNEQDATA * e];
  if (w.fits(1)) w.add(s.rows, s.cols, n, dist - target, 0, 0, kCnstrEquality, e);
}

void equality_rows(const Model& m, Data& d, RowWriter& w, Scratch& s, bool sparse) {
  const int warnings = d.warning[kWarnConstraintFull].number;
  for (int e = 0; e < m.neq; ++e) {
    if (!m.eq_active[e]) continue;
    // (an equality that does not fit ends the equality rows, as in MuJoCo 2.2.2)
    if (d.warning[kWarnConstraintFull].number != warnings) return;
    switch (m.eq_type[e]) {
      case kEqConnect: connect_rows(m, d, w, s, e); break;
      case kEqWeld: weld_rows(m, d, w, s, e); break;
      case kEqJoint: joint_equality_row(m, d, w, s, e); break;
      case kEqTendon: tendon_equality_row(m, d, w, s, e, sparse); break;
      case kEqDistance: distance_row(m, d, w, s, e); break;
      default: break;
    }
  }
}

// ---- friction loss ------------------------------------------------------------------------------

void friction_rows(const Model& m, Data& d, RowWriter& w, Scratch& s, bool sparse) {
  for (int i = 0; i < m.nv; ++i) {
    if (m.dof_frictionloss[i] <= 0) continue;
    const double one = 1;
    if (w.fits(1)) w.add(&one, &i, 1, 0, 0, m.dof_frictionloss[i], kCnstrFrictionDof, i);
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (m.tendon_frictionloss[t] <= 0) continue;
    const int n = tendon_on_pattern(m, d, t, sparse, s.cols, s.rows);
    if (w.fits(1))
      w.add(s.rows, s.cols, n, 0, 0, m.tendon_frictionloss[t], kCnstrFrictionTendon, t);
  }
}

// ---- limits -------------------------------------------------------------------------------------

void limit_rows(const Model& m, Data& d, RowWriter& w, Scratch& s, bool sparse) {
  for (int j = 0; j < m.njnt; ++j) {
    if (!m.jnt_limited[j]) continue;
    const double* range = m.jnt_range + 2 * j;
    const double margin = m.jnt_margin[j];
    const int dof = m.jnt_dofadr[j];
    const int type = m.jnt_type[j];
    if (type == kJointSlide || type == kJointHinge) {
      const double value = d.qpos[m.jnt_qposadr[j]];
      // lower side: distance value - lo, pushed up; upper side: hi - value, pushed down
      for (int side = -1; side <= 1; side += 2) {
        const double dist = side < 0 ? value - range[0] : range[1] - value;
        if (dist >= margin) continue;
        const double sign = -side;
        if (w.fits(1)) w.add(&sign, &dof, 1, dist, margin, 0, kCnstrLimitJoint, j);
      }
    } else if (type == kJointBall) {
      double axis[3];
      quat_to_rotation_vector(axis, d.qpos + m.jnt_qposadr[j]);
      const double angle = normalize3(axis);
      const double dist = std::max(range[0], range[1]) - angle;
      if (dist >= margin) continue;
      const int cols[3] = {dof, dof + 1, dof + 2};
      const double vals[3] = {-axis[0], -axis[1], -axis[2]};
      if (w.fits(1)) w.add(vals, cols, 3, dist, margin, 0, kCnstrLimitJoint, j);
    }
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (!m.tendon_limited[t]) continue;
    const double* range = m.tendon_range + 2 * t;
    const double margin = m.tendon_margin[t];
    const double value = d.ten_length[t];
    for (int side = -1; side <= 1; side += 2) {
      const double dist = side < 0 ? value - range[0] : range[1] - value;
      if (dist >= margin) continue;
      const int n = tendon_on_pattern(m, d, t, sparse, s.cols, s.rows);
      if (side > 0) {
        for (int k = 0; k < n; ++k) s.rows[k] = -s.rows[k];
      }
      if (w.fits(1)) w.add(s.rows, s.cols, n, dist, margin, 0, kCnstrLimitTendon, t);
    }
  }
}

// ---- contacts -----------------------------------------------------------------------------------

void contact_rows(const Model& m, Data& d, RowWriter& w, Scratch& s) {
  const bool pyramidal = is_pyramidal(m);
  for (int c = 0; c < d.ncon; ++c) {
    Contact& con = d.contact[c];
    con.efc_address = -1;
    if (con.exclude != 0) continue;
    const int dim = con.dim;
    const int b1 = m.geom_bodyid[con.geom1], b2 = m.geom_bodyid[con.geom2];
    const int n = body_pair_chain(m, b1, b2, s);
    jac_difference(m, d, n, con.pos, b1, con.pos, b2, s);

    // rows of the elliptic basis: normal, tangents (translation), then spin and rolling
    double* ell = s.rows;  // dim x n
    for (int r = 0; r < dim; ++r) {
      const double* axis = con.frame + 3 * (r < 3 ? r : r - 3);
      const double* jac = r < 3 ? s.jacp : s.jacr;
      double* row = ell + r * n;
      for (int k = 0; k < n; ++k) {
        row[k] = axis[0] * jac[k] + axis[1] * jac[n + k] + axis[2] * jac[2 * n + k];
      }
    }

    // (a contact that does not fit ends the contact rows, as in MuJoCo 2.2.2)
    if (dim == 1 || !pyramidal) {
      if (!w.fits(dim)) return;
      con.efc_address = d.nefc;
      const int type = dim == 1 ? kCnstrContactFrictionless : kCnstrContactElliptic;
      for (int r = 0; r < dim; ++r) {
        w.add(ell + r * n, s.cols, n, r == 0 ? con.dist : 0, r == 0 ? con.includemargin : 0, 0,
              type, c, r > 0);
      }
    } else {
      // pyramid edges: normal +- friction_k * (friction direction k), rows 2 (k - 1) and
      // 2 (k - 1) + 1
      const int edges = 2 * (dim - 1);
      if (!w.fits(edges)) return;
      con.efc_address = d.nefc;
      double scale[10];  // (condim at most 6)
      for (int r = 0; r < edges; ++r) scale[r] = (r % 2 ? -1 : 1) * con.friction[r / 2];
      w.add_rows(
          edges,
          [ell, n, &scale](int r, int j) { return ell[j] + scale[r] * ell[(1 + r / 2) * n + j]; },
          s.cols, n, con.dist, con.includemargin, 0, kCnstrContactPyramidal, c);
    }
  }
}

// ---- sparse structure ---------------------------------------------------------------------------

// rowsuper: how many of the following rows share this row's pattern. same_pattern (optional): the
// rows known to have their predecessor's pattern, which need no comparison.
void row_supernodes(int nrow, const int* rownnz, const int* rowadr, const int* colind,
                    const unsigned char* same_pattern, int* rowsuper) {
  for (int i = nrow - 1; i >= 0; --i) {
    rowsuper[i] = 0;
    if (i + 1 == nrow) continue;
    const int* cols = colind + rowadr[i];
    const bool same =
        (same_pattern && same_pattern[i + 1]) ||
        (rownnz[i] == rownnz[i + 1] && std::equal(cols, cols + rownnz[i], colind + rowadr[i + 1]));
    if (same) rowsuper[i] = rowsuper[i + 1] + 1;
  }
}

void transpose_jacobian(const Model& m, Data& d) {
  const int nv = m.nv, nefc = d.nefc;
  int* count = d.efc_JT_rownnz;
  std::memset(count, 0, sizeof(int) * static_cast<size_t>(nv));
  for (int i = 0; i < nefc; ++i) {
    const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
    for (int k = 0; k < d.efc_J_rownnz[i]; ++k) ++count[cols[k]];
  }
  int adr = 0;
  for (int j = 0; j < nv; ++j) {
    d.efc_JT_rowadr[j] = adr;
    adr += count[j];
    count[j] = 0;
  }
  for (int i = 0; i < nefc; ++i) {
    const int* cols = d.efc_J_colind + d.efc_J_rowadr[i];
    const double* vals = d.efc_J + d.efc_J_rowadr[i];
    for (int k = 0; k < d.efc_J_rownnz[i]; ++k) {
      const int j = cols[k];
      const int at = d.efc_JT_rowadr[j] + count[j]++;
      d.efc_JT_colind[at] = i;
      d.efc_JT[at] = vals[k];
    }
  }
  row_supernodes(nv, d.efc_JT_rownnz, d.efc_JT_rowadr, d.efc_JT_colind, nullptr, d.efc_JT_rowsuper);
}

}  // namespace

bool is_sparse(const Model& m) {
  return m.opt.jacobian == kJacSparse || (m.opt.jacobian == kJacAuto && m.nv >= 60);
}

bool is_pyramidal(const Model& m) { return m.opt.cone == kConePyramidal; }

bool is_dual(const Model& m) { return m.opt.solver == kSolverPGS || m.opt.noslip_iterations > 0; }

void make_constraint(const Model& m, Data& d) {
  d.ne = d.nf = d.nefc = 0;
  for (int c = 0; c < d.ncon; ++c) d.contact[c].efc_address = -1;
  if (disabled(m, kDisableConstraint) || m.nv == 0) return;
  const bool sparse = is_sparse(m);
  const int nv = m.nv;

  StackFrame frame(d);
  Scratch s;
  s.cols = frame.ints(nv);
  s.cols2 = frame.ints(2 * nv);
  s.jacp = frame.doubles(3 * nv);
  s.jacr = frame.doubles(3 * nv);
  s.rows = frame.doubles(10 * nv);
  s.in1 = frame.array<unsigned char>(nv);
  s.in2 = frame.array<unsigned char>(nv);

  unsigned char* same_pattern = frame.array<unsigned char>(m.njmax);
  RowWriter w(m, d, same_pattern);
  if (!disabled(m, kDisableEquality)) equality_rows(m, d, w, s, sparse);
  d.ne = d.nefc;
  if (!disabled(m, kDisableFrictionloss)) friction_rows(m, d, w, s, sparse);
  d.nf = d.nefc - d.ne;
  if (!disabled(m, kDisableLimit)) limit_rows(m, d, w, s, sparse);
  if (!disabled(m, kDisableContact)) contact_rows(m, d, w, s);
  if (d.nefc > d.maxuse_efc) d.maxuse_efc = d.nefc;

  // (dense too: the products with J take rows sharing a pattern together)
  row_supernodes(d.nefc, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind, same_pattern,
                 d.efc_J_rowsuper);
  if (sparse) transpose_jacobian(m, d);
  constraint_parameters(m, d);
}

}  // namespace joco
