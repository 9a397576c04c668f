// MuJoCo's muscle model (modeling chapter, "Muscle actuators"): force-length-velocity curves made
// of quadratic and cubic pieces, and first-order activation dynamics with activation-dependent time
// constants.
#include "joco/muscle.h"

#include "joco/constants.h"

namespace joco {

namespace {

inline double at_least(double x, double lo) { return x < lo ? lo : x; }

// The muscle's parameters, in the order of gainprm / biasprm.
struct MuscleParameters {
  double range[2];  // operating range of the normalised length
  double force;     // peak active force; negative: scale / acc0
  double scale;
  double lmin, lmax;  // normalised lengths where the active force vanishes
  double vmax;        // normalised shortening velocity where the active force vanishes
  double fpmax;       // passive force at lmax, relative to the peak force
  double fvmax;       // active force at saturating lengthening velocity, relative
};

MuscleParameters unpack(const double prm[9]) {
  return {{prm[0], prm[1]}, prm[2], prm[3], prm[4], prm[5], prm[6], prm[7], prm[8]};
}

// Optimal length L0 and the normalised length, from the transmission's length range.
double optimal_length(const MuscleParameters& p, const double lengthrange[2]) {
  return (lengthrange[1] - lengthrange[0]) / at_least(p.range[1] - p.range[0], kMinVal);
}

double normalized_length(const MuscleParameters& p, const double lengthrange[2], double L0,
                         double len) {
  return p.range[0] + (len - lengthrange[0]) / at_least(L0, kMinVal);
}

double peak_force(const MuscleParameters& p, double acc0) {
  return p.force < 0 ? p.scale / at_least(acc0, kMinVal) : p.force;
}

}  // namespace

double muscle_force_length(double L, double lmin, double lmax) {
  // Two smooth bumps meeting at L = 1: each rises (or falls) quadratically from 0 to 1/2 at the
  // middle of its half, then quadratically to the peak 1. Like MuJoCo 2.2.2, lengths at or below
  // lmin continue the parabola of the second piece (negative values) instead of being zero.
  const double a = 0.5 * (lmin + 1);
  const double b = 0.5 * (1 + lmax);
  if (L >= lmax) return 0;
  if (L > lmin && L < a) {
    const double x = (L - lmin) / at_least(a - lmin, kMinVal);
    return 0.5 * x * x;
  }
  if (L <= 1) {
    const double x = (1 - L) / at_least(1 - a, kMinVal);
    return 1 - 0.5 * x * x;
  }
  if (L <= b) {
    const double x = (L - 1) / at_least(b - 1, kMinVal);
    return 1 - 0.5 * x * x;
  }
  const double x = (lmax - L) / at_least(lmax - b, kMinVal);
  return 0.5 * x * x;
}

double muscle_force_velocity(double V, double fvmax) {
  // Zero below -1 (shortening at vmax), quadratic up to 1 at rest, then a quadratic saturating at
  // fvmax for lengthening.
  const double y = fvmax - 1;
  if (V <= -1) return 0;
  if (V <= 0) return (V + 1) * (V + 1);
  if (V <= y) return fvmax - (y - V) * (y - V) / at_least(y, kMinVal);
  return fvmax;
}

double muscle_passive_force(double L, double lmax, double fpmax) {
  // Zero below L = 1, quadratic up to fpmax / 2 at the midpoint b of [1, lmax], then linear with
  // the same slope.
  const double b = 0.5 * (1 + lmax);
  if (L <= 1) return 0;
  if (L <= b) {
    const double x = (L - 1) / at_least(b - 1, kMinVal);
    return 0.5 * fpmax * x * x;
  }
  const double x = (L - b) / at_least(b - 1, kMinVal);
  return 0.5 * fpmax * (1 + 2 * x);
}

double muscle_gain(double len, double vel, const double lengthrange[2], double acc0,
                   const double prm[9]) {
  const MuscleParameters p = unpack(prm);
  const double L0 = optimal_length(p, lengthrange);
  const double L = normalized_length(p, lengthrange, L0, len);
  const double V = vel / at_least(L0 * p.vmax, kMinVal);
  return -peak_force(p, acc0) * muscle_force_length(L, p.lmin, p.lmax) *
         muscle_force_velocity(V, p.fvmax);
}

double muscle_bias(double len, const double lengthrange[2], double acc0, const double prm[9]) {
  const MuscleParameters p = unpack(prm);
  const double L0 = optimal_length(p, lengthrange);
  const double L = normalized_length(p, lengthrange, L0, len);
  return -peak_force(p, acc0) * muscle_passive_force(L, p.lmax, p.fpmax);
}

double muscle_dynamics(double ctrl, double act, const double prm[2]) {
  // Millard et al. (2013): faster activation at high activation, slower deactivation.
  const double c = ctrl < 0 ? 0 : (ctrl > 1 ? 1 : ctrl);
  const double a = act < 0 ? 0 : (act > 1 ? 1 : act);
  const double tau = c > act ? prm[0] * (0.5 + 1.5 * a) : prm[1] / (0.5 + 1.5 * a);
  return (c - act) / at_least(tau, kMinVal);
}

}  // namespace joco
