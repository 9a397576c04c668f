// Exact line search of the primal solvers (computation chapter, "Algorithms": "Line-search is
// exact, using Newton's method in one dimension, with analytical second derivatives").
//
// Along qacc + alpha search every row's cost is a polynomial of alpha within a zone (quadratic,
// linear for friction loss beyond its bound, zero when satisfied) and an elliptic cone is
// 0.5 Dm (N - mu T)^2 with N linear and T^2 quadratic in alpha. The polynomials are set up once;
// each evaluation picks the zones at alpha and sums cost, slope and curvature.
#include <cmath>

#include "joco/constraint.h"
#include "joco/smooth.h"
#include "math/vec.h"
#include "solver/primal.h"

namespace joco::primal {

namespace {

constexpr double kRelativeTolerance = 0.01;  // of the solver tolerance, on the slope
constexpr int kMaxEvaluations = 50;

struct Point {
  double alpha = 0;
  double cost = 0;
  double slope = 0;      // d cost / d alpha
  double curvature = 0;  // d2 cost / d alpha2
};

// The polynomials along the line: the Gauss term and the equality rows (always quadratic) summed
// into `base`; friction rows in their quad slots; one-sided rows packed for a branch-free loop;
// per elliptic contact, in its rows' quad slots (3 dim >= 9): N = n0 + alpha n1; T^2 = t0 +
// 2 t1 alpha + t2 alpha^2; the bottom zone's quadratic q0 + q1 alpha + q2 alpha^2; Dm.
void setup_polynomials(Context& c, double* base) {
  const Model& m = *c.m;
  const Data& d = *c.d;
  mul_jac_vec(m, d, c.jv, c.search);
  mul_m(m, d, c.mv, c.search);
  // the Gauss term's slope and curvature along the search direction, as mju_dot sums them
  // (MuJoCo's rounding: search' M qacc and search' qfrc_smooth apart)
  const double g1 = math::dot(c.search, c.ma, c.nv) - math::dot(c.search, d.qfrc_smooth, c.nv);
  const double g2 = math::dot(c.search, c.mv, c.nv);
  base[0] = c.gauss;
  base[1] = g1;
  base[2] = 0.5 * g2;
  const int n = c.nefc;
  double* x0 = c.packed;
  double* v = c.packed + n;
  double* q0 = c.packed + 2 * n;
  double* q1 = c.packed + 3 * n;
  double* q2 = c.packed + 4 * n;
  c.npacked = 0;
  c.ncones = 0;
  for (int i = 0; i < n; ++i) {
    const int type = d.efc_type[i];
    if (type == kCnstrContactElliptic) {
      const Contact& con = d.contact[d.efc_id[i]];
      const int dim = con.dim;
      double* q = c.quad + 3 * i;
      const double mu = con.mu;
      double t0 = 0, t1 = 0, t2 = 0, s0 = 0, s1 = 0, s2 = 0;
      for (int k = 0; k < dim; ++k) {
        const double a = c.jaref[i + k], w = c.jv[i + k], D = d.efc_D[i + k];
        s0 += 0.5 * D * a * a;
        s1 += D * a * w;
        s2 += 0.5 * D * w * w;
        if (k > 0) {
          const double f = con.friction[k - 1];
          t0 += f * f * a * a;
          t1 += f * f * a * w;
          t2 += f * f * w * w;
        }
      }
      q[0] = mu * c.jaref[i];
      q[1] = mu * c.jv[i];
      q[2] = t0;
      q[3] = t1;
      q[4] = t2;
      q[5] = s0;
      q[6] = s1;
      q[7] = s2;
      q[8] = d.efc_D[i] / (mu * mu * (1 + mu * mu));
      c.cones[c.ncones++] = i;
      i += dim - 1;
      continue;
    }
    const double a = c.jaref[i], w = c.jv[i], D = d.efc_D[i];
    const double p0 = 0.5 * D * a * a, p1 = D * a * w, p2 = 0.5 * D * w * w;
    if (type == kCnstrEquality) {
      base[0] += p0;
      base[1] += p1;
      base[2] += p2;
    } else if (type == kCnstrFrictionDof || type == kCnstrFrictionTendon) {
      c.quad[3 * i] = p0;
      c.quad[3 * i + 1] = p1;
      c.quad[3 * i + 2] = p2;
    } else {
      const int k = c.npacked++;
      x0[k] = a;
      v[k] = w;
      q0[k] = p0;
      q1[k] = p1;
      q2[k] = p2;
    }
  }
}

inline void add_quadratic(Point& p, const double* q) {
  const double a = p.alpha;
  p.cost += q[0] + a * (q[1] + a * q[2]);
  p.slope += q[1] + 2 * a * q[2];
  p.curvature += 2 * q[2];
}

Point evaluate(Context& c, const double* base, double alpha) {
  const Data& d = *c.d;
  Point p;
  p.alpha = alpha;
  // The quadratic pieces' coefficients are summed first, in row order after the Gauss term, and
  // the sum evaluated at alpha (MuJoCo's rounding: at a Newton step from a point in the same
  // zones the slope then comes out as 0 or an ulp).
  double c0 = base[0], c1 = base[1], c2 = base[2];
  // friction loss: Huber
  for (int i = d.ne; i < d.ne + d.nf; ++i) {
    const double x = c.jaref[i] + alpha * c.jv[i];
    const double f = d.efc_frictionloss[i], R = d.efc_R[i];
    if (x <= -R * f) {
      c0 += -f * c.jaref[i] - 0.5 * R * f * f;
      c1 += -f * c.jv[i];
    } else if (x >= R * f) {
      c0 += f * c.jaref[i] - 0.5 * R * f * f;
      c1 += f * c.jv[i];
    } else {
      const double* q = c.quad + 3 * i;
      c0 += q[0];
      c1 += q[1];
      c2 += q[2];
    }
  }
  // one-sided rows: quadratic where x < 0
  {
    const int n = c.nefc, np = c.npacked;
    const double* x0 = c.packed;
    const double* v = c.packed + n;
    const double* q0 = c.packed + 2 * n;
    const double* q1 = c.packed + 3 * n;
    const double* q2 = c.packed + 4 * n;
    for (int k = 0; k < np; ++k) {
      const double on = x0[k] + alpha * v[k] < 0 ? 1.0 : 0.0;
      c0 += on * q0[k];
      c1 += on * q1[k];
      c2 += on * q2[k];
    }
  }
  // elliptic cones: the bottom zone's quadratic into the sum, the middle zone's terms apart
  Point mid;
  for (int k = 0; k < c.ncones; ++k) {
    const int i = c.cones[k];
    const double* q = c.quad + 3 * i;
    const double mu = d.contact[d.efc_id[i]].mu;
    const double n = q[0] + alpha * q[1];
    const double t2 = q[2] + alpha * (2 * q[3] + alpha * q[4]);
    const double t = std::sqrt(std::max(0.0, t2));
    if (n >= mu * t || (t <= 0 && n >= 0)) continue;  // top zone: no cost
    if (mu * n + t <= 0 || (t <= 0 && n < 0)) {
      c0 += q[5];
      c1 += q[6];
      c2 += q[7];
      continue;
    }
    const double dt = (q[3] + alpha * q[4]) / t;
    const double ddt = (q[4] - dt * dt) / t;
    const double nt = n - mu * t;
    const double dnt = q[1] - mu * dt;
    const double dm = q[8];
    mid.cost += 0.5 * dm * nt * nt;
    mid.slope += dm * nt * dnt;
    mid.curvature += dm * (dnt * dnt - nt * mu * ddt);
  }
  const double sum[3] = {c0, c1, c2};
  add_quadratic(p, sum);
  p.cost += mid.cost;
  p.slope += mid.slope;
  p.curvature += mid.curvature;
  ++c.neval;
  return p;
}

// The Newton step from p (p's curvature is at least search' M search > 0).
inline double newton_step(const Point& p) { return p.alpha - p.slope / p.curvature; }

}  // namespace

bool line_search(Context& c, double tolerance, double* alpha) {
  *alpha = 0;
  c.neval = 0;
  c.lineslope = 0;
  double snorm2 = 0;
  for (int i = 0; i < c.nv; ++i) snorm2 += c.search[i] * c.search[i];
  const double snorm = std::sqrt(snorm2);
  if (snorm < kMinVal) return false;
  double base[3];
  setup_polynomials(c, base);
  // the slope of the cost along the unit direction, on the scale of the gradient statistic
  const double gtol = tolerance * kRelativeTolerance * snorm / c.scale;
  const auto accept = [&](double a) {
    *alpha = a;
    return true;
  };
  const auto done = [&](const Point& p) {
    c.lineslope = p.slope * c.scale / snorm;
    return std::abs(p.slope) < gtol;
  };

  // the Newton step from 0 first (it is exact when no row changes zone)
  const Point p0 = evaluate(c, base, 0);
  Point p = evaluate(c, base, newton_step(p0));
  if (done(p)) return accept(p.alpha);
  if (p0.slope >= 0) {
    // not a descent direction (at the solution, up to roundoff): the better of the two points
    const Point& best = p.cost < p0.cost ? p : p0;
    c.lineslope = best.slope * c.scale / snorm;
    return accept(best.alpha);
  }
  Point lo = p0, hi;
  bool bracketed = false;
  while (true) {
    if (done(p)) return accept(p.alpha);
    if (p.slope < 0) {
      if (p.alpha > lo.alpha) lo = p;
    } else if (!bracketed || p.alpha < hi.alpha) {
      hi = p;
      bracketed = true;
    }
    if (c.neval >= kMaxEvaluations) break;
    if (!bracketed) {
      p = evaluate(c, base, newton_step(lo));
      continue;
    }
    // inside the bracket: Newton from either end where it lands inside, else bisection
    const double a_lo = newton_step(lo), a_hi = newton_step(hi);
    const bool in_lo = a_lo > lo.alpha && a_lo < hi.alpha;
    const bool in_hi = a_hi > lo.alpha && a_hi < hi.alpha;
    if (in_lo && in_hi) {
      const Point p_lo = evaluate(c, base, a_lo);
      if (done(p_lo)) return accept(p_lo.alpha);
      if (p_lo.slope < 0) {
        if (p_lo.alpha > lo.alpha) lo = p_lo;
      } else if (p_lo.alpha < hi.alpha) {
        hi = p_lo;
      }
      const double a = newton_step(hi);
      p = evaluate(c, base, a > lo.alpha && a < hi.alpha ? a : 0.5 * (lo.alpha + hi.alpha));
    } else if (in_lo || in_hi) {
      p = evaluate(c, base, in_lo ? a_lo : a_hi);
    } else {
      p = evaluate(c, base, 0.5 * (lo.alpha + hi.alpha));
    }
  }
  // out of evaluations: the better end of the bracket
  const Point& best = (bracketed && hi.cost < lo.cost) ? hi : lo;
  c.lineslope = best.slope * c.scale / snorm;
  return accept(best.alpha);
}

}  // namespace joco::primal
