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

// Per elliptic contact, in its rows' quad slots (3 dim >= 9): N = n0 + alpha n1; T^2 = t0 + 2 t1
// alpha + t2 alpha^2; the bottom zone's quadratic q0 + q1 alpha + q2 alpha^2.
void setup_polynomials(Context& c, double* gauss_poly) {
  const Model& m = *c.m;
  const Data& d = *c.d;
  mul_jac_vec(m, d, c.jv, c.search);
  mul_m(m, d, c.mv, c.search);
  double g1 = 0, g2 = 0;
  for (int i = 0; i < c.nv; ++i) {
    g1 += (c.ma[i] - d.qfrc_smooth[i]) * c.search[i];
    g2 += c.search[i] * c.mv[i];
  }
  gauss_poly[0] = c.gauss;
  gauss_poly[1] = g1;
  gauss_poly[2] = 0.5 * g2;
  for (int i = 0; i < c.nefc; ++i) {
    if (d.efc_type[i] == kCnstrContactElliptic) {
      const Contact& con = d.contact[d.efc_id[i]];
      const int dim = con.dim;
      double* q = c.quad + 3 * i;
      const double mu = con.mu;
      double t0 = 0, t1 = 0, t2 = 0, q0 = 0, q1 = 0, q2 = 0;
      for (int k = 0; k < dim; ++k) {
        const double a = c.jaref[i + k], v = c.jv[i + k], D = d.efc_D[i + k];
        q0 += 0.5 * D * a * a;
        q1 += D * a * v;
        q2 += 0.5 * D * v * v;
        if (k > 0) {
          const double f = con.friction[k - 1];
          t0 += f * f * a * a;
          t1 += f * f * a * v;
          t2 += f * f * v * v;
        }
      }
      q[0] = mu * c.jaref[i];
      q[1] = mu * c.jv[i];
      q[2] = t0;
      q[3] = t1;
      q[4] = t2;
      q[5] = q0;
      q[6] = q1;
      q[7] = q2;
      q[8] = d.efc_D[i] / (mu * mu * (1 + mu * mu));
      i += dim - 1;
      continue;
    }
    const double a = c.jaref[i], v = c.jv[i], D = d.efc_D[i];
    c.quad[3 * i] = 0.5 * D * a * a;
    c.quad[3 * i + 1] = D * a * v;
    c.quad[3 * i + 2] = 0.5 * D * v * v;
  }
}

inline void add_quadratic(Point& p, const double* q) {
  const double a = p.alpha;
  p.cost += q[0] + a * (q[1] + a * q[2]);
  p.slope += q[1] + 2 * a * q[2];
  p.curvature += 2 * q[2];
}

Point evaluate(Context& c, const double* gauss_poly, double alpha) {
  const Data& d = *c.d;
  Point p;
  p.alpha = alpha;
  add_quadratic(p, gauss_poly);
  for (int i = 0; i < c.nefc; ++i) {
    const double x = c.jaref[i] + alpha * c.jv[i];
    switch (d.efc_type[i]) {
      case kCnstrEquality: add_quadratic(p, c.quad + 3 * i); break;
      case kCnstrFrictionDof:
      case kCnstrFrictionTendon: {
        const double f = d.efc_frictionloss[i], R = d.efc_R[i];
        if (x <= -R * f) {
          p.cost += -f * x - 0.5 * R * f * f;
          p.slope += -f * c.jv[i];
        } else if (x >= R * f) {
          p.cost += f * x - 0.5 * R * f * f;
          p.slope += f * c.jv[i];
        } else {
          add_quadratic(p, c.quad + 3 * i);
        }
        break;
      }
      case kCnstrContactElliptic: {
        const Contact& con = d.contact[d.efc_id[i]];
        const double* q = c.quad + 3 * i;
        const double mu = con.mu;
        const double n = q[0] + alpha * q[1];
        const double t2 = q[2] + alpha * (2 * q[3] + alpha * q[4]);
        const double t = std::sqrt(std::max(0.0, t2));
        if (n >= mu * t || (t <= 0 && n >= 0)) {
          // top zone: no cost
        } else if (mu * n + t <= 0 || (t <= 0 && n < 0)) {
          add_quadratic(p, q + 5);
        } else {
          const double dt = (q[3] + alpha * q[4]) / t;
          const double ddt = (q[4] - dt * dt) / t;
          const double nt = n - mu * t;
          const double dnt = q[1] - mu * dt;
          const double dm = q[8];
          p.cost += 0.5 * dm * nt * nt;
          p.slope += dm * nt * dnt;
          p.curvature += dm * (dnt * dnt - nt * mu * ddt);
        }
        i += con.dim - 1;
        break;
      }
      default:  // one-sided
        if (x < 0) add_quadratic(p, c.quad + 3 * i);
    }
  }
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
  double gauss_poly[3];
  setup_polynomials(c, gauss_poly);
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
  const Point p0 = evaluate(c, gauss_poly, 0);
  Point p = evaluate(c, gauss_poly, newton_step(p0));
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
      p = evaluate(c, gauss_poly, newton_step(lo));
      continue;
    }
    // inside the bracket: Newton from either end where it lands inside, else bisection
    const double a_lo = newton_step(lo), a_hi = newton_step(hi);
    const bool in_lo = a_lo > lo.alpha && a_lo < hi.alpha;
    const bool in_hi = a_hi > lo.alpha && a_hi < hi.alpha;
    if (in_lo && in_hi) {
      const Point p_lo = evaluate(c, gauss_poly, a_lo);
      if (done(p_lo)) return accept(p_lo.alpha);
      if (p_lo.slope < 0) {
        if (p_lo.alpha > lo.alpha) lo = p_lo;
      } else if (p_lo.alpha < hi.alpha) {
        hi = p_lo;
      }
      const double a = newton_step(hi);
      p = evaluate(c, gauss_poly, a > lo.alpha && a < hi.alpha ? a : 0.5 * (lo.alpha + hi.alpha));
    } else if (in_lo || in_hi) {
      p = evaluate(c, gauss_poly, in_lo ? a_lo : a_hi);
    } else {
      p = evaluate(c, gauss_poly, 0.5 * (lo.alpha + hi.alpha));
    }
  }
  // out of evaluations: the better end of the bracket
  const Point& best = (bracketed && hi.cost < lo.cost) ? hi : lo;
  c.lineslope = best.slope * c.scale / snorm;
  return accept(best.alpha);
}

}  // namespace joco::primal
