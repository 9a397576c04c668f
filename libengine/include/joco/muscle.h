// MuJoCo's muscle model (MJCF actuator/muscle; modeling chapter, "Muscle actuators"), the functions
// MuJoCo exports as mju_muscleGain, mju_muscleBias and mju_muscleDynamics. prm holds the muscle
// parameters in gainprm/biasprm order: range[2], force, scale, lmin, lmax, vmax, fpmax, fvmax.
#pragma once

namespace joco {

// Active force gain (multiplies the activation): -F0 * FL(L) * FV(V), with L the length
// normalised by the optimal length L0 (from lengthrange and range) and V the velocity in L0 * vmax
// per second. F0 is prm's force, or scale / acc0 when force is negative.
double muscle_gain(double len, double vel, const double lengthrange[2], double acc0,
                   const double prm[9]);

// Passive force: -F0 * FP(L).
double muscle_bias(double len, const double lengthrange[2], double acc0, const double prm[9]);

// Activation rate for control ctrl (clamped to [0, 1]) and activation act: (ctrl - act) / tau with
// tau = prm[0] (0.5 + 1.5 act) when activating, prm[1] / (0.5 + 1.5 act) when deactivating (act
// clamped to [0, 1] in tau).
double muscle_dynamics(double ctrl, double act, const double prm[2]);

// The normalised curves: active force-length FL (1 at L = 1, zero from lmax on, and, as MuJoCo
// 2.2.2 computes it, the parabola of its rising part continued below lmin, where it is negative),
// force-velocity FV (zero below V = -1, 1 at V = 0, fvmax for fast lengthening) and passive
// force-length FP (zero below L = 1, quadratic to fpmax / 2 midway to lmax, then linear).
double muscle_force_length(double L, double lmin, double lmax);
double muscle_force_velocity(double V, double fvmax);
double muscle_passive_force(double L, double lmax, double fpmax);

}  // namespace joco
