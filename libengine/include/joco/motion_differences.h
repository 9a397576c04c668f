// Velocities and accelerations of recorded motion (computation chapter, "Inverse dynamics and
// optimization": positions are what is recorded or optimised, velocities and accelerations are
// found by differentiating them). Positions are differenced in joint space with quaternions
// respected: around each row t, the neighbouring positions are mapped to the tangent space at q_t,
// d_k = q_{t+k} (-) q_t (differentiate_pos over a unit time), where ball and free joints'
// rotations are local angular displacements, so every scheme below is an ordinary polynomial
// scheme in these coordinates and its results are velocities and accelerations in qvel's
// convention.
//
// These are tools for preparing the inputs of inverse dynamics, not pipeline stages: they may
// allocate.
#pragma once

#include <string>

#include "joco/model.h"

namespace joco {

enum class DifferenceScheme {
  // Second order: the quadratic through rows t-1, t, t+1 (through the first or last three rows at
  // the ends, i.e. one-sided second-order differences). v = (q+ - q-) / 2h, a = (q+ - 2q + q-)/h^2.
  kCentral,
  // First order: the line through rows t, t+1 for velocities, the quadratic through t, t+1, t+2
  // for accelerations (shifted back at the last rows).
  kForward,
  // The mirror image of kForward.
  kBackward,
  // The semi-implicit Euler step of the one-step integrators: v_t = (q_t (-) q_{t-1}) / h, the
  // velocity that took the trajectory to q_t, and a_t = (v_{t+1} - v_t) / h, the change applied by
  // the step from t. With inverse(..., {.discrete = true}) this recovers the forces of an Euler,
  // implicit or implicitfast rollout exactly. At row 0 the velocity is the forward difference and
  // at both ends the acceleration that of kForward / kBackward.
  kDiscrete,
  // Savitzky-Golay: the polynomial of degree `order` least-squares fitted over `window` rows
  // centred on t (shifted to stay inside the sequence at the ends); its value smooths the
  // positions, its derivatives are the velocity and acceleration. Central differences are the
  // case window 3, order 2.
  kSavitzkyGolay,
};

struct DifferenceOptions {
  DifferenceScheme scheme = DifferenceScheme::kCentral;
  int window = 5;  // Savitzky-Golay: rows in the fitting window, odd, at least 3
  int order = 2;   // Savitzky-Golay: polynomial degree, 2 <= order < window
};

// The scheme of a command-line word: "central", "forward", "backward", "discrete" or
// "savgol:WINDOW:ORDER". Throws std::invalid_argument with the reason otherwise.
DifferenceOptions parse_difference_scheme(const std::string& text);

// Checks the options and that `rows` rows suffice (at least 3, and at least the window); throws
// std::invalid_argument with the reason otherwise.
void check_difference_options(const DifferenceOptions& o, int rows);

// Velocities and accelerations of `rows` positions (rows x nq, row-major) sampled at the strictly
// increasing `time` (rows values; the spacing need not be uniform). Outputs, each optional (null):
// qpos_out (rows x nq) the positions the derivatives belong to, the smoothed positions for
// Savitzky-Golay and otherwise the input with its quaternions normalised; qvel and qacc (rows x
// nv). Throws std::invalid_argument as check_difference_options, or when time does not increase.
void differentiate_positions(const Model& m, int rows, const double* time, const double* qpos,
                             const DifferenceOptions& o, double* qpos_out, double* qvel,
                             double* qacc);

// Accelerations from recorded velocities (rows x nv): the first derivative of each column with the
// scheme's window (central (v+ - v-) / 2h; forward, backward; discrete (v_{t+1} - v_t) / h, the
// backward difference at the last row; Savitzky-Golay). Ball and free joints' angular velocities
// are in the child frame, whose derivative is the angular acceleration in that frame, so columns
// are differenced as they are.
void differentiate_velocities(const Model& m, int rows, const double* time, const double* qvel,
                              const DifferenceOptions& o, double* qacc);

}  // namespace joco
