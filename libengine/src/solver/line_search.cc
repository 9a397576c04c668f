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
#include "solver/primal_problem.h"

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
    if (is_one_sided_constraint(type)) {
      // the run of one-sided rows from here, packed (most rows of most models: a loop of its own)
      int k = c.npacked;
      do {
        const double a = c.jaref[i], w = c.jv[i], D = d.efc_D[i];
        x0[k] = a;
        v[k] = w;
        q0[k] = 0.5 * D * a * a;
        q1[k] = D * a * w;
        q2[k] = 0.5 * D * w * w;
        ++k;
        ++i;
      } while (i < n && is_one_sided_constraint(d.efc_type[i]));
      c.npacked = k;
      --i;
      continue;
    }
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
  const auto accept_point = [&](const Point& p) {
    c.lineslope = p.slope * c.scale / snorm;
    *alpha = p.alpha;
    return true;
  };
  // An evaluation at a bracket end (a Newton step often lands exactly on the other end) reuses
  // it, but counts as MuJoCo counts it.
  const auto evaluate_in = [&](const Point& lo, const Point& hi, double a) {
    if (a == lo.alpha || a == hi.alpha) {
      ++c.neval;
      return a == lo.alpha ? lo : hi;
    }
    return evaluate(c, base, a);
  };
  const auto done = [&](const Point& p) {
    c.lineslope = p.slope * c.scale / snorm;
    return std::abs(p.slope) < gtol;
  };

  // The order of evaluations below is MuJoCo 2.2.2's as far as its statistics show (neval per
  // iteration, the final step and slope, observed through its CG's first iteration from many
  // starting points): it decides which point ends the search when two qualify, and so the
  // iterates bit for bit.
  const Point p0 = evaluate(c, base, 0);
  const Point p1 = evaluate(c, base, newton_step(p0));
  if (done(p1)) return accept(p1.alpha);
  if (p0.slope >= 0) {
    // not a descent direction (at the solution, up to roundoff): the better of the two points
    const Point& best = p1.cost < p0.cost ? p1 : p0;
    c.lineslope = best.slope * c.scale / snorm;
    return accept(best.alpha);
  }
  Point lo, hi;
  if (p1.slope > 0 && p1.cost > p0.cost) {
    // The first step overshot into worse cost: [0, p1] brackets the minimum. Each round
    // evaluates the Newton steps from the ends that moved in the last round (both in the
    // first), then the midpoint.
    lo = p0;
    hi = p1;
    bool lo_moved = true, hi_moved = true;
    while (c.neval < kMaxEvaluations) {
      Point q_lo, q_hi;
      if (lo_moved) q_lo = evaluate_in(lo, hi, newton_step(lo));
      if (hi_moved) q_hi = evaluate_in(lo, hi, newton_step(hi));
      const Point q_mid = evaluate(c, base, 0.5 * (lo.alpha + hi.alpha));
      if (hi_moved && done(q_hi)) return accept(q_hi.alpha);
      if (lo_moved && done(q_lo)) return accept(q_lo.alpha);
      if (done(q_mid)) return accept(q_mid.alpha);
      // the new bracket: the largest point sloping down, the smallest sloping up
      Point new_lo = lo, new_hi = hi;
      const Point* evaluated[3] = {lo_moved ? &q_lo : nullptr, hi_moved ? &q_hi : nullptr, &q_mid};
      for (const Point* q : evaluated) {
        if (!q) continue;
        if (q->slope < 0 && q->alpha > new_lo.alpha) new_lo = *q;
        if (q->slope > 0 && q->alpha < new_hi.alpha) new_hi = *q;
      }
      lo_moved = new_lo.alpha != lo.alpha;
      hi_moved = new_hi.alpha != hi.alpha;
      lo = new_lo;
      hi = new_hi;
    }
  } else {
    // Newton steps onward from p1 while the slope keeps its sign; the last two points then
    // bracket the minimum.
    Point p = p1;
    while (true) {
      if (c.neval >= kMaxEvaluations) return accept_point(p);
      const Point q = evaluate(c, base, newton_step(p));
      if (done(q)) return accept(q.alpha);
      if ((q.slope > 0) != (p.slope > 0)) {
        lo = q.slope < 0 ? q : p;
        hi = q.slope < 0 ? p : q;
        break;
      }
      p = q;
    }
    // Each round evaluates the Newton steps from both ends (one of them usually lands on the
    // other end), and the midpoint when either falls outside the bracket.
    while (c.neval < kMaxEvaluations) {
      const double a_lo = newton_step(lo), a_hi = newton_step(hi);
      const bool outside = a_lo < lo.alpha || a_lo > hi.alpha || a_hi < lo.alpha ||
                           a_hi > hi.alpha;
      const Point q_lo = evaluate_in(lo, hi, a_lo);
      const Point q_hi = evaluate_in(lo, hi, a_hi);
      Point q_mid = q_lo;  // (unless evaluated, a repeat of q_lo)
      if (outside) q_mid = evaluate(c, base, 0.5 * (lo.alpha + hi.alpha));
      if (done(q_hi)) return accept(q_hi.alpha);
      if (done(q_lo)) return accept(q_lo.alpha);
      if (done(q_mid)) return accept(q_mid.alpha);
      const Point* evaluated[3] = {&q_lo, &q_hi, &q_mid};
      for (const Point* q : evaluated) {
        if (q->alpha <= lo.alpha || q->alpha >= hi.alpha) continue;
        if (q->slope < 0) lo = *q;
        if (q->slope > 0) hi = *q;
      }
    }
  }
  // out of evaluations: the better end of the bracket
  return accept_point(hi.cost < lo.cost ? hi : lo);
}

}  // namespace joco::primal
