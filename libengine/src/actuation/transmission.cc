// Actuator transmissions: the length of each actuator as a function of the configuration, and its
// gradient, the moment arms that map the scalar actuator force to joint space.
#include <cmath>

#include "actuation/moment_support.h"
#include "joco/actuation.h"
#include "joco/jacobian.h"
#include "math/vec.h"

namespace joco {

using namespace math;

namespace {

// r = R(q)' v: a vector given in the frame of unit quaternion q's parent, in q's frame.
void rotate_inverse(double* r, const double* q, const double* v) {
  double mat[9];
  quat_to_mat(mat, q);
  mat_t_vec3(r, mat, v);
}

// moment += scale * (jac' axis) for a 3 x nv Jacobian.
void add_projected(double* moment, const double* jac, const double* axis, double scale, int nv) {
  for (int i = 0; i < nv; ++i) {
    moment[i] += scale * (jac[i] * axis[0] + jac[nv + i] * axis[1] + jac[2 * nv + i] * axis[2]);
  }
}

void joint_transmission(const Model& m, Data& d, int u, double* moment, double* length) {
  const double* gear = m.actuator_gear + 6 * u;
  const int joint = m.actuator_trnid[2 * u];
  const int dof = m.jnt_dofadr[joint];
  const double* q = d.qpos + m.jnt_qposadr[joint];
  const bool in_parent = m.actuator_trntype[u] == kTrnJointInParent;
  switch (m.jnt_type[joint]) {
    case kJointSlide:
    case kJointHinge:
      *length = gear[0] * q[0];
      moment[dof] = gear[0];
      break;
    case kJointBall: {
      // The rotation vector is the same in the child and the parent frame.
      double rotation[3], axis[3];
      quat_to_rotation_vector(rotation, q);
      copy3(axis, gear);
      if (in_parent) rotate_inverse(axis, q, gear);
      *length = dot3(axis, rotation);
      copy3(moment + dof, axis);
      break;
    }
    case kJointFree: {
      *length = 0;
      copy3(moment + dof, gear);
      if (in_parent) {
        rotate_inverse(moment + dof + 3, q + 3, gear + 3);
      } else {
        copy3(moment + dof + 3, gear + 3);
      }
      break;
    }
  }
}

void slider_crank_transmission(const Model& m, Data& d, int u, double* moment, double* length) {
  const int nv = m.nv;
  const double gear = m.actuator_gear[6 * u];
  const double rod = m.actuator_cranklength[u];
  const int crank = m.actuator_trnid[2 * u];
  const int slider = m.actuator_trnid[2 * u + 1];
  const double* slider_pos = d.site_xpos + 3 * slider;
  const double* slider_mat = d.site_xmat + 9 * slider;
  const double axis[3] = {slider_mat[2], slider_mat[5], slider_mat[8]};  // the slider's z axis
  double vec[3];
  sub3(vec, d.site_xpos + 3 * crank, slider_pos);

  // The slider sits where the rod from the crank pin meets its axis:
  //   length = a'v - sqrt((a'v)^2 + rod^2 - v'v),
  // v from the slider site to the crank pin. A rod too short to reach the axis (negative
  // determinant) is a broken crank: the square root is dropped.
  const double av = dot3(axis, vec);
  const double det = av * av + rod * rod - dot3(vec, vec);
  const double sdet = det > 0 ? std::sqrt(det) : 0;
  *length = gear * (av - sdet);

  // d length = (1 - a'v / sdet) (v' da + a' dv) + v' dv / sdet
  StackFrame frame(d);
  double* jac_crank = frame.doubles(3 * nv);
  double* jac_slider = frame.doubles(3 * nv);
  double* jac_axis = frame.doubles(3 * nv);
  jac(m, d, jac_crank, nullptr, d.site_xpos + 3 * crank, m.site_bodyid[crank]);
  jac_point_axis(m, d, jac_slider, jac_axis, slider_pos, axis, m.site_bodyid[slider]);
  for (int k = 0; k < 3 * nv; ++k) jac_crank[k] -= jac_slider[k];  // dv
  const double c = det > 0 ? 1 - av / sdet : 1;
  add_projected(moment, jac_axis, vec, gear * c, nv);
  add_projected(moment, jac_crank, axis, gear * c, nv);
  if (det > 0) add_projected(moment, jac_crank, vec, gear / sdet, nv);
}

void site_transmission(const Model& m, Data& d, int u, double* moment, double* length) {
  const int nv = m.nv;
  const double* gear = m.actuator_gear + 6 * u;
  const int site = m.actuator_trnid[2 * u];
  const int ref = m.actuator_trnid[2 * u + 1];
  StackFrame frame(d);
  double* jacp = frame.doubles(3 * nv);
  double* jacr = frame.doubles(3 * nv);
  jac_site(m, d, jacp, jacr, site);

  // The gear axes live in the frame of the refsite, or of the site itself.
  const double* frame_mat = d.site_xmat + 9 * (ref >= 0 ? ref : site);
  double force_axis[3], torque_axis[3];
  mat_vec3(force_axis, frame_mat, gear);
  mat_vec3(torque_axis, frame_mat, gear + 3);

  if (ref < 0) {
    *length = 0;
  } else {
    // Relative motion: the site's Jacobians minus the refsite's.
    double* ref_jacp = frame.doubles(3 * nv);
    double* ref_jacr = frame.doubles(3 * nv);
    jac_site(m, d, ref_jacp, ref_jacr, ref);
    for (int k = 0; k < 3 * nv; ++k) {
      jacp[k] -= ref_jacp[k];
      jacr[k] -= ref_jacr[k];
    }
    // Position of the site in the refsite's frame, and the rotation vector between the two
    // orientations. MuJoCo 2.2.2 composes each site's orientation as site_quat * xquat (the
    // site's local rotation first), and so does joco, to give the same lengths.
    double offset[3], local[3];
    sub3(offset, d.site_xpos + 3 * site, d.site_xpos + 3 * ref);
    mat_t_vec3(local, frame_mat, offset);
    double quat_site[4], quat_ref[4], rotation[3];
    quat_mul(quat_site, m.site_quat + 4 * site, d.xquat + 4 * m.site_bodyid[site]);
    quat_mul(quat_ref, m.site_quat + 4 * ref, d.xquat + 4 * m.site_bodyid[ref]);
    quat_difference(rotation, quat_site, quat_ref);
    *length = dot3(gear, local) + dot3(gear + 3, rotation);
  }
  add_projected(moment, jacp, force_axis, 1, nv);
  add_projected(moment, jacr, torque_axis, 1, nv);
}

void body_transmission(const Model& m, Data& d, int u, double* moment, double* length) {
  const int nv = m.nv;
  const int body = m.actuator_trnid[2 * u];
  *length = 0;
  StackFrame frame(d);
  double* jac1 = frame.doubles(3 * nv);
  double* jac2 = frame.doubles(3 * nv);
  int count = 0;
  for (int c = 0; c < d.ncon; ++c) {
    const Contact& con = d.contact[c];
    const int body1 = m.geom_bodyid[con.geom1], body2 = m.geom_bodyid[con.geom2];
    if (body1 != body && body2 != body) continue;
    // The separating velocity along the normal (frame row 0, from geom1 to geom2); adhesion pulls
    // against it.
    jac(m, d, jac1, nullptr, con.pos, body1);
    jac(m, d, jac2, nullptr, con.pos, body2);
    for (int k = 0; k < 3 * nv; ++k) jac2[k] -= jac1[k];
    add_projected(moment, jac2, con.frame, -1, nv);
    ++count;
  }
  if (count == 0) return;
  const double scale = m.actuator_gear[6 * u] / count;
  for (int i = 0; i < nv; ++i) moment[i] *= scale;
}

}  // namespace

void transmission(const Model& m, Data& d) {
  const int nv = m.nv;
  for (int u = 0; u < m.nu; ++u) {
    double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    for (int i = 0; i < nv; ++i) moment[i] = 0;
    double length = 0;
    switch (m.actuator_trntype[u]) {
      case kTrnJoint:
      case kTrnJointInParent: joint_transmission(m, d, u, moment, &length); break;
      case kTrnSliderCrank: slider_crank_transmission(m, d, u, moment, &length); break;
      case kTrnTendon: {
        const double gear = m.actuator_gear[6 * u];
        const int t = m.actuator_trnid[2 * u];
        length = gear * d.ten_length[t];
        const double* J = d.ten_J + static_cast<size_t>(t) * nv;
        for (int i = 0; i < nv; ++i) moment[i] = gear * J[i];
        break;
      }
      case kTrnSite: site_transmission(m, d, u, moment, &length); break;
      case kTrnBody: body_transmission(m, d, u, moment, &length); break;
      default: break;
    }
    d.actuator_length[u] = length;
  }
}

void actuator_velocity(const Model& m, Data& d) {
  const int nv = m.nv;
  for (int u = 0; u < m.nu; ++u) {
    const double* moment = d.actuator_moment + static_cast<size_t>(u) * nv;
    double v = 0;
    for_each_moment_dof(m, u, [&](int i) { v += moment[i] * d.qvel[i]; });
    d.actuator_velocity[u] = v;
  }
}

}  // namespace joco
