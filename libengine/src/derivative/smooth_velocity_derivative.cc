// d (passive + actuator - bias) / d qvel. Every term is a sum of products of velocity maps
// (moment arms, point Jacobians, dof axes) with scalar or 6x6 derivatives, accumulated directly
// into the symmetric tree pattern of qDeriv.
#include <algorithm>
#include <cmath>

#include "joco/derivative.h"
#include "joco/jacobian.h"
#include "joco/muscle.h"
#include "joco/passive.h"
#include "math/dual.h"
#include "math/spatial.h"
#include "passive/fluid_forces.h"

namespace joco {

using namespace math;

namespace {

// Positions in the pattern: row i lists its ancestors (the one at depth k at position k), itself
// (at depth(i)) and its descendants i+1 .. i+subtree(i)-1 (dofs are numbered depth first).
struct Pattern {
  const int* rowadr;
  const int* depth;    // nv: number of ancestors
  const int* subtree;  // nv: dofs in the subtree, itself included

  bool related(int i, int j) const {
    if (i > j) {
      const int t = i;
      i = j;
      j = t;
    }
    return j < i + subtree[i];
  }
  // Address of entry (i, j) of related dofs.
  int index(int i, int j) const { return rowadr[i] + (j <= i ? depth[j] : depth[i] + (j - i)); }
};

Pattern make_pattern(const Model& m, Data& d, StackFrame& frame) {
  const int nv = m.nv;
  int* depth = frame.ints(nv);
  int* subtree = frame.ints(nv);
  for (int i = 0; i < nv; ++i) {
    const int p = m.dof_parentid[i];
    depth[i] = p < 0 ? 0 : depth[p] + 1;
    subtree[i] = 1;
  }
  for (int i = nv - 1; i >= 0; --i) {
    if (m.dof_parentid[i] >= 0) subtree[m.dof_parentid[i]] += subtree[i];
  }
  return {d.D_rowadr, depth, subtree};
}

// qDeriv += scale * a a' on the pattern, for a vector a given by its nonzeros (index, value).
void add_outer(const Pattern& p, double* qderiv, const int* index, const double* value, int n,
               double scale) {
  for (int x = 0; x < n; ++x) {
    const double sx = scale * value[x];
    for (int y = 0; y < n; ++y) {
      if (p.related(index[x], index[y])) qderiv[p.index(index[x], index[y])] += sx * value[y];
    }
  }
}

// d actuator_force / d actuator_velocity.
double actuator_force_velocity_derivative(const Model& m, const Data& d, int u) {
  const int first_stateful = m.nu - m.na;
  // Like MuJoCo 2.2.2, the control as given (not clamped to ctrlrange).
  const double input = m.actuator_dyntype[u] == kDynNone ? d.ctrl[u] : d.act[u - first_stateful];
  const double* gainprm = m.actuator_gainprm + kNGAIN * u;
  double derivative = 0;
  switch (m.actuator_gaintype[u]) {
    case kGainAffine: derivative += gainprm[2] * input; break;
    case kGainMuscle: {
      // -F0 FL(L) FV(V) with V = velocity / (L0 vmax): differentiated through FV.
      const double* lengthrange = m.actuator_lengthrange + 2 * u;
      const double L0 =
          (lengthrange[1] - lengthrange[0]) / std::max(kMinVal, gainprm[1] - gainprm[0]);
      const double scale = std::max(kMinVal, L0 * gainprm[6]);
      const double F0 =
          gainprm[2] < 0 ? gainprm[3] / std::max(kMinVal, m.actuator_acc0[u]) : gainprm[2];
      const double L = gainprm[0] + (d.actuator_length[u] - lengthrange[0]) / std::max(kMinVal, L0);
      const double V = d.actuator_velocity[u] / scale;
      const double fvmax = gainprm[8], y = fvmax - 1;
      double dfv = 0;
      if (V > -1 && V <= 0) {
        dfv = 2 * (V + 1);
      } else if (V > 0 && V <= y) {
        dfv = 2 * (y - V) / std::max(kMinVal, y);
      }
      derivative -= F0 * muscle_force_length(L, gainprm[4], gainprm[5]) * dfv / scale * input;
      break;
    }
    default: break;
  }
  if (m.actuator_biastype[u] == kBiasAffine) derivative += m.actuator_biasprm[kNBIAS * u + 2];
  return derivative;
}

void add_actuators(const Model& m, Data& d, const Pattern& p, StackFrame& frame) {
  if (m.opt.disableflags & kDisableActuation) return;
  const int nv = m.nv;
  int* index = frame.ints(nv);
  double* value = frame.doubles(nv);
  for (int u = 0; u < m.nu; ++u) {
    const double derivative = actuator_force_velocity_derivative(m, d, u);
    if (derivative == 0) continue;
    const double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    int n = 0;
    for (int i = 0; i < nv; ++i) {
      if (moment[i] != 0) {
        index[n] = i;
        value[n++] = moment[i];
      }
    }
    add_outer(p, d.qDeriv, index, value, n, derivative);
  }
}

void add_dampers(const Model& m, Data& d, const Pattern& p, StackFrame& frame) {
  for (int i = 0; i < m.nv; ++i) d.qDeriv[p.index(i, i)] -= m.dof_damping[i];
  const int nv = m.nv;
  double* value = frame.doubles(nv);
  for (int t = 0; t < m.ntendon; ++t) {
    const double damping = m.tendon_damping[t];
    if (damping == 0) continue;
    const int* colind = d.ten_J_colind + d.ten_J_rowadr[t];
    const int n = d.ten_J_rownnz[t];
    const double* J = d.ten_J + static_cast<size_t>(t) * nv;
    for (int k = 0; k < n; ++k) value[k] = J[colind[k]];
    add_outer(p, d.qDeriv, colind, value, n, -damping);
  }
}

// qDeriv += L' D L for one fluid body or geom: L maps the chain's qvel to the local velocity
// [v; w] of the frame (point, mat) attached to `body`, D = d [force; torque] / d [v; w] local.
template <class LocalForces>
void add_fluid_term(const Model& m, Data& d, const Pattern& p, int body, const double* point,
                    const double* mat, const LocalForces& local_forces) {
  StackFrame frame(d);
  const int nv = m.nv;
  int* chain = frame.ints(nv);
  const int n = dof_chain(m, body, chain);
  if (n == 0) return;
  double* L = frame.doubles(6 * static_cast<int64_t>(n));  // column c: 6 numbers
  double offset[3];
  sub3(offset, point, d.subtree_com + 3 * m.body_rootid[body]);
  for (int c = 0; c < n; ++c) {
    const double* cdof = d.cdof + 6 * chain[c];
    double lin[3];
    cross3(lin, cdof, offset);
    for (int k = 0; k < 3; ++k) lin[k] += cdof[3 + k];
    mat_t_vec3(L + 6 * c, mat, lin);
    mat_t_vec3(L + 6 * c + 3, mat, cdof);
  }
  // Local velocity, wind subtracted.
  const double* cvel = d.cvel + 6 * body;
  double v[3], w[3], tmp[3];
  cross3(tmp, cvel, offset);
  add3(tmp, tmp, cvel + 3);
  sub3(tmp, tmp, m.opt.wind);
  mat_t_vec3(v, mat, tmp);
  mat_t_vec3(w, mat, cvel);

  using D6 = Dual<6>;
  D6 dv[3], dw[3], force[3], torque[3];
  for (int k = 0; k < 3; ++k) {
    dv[k] = D6::variable(v[k], k);
    dw[k] = D6::variable(w[k], 3 + k);
  }
  local_forces(dv, dw, force, torque);
  // DL = D L (6 x n), then L' DL.
  double* DL = frame.doubles(6 * static_cast<int64_t>(n));
  for (int c = 0; c < n; ++c) {
    for (int a = 0; a < 6; ++a) {
      const D6& out = a < 3 ? force[a] : torque[a - 3];
      double s = 0;
      for (int b = 0; b < 6; ++b) s += out.d[b] * L[6 * c + b];
      DL[6 * c + a] = s;
    }
  }
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      double s = 0;
      for (int a = 0; a < 6; ++a) s += L[6 * x + a] * DL[6 * y + a];
      d.qDeriv[p.index(chain[x], chain[y])] += s;
    }
  }
}

void add_fluid(const Model& m, Data& d, const Pattern& p) {
  const double rho = m.opt.density, beta = m.opt.viscosity;
  if (!(rho > 0 || beta > 0)) return;
  for (int b = 1; b < m.nbody; ++b) {
    bool uses_ellipsoids = false;
    const int end = m.body_geomadr[b] + m.body_geomnum[b];
    for (int g = m.body_geomadr[b]; g < end && m.body_geomadr[b] >= 0; ++g) {
      const double* prm = m.geom_fluid + kNFLUID * g;
      if (!(prm[0] > 0)) continue;
      uses_ellipsoids = true;
      double r[3];
      fluid_semi_axes(m.geom_type[g], m.geom_size + 3 * g, r);
      add_fluid_term(m, d, p, b, d.geom_xpos + 3 * g, d.geom_xmat + 9 * g,
                     [&](const auto* v, const auto* w, auto* f, auto* t) {
                       fluid_forces::ellipsoid(prm, r, rho, beta, v, w, f, t);
                     });
    }
    double r[3];
    if (uses_ellipsoids || !fluid_forces::inertia_box_sizes(m, b, r)) continue;
    add_fluid_term(m, d, p, b, d.xipos + 3 * b, d.ximat + 9 * b,
                   [&](const auto* v, const auto* w, auto* f, auto* t) {
                     fluid_forces::inertia_box(r, rho, beta, v, w, f, t);
                   });
  }
}

// Minus the derivative of RNE's bias forces. cvel is linear in qvel (d cvel_b / d qvel_k =
// cdof_k for the bodies b that dof k moves); cdof_dot_i = (velocity before dof i) x cdof_i, and
// the body accelerations sum cdof_dot_i qvel_i along the tree; the body forces
// f_b = I_b cacc_b + cvel_b x* (I_b cvel_b) are summed from the leaves and projected on the dofs.
void add_bias(const Model& m, Data& d, const Pattern& p, StackFrame& frame) {
  const int nbody = m.nbody, nv = m.nv;
  int* body_subtree = frame.ints(nbody);
  for (int b = 0; b < nbody; ++b) body_subtree[b] = 1;
  for (int b = nbody - 1; b > 0; --b) body_subtree[m.body_parentid[b]] += body_subtree[b];
  // The first dof of the group whose cdof_dot uses the velocity before it: a ball joint's three
  // rotations, a free joint's three rotations; -1 for free translations (constant axes).
  int* group = frame.ints(nv);
  for (int j = 0; j < m.njnt; ++j) {
    const int a = m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case kJointFree:
        group[a] = group[a + 1] = group[a + 2] = -1;
        group[a + 3] = group[a + 4] = group[a + 5] = a + 3;
        break;
      case kJointBall: group[a] = group[a + 1] = group[a + 2] = a; break;
      default: group[a] = a;
    }
  }
  double* dacc = frame.doubles(6 * static_cast<int64_t>(nbody));
  double* dfrc = frame.doubles(6 * static_cast<int64_t>(nbody));

  for (int k = 0; k < nv; ++k) {
    const int bk = m.dof_bodyid[k];
    const int last = bk + body_subtree[bk];
    const double* cdof_k = d.cdof + 6 * k;
    for (int c = bk; c < last; ++c) {
      double* acc = dacc + 6 * c;
      if (c == bk) {
        zero6(acc);
      } else {
        copy6(acc, dacc + 6 * m.body_parentid[c]);
      }
      const int dof_end = m.body_dofadr[c] + m.body_dofnum[c];
      for (int i = m.body_dofadr[c]; i < dof_end; ++i) {
        if (i == k) add_scaled_to6(acc, d.cdof_dot + 6 * i, 1);
        // Does dof k move the velocity that carries dof i's axis?
        if (group[i] < 0 || (c == bk && k >= group[i])) continue;
        double carried[6];
        cross_motion(carried, cdof_k, d.cdof + 6 * i);
        add_scaled_to6(acc, carried, d.qvel[i]);
      }
      // df = I dacc + dvel x* (I vel) + vel x* (I dvel), dvel = cdof_k.
      const double* inert = d.cinert + 10 * c;
      const double* vel = d.cvel + 6 * c;
      double* f = dfrc + 6 * c;
      double momentum[6], dmomentum[6], t1[6], t2[6];
      inertia_mul_motion(f, inert, acc);
      inertia_mul_motion(momentum, inert, vel);
      inertia_mul_motion(dmomentum, inert, cdof_k);
      cross_force(t1, cdof_k, momentum);
      cross_force(t2, vel, dmomentum);
      for (int a = 0; a < 6; ++a) f[a] += t1[a] + t2[a];
    }
    for (int c = last - 1; c > bk; --c) {
      double* parent = dfrc + 6 * m.body_parentid[c];
      for (int a = 0; a < 6; ++a) parent[a] += dfrc[6 * c + a];
    }
    // Dofs of the subtree (their bodies' forces) and dofs above (the whole subtree's force).
    const int first_dof = m.body_dofadr[bk];
    for (int c = bk; c < last; ++c) {
      const int dof_end = m.body_dofadr[c] + m.body_dofnum[c];
      for (int i = m.body_dofadr[c]; i < dof_end; ++i) {
        d.qDeriv[p.index(i, k)] -= dot6(d.cdof + 6 * i, dfrc + 6 * c);
      }
    }
    for (int i = first_dof >= 0 ? m.dof_parentid[first_dof] : -1; i >= 0; i = m.dof_parentid[i]) {
      d.qDeriv[p.index(i, k)] -= dot6(d.cdof + 6 * i, dfrc + 6 * bk);
    }
  }
}

}  // namespace

void derivative_sparsity(const Model& m, Data& d) {
  StackFrame frame(d);
  const int nv = m.nv;
  const Pattern p = make_pattern(m, d, frame);
  int nnz = 0;
  for (int i = 0; i < nv; ++i) {
    d.D_rowadr[i] = nnz;
    d.D_rownnz[i] = p.depth[i] + p.subtree[i];
    // Ancestors, increasing: the chain from i, written from its end.
    int k = p.depth[i];
    for (int a = m.dof_parentid[i]; a >= 0; a = m.dof_parentid[a]) d.D_colind[nnz + --k] = a;
    for (int j = 0; j < p.subtree[i]; ++j) d.D_colind[nnz + p.depth[i] + j] = i + j;
    nnz += d.D_rownnz[i];
  }
}

void smooth_velocity_derivative(const Model& m, Data& d, bool with_bias) {
  derivative_sparsity(m, d);
  StackFrame frame(d);
  const Pattern p = make_pattern(m, d, frame);
  for (int k = 0; k < m.nD; ++k) d.qDeriv[k] = 0;
  add_actuators(m, d, p, frame);
  if (!(m.opt.disableflags & kDisablePassive)) {
    add_dampers(m, d, p, frame);
    add_fluid(m, d, p);
  }
  if (with_bias) add_bias(m, d, p, frame);
}

}  // namespace joco
