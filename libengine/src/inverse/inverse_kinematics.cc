// Inverse kinematics from markers (joco/inverse_kinematics.h): Levenberg-Marquardt on the site
// Jacobians over the independent coordinates, with a projected step for joint limits.
#include "joco/inverse_kinematics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "constraint/polynomial.h"
#include "joco/constants.h"
#include "joco/constraint.h"
#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "solver/cholesky.h"

namespace joco {
namespace {

std::string joint_label(const Model& m, int j) {
  const std::string_view name = m.name(kObjJoint, j);
  return name.empty() ? "joint " + std::to_string(j) : "joint '" + std::string(name) + "'";
}

bool scalar_joint(const Model& m, int j) {
  return m.jnt_type[j] == kJointHinge || m.jnt_type[j] == kJointSlide;
}

}  // namespace

InverseKinematics::InverseKinematics(const Model& m, std::vector<IkMarker> markers,
                                     std::vector<IkCoordinate> coordinates,
                                     std::vector<IkLock> locks, IkOptions options)
    : m_(m),
      markers_(std::move(markers)),
      coordinates_(std::move(coordinates)),
      locks_(std::move(locks)),
      options_(options) {
  const auto check_weight = [](double w, const std::string& what) {
    if (!(w >= 0) || !std::isfinite(w)) {
      throw std::invalid_argument(what + ": weight must be finite and >= 0");
    }
  };
  for (size_t i = 0; i < markers_.size(); ++i) {
    if (markers_[i].site < 0 || markers_[i].site >= m.nsite) {
      throw std::invalid_argument("marker " + std::to_string(i) + ": site " +
                                  std::to_string(markers_[i].site) + " out of range");
    }
    check_weight(markers_[i].weight, "marker " + std::to_string(i));
  }
  const auto check_joint = [&](int j, const std::string& what) {
    if (j < 0 || j >= m.njnt) {
      throw std::invalid_argument(what + ": joint " + std::to_string(j) + " out of range");
    }
    if (!scalar_joint(m, j)) {
      throw std::invalid_argument(what + " " + joint_label(m, j) +
                                  ": only hinge and slide joints can be locked or targeted");
    }
  };
  for (const IkCoordinate& c : coordinates_) {
    check_joint(c.joint, "coordinate task");
    check_weight(c.weight, "coordinate task " + joint_label(m, c.joint));
  }
  for (const IkLock& l : locks_) check_joint(l.joint, "lock");

  // Joint equalities: the first joint depends on the second.
  std::vector<int> dependent_of(static_cast<size_t>(m.njnt), -1);
  for (int e = 0; e < m.neq; ++e) {
    if (m.eq_type[e] != kEqJoint || !m.eq_active[e]) continue;
    const int j1 = m.eq_obj1id[e], j2 = m.eq_obj2id[e];
    if (dependent_of[j1] >= 0) {
      throw std::invalid_argument(joint_label(m, j1) +
                                  " is the first joint of two joint equalities");
    }
    dependent_of[j1] = e;
    dependents_.push_back({e, m.jnt_qposadr[j1], m.jnt_dofadr[j1], j2 >= 0 ? m.jnt_qposadr[j2] : -1,
                           j2 >= 0 ? m.jnt_dofadr[j2] : -1});
  }
  for (int e = 0; e < m.neq; ++e) {
    if (m.eq_type[e] != kEqJoint || !m.eq_active[e]) continue;
    const int j2 = m.eq_obj2id[e];
    if (j2 >= 0 && dependent_of[j2] >= 0) {
      throw std::invalid_argument("joint equality " + std::to_string(e) + ": its second " +
                                  joint_label(m, j2) +
                                  " depends on another joint equality (chains are not supported)");
    }
  }
  std::vector<char> locked(static_cast<size_t>(m.njnt), 0);
  for (const IkLock& l : locks_) {
    if (dependent_of[l.joint] >= 0) {
      throw std::invalid_argument("lock " + joint_label(m, l.joint) +
                                  ": the joint follows a joint equality");
    }
    locked[l.joint] = 1;
  }

  dof_var_.assign(static_cast<size_t>(m.nv), -1);
  for (int v = 0; v < m.nv; ++v) {
    const int j = m.dof_jntid[v];
    if (locked[j] || dependent_of[j] >= 0) continue;
    dof_var_[v] = static_cast<int>(var_dof_.size());
    var_dof_.push_back(v);
    var_joint_.push_back(j);
  }

  const size_t nx = var_dof_.size(), nv = static_cast<size_t>(m.nv);
  const size_t rows = 3 * markers_.size() + coordinates_.size();
  residual_.resize(rows);
  jac_.resize(rows * nx);
  site_jac_.resize(3 * nv);
  grad_.resize(nx);
  hess_.resize(nx * nx);
  lhs_.resize(nx * nx);
  lhs_diag_inv_.resize(nx);
  step_.resize(nx);
  dq_.resize(nv);
  qtrial_.resize(static_cast<size_t>(m.nq));
  slope_.resize(dependents_.size());
  active_.resize(nx);
  free_.resize(nx);
}

void InverseKinematics::apply_constraints(double* qpos) const {
  for (const IkLock& l : locks_) qpos[m_.jnt_qposadr[l.joint]] = l.value;
  if (options_.limits) {
    for (size_t k = 0; k < var_dof_.size(); ++k) {
      const int j = var_joint_[k];
      if (!m_.jnt_limited[j] || !scalar_joint(m_, j)) continue;
      double& q = qpos[m_.jnt_qposadr[j]];
      q = std::clamp(q, m_.jnt_range[2 * j], m_.jnt_range[2 * j + 1]);
    }
  }
  for (const Dependent& dep : dependents_) {
    qpos[dep.qadr] = joint_equality_position(m_, dep.equality, qpos);
  }
  normalize_quat(m_, qpos);
}

// The residuals at qpos (and, with `jacobian`, their Jacobian over the variables); returns the
// cost, the sum of squared residuals.
double InverseKinematics::evaluate(Data& d, const double* markers, const double* qpos,
                                   bool jacobian) {
  const Model& m = m_;
  const int nx = nvariable();
  std::copy_n(qpos, m.nq, d.qpos);
  kinematics(m, d);
  if (jacobian) {
    com_pos(m, d);
    for (size_t i = 0; i < dependents_.size(); ++i) {
      const Dependent& dep = dependents_[i];
      if (dep.qadr2 < 0) {
        slope_[i] = 0;
        continue;
      }
      polynomial_residual(m.eq_data + kNEQDATA * dep.equality, 0, 0, true, qpos[dep.qadr2],
                          m.qpos0[dep.qadr2], &slope_[i]);
    }
  }
  // Columns of a full Jacobian row block (rows x nv in site_jac_) to the variables: a dependent
  // dof's column moves with its independent one through the polynomial's slope.
  const auto reduce = [&](int rows, int row0, double scale) {
    for (size_t i = 0; i < dependents_.size(); ++i) {
      const Dependent& dep = dependents_[i];
      if (dep.dof2 < 0) continue;
      for (int r = 0; r < rows; ++r) {
        site_jac_[r * m.nv + dep.dof2] += slope_[i] * site_jac_[r * m.nv + dep.dof];
      }
    }
    for (int r = 0; r < rows; ++r) {
      double* out = jac_.data() + static_cast<size_t>(row0 + r) * nx;
      for (int k = 0; k < nx; ++k) out[k] = scale * site_jac_[r * m.nv + var_dof_[k]];
    }
  };

  int row = 0;
  double cost = 0;
  for (size_t i = 0; i < markers_.size(); ++i) {
    const double* target = markers + 3 * i;
    if (markers_[i].weight <= 0 || !std::isfinite(target[0]) || !std::isfinite(target[1]) ||
        !std::isfinite(target[2])) {
      continue;
    }
    const double s = std::sqrt(markers_[i].weight);
    const double* x = d.site_xpos + 3 * markers_[i].site;
    for (int c = 0; c < 3; ++c) {
      residual_[row + c] = s * (x[c] - target[c]);
      cost += residual_[row + c] * residual_[row + c];
    }
    if (jacobian) {
      jac_site(m, d, site_jac_.data(), nullptr, markers_[i].site);
      reduce(3, row, s);
    }
    row += 3;
  }
  for (const IkCoordinate& c : coordinates_) {
    if (c.weight <= 0) continue;
    const double s = std::sqrt(c.weight);
    residual_[row] = s * (qpos[m.jnt_qposadr[c.joint]] - c.value);
    cost += residual_[row] * residual_[row];
    if (jacobian) {
      std::fill_n(site_jac_.begin(), m.nv, 0.0);
      site_jac_[m.jnt_dofadr[c.joint]] = 1;
      reduce(1, row, s);
    }
    ++row;
  }
  nrow_ = row;
  return cost;
}

IkResult InverseKinematics::solve(Data& d, const double* markers, double* qpos,
                                  double* marker_error) {
  const Model& m = m_;
  const int nx = nvariable();
  IkResult result;
  for (size_t i = 0; i < markers_.size(); ++i) {
    const double* p = markers + 3 * i;
    if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])) ++result.markers_used;
  }
  apply_constraints(qpos);
  double cost = evaluate(d, markers, qpos, true);
  double lambda = 1e-6;
  bool have_jacobian = true;
  for (result.iterations = 0; result.iterations < options_.max_iterations && nx > 0;) {
    if (!have_jacobian) evaluate(d, markers, qpos, true);
    have_jacobian = true;
    ++result.iterations;
    // Gradient J'r and Gauss-Newton Hessian J'J.
    std::fill(grad_.begin(), grad_.end(), 0.0);
    std::fill(hess_.begin(), hess_.end(), 0.0);
    for (int r = 0; r < nrow_; ++r) {
      const double* jr = jac_.data() + static_cast<size_t>(r) * nx;
      for (int a = 0; a < nx; ++a) {
        if (jr[a] == 0) continue;
        grad_[a] += jr[a] * residual_[r];
        double* h = hess_.data() + static_cast<size_t>(a) * nx;
        for (int b = 0; b <= a; ++b) h[b] += jr[a] * jr[b];
      }
    }
    // Variables at a limit that the gradient pushes outwards are held there this iteration.
    int nfree = 0;
    for (int k = 0; k < nx; ++k) {
      const int j = var_joint_[k];
      bool held = false;
      if (options_.limits && m.jnt_limited[j] && scalar_joint(m, j)) {
        const double q = qpos[m.jnt_qposadr[j]];
        held = (q <= m.jnt_range[2 * j] && grad_[k] > 0) ||
               (q >= m.jnt_range[2 * j + 1] && grad_[k] < 0);
      }
      if (!held) free_[nfree++] = k;
    }
    if (nfree == 0) {  // every variable held at a limit: nothing can move
      result.converged = true;
      break;
    }
    double hmax = 0;
    for (int k = 0; k < nx; ++k) hmax = std::max(hmax, hess_[static_cast<size_t>(k) * nx + k]);
    const double ridge = 1e-12 * (hmax + 1);

    bool accepted = false, stop = false;
    while (!accepted && !stop) {
      // (H + lambda (diag H + ridge)) step = -g over the free variables.
      for (int a = 0; a < nfree; ++a) {
        for (int b = 0; b <= a; ++b) {
          const int ka = free_[a], kb = free_[b];
          double h = hess_[static_cast<size_t>(std::max(ka, kb)) * nx + std::min(ka, kb)];
          if (a == b) h += lambda * (h + ridge) + ridge;
          lhs_[static_cast<size_t>(a) * nfree + b] = h;
        }
        step_[a] = -grad_[free_[a]];
      }
      chol::factor_dense(lhs_.data(), nfree, 1e-300, lhs_diag_inv_.data());
      chol::solve_dense(lhs_.data(), lhs_diag_inv_.data(), nfree, step_.data(), step_.data());
      std::fill(dq_.begin(), dq_.end(), 0.0);
      double largest = 0;
      for (int a = 0; a < nfree; ++a) {
        dq_[var_dof_[free_[a]]] = step_[a];
        largest = std::max(largest, std::abs(step_[a]));
      }
      std::copy_n(qpos, m.nq, qtrial_.data());
      integrate_pos(m, qtrial_.data(), dq_.data(), 1);
      apply_constraints(qtrial_.data());
      const double trial = evaluate(d, markers, qtrial_.data(), false);
      if (trial < cost) {
        const double decrease = cost - trial;
        std::copy_n(qtrial_.data(), m.nq, qpos);
        const double before = cost;
        cost = trial;
        accepted = true;
        have_jacobian = false;
        lambda = std::max(lambda * 0.1, 1e-12);
        if (largest < options_.step_tolerance || decrease <= options_.cost_tolerance * before) {
          result.converged = stop = true;
        }
      } else {
        // No descent at this damping: a smaller step, unless it is already negligible.
        lambda *= 10;
        if (largest < options_.step_tolerance || lambda > 1e12) result.converged = stop = true;
      }
    }
    if (stop) break;
  }
  if (nx == 0) result.converged = true;
  // The kinematics (and residuals) of the fit.
  result.cost = evaluate(d, markers, qpos, false);
  if (marker_error) {
    for (size_t i = 0; i < markers_.size(); ++i) {
      const double* p = markers + 3 * i;
      const double* x = d.site_xpos + 3 * markers_[i].site;
      marker_error[i] =
          std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])
              ? std::sqrt((x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) +
                          (x[2] - p[2]) * (x[2] - p[2]))
              : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return result;
}

}  // namespace joco
