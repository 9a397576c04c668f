#include "hand_models.h"

#include <cstring>
#include <string>
#include <vector>

namespace joco::test {

namespace {

void set(double* dst, std::initializer_list<double> values) {
  for (double v : values) *dst++ = v;
}

}  // namespace

Model pendulum_model() {
  // Names, zero-separated, in the order: bodies, joints, geoms, site, actuator, key.
  const std::vector<std::string> names = {"world",  "link1", "link2", "box",  "hinge1",
                                          "hinge2", "free",  "floor", "rod1", "rod2",
                                          "cube",   "tip",   "motor", "home"};
  std::string buffer;
  std::vector<int> adr;
  for (const std::string& n : names) {
    adr.push_back(static_cast<int>(buffer.size()));
    buffer += n;
    buffer.push_back('\0');
  }

  ModelSizes s;
  s.nbody = 4;
  s.njnt = 3;
  s.nq = 9;
  s.nv = 8;
  s.ngeom = 4;
  s.nsite = 1;
  s.nu = 1;
  s.nkey = 1;
  s.nnames = static_cast<int>(buffer.size());
  s.nM = 1 + 2 + 1 + 2 + 3 + 4 + 5 + 6;  // hinge chain (1, 2), free joint dofs (1..6)
  s.nD = 2 + 2 + 6 * 6;
  s.njmax = 50;
  s.nconmax = 10;
  s.nstack = 1000;
  Model m(s);

  // Bodies: world, link1 (child of world), link2 (child of link1), box (child of world).
  const int parent[] = {0, 0, 1, 0};
  const int root[] = {0, 1, 1, 3};
  const int jntnum[] = {0, 1, 1, 1};
  const int jntadr[] = {-1, 0, 1, 2};
  const int dofnum[] = {0, 1, 1, 6};
  const int dofadr[] = {-1, 0, 1, 2};
  for (int b = 0; b < 4; ++b) {
    m.body_parentid[b] = parent[b];
    m.body_rootid[b] = root[b];
    m.body_weldid[b] = b;
    m.body_mocapid[b] = -1;
    m.body_jntnum[b] = jntnum[b];
    m.body_jntadr[b] = jntadr[b];
    m.body_dofnum[b] = dofnum[b];
    m.body_dofadr[b] = dofadr[b];
    m.body_geomnum[b] = 1;
    m.body_geomadr[b] = b;
    m.body_quat[4 * b] = 1;
    m.body_iquat[4 * b] = 1;
    m.name_bodyadr[b] = adr[b];
    m.geom_bodyid[b] = b;
    m.geom_dataid[b] = -1;
    m.geom_matid[b] = -1;
    m.geom_quat[4 * b] = 1;
    m.geom_condim[b] = 3;
    m.geom_contype[b] = 1;
    m.geom_conaffinity[b] = 1;
    m.name_geomadr[b] = adr[7 + b];
  }
  m.body_simple[0] = 1;
  m.body_sameframe[0] = 1;
  set(m.body_pos + 3, {0, 0, 2});
  set(m.body_pos + 6, {0, 0, -0.5});
  set(m.body_pos + 9, {1, 0, 0.5});
  for (int b = 1; b < 4; ++b) {
    m.body_mass[b] = 1;
    set(m.body_inertia + 3 * b, {0.01, 0.01, 0.002});
    set(m.body_ipos + 3 * b, {0, 0, -0.25});
  }
  m.body_subtreemass[0] = 3;
  m.body_subtreemass[1] = 2;
  m.body_subtreemass[2] = 1;
  m.body_subtreemass[3] = 1;
  m.geom_type[0] = kGeomPlane;
  m.geom_type[1] = kGeomCapsule;
  m.geom_type[2] = kGeomCapsule;
  m.geom_type[3] = kGeomBox;
  set(m.geom_size, {5, 5, 0.1});
  set(m.geom_size + 3, {0.05, 0.25, 0});
  set(m.geom_size + 6, {0.05, 0.25, 0});
  set(m.geom_size + 9, {0.1, 0.1, 0.1});

  // Joints: two hinges about y, a free joint.
  const int type[] = {kJointHinge, kJointHinge, kJointFree};
  const int qposadr[] = {0, 1, 2};
  for (int j = 0; j < 3; ++j) {
    m.jnt_type[j] = type[j];
    m.jnt_qposadr[j] = qposadr[j];
    m.jnt_dofadr[j] = j;
    m.jnt_bodyid[j] = j + 1;
    set(m.jnt_axis + 3 * j, {0, 1, 0});
    set(m.jnt_solref + 2 * j, {0.02, 1});
    set(m.jnt_solimp + 5 * j, {0.9, 0.95, 0.001, 0.5, 2});
    m.name_jntadr[j] = adr[4 + j];
  }
  set(m.qpos0, {0, 0, 1, 0, 0.5, 1, 0, 0, 0});
  std::memcpy(m.qpos_spring, m.qpos0, sizeof(double) * 9);

  // Dofs: the hinge chain 0 -> 1, then the free joint's six in a chain.
  const int dof_parent[] = {-1, 0, -1, 2, 3, 4, 5, 6};
  const int dof_body[] = {1, 2, 3, 3, 3, 3, 3, 3};
  const int dof_jnt[] = {0, 1, 2, 2, 2, 2, 2, 2};
  int madr = 0;
  for (int i = 0; i < 8; ++i) {
    m.dof_parentid[i] = dof_parent[i];
    m.dof_bodyid[i] = dof_body[i];
    m.dof_jntid[i] = dof_jnt[i];
    m.dof_Madr[i] = madr;
    int depth = 1;
    for (int p = dof_parent[i]; p >= 0; p = dof_parent[p]) ++depth;
    madr += depth;
    set(m.dof_solref + 2 * i, {0.02, 1});
    set(m.dof_solimp + 5 * i, {0.9, 0.95, 0.001, 0.5, 2});
    m.dof_armature[i] = 0.01;
  }

  m.site_bodyid[0] = 2;
  m.site_matid[0] = -1;
  m.site_quat[0] = 1;
  set(m.site_pos, {0, 0, -0.5});
  m.name_siteadr[0] = adr[11];

  m.actuator_trntype[0] = kTrnJoint;
  m.actuator_trnid[0] = 0;
  m.actuator_trnid[1] = -1;
  m.actuator_gear[0] = 1;
  m.actuator_gainprm[0] = 1;
  set(m.actuator_ctrlrange, {-1, 1});
  m.actuator_ctrllimited[0] = 1;
  m.name_actuatoradr[0] = adr[12];

  m.key_time[0] = 0.5;
  set(m.key_qpos, {0.1, -0.2, 1, 0, 0.5, 1, 0, 0, 0});
  m.key_qvel[0] = 0.3;
  m.key_ctrl[0] = 0.25;
  m.name_keyadr[0] = adr[13];

  std::memcpy(m.names, buffer.data(), buffer.size());
  return m;
}

}  // namespace joco::test
