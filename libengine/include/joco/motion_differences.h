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
  // The natural quintic spline through the positions (interpolating, C4, its third and fourth
  // derivatives zero at the ends), as OpenSim's inverse dynamics tool differentiates its filtered
  // coordinates (a GCVSplineSet of degree 5 with zero error variance). The spline is fitted over
  // the rows extended at both ends by half their number of rows, each the odd reflection about
  // the end sample (2 q_0 - q_k before the start), as OpenSim pads them, so the free ends lie
  // outside the rows. The reflection keeps odd derivatives and flips even ones, so the
  // accelerations of the first and last rows come out ~0 (as OpenSim's do). Needs evenly spaced
  // rows (to 1e-6 of the mean spacing) and no ball or free
  // joints (the positions must be a vector space); std::invalid_argument otherwise.
  kQuinticSpline,
};

struct DifferenceOptions {
  DifferenceScheme scheme = DifferenceScheme::kCentral;
  int window = 5;  // Savitzky-Golay: rows in the fitting window, odd, at least 3
  int order = 2;   // Savitzky-Golay: polynomial degree, 2 <= order < window
  // Savitzky-Golay: the window in seconds instead of rows (0: `window` rows). It becomes the odd
  // number of rows nearest to 1 + window_seconds / h, h the rows' mean spacing (at least 3), when
  // the rows are known (resolve_window).
  double window_seconds = 0;
};

// The scheme of a command-line word: "central", "forward", "backward", "discrete", "spline" or
// "savgol:WINDOW:ORDER", WINDOW rows or seconds ("savgol:0.05s:3"). Throws std::invalid_argument
// with the reason otherwise.
DifferenceOptions parse_difference_scheme(const std::string& text);

// o with a window given in seconds turned into rows for `rows` rows at `time` (o as it is
// otherwise).
DifferenceOptions resolve_window(const DifferenceOptions& o, int rows, const double* time);

// Zero-lag low-pass Butterworth filter, for measured positions before they are differenced (the
// 6 Hz coordinate filter of OpenSim's inverse dynamics tool; Winter, Biomechanics and Motor Control
// of Human Movement, section 2.2.4.4). Design and choices:
// - Order: a second-order Butterworth section (bilinear transform, prewarped) run forward, then
//   backward over the result: the combined filter is fourth order with zero phase, its gain the
//   square of one pass's.
// - Cutoff: each pass's cutoff is raised so that the combined gain is -3 dB (1/sqrt 2) at `cutoff`
//   (Winter's correction for two passes, 1 / (sqrt 2 - 1)^(1/4) = 1.247), so `cutoff` means what
//   a cutoff means for one Butterworth filter: |H(f)| = 1 / (1 + (tan(pi f h) / tan(pi f_p h))^4),
//   tan(pi f_p h) = tan(pi cutoff h) / (sqrt 2 - 1)^(1/4) (lowpass_gain).
// - Ends: the line through the first and last samples is taken out before filtering and put back
//   after (so constant and linear signals pass unchanged, to rounding), the remainder is extended
//   at both ends by its odd reflection about the end samples (as long as the signal, up to ten
//   periods of the cutoff), and each pass starts from the filter's rest at its first value. The
//   reflected ends continue the signal's slope, so the start-up transients die in the padding.
// The samples must be evenly spaced, h seconds apart; the cutoff must lie below the Nyquist
// frequency 1 / 2h (std::invalid_argument otherwise). Filters `columns` columns of `rows` rows
// (row-major) in place. Allocates (a preparation step, not a pipeline stage).
//
// LowpassStyle::kOpenSim is the filter of OpenSim's inverse dynamics tool instead (its Storage
// pad and lowpassIIR): a third-order Butterworth section per pass (bilinear transform, prewarped,
// as a first-order and a second-order section in cascade), its cutoff NOT corrected for the two
// passes, so the combined sixth-order gain is 1/2 (-6 dB) at `cutoff`,
// |H(f)| = 1 / (1 + (tan(pi f h) / tan(pi cutoff h))^6); the padding is half the rows (rows / 2)
// at each end, odd reflections about the end samples as above.
enum class LowpassStyle { kJoco, kOpenSim };

void lowpass_filter(int rows, int columns, double h, double cutoff, double* values,
                    LowpassStyle style = LowpassStyle::kJoco);

// The combined filter's gain at frequency f (Hz) for samples h seconds apart: the closed form
// above, which a sine far from the ends is scaled by.
double lowpass_gain(double f, double h, double cutoff, LowpassStyle style = LowpassStyle::kJoco);

// lowpass_filter on recorded positions (rows x nq): hinge and slide coordinates as they are; the
// quaternions of ball and free joints component by component, signs made continuous first (q and
// -q are one rotation), normalised after. `time` must be evenly spaced (to 1e-6 of its mean
// spacing); throws std::invalid_argument otherwise.
void lowpass_positions(const Model& m, int rows, const double* time, double cutoff, double* qpos,
                       LowpassStyle style = LowpassStyle::kJoco);

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
