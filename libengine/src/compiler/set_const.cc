#include "compiler/set_const.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "compiler/length_range.h"
#include "joco/actuation.h"
#include "joco/data.h"
#include "joco/jacobian.h"
#include "joco/smooth.h"
#include "joco/tendon.h"
#include "math/vec.h"

namespace joco::compiler {

namespace {

// Subtree masses: each body's mass plus its descendants', accumulated from the leaves.
void subtree_masses(Model& m) {
  for (int b = 0; b < m.nbody; ++b) m.body_subtreemass[b] = m.body_mass[b];
  for (int b = m.nbody - 1; b > 0; --b)
    m.body_subtreemass[m.body_parentid[b]] += m.body_subtreemass[b];
}

// Position-dependent quantities at qpos (kinematics through the factorisation of M, tendons and
// transmissions; no contacts).
void evaluate_position(const Model& m, Data& d) {
  kinematics(m, d);
  com_pos(m, d);
  camlight(m, d);
  tendon(m, d);
  crb(m, d);
  factor_m(m, d);
  d.ncon = 0;
  transmission(m, d);
}

// Tendons: length at qpos0, spring length at qpos_spring where not given, and inverse weight
// J inv(M) J'. Actuators: length at qpos0 and the acceleration a unit force produces, |inv(M) g|
// for the moment vector g.
void tendon_and_actuator_references(Model& m, Data& d) {
  const size_t nv = static_cast<size_t>(m.nv);
  std::vector<double> solved(nv);
  std::vector<int> chain;
  for (int t = 0; t < m.ntendon; ++t) {
    m.tendon_length0[t] = d.ten_length[t];
    const double* jac = d.ten_J + t * nv;
    // J inv(M) J' along the chain of J's dofs (solve_m_on_chain): the terms elsewhere are zeros
    nonzero_dofs_and_ancestors(m, jac, chain);
    for (int k : chain) solved[static_cast<size_t>(k)] = jac[k];
    solve_m_on_chain(m, d, solved.data(), chain);
    double w = 0;
    for (int k : chain) w += jac[k] * solved[static_cast<size_t>(k)];
    m.tendon_invweight0[t] = w;
  }
  for (int i = 0; i < m.nu; ++i) {
    m.actuator_length0[i] = d.actuator_length[i];
    solve_m(m, d, solved.data(), d.actuator_moment + i * nv, 1);
    double norm = 0;
    for (double x : solved) norm += x * x;
    m.actuator_acc0[i] = std::sqrt(norm);
  }
  bool need_spring = false;
  for (int t = 0; t < m.ntendon; ++t) need_spring = need_spring || m.tendon_lengthspring[t] < 0;
  if (!need_spring) return;
  std::memcpy(d.qpos, m.qpos_spring, sizeof(double) * static_cast<size_t>(m.nq));
  kinematics(m, d);
  com_pos(m, d);
  tendon(m, d);
  for (int t = 0; t < m.ntendon; ++t) {
    if (m.tendon_lengthspring[t] < 0) m.tendon_lengthspring[t] = d.ten_length[t];
  }
}

// dof_invweight0: the diagonal of inv(M) at qpos0; ball and free joints share
// one value per rotational (and translational) triple, their mean. Entry i of inv(M) e_i needs
// only the solve along i's ancestors (solve_m_on_chain).
void dof_weights(Model& m, const Data& d) {
  std::vector<double> column(static_cast<size_t>(m.nv));
  std::vector<double> inverse_diagonal(static_cast<size_t>(m.nv));
  std::vector<double> unit(static_cast<size_t>(m.nv));
  std::vector<int> chain;
  for (int i = 0; i < m.nv; ++i) {
    unit[static_cast<size_t>(i)] = 1;
    nonzero_dofs_and_ancestors(m, unit.data(), chain);
    for (int k : chain) column[static_cast<size_t>(k)] = unit[static_cast<size_t>(k)];
    solve_m_on_chain(m, d, column.data(), chain);
    inverse_diagonal[static_cast<size_t>(i)] = column[static_cast<size_t>(i)];
    unit[static_cast<size_t>(i)] = 0;
  }
  for (int j = 0; j < m.njnt; ++j) {
    const int adr = m.jnt_dofadr[j];
    auto mean = [&](int from, int count) {
      double sum = 0;
      for (int k = 0; k < count; ++k) sum += inverse_diagonal[static_cast<size_t>(from + k)];
      for (int k = 0; k < count; ++k) m.dof_invweight0[from + k] = sum / count;
    };
    switch (m.jnt_type[j]) {
      case kJointFree:
        mean(adr, 3);
        mean(adr + 3, 3);
        break;
      case kJointBall: mean(adr, 3); break;
      default: m.dof_invweight0[adr] = inverse_diagonal[static_cast<size_t>(adr)];
    }
  }
}

// Joints with a springdamper (time constant, damping ratio): the stiffness and damping of the
// mass-spring-damper with those constants, whose mass is the joint's inertia at qpos0, the inverse
// of its dofs' mean dof_invweight0 (armature included). The formulas are solref's: damping
// 2 mass / timeconst, stiffness mass / (timeconst dampratio)^2, denominators at least kMinVal
// (measured on MuJoCo 2.2.2's outputs). They replace the joint's stiffness and damping.
void joint_springdampers(Model& m, std::span<const std::array<double, 2>> springdamper) {
  for (int j = 0; j < m.njnt; ++j) {
    const auto [timeconst, dampratio] = springdamper[static_cast<size_t>(j)];
    if (!(timeconst > 0 && dampratio > 0)) continue;
    const int adr = m.jnt_dofadr[j], nv = joint_nv(m.jnt_type[j]);
    double invweight = 0;
    for (int k = 0; k < nv; ++k) invweight += m.dof_invweight0[adr + k];
    const double mass = nv / invweight;
    m.jnt_stiffness[j] = mass / std::max(kMinVal, timeconst * timeconst * dampratio * dampratio);
    for (int k = 0; k < nv; ++k) m.dof_damping[adr + k] = 2 * mass / std::max(kMinVal, timeconst);
  }
}

// body_invweight0: the mean diagonal of J inv(M) J' for the translation and the rotation of each
// body's centre of mass. J is zero outside the dofs of the body and its ancestors, so the solve
// and the trace run along that chain (solve_m_on_chain): the same sums as over all dofs, whose
// other terms are zeros.
void body_weights(Model& m, Data& d) {
  const size_t nv = static_cast<size_t>(m.nv);
  std::vector<double> jacp(3 * nv), jacr(3 * nv), solved(nv);
  std::vector<int> chain;
  m.body_invweight0[0] = m.body_invweight0[1] = 0;
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_weldid[b] == 0) {
      m.body_invweight0[2 * b] = m.body_invweight0[2 * b + 1] = 0;
      continue;
    }
    jac_body_com(m, d, jacp.data(), jacr.data(), b);
    double weights[2];
    for (int part = 0; part < 2; ++part) {
      const std::vector<double>& jac = part == 0 ? jacp : jacr;
      double trace = 0;
      for (size_t r = 0; r < 3; ++r) {
        const double* row = jac.data() + r * nv;
        nonzero_dofs_and_ancestors(m, row, chain);
        for (int k : chain) solved[static_cast<size_t>(k)] = row[k];
        solve_m_on_chain(m, d, solved.data(), chain);
        for (int k : chain) trace += row[k] * solved[static_cast<size_t>(k)];
      }
      weights[part] = trace / 3;
    }
    m.body_invweight0[2 * b] = weights[0];
    m.body_invweight0[2 * b + 1] = weights[1];
  }
}

// Cameras and lights: their positions relative to the body and to a subtree centre of mass (the
// target's in the target modes, as MuJoCo 2.2.2 has it, else the body's), and their orientations,
// at qpos0 (used by the tracking modes).
// The global frames are those of the fixed mode (body frame times local frame).
void camera_light_references(Model& m, const Data& d) {
  for (int i = 0; i < m.ncam; ++i) {
    const int b = m.cam_bodyid[i];
    double xpos[3], local[9];
    math::mat_vec3(xpos, d.xmat + 9 * b, m.cam_pos + 3 * i);
    math::add3(xpos, xpos, d.xpos + 3 * b);
    math::quat_to_mat(local, m.cam_quat + 4 * i);
    math::mat_mat3(m.cam_mat0 + 9 * i, d.xmat + 9 * b, local);
    math::sub3(m.cam_pos0 + 3 * i, xpos, d.xpos + 3 * b);
    const int com =
        camlight_targets(m.cam_mode[i], m.cam_targetbodyid[i]) ? m.cam_targetbodyid[i] : b;
    math::sub3(m.cam_poscom0 + 3 * i, xpos, d.subtree_com + 3 * com);
  }
  for (int i = 0; i < m.nlight; ++i) {
    const int b = m.light_bodyid[i];
    double xpos[3];
    math::mat_vec3(xpos, d.xmat + 9 * b, m.light_pos + 3 * i);
    math::add3(xpos, xpos, d.xpos + 3 * b);
    math::mat_vec3(m.light_dir0 + 3 * i, d.xmat + 9 * b, m.light_dir + 3 * i);
    math::sub3(m.light_pos0 + 3 * i, xpos, d.xpos + 3 * b);
    const int com =
        camlight_targets(m.light_mode[i], m.light_targetbodyid[i]) ? m.light_targetbodyid[i] : b;
    math::sub3(m.light_poscom0 + 3 * i, xpos, d.subtree_com + 3 * com);
  }
}

// Connect constraints store the anchor in both bodies' frames; welds with an unspecified relative
// pose (zero quaternion) take, at qpos0, the position of body 2's anchor point and the orientation
// of body 2, both relative to body 1.
void equality_references(Model& m, const Data& d) {
  for (int i = 0; i < m.neq; ++i) {
    double* data = m.eq_data + kNEQDATA * i;
    const int b1 = m.eq_obj1id[i], b2 = m.eq_obj2id[i];
    if (m.eq_type[i] == kEqConnect) {
      double global[3], relative[3];
      math::mat_vec3(global, d.xmat + 9 * b1, data);
      math::add3(global, global, d.xpos + 3 * b1);
      math::sub3(relative, global, d.xpos + 3 * b2);
      math::mat_t_vec3(data + 3, d.xmat + 9 * b2, relative);
    } else if (m.eq_type[i] == kEqWeld) {
      double* quat = data + 6;
      if (quat[0] == 0 && quat[1] == 0 && quat[2] == 0 && quat[3] == 0) {
        double anchor[3], relative[3];
        math::mat_vec3(anchor, d.xmat + 9 * b2, data);
        math::add3(anchor, anchor, d.xpos + 3 * b2);
        math::sub3(relative, anchor, d.xpos + 3 * b1);
        math::mat_t_vec3(data + 3, d.xmat + 9 * b1, relative);
        math::quat_conj_mul(quat, d.xquat + 4 * b1, d.xquat + 4 * b2);
      }
      math::quat_normalize(quat);
    }
  }
}

// Model statistics at qpos0 (what <statistic> can override): mean diagonal of M, mean body mass,
// mean body size, and the bounding box of the model (bodies, sites and geoms).
// The mean diagonal of M at qpos0 (dof_M0 is that diagonal) and the mean body mass.
double mean_inertia(const Model& m) {
  double trace = 0;
  for (int i = 0; i < m.nv; ++i) trace += m.dof_M0[i];
  return m.nv ? trace / m.nv : 1;
}
double mean_mass(const Model& m) {
  double mass = 0;
  for (int b = 1; b < m.nbody; ++b) mass += m.body_mass[b];
  return m.nbody > 1 ? mass / (m.nbody - 1) : 1;
}

void statistics(Model& m, const Data& d, const StatisticSettings& given) {
  Statistic& stat = m.stat;
  stat.meaninertia = mean_inertia(m);
  stat.meanmass = mean_mass(m);
  // A body's size: how far the joint anchors that connect it (its own joints, and those of its
  // children, which also hinge on it) and its geoms (with their bounding spheres) reach from its
  // centre of mass.
  std::vector<double> size(static_cast<size_t>(m.nbody), 1e-5);
  for (int b = 1; b < m.nbody; ++b) {
    double& s = size[static_cast<size_t>(b)];
    const double* com = m.body_ipos + 3 * b;
    const int parent = m.body_parentid[b];
    for (int j = m.body_jntadr[b]; j >= 0 && j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
      s = std::max(s, math::dist3(m.jnt_pos + 3 * j, com));
      double anchor[3];
      math::quat_rotate(anchor, m.body_quat + 4 * b, m.jnt_pos + 3 * j);
      math::add3(anchor, anchor, m.body_pos + 3 * b);
      double& p = size[static_cast<size_t>(parent)];
      p = std::max(p, math::dist3(anchor, m.body_ipos + 3 * parent));
    }
    for (int g = m.body_geomadr[b]; g >= 0 && g < m.body_geomadr[b] + m.body_geomnum[b]; ++g) {
      s = std::max(s, math::dist3(m.geom_pos + 3 * g, com) + m.geom_rbound[g]);
    }
  }
  double size_sum = 0;
  for (int b = 1; b < m.nbody; ++b) size_sum += size[static_cast<size_t>(b)];
  stat.meansize = m.nbody > 1 ? size_sum / (m.nbody - 1) : 0.2;
  // Bounding box of body frames and centres of mass, joint anchors, sites, and geoms with their
  // bounding spheres (planes and height fields by a tenth of their largest size).
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  auto add = [&](const double* point, double radius) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], point[k] - radius);
      hi[k] = std::max(hi[k], point[k] + radius);
    }
  };
  for (int b = 1; b < m.nbody; ++b) {
    add(d.xpos + 3 * b, 0);
    add(d.xipos + 3 * b, 0);
  }
  for (int j = 0; j < m.njnt; ++j) add(d.xanchor + 3 * j, 0);
  for (int i = 0; i < m.nsite; ++i) add(d.site_xpos + 3 * i, 0);
  for (int g = 0; g < m.ngeom; ++g) {
    double radius = m.geom_rbound[g];
    if (m.geom_type[g] == kGeomPlane) {
      const double largest = std::max(m.geom_size[3 * g], m.geom_size[3 * g + 1]);
      radius = largest > 0 ? 0.1 * largest : 1;
    } else if (m.geom_type[g] == kGeomHfield) {
      const double* hsize = m.hfield_size + 4 * m.geom_dataid[g];
      radius = 0.1 * std::max({hsize[0], hsize[1], hsize[2], hsize[3]});
    }
    add(d.geom_xpos + 3 * g, radius);
  }
  if (lo[0] > hi[0]) {
    stat.center[0] = stat.center[1] = stat.center[2] = 0;
    stat.extent = 2;
  } else {
    double side = 0;
    for (int k = 0; k < 3; ++k) {
      stat.center[k] = (lo[k] + hi[k]) / 2;
      side = std::max(side, hi[k] - lo[k]);
    }
    stat.extent = std::max(side, 2 * stat.meansize);
  }
  if (given.meaninertia) stat.meaninertia = *given.meaninertia;
  if (given.meanmass) stat.meanmass = *given.meanmass;
  if (given.meansize) stat.meansize = *given.meansize;
  if (given.extent) stat.extent = *given.extent;
  if (given.center) std::copy(given.center->begin(), given.center->end(), stat.center);
}

}  // namespace

// dof_M0, the diagonal of M at qpos0. The pipeline reads the diagonal of simple dofs from dof_M0,
// so this evaluation treats every dof as not simple.
void diagonal_inertia(Model& m, Data& d) {
  std::vector<int> simplenum(m.dof_simplenum, m.dof_simplenum + m.nv);
  std::fill(m.dof_simplenum, m.dof_simplenum + m.nv, 0);
  evaluate_position(m, d);
  for (int i = 0; i < m.nv; ++i) m.dof_M0[i] = d.qM[m.dof_Madr[i]];
  std::copy(simplenum.begin(), simplenum.end(), m.dof_simplenum);
}

// The start of set_const and recompute_constants: subtree masses, the diagonal inertia, the
// position stages at qpos0 and the dof weights; returns the Data evaluated there.
Data mass_constants_at_qpos0(Model& m) {
  subtree_masses(m);
  Data d(m);
  std::memcpy(d.qpos, m.qpos0, sizeof(double) * static_cast<size_t>(m.nq));
  diagonal_inertia(m, d);
  evaluate_position(m, d);
  dof_weights(m, d);
  return d;
}

void set_const(Model& m, const ModelSpec& spec,
               std::span<const std::array<double, 2>> springdamper) {
  Data d = mass_constants_at_qpos0(m);
  joint_springdampers(m, springdamper);
  body_weights(m, d);
  camera_light_references(m, d);
  equality_references(m, d);
  statistics(m, d, spec.statistic);
  tendon_and_actuator_references(m, d);
  compute_length_ranges(m, spec);
}

DerivedStatistics derived_statistics(const Model& m) {
  return {m.stat.meaninertia == mean_inertia(m), m.stat.meanmass == mean_mass(m)};
}

void recompute_constants(Model& m, DerivedStatistics derived) {
  // The mass statistics the compiler derived follow the change; those <statistic> gave (which
  // differ from the derived ones) stay, as the compiler keeps them. The size statistics depend on
  // nothing a parameter changes.
  Data d = mass_constants_at_qpos0(m);
  body_weights(m, d);
  camera_light_references(m, d);
  if (derived.meaninertia) m.stat.meaninertia = mean_inertia(m);
  if (derived.meanmass) m.stat.meanmass = mean_mass(m);
  tendon_and_actuator_references(m, d);
}

}  // namespace joco::compiler
