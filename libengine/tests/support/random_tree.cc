#include "random_tree.h"

#include <cmath>
#include <random>
#include <vector>

#include "joco/data.h"
#include "joco/smooth.h"

namespace joco::test {

namespace {

struct Rng {
  std::mt19937_64 gen;
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  void unit(double* v, int n) {
    double s = 0;
    do {
      s = 0;
      for (int k = 0; k < n; ++k) {
        v[k] = std::normal_distribution<double>()(gen);
        s += v[k] * v[k];
      }
    } while (s < 1e-6);
    s = std::sqrt(s);
    for (int k = 0; k < n; ++k) v[k] /= s;
  }
};

struct BodyPlan {
  int parent;
  std::vector<int> joints;  // joint types
  bool mocap = false;
};

}  // namespace

Model random_tree_model(uint64_t seed, const RandomTreeOptions& options) {
  Rng rng{std::mt19937_64(seed)};

  // The tree and its joints.
  std::vector<BodyPlan> plan(1, BodyPlan{-1, {}});
  for (int b = 1; b <= options.nbody; ++b) {
    BodyPlan p;
    p.parent = rng.integer(0, b - 1);
    if (plan[p.parent].mocap) p.parent = 0;
    if (options.floating && p.parent == 0) {
      p.joints = {kJointFree};
    } else if (options.mocap && !options.floating && b == 2) {
      p.parent = 0;
      p.mocap = true;
    } else if (p.parent == 0 && options.free_joints && rng.integer(0, 2) == 0) {
      p.joints = {kJointFree};
    } else {
      const int n = rng.integer(0, 3);
      for (int j = 0; j < n; ++j) p.joints.push_back(rng.integer(kJointSlide, kJointHinge));
      if (options.ball_joints && n > 0 && rng.integer(0, 2) == 0) p.joints.back() = kJointBall;
    }
    plan.push_back(p);
  }
  // A child of the mocap body.
  if (options.mocap && !options.floating && options.nbody >= 3) {
    plan[3].parent = 2;
    if (!plan[3].joints.empty() && plan[3].joints[0] == kJointFree) plan[3].joints = {kJointHinge};
  }

  ModelSizes s;
  s.nbody = static_cast<int>(plan.size());
  for (const BodyPlan& p : plan) {
    for (int t : p.joints) {
      ++s.njnt;
      s.nq += joint_nq(t);
      s.nv += joint_nv(t);
    }
    if (p.mocap) ++s.nmocap;
  }
  s.nsite = s.nbody;
  s.ncam = options.cameras_lights ? 5 : 0;
  s.nlight = options.cameras_lights ? 5 : 0;
  // The dof tree and the sparse inertia layout.
  std::vector<int> dof_body, dof_parent, dof_jnt;
  std::vector<int> body_last_dof(plan.size(), -1);
  {
    int jnt = 0;
    for (int b = 1; b < s.nbody; ++b) {
      int last = -1;
      for (int a = plan[b].parent; a > 0 && last < 0; a = plan[a].parent) last = body_last_dof[a];
      for (int t : plan[b].joints) {
        for (int k = 0; k < joint_nv(t); ++k) {
          dof_body.push_back(b);
          dof_parent.push_back(last);
          dof_jnt.push_back(jnt);
          last = static_cast<int>(dof_body.size()) - 1;
        }
        ++jnt;
      }
      body_last_dof[b] = last;
    }
  }
  std::vector<int> madr(s.nv);
  for (int i = 0; i < s.nv; ++i) {
    madr[i] = s.nM;
    int depth = 1;
    for (int p = dof_parent[i]; p >= 0; p = dof_parent[p]) ++depth;
    s.nM += depth;
  }
  s.nD = s.nM;
  s.nnames = 1;
  s.njmax = 10;
  s.nconmax = 10;
  s.nstack = 100000;
  Model m(s);
  m.opt.timestep = 0.002;
  m.opt.gravity[0] = 0.4;
  m.opt.gravity[1] = -0.3;
  m.opt.gravity[2] = -9.81;

  int jnt = 0, qadr = 0, dofadr = 0;
  for (int b = 0; b < s.nbody; ++b) {
    const BodyPlan& p = plan[b];
    m.body_parentid[b] = b == 0 ? 0 : p.parent;
    int root = b;
    while (root > 0 && plan[root].parent > 0) root = plan[root].parent;
    m.body_rootid[b] = root;
    m.body_weldid[b] = b;
    m.body_mocapid[b] = p.mocap ? 0 : -1;
    m.body_geomadr[b] = -1;
    m.body_jntnum[b] = static_cast<int>(p.joints.size());
    m.body_jntadr[b] = p.joints.empty() ? -1 : jnt;
    m.body_quat[4 * b] = 1;
    m.body_iquat[4 * b] = 1;
    if (b > 0) {
      for (int k = 0; k < 3; ++k) m.body_pos[3 * b + k] = rng.uniform(-0.4, 0.4);
      rng.unit(m.body_quat + 4 * b, 4);
      for (int k = 0; k < 3; ++k) m.body_ipos[3 * b + k] = rng.uniform(-0.2, 0.2);
      rng.unit(m.body_iquat + 4 * b, 4);
      m.body_mass[b] = rng.uniform(0.2, 2);
      // Principal inertias satisfying the triangle inequality.
      const double a = rng.uniform(0.01, 0.1), c = rng.uniform(0.01, 0.1);
      m.body_inertia[3 * b] = a;
      m.body_inertia[3 * b + 1] = c;
      m.body_inertia[3 * b + 2] = rng.uniform(std::abs(a - c) + 0.005, a + c);
    }
    int ndof = 0;
    for (int t : p.joints) {
      m.jnt_type[jnt] = t;
      m.jnt_bodyid[jnt] = b;
      m.jnt_qposadr[jnt] = qadr;
      m.jnt_dofadr[jnt] = dofadr + ndof;
      if (t != kJointFree) {
        for (int k = 0; k < 3; ++k) m.jnt_pos[3 * jnt + k] = rng.uniform(-0.1, 0.1);
      }
      rng.unit(m.jnt_axis + 3 * jnt, 3);
      if (options.stiffness) m.jnt_stiffness[jnt] = rng.uniform(0, 2);
      double* q0 = m.qpos0 + qadr;
      double* qs = m.qpos_spring + qadr;
      if (t == kJointFree) {
        for (int k = 0; k < 3; ++k) q0[k] = m.body_pos[3 * b + k];
        for (int k = 0; k < 4; ++k) q0[3 + k] = m.body_quat[4 * b + k];
        for (int k = 0; k < 3; ++k) qs[k] = q0[k] + rng.uniform(-0.1, 0.1);
        rng.unit(qs + 3, 4);
      } else if (t == kJointBall) {
        q0[0] = 1;
        rng.unit(qs, 4);
      } else {
        q0[0] = rng.uniform(-0.5, 0.5);  // the joint's reference position
        qs[0] = q0[0] + rng.uniform(-0.3, 0.3);
      }
      qadr += joint_nq(t);
      ndof += joint_nv(t);
      ++jnt;
    }
    m.body_dofnum[b] = ndof;
    m.body_dofadr[b] = ndof ? dofadr : -1;
    dofadr += ndof;
    // One site per body.
    m.site_bodyid[b] = b;
    m.site_matid[b] = -1;
    for (int k = 0; k < 3; ++k) m.site_pos[3 * b + k] = rng.uniform(-0.2, 0.2);
    rng.unit(m.site_quat + 4 * b, 4);
  }
  for (int b = s.nbody - 1; b >= 0; --b) {
    m.body_subtreemass[b] += m.body_mass[b];
    if (b > 0) m.body_subtreemass[m.body_parentid[b]] += m.body_subtreemass[b];
  }
  for (int i = 0; i < s.nv; ++i) {
    m.dof_bodyid[i] = dof_body[i];
    m.dof_jntid[i] = dof_jnt[i];
    m.dof_parentid[i] = dof_parent[i];
    m.dof_Madr[i] = madr[i];
    if (options.armature) m.dof_armature[i] = rng.uniform(0, 0.1);
  }

  // A camera and a light in each mode, on random bodies, targeting random bodies. The tracking
  // offsets (which the compiler computes at qpos0) are random here.
  for (int c = 0; c < s.ncam; ++c) {
    m.cam_mode[c] = c;
    m.cam_bodyid[c] = rng.integer(0, s.nbody - 1);
    m.cam_targetbodyid[c] = c >= kCamLightTargetBody ? rng.integer(1, s.nbody - 1) : -1;
    for (int k = 0; k < 3; ++k) m.cam_pos[3 * c + k] = rng.uniform(-1, 1);
    rng.unit(m.cam_quat + 4 * c, 4);
    for (int k = 0; k < 3; ++k) m.cam_pos0[3 * c + k] = rng.uniform(-1, 1);
    for (int k = 0; k < 3; ++k) m.cam_poscom0[3 * c + k] = rng.uniform(-1, 1);
    double q[4];
    rng.unit(q, 4);
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                         2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                         2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    for (int k = 0; k < 9; ++k) m.cam_mat0[9 * c + k] = r[k];
  }
  for (int l = 0; l < s.nlight; ++l) {
    m.light_mode[l] = l;
    m.light_bodyid[l] = rng.integer(0, s.nbody - 1);
    m.light_targetbodyid[l] = l >= kCamLightTargetBody ? rng.integer(1, s.nbody - 1) : -1;
    for (int k = 0; k < 3; ++k) m.light_pos[3 * l + k] = rng.uniform(-1, 1);
    rng.unit(m.light_dir + 3 * l, 3);
    for (int k = 0; k < 3; ++k) m.light_pos0[3 * l + k] = rng.uniform(-1, 1);
    for (int k = 0; k < 3; ++k) m.light_poscom0[3 * l + k] = rng.uniform(-1, 1);
    rng.unit(m.light_dir0 + 3 * l, 3);
  }
  return m;
}

void smooth_position_velocity(const Model& m, Data& d) {
  kinematics(m, d);
  com_pos(m, d);
  camlight(m, d);
  crb(m, d);
  factor_m(m, d);
  com_vel(m, d);
}

void random_tree_state(const Model& m, Data& d, uint64_t seed) {
  Rng rng{std::mt19937_64(seed)};
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos + m.jnt_qposadr[j];
    const double* q0 = m.qpos0 + m.jnt_qposadr[j];
    switch (m.jnt_type[j]) {
      case kJointFree:
        for (int k = 0; k < 3; ++k) q[k] = q0[k] + rng.uniform(-0.5, 0.5);
        rng.unit(q + 3, 4);
        break;
      case kJointBall: rng.unit(q, 4); break;
      default: q[0] = q0[0] + rng.uniform(-1, 1);
    }
  }
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = rng.uniform(-1, 1);
  for (int i = 0; i < m.nv; ++i) d.qacc[i] = rng.uniform(-2, 2);
  for (int i = 0; i < m.nv; ++i) d.qfrc_applied[i] = rng.uniform(-1, 1);
  for (int i = 6; i < 6 * m.nbody; ++i) d.xfrc_applied[i] = rng.uniform(-1, 1);
  for (int i = 0; i < m.nmocap; ++i) {
    for (int k = 0; k < 3; ++k) d.mocap_pos[3 * i + k] = rng.uniform(-1, 1);
    rng.unit(d.mocap_quat + 4 * i, 4);
  }
}

}  // namespace joco::test
