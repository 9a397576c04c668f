// The solver parameters of every constraint row (computation chapter, "Parameters"; modeling
// chapter, "Solver parameters"): the impedance d(r) from solimp, stiffness and damping from solref,
// the regulariser R = (1 - d) / d * diagApprox with the diagonal of A approximated by the
// end-effector inverse weights at qpos0, and the reference acceleration a* = -b v - k d r.
#include <algorithm>
#include <cmath>

#include "joco/constraint.h"

namespace joco {

namespace {

bool enabled(const Model& m, int flag) { return (m.opt.enableflags & flag) != 0; }
bool disabled(const Model& m, int flag) { return (m.opt.disableflags & flag) != 0; }

double clamp(double x, double lo, double hi) { return std::min(hi, std::max(lo, x)); }

// x^(power - 1). With the default power 2 that is x^1, which pow returns exactly, so the call
// (the costliest part of the impedance) is skipped.
double pow_minus_one(double x, double power) { return power == 2 ? x : std::pow(x, power - 1); }

// Impedance at residual x = pos - margin and its derivative with respect to x: a sigmoid from dmin
// (x = 0) to dmax (|x| >= width) made of two power splines meeting at `midpoint` (solimp =
// dmin, dmax, width, midpoint, power).
void impedance(const double* solimp, double x, double* imp, double* imp_deriv) {
  const double dmin = clamp(solimp[0], kMinImp, kMaxImp);
  const double dmax = clamp(solimp[1], kMinImp, kMaxImp);
  const double width = std::max(kMinVal, solimp[2]);
  const double mid = clamp(solimp[3], kMinImp, kMaxImp);
  const double power = std::max(1.0, solimp[4]);

  const double u = std::abs(x) / width;
  if (u >= 1 || dmin == dmax) {
    *imp = dmax;
    *imp_deriv = 0;
    return;
  }
  double y, dy;
  if (power == 1) {
    y = u;
    dy = 1;
  } else if (u <= mid) {
    const double a = 1 / pow_minus_one(mid, power);
    y = a * std::pow(u, power);
    dy = power * a * pow_minus_one(u, power);
  } else {
    const double b = 1 / pow_minus_one(1 - mid, power);
    y = 1 - b * std::pow(1 - u, power);
    dy = power * b * pow_minus_one(1 - u, power);
  }
  *imp = dmin + y * (dmax - dmin);
  *imp_deriv = dy * (dmax - dmin) / width * (x < 0 ? -1 : 1);
}

// Stiffness and damping of the reference spring: solref = (timeconst, dampratio) scaled by dmax
// (the time constant at least two steps unless refsafe is disabled), or (-stiffness, -damping).
void stiffness_damping(const Model& m, const double* solref, const double* solimp, double* k,
                       double* b) {
  const double dmax = clamp(solimp[1], kMinImp, kMaxImp);
  if (solref[0] > 0) {
    double timeconst = solref[0];
    const double dampratio = solref[1];
    if (!disabled(m, kDisableRefsafe)) timeconst = std::max(timeconst, 2 * m.opt.timestep);
    *k = 1 / (dmax * dmax * timeconst * timeconst * dampratio * dampratio);
    *b = 2 / (dmax * timeconst);
  } else {
    *k = -solref[0] / (dmax * dmax);
    *b = -solref[1] / dmax;
  }
}

// solref and solimp of a row.
void row_solver_parameters(const Model& m, const Data& d, int type, int id, const double** solref,
                           const double** solimp) {
  switch (type) {
    case kCnstrEquality:
      *solref = m.eq_solref + kNREF * id;
      *solimp = m.eq_solimp + kNIMP * id;
      return;
    case kCnstrFrictionDof:
      *solref = m.dof_solref + kNREF * id;
      *solimp = m.dof_solimp + kNIMP * id;
      return;
    case kCnstrFrictionTendon:
      *solref = m.tendon_solref_fri + kNREF * id;
      *solimp = m.tendon_solimp_fri + kNIMP * id;
      return;
    case kCnstrLimitJoint:
      *solref = m.jnt_solref + kNREF * id;
      *solimp = m.jnt_solimp + kNIMP * id;
      return;
    case kCnstrLimitTendon:
      *solref = m.tendon_solref_lim + kNREF * id;
      *solimp = m.tendon_solimp_lim + kNIMP * id;
      return;
    default:  // contacts
      if (enabled(m, kEnableOverride)) {
        *solref = m.opt.o_solref;
        *solimp = m.opt.o_solimp;
      } else {
        *solref = d.contact[id].solref;
        *solimp = d.contact[id].solimp;
      }
  }
}

// Translational (kind 0) or rotational (kind 1) inverse weight of a body.
inline double body_weight(const Model& m, int body, int kind) {
  return m.body_invweight0[2 * body + kind];
}

// The approximate diagonal of A for row i (contact rows get their normal's translational value;
// their friction rows are set from the regulariser below).
double diag_approx(const Model& m, const Data& d, int i) {
  const int id = d.efc_id[i];
  switch (d.efc_type[i]) {
    case kCnstrEquality: {
      const int b1 = m.eq_obj1id[id], b2 = m.eq_obj2id[id];
      switch (m.eq_type[id]) {
        case kEqConnect:
        case kEqWeld:  // (2.2.2 uses the translational weights for the rotation rows too)
          return body_weight(m, b1, 0) + body_weight(m, b2, 0);
        case kEqJoint:
          return m.dof_invweight0[m.jnt_dofadr[b1]] +
                 (b2 >= 0 ? m.dof_invweight0[m.jnt_dofadr[b2]] : 0);
        case kEqTendon: return m.tendon_invweight0[b1] + (b2 >= 0 ? m.tendon_invweight0[b2] : 0);
        case kEqDistance:
          return body_weight(m, m.geom_bodyid[b1], 0) + body_weight(m, m.geom_bodyid[b2], 0);
        default: return 0;
      }
    }
    case kCnstrFrictionDof: return m.dof_invweight0[id];
    case kCnstrFrictionTendon: return m.tendon_invweight0[id];
    case kCnstrLimitJoint: return m.dof_invweight0[m.jnt_dofadr[id]];
    case kCnstrLimitTendon: return m.tendon_invweight0[id];
    default: {
      const Contact& con = d.contact[id];
      return body_weight(m, m.geom_bodyid[con.geom1], 0) +
             body_weight(m, m.geom_bodyid[con.geom2], 0);
    }
  }
}

// The regulariser of a row from its impedance and diagApprox.
inline double regulariser(double imp, double diag) {
  return std::max(kMinVal, (1 - imp) / imp * diag);
}

// Contacts: the friction rows of an elliptic cone take R_1 = R_0 / impratio and R_k f_k^2 equal
// for all friction directions; the regularised cone's friction is mu = f_1 sqrt(R_1 / R_0). All
// rows of a pyramid share R = 2 mu^2 R_0 with R_0 taken for the pyramid's first edge. As in
// MuJoCo, a contact's diagApprox is then what its R implies (R / (1 - d) * d).
void contact_parameters(const Model& m, Data& d) {
  const bool pyramidal = is_pyramidal(m);
  const double impratio = m.opt.impratio;
  for (int c = 0; c < d.ncon; ++c) {
    Contact& con = d.contact[c];
    const int adr = con.efc_address;
    if (adr < 0) continue;
    const int dim = con.dim;
    if (dim == 1) {
      con.mu = 0;
      continue;
    }
    const double f0 = std::max(kMinMu, con.friction[0]);
    const double imp = d.efc_KBIP[4 * adr + 2];
    const double scale = imp / (1 - imp);  // diagApprox = R * scale
    if (!pyramidal) {
      const double r0 = d.efc_R[adr];
      const double r1 = r0 / impratio;
      d.efc_diagApprox[adr] = r0 * scale;
      for (int k = 1; k < dim; ++k) {
        const double fk = std::max(kMinMu, con.friction[k - 1]);
        const double r = std::max(kMinVal, r1 * f0 * f0 / (fk * fk));
        d.efc_R[adr + k] = r;
        d.efc_diagApprox[adr + k] = r * scale;
      }
      con.mu = f0 * std::sqrt(r1 / r0);
    } else {
      // first edge: J_n + f_1 J_t1, its diagonal approximated by (1 + f_1^2) times the normal's
      const double r0 = regulariser(imp, (1 + f0 * f0) * d.efc_diagApprox[adr]);
      const double mu2 = f0 * f0 / impratio;
      const double r = std::max(kMinVal, 2 * mu2 * r0);
      for (int k = 0; k < 2 * (dim - 1); ++k) {
        d.efc_R[adr + k] = r;
        d.efc_diagApprox[adr + k] = r * scale;
      }
      con.mu = std::sqrt(mu2);
    }
  }
}

}  // namespace

void constraint_parameters(const Model& m, Data& d) {
  const int nefc = d.nefc;
  double equality_x = 0;  // residual of the current equality: its norm over the equality's rows
  // The rows of one constraint (a contact's pyramid edges, say) mostly repeat the last row's
  // inputs: the last results, reused when the inputs are the same.
  struct {
    const double* solref = nullptr;
    const double* solimp = nullptr;
    double k = 0, b = 0, x = 0, imp = 0, imp_deriv = 0, diag = 0;
    bool have_imp = false;
    int type = -1, id = -1;
  } last;
  for (int i = 0; i < nefc; ++i) {
    const int type = d.efc_type[i];
    const int id = d.efc_id[i];
    const double* solref;
    const double* solimp;
    row_solver_parameters(m, d, type, id, &solref, &solimp);

    double k, b;
    if (solref != last.solref || solimp != last.solimp) {
      stiffness_damping(m, solref, solimp, &k, &b);
      last.solref = solref;
      last.solimp = solimp;
      last.k = k;
      last.b = b;
      last.have_imp = false;
    } else {
      k = last.k;
      b = last.b;
    }
    // friction loss and the friction rows of an elliptic cone have no residual (no stiffness);
    // the latter take the impedance of their normal
    double x = d.efc_pos[i] - d.efc_margin[i];
    if (type == kCnstrEquality) {
      // one impedance for all rows of an equality, from the norm of its residual (the signed
      // residual when it has one row)
      if (i == 0 || d.efc_type[i - 1] != kCnstrEquality || d.efc_id[i - 1] != id) {
        // a weld's rotation counts scaled by its torquescale
        const double rot_scale = m.eq_type[id] == kEqWeld ? m.eq_data[kNEQDATA * id + 10] : 1;
        int n = 1;
        double norm2 = x * x;
        while (i + n < d.ne && d.efc_id[i + n] == id) {
          const double p = d.efc_pos[i + n] * (n >= 3 ? rot_scale : 1);
          norm2 += p * p;
          ++n;
        }
        equality_x = n == 1 ? x : std::sqrt(norm2);
      }
      x = equality_x;
    }
    if (type == kCnstrFrictionDof || type == kCnstrFrictionTendon) k = 0;
    if (type == kCnstrContactElliptic) {
      const int adr = d.contact[id].efc_address;
      x = d.efc_pos[adr] - d.efc_margin[adr];
      if (i != adr) k = 0;
    }
    double imp, imp_deriv;
    if (!last.have_imp || x != last.x) {
      impedance(solimp, x, &imp, &imp_deriv);
      last.have_imp = true;
      last.x = x;
      last.imp = imp;
      last.imp_deriv = imp_deriv;
    } else {
      // (the same x, or +0 for -0, which the impedance does not tell apart)
      imp = last.imp;
      imp_deriv = last.imp_deriv;
    }

    double* kbip = d.efc_KBIP + 4 * i;
    kbip[0] = k;
    kbip[1] = b;
    kbip[2] = imp;
    kbip[3] = imp_deriv;
    if (type != last.type || id != last.id) {
      last.type = type;
      last.id = id;
      last.diag = diag_approx(m, d, i);
    }
    d.efc_diagApprox[i] = last.diag;
    d.efc_R[i] = regulariser(imp, d.efc_diagApprox[i]);
  }
  contact_parameters(m, d);
  for (int i = 0; i < nefc; ++i) d.efc_D[i] = 1 / d.efc_R[i];
}

void reference_constraint(const Model& m, Data& d) {
  mul_jac_vec(m, d, d.efc_vel, d.qvel);
  for (int i = 0; i < d.nefc; ++i) {
    const double* kbip = d.efc_KBIP + 4 * i;
    d.efc_aref[i] = -kbip[1] * d.efc_vel[i] - kbip[0] * kbip[2] * (d.efc_pos[i] - d.efc_margin[i]);
  }
}

}  // namespace joco
