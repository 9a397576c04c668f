// The analytic constraint forces of the reduced primal problem (computation chapter, "Reduced
// primal problem" and "Dual problem"): f = -grad s(J qacc - a*). The inverse problem is diagonal,
// so each row (each contact, for elliptic cones) is solved on its own: equality rows are
// quadratic, friction loss is a Huber function, limits and pyramid edges are half-quadratics.
#include "constraint/elliptic_cone.h"
#include "joco/constraint.h"

namespace joco {

namespace {

// The one-sided row i (a limit, a frictionless contact or a pyramid edge) and those that follow it,
// up to the first row of another type: the force and state of each, their cost added to *s in row
// order. Returns the row after the run. (Apart from the general loop, the rows most models have
// most of run without its dispatch.)
int one_sided_rows(Data& d, const double* jar, int i, double* s) {
  const int nefc = d.nefc;
  const int* type = d.efc_type;
  const double* efc_D = d.efc_D;
  double* force = d.efc_force;
  int* state = d.efc_state;
  double sum = *s;
  do {
    const double x = jar[i];
    if (x < 0) {
      const double D = efc_D[i];
      force[i] = -D * x;
      state[i] = kCnstrStateQuadratic;
      sum += 0.5 * D * x * x;
    } else {
      force[i] = 0;
      state[i] = kCnstrStateSatisfied;
    }
    ++i;
  } while (i < nefc && is_one_sided_constraint(type[i]));
  *s = sum;
  return i;
}

}  // namespace

void constraint_forces(const Model& /*m*/, Data& d, const double* jar, double* cost,
                       bool cone_hessian) {
  const int nefc = d.nefc;
  double s = 0;
  for (int i = 0; i < nefc; ++i) {
    const double x = jar[i];
    const double D = d.efc_D[i];
    switch (d.efc_type[i]) {
      case kCnstrEquality:
        d.efc_force[i] = -D * x;
        d.efc_state[i] = kCnstrStateQuadratic;
        s += 0.5 * D * x * x;
        break;
      case kCnstrFrictionDof:
      case kCnstrFrictionTendon: {
        const double f = d.efc_frictionloss[i];
        const double R = d.efc_R[i];
        if (x <= -R * f) {
          d.efc_force[i] = f;
          d.efc_state[i] = kCnstrStateLinearNeg;
          s += -f * x - 0.5 * R * f * f;
        } else if (x >= R * f) {
          d.efc_force[i] = -f;
          d.efc_state[i] = kCnstrStateLinearPos;
          s += f * x - 0.5 * R * f * f;
        } else {
          d.efc_force[i] = -D * x;
          d.efc_state[i] = kCnstrStateQuadratic;
          s += 0.5 * D * x * x;
        }
        break;
      }
      case kCnstrContactElliptic: {
        Contact& con = d.contact[d.efc_id[i]];
        const int dim = con.dim;
        const int state = cone::elliptic(con, jar + i, d.efc_D + i, d.efc_force + i, &s,
                                         cone_hessian ? con.H : nullptr);
        for (int k = 0; k < dim; ++k) d.efc_state[i + k] = state;
        i += dim - 1;
        break;
      }
      default:  // limits, frictionless contacts, pyramid edges: one-sided
        i = one_sided_rows(d, jar, i, &s) - 1;
    }
  }
  if (cost) *cost = s;
}

void constraint_update(const Model& m, Data& d, const double* jar, double* cost,
                       bool cone_hessian) {
  constraint_forces(m, d, jar, cost, cone_hessian);
  mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force);
}

void inverse_constraint(const Model& m, Data& d) {
  if (d.nefc == 0) {
    for (int i = 0; i < m.nv; ++i) d.qfrc_constraint[i] = 0;
    return;
  }
  StackFrame frame(d);
  double* jar = frame.doubles(d.nefc);
  mul_jac_vec(m, d, jar, d.qacc);
  for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
  constraint_update(m, d, jar, nullptr, false);
}

}  // namespace joco
