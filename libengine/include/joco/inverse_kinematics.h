// Inverse kinematics from marker positions: the qpos whose sites lie closest, in the weighted
// least-squares sense, to measured marker positions, one frame at a time (as OpenSim's IK tool).
//
// Each frame minimises
//   sum_i w_i |site_xpos_i(q) - marker_i|^2 + sum_k w_k (q_k - target_k)^2
// by Levenberg-Marquardt on the site Jacobians (jac_site), started from the qpos given (the
// previous frame's fit, when solving a trial in order). What the model says about its joints is
// kept exactly, not as a penalty:
//  - joint equalities (eq_type kEqJoint, active) are eliminated: the first joint follows its
//    polynomial of the second (the coupled knee translations of OpenSim models), and the
//    Jacobian of the second joint carries the first's through the polynomial's slope;
//  - limited hinges and slides stay in jnt_range (a projected, box-constrained step);
//  - free and ball joints move along their dofs and their quaternions are integrated
//    (integrate_pos), so they stay unit.
// Locked joints keep their value. Other equality types (connect, weld, tendon, distance) are not
// enforced. Missing markers (any coordinate not finite) are left out of that frame's fit.
//
// All memory is taken at construction: solve() allocates nothing, so a trial of any length
// costs no heap traffic per frame. An InverseKinematics may be used by one thread at a time.
#pragma once

#include <vector>

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// A marker: the site that carries it and its weight (>= 0).
struct IkMarker {
  int site = -1;
  double weight = 1;
};

// A coordinate task of a hinge or slide joint: the residual sqrt(weight) (qpos - value), value in
// the joint's own units (radians, metres). A weight of 0 leaves the joint free.
struct IkCoordinate {
  int joint = -1;
  double value = 0;
  double weight = 1;
};

// A joint held at a value (hinge or slide; its qpos is set to value and never moved).
struct IkLock {
  int joint = -1;
  double value = 0;
};

struct IkOptions {
  int max_iterations = 100;
  // Converged when no variable moves by more than this in an iteration (radians, metres).
  double step_tolerance = 1e-9;
  // ... or when an accepted step lowers the cost by less than this fraction of it.
  double cost_tolerance = 1e-12;
  bool limits = true;  // keep limited hinges and slides in jnt_range
};

struct IkResult {
  int iterations = 0;
  bool converged = false;
  int markers_used = 0;  // markers with finite coordinates in this frame
  double cost = 0;       // the objective above at the fit
};

class InverseKinematics {
 public:
  // Checks the set-up against the model (std::invalid_argument naming what is wrong: a site or
  // joint out of range, a coordinate task or lock on a free or ball joint or on a joint that an
  // equality makes dependent, a negative weight, chained joint equalities) and takes all memory.
  InverseKinematics(const Model& m, std::vector<IkMarker> markers,
                    std::vector<IkCoordinate> coordinates = {}, std::vector<IkLock> locks = {},
                    IkOptions options = {});

  // Fits one frame. `markers` holds 3 global coordinates per marker in the order given at
  // construction (a marker with any non-finite coordinate is skipped); `qpos` is the start on
  // entry and the fit on return (locks and equalities applied, quaternions normalised). d is a
  // Data of the model, used for its kinematics (on return it holds the kinematics of the fit).
  // `marker_error`, when not null, receives per marker the distance from its site to it at the
  // fit (NaN for a skipped marker).
  IkResult solve(Data& d, const double* markers, double* qpos, double* marker_error = nullptr);

  // Changes the target of coordinate task k (a value per frame, from a file).
  void set_coordinate_value(int k, double value) { coordinates_[k].value = value; }

  int nmarker() const { return static_cast<int>(markers_.size()); }
  int nvariable() const { return static_cast<int>(var_dof_.size()); }

 private:
  // A dependent joint: qpos[qadr] = qpos0[qadr] + poly(qpos[qadr2] - qpos0[qadr2]).
  struct Dependent {
    int equality, qadr, dof, qadr2, dof2;  // qadr2 = dof2 = -1 for a constant
  };
  void apply_constraints(double* qpos) const;
  double evaluate(Data& d, const double* markers, const double* qpos, bool jacobian);

  const Model& m_;
  std::vector<IkMarker> markers_;
  std::vector<IkCoordinate> coordinates_;
  std::vector<IkLock> locks_;
  IkOptions options_;
  std::vector<Dependent> dependents_;
  std::vector<int> var_dof_;    // the dof of each variable
  std::vector<int> var_joint_;  // its joint, and whether it is limited (hinge or slide)
  std::vector<int> dof_var_;    // the variable of each dof, -1 if none
  // Workspace, sized at construction.
  std::vector<double> residual_, jac_full_, jac_, site_jac_, grad_, hess_, lhs_, lhs_diag_inv_,
      step_, dq_, qtrial_, slope_;
  std::vector<int> active_, free_;
  int nrow_ = 0;
};

}  // namespace joco
