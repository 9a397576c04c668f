// Compiler stages (compiler/compiler.h): the fields of options, bodies, joints, geoms, sites,
// cameras and lights.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "compiler/compiler.h"
#include "compiler/fluid_coefficients.h"
#include "math/vec.h"

namespace joco::compiler {

void Compiler::fill_options(Model& m) {
  m.opt = spec_.option;
  m.vis = spec_.visual;
}

void Compiler::fill_bodies(Model& m) {
  int mocap = 0;
  for (int i = 0; i < m.nbody; ++i) {
    const FlatBody& b = bodies_[static_cast<size_t>(i)];
    const BodySpec& s = *b.spec;
    m.body_parentid[i] = b.parent;
    m.body_rootid[i] = (i == 0 || b.parent == 0) ? i : m.body_rootid[b.parent];
    m.body_weldid[i] = (i == 0 || !s.joints.empty()) ? i : m.body_weldid[b.parent];
    m.body_mocapid[i] = s.mocap ? mocap++ : -1;
    const int njnt = static_cast<int>(s.joints.size());
    m.body_jntnum[i] = njnt;
    m.body_jntadr[i] = njnt ? b.first_joint : -1;
    m.body_dofnum[i] = b.ndof;
    m.body_dofadr[i] = b.ndof ? b.first_dof : -1;
    int ngeom = 0, first = -1;
    for (size_t g = 0; g < geoms_.size(); ++g) {
      if (geoms_[g].body != i) continue;
      if (first < 0) first = static_cast<int>(g);
      ++ngeom;
    }
    m.body_geomnum[i] = ngeom;
    m.body_geomadr[i] = first;
    copy_to(m.body_pos + 3 * i, b.pos);
    copy_to(m.body_quat + 4 * i, b.quat);
    copy_to(m.body_ipos + 3 * i, b.ipos);
    copy_to(m.body_iquat + 4 * i, b.iquat);
    m.body_mass[i] = b.mass;
    copy_to(m.body_inertia + 3 * i, b.inertia);
    std::copy(s.user.begin(), s.user.end(), m.body_user + i * m.nuser_body);
    const bool sameframe = is_zero(b.ipos) && is_identity(b.iquat);
    m.body_sameframe[i] = sameframe;
    // Simple bodies have a diagonal block in M: nothing moves above or below them.
    m.body_simple[i] = i == 0 || (m.body_weldid[b.parent] == 0 && sameframe && !b.has_children &&
                                  simple_joints(s));
  }
}

// Whether a body's joints keep its inertia diagonal in dof space: no anchor offsets, hinge and
// slide axes along coordinate axes, and at most one rotational joint.
bool Compiler::simple_joints(const BodySpec& s) {
  int rotational = 0;
  for (const JointSpec& j : s.joints) {
    if (!is_zero(j.pos)) return false;
    if (j.type == kJointHinge || j.type == kJointSlide) {
      const int nonzero = (j.axis[0] != 0) + (j.axis[1] != 0) + (j.axis[2] != 0);
      if (nonzero != 1) return false;
    }
    if (j.type != kJointSlide) ++rotational;
  }
  return rotational <= 1;
}

void Compiler::fill_joints(Model& m) {
  const bool autolimits = spec_.compiler.autolimits;
  for (int j = 0; j < m.njnt; ++j) {
    const JointSpec& s = *joints_[static_cast<size_t>(j)].first;
    const int body = joints_[static_cast<size_t>(j)].second;
    m.jnt_type[j] = s.type;
    m.jnt_qposadr[j] = jnt_qposadr_[static_cast<size_t>(j)];
    m.jnt_dofadr[j] = jnt_dofadr_[static_cast<size_t>(j)];
    m.jnt_bodyid[j] = body;
    m.jnt_group[j] = s.group;
    // A free joint is never limited, whatever its class says.
    m.jnt_limited[j] =
        s.type != kJointFree &&
        resolve_limited(s.limited, s.range_given, autolimits, s.origin, s.name, "limited", "range");
    if (m.jnt_limited[j] && s.range[0] >= s.range[1] && s.type != kJointBall) {
      fail(s.origin, s.name, "range[0] must be smaller than range[1]");
    }
    if (m.jnt_limited[j] && s.type == kJointBall && s.range[0] != 0)
      fail(s.origin, s.name, "a ball joint's range[0] must be 0");
    copy_to(m.jnt_solref + kNREF * j, s.solref_limit);
    copy_to(m.jnt_solimp + kNIMP * j, s.solimp_limit);
    // (0, 0) is no springdamper; set_const applies the others.
    if ((s.springdamper[0] != 0 || s.springdamper[1] != 0) &&
        !(s.springdamper[0] > 0 && s.springdamper[1] > 0)) {
      fail(s.origin, s.name, "springdamper values must be positive (or both 0, for none)");
    }
    copy_to(m.jnt_pos + 3 * j, s.pos);
    Vec3 axis = s.axis;
    if (s.type == kJointHinge || s.type == kJointSlide) {
      const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
      if (n < kMinVal) fail(s.origin, s.name, "joint axis cannot be zero");
      for (double& a : axis) a /= n;
    }
    copy_to(m.jnt_axis + 3 * j, axis);
    m.jnt_stiffness[j] = s.stiffness;
    // Angular ranges are converted to radians, but only where they are used (limited joints).
    std::array<double, 2> range = s.range;
    if (m.jnt_limited[j] && (s.type == kJointHinge || s.type == kJointBall)) {
      const double to_radians = spec_.compiler.degree ? kPi / 180 : 1;
      range = {range[0] * to_radians, range[1] * to_radians};
    }
    copy_to(m.jnt_range + 2 * j, range);
    m.jnt_margin[j] = s.margin;
    std::copy(s.user.begin(), s.user.end(), m.jnt_user + j * m.nuser_jnt);
    // Positions: hinge and slide start at ref, ball and free at the body frame.
    const int adr = m.jnt_qposadr[j];
    switch (s.type) {
      case kJointFree: {
        const FlatBody& b = bodies_[static_cast<size_t>(body)];
        copy_to(m.qpos0 + adr, b.pos);
        copy_to(m.qpos0 + adr + 3, b.quat);
        copy_to(m.qpos_spring + adr, b.pos);
        copy_to(m.qpos_spring + adr + 3, b.quat);
        break;
      }
      case kJointBall: m.qpos0[adr] = m.qpos_spring[adr] = 1; break;
      default: m.qpos0[adr] = s.ref; m.qpos_spring[adr] = s.springref;
    }
    // Dofs of this joint.
    for (int k = 0; k < joint_nv(s.type); ++k) {
      const int d = m.jnt_dofadr[j] + k;
      m.dof_bodyid[d] = body;
      m.dof_jntid[d] = j;
      m.dof_parentid[d] = dof_parent_[static_cast<size_t>(d)];
      m.dof_Madr[d] = dof_madr_[static_cast<size_t>(d)];
      copy_to(m.dof_solref + kNREF * d, s.solref_friction);
      copy_to(m.dof_solimp + kNIMP * d, s.solimp_friction);
      m.dof_frictionloss[d] = s.frictionloss;
      m.dof_armature[d] = s.armature;
      m.dof_damping[d] = s.damping;
    }
  }
  // Simple dofs: those of simple bodies, counted in runs.
  for (int d = m.nv - 1; d >= 0; --d) {
    const bool simple = m.body_simple[m.dof_bodyid[d]];
    m.dof_simplenum[d] = simple ? 1 + (d + 1 < m.nv ? m.dof_simplenum[d + 1] : 0) : 0;
  }
}

// limited="auto": with autolimits, limited iff a range was given; without, a range alone is an
// error (as in MuJoCo 2.2.2, which asks the user to be explicit).
bool Compiler::resolve_limited(TriState limited, bool range_given, bool autolimits,
                               const Origin& origin, const std::string& name, const char* flag,
                               const char* range) {
  if (limited != TriState::kAuto) return limited == TriState::kTrue;
  if (autolimits) return range_given;
  if (range_given) {
    fail(origin, name,
         std::string("has '") + range + "' but not '" + flag +
             "': set autolimits=\"true\" in <compiler>, give '" + flag +
             "' explicitly, or remove '" + range + "'");
  }
  return false;
}

void Compiler::fill_geoms(Model& m) {
  for (int g = 0; g < m.ngeom; ++g) {
    const FlatGeom& f = geoms_[static_cast<size_t>(g)];
    const GeomSpec& s = *f.spec;
    m.geom_type[g] = s.type;
    m.geom_contype[g] = s.contype;
    m.geom_conaffinity[g] = s.conaffinity;
    m.geom_condim[g] = s.condim;
    m.geom_bodyid[g] = f.body;
    m.geom_dataid[g] = s.type == kGeomMesh ? f.mesh : s.type == kGeomHfield ? f.hfield : -1;
    m.geom_matid[g] = f.material;
    m.geom_group[g] = s.group;
    m.geom_priority[g] = s.priority;
    m.geom_solmix[g] = s.solmix;
    copy_to(m.geom_solref + kNREF * g, s.solref);
    copy_to(m.geom_solimp + kNIMP * g, s.solimp);
    Vec3 size = s.size;
    if (s.type == kGeomHfield) size = assets_.hfield_geom_size(f.hfield);
    copy_to(m.geom_size + 3 * g, size);
    m.geom_rbound[g] = bounding_radius(s.type, size, f);
    copy_to(m.geom_pos + 3 * g, f.pos);
    Quat q = f.quat;
    math::quat_normalize(q.data());
    copy_to(m.geom_quat + 4 * g, q);
    copy_to(m.geom_friction + 3 * g, s.friction);
    m.geom_margin[g] = s.margin;
    m.geom_gap[g] = s.gap;
    std::copy(s.user.begin(), s.user.end(), m.geom_user + g * m.nuser_geom);
    copy_to(m.geom_rgba + 4 * g, s.rgba);
    m.geom_sameframe[g] = sameframe(f.pos, q, f.body);
    fluid_coefficients(s.type, m.geom_size + 3 * g, s.fluid_ellipsoid, s.fluidcoef.data(),
                       m.geom_fluid + kNFLUID * g);
  }
}

// 1 when a frame equals its body frame, 2 when it equals the body's inertial frame, else 0.
uint8_t Compiler::sameframe(const Vec3& pos, const Quat& quat, int body) const {
  if (is_zero(pos) && is_identity(quat)) return 1;
  const FlatBody& b = bodies_[static_cast<size_t>(body)];
  if (pos == b.ipos && quat == b.iquat) return 2;
  return 0;
}

double Compiler::bounding_radius(int type, const Vec3& size, const FlatGeom& f) const {
  switch (type) {
    case kGeomSphere: return size[0];
    case kGeomCapsule: return size[0] + size[1];
    case kGeomCylinder: return std::sqrt(size[0] * size[0] + size[1] * size[1]);
    case kGeomEllipsoid: return std::max({size[0], size[1], size[2]});
    case kGeomBox: return std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
    case kGeomMesh: return f.mesh_geom.rbound;
    default: return 0;
  }
}

void Compiler::fill_sites(Model& m) {
  for (int i = 0; i < m.nsite; ++i) {
    const FlatSite& f = sites_[static_cast<size_t>(i)];
    const SiteSpec& s = *f.spec;
    m.site_type[i] = s.type;
    m.site_bodyid[i] = f.body;
    m.site_matid[i] = f.material;
    m.site_group[i] = s.group;
    check_size(s);
    copy_to(m.site_size + 3 * i, s.size);
    copy_to(m.site_pos + 3 * i, f.pos);
    Quat q = f.quat;
    math::quat_normalize(q.data());
    copy_to(m.site_quat + 4 * i, q);
    std::copy(s.user.begin(), s.user.end(), m.site_user + i * m.nuser_site);
    copy_to(m.site_rgba + 4 * i, s.rgba);
    m.site_sameframe[i] = sameframe(f.pos, q, f.body);
  }
}

void Compiler::fill_cameras_and_lights(Model& m) {
  for (int i = 0; i < m.ncam; ++i) {
    const CameraSpec& c = *cameras_[static_cast<size_t>(i)].first;
    m.cam_mode[i] = c.mode;
    m.cam_bodyid[i] = cameras_[static_cast<size_t>(i)].second;
    m.cam_targetbodyid[i] = target_body(c.mode, c.target, m.cam_bodyid[i], c.origin, c.name);
    copy_to(m.cam_pos + 3 * i, c.pos);
    Quat q = camera_quat_[static_cast<size_t>(i)];
    math::quat_normalize(q.data());
    copy_to(m.cam_quat + 4 * i, q);
    m.cam_fovy[i] = c.fovy;
    m.cam_ipd[i] = c.ipd;
    std::copy(c.user.begin(), c.user.end(), m.cam_user + i * m.nuser_cam);
  }
  for (int i = 0; i < m.nlight; ++i) {
    const LightSpec& l = *lights_[static_cast<size_t>(i)].first;
    m.light_mode[i] = l.mode;
    m.light_bodyid[i] = lights_[static_cast<size_t>(i)].second;
    m.light_targetbodyid[i] = target_body(l.mode, l.target, m.light_bodyid[i], l.origin, l.name);
    m.light_directional[i] = l.directional;
    m.light_castshadow[i] = l.castshadow;
    m.light_active[i] = l.active;
    copy_to(m.light_pos + 3 * i, l.pos);
    Vec3 dir = l.dir;
    const double n = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (n < kMinVal) fail(l.origin, l.name, "light direction cannot be zero");
    for (double& v : dir) v /= n;
    copy_to(m.light_dir + 3 * i, dir);
    copy_to(m.light_attenuation + 3 * i, l.attenuation);
    m.light_cutoff[i] = static_cast<float>(l.cutoff);
    m.light_exponent[i] = static_cast<float>(l.exponent);
    copy_to(m.light_ambient + 3 * i, l.ambient);
    copy_to(m.light_diffuse + 3 * i, l.diffuse);
    copy_to(m.light_specular + 3 * i, l.specular);
  }
}

// The body a camera or light in `own` body targets; MuJoCo 2.2.2 rejects targeting `own`, and
// accepts a target mode without a target (-1: the camera or light stays fixed).
int Compiler::target_body(int mode, const std::string& target, int own, const Origin& origin,
                          const std::string& name) const {
  if (mode == kCamLightTargetBody || mode == kCamLightTargetBodyCom) {
    if (target.empty()) return -1;
    const int id = id_of(kObjBody, target, origin, name, "target body");
    if (id == own) fail(origin, name, "cannot target the body it is in");
    return id;
  }
  return -1;
}

}  // namespace joco::compiler
