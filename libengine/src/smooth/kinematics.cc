// Forward kinematics: from qpos (and the mocap poses) to the global frames of every body, joint,
// geom and site.
#include <cmath>

#include "joco/smooth.h"
#include "math/vec.h"

namespace joco {

namespace {

using namespace math;

// x is +0 (not -0, which a rotation can turn into +0).
inline bool is_positive_zero(double x) { return x == 0 && !std::signbit(x); }

// The global pose of an object attached to a body at local (pos, quat), or at the body's frame or
// inertial frame (SameFrame).
inline void attach(double* xpos, double* xmat, const Data& d, int body, const double* pos,
                   const double* quat, int sameframe) {
  if (sameframe == kSameFrameBody) {
    copy3(xpos, d.xpos + 3 * body);
    for (int k = 0; k < 9; ++k) xmat[k] = d.xmat[9 * body + k];
    return;
  }
  if (sameframe == kSameFrameInertia) {
    copy3(xpos, d.xipos + 3 * body);
    for (int k = 0; k < 9; ++k) xmat[k] = d.ximat[9 * body + k];
    return;
  }
  double offset[3];
  mat_vec3(offset, d.xmat + 9 * body, pos);
  add3(xpos, d.xpos + 3 * body, offset);
  double q[4];
  quat_mul(q, d.xquat + 4 * body, quat);
  quat_to_mat(xmat, q);
}

}  // namespace

void kinematics(const Model& m, Data& d) {
  // The world frame.
  zero3(d.xpos);
  quat_identity(d.xquat);
  identity3(d.xmat);
  zero3(d.xipos);
  identity3(d.ximat);

  for (int b = 1; b < m.nbody; ++b) {
    double pos[3], quat[4];
    const int mocap = m.body_mocapid[b];
    if (mocap >= 0) {
      // Mocap bodies are children of the world placed by the user.
      // Like MuJoCo, normalise the user's quaternion in place.
      quat_normalize(d.mocap_quat + 4 * mocap);
      copy3(pos, d.mocap_pos + 3 * mocap);
      copy4(quat, d.mocap_quat + 4 * mocap);
    } else {
      const int p = m.body_parentid[b];
      double offset[3];
      mat_vec3(offset, d.xmat + 9 * p, m.body_pos + 3 * b);
      add3(pos, d.xpos + 3 * p, offset);
      quat_mul(quat, d.xquat + 4 * p, m.body_quat + 4 * b);
    }

    // Joints apply in order, each in the frame left by the previous ones.
    const int jnt_end = m.body_jntadr[b] + m.body_jntnum[b];
    for (int j = m.body_jntadr[b]; j < jnt_end; ++j) {
      const int type = m.jnt_type[j];
      double* q = d.qpos + m.jnt_qposadr[j];
      double* xanchor = d.xanchor + 3 * j;
      double* xaxis = d.xaxis + 3 * j;
      if (type == kJointFree) {
        // The free joint sets the global pose directly. Its axis is the world's +z, as in
        // MuJoCo 2.2.2 (its translations are along the world's axes); the compiled jnt_axis is +z
        // too except in global coordinates, where it is +z turned into the body frame.
        quat_normalize(q + 3);  // in place, as MuJoCo does
        copy3(pos, q);
        copy4(quat, q + 3);
        copy3(xanchor, pos);
        xaxis[0] = 0;
        xaxis[1] = 0;
        xaxis[2] = 1;
        continue;
      }
      const double* jpos = m.jnt_pos + 3 * j;
      // A joint at its body's origin (all joints of a URDF model, many of an MJCF one): the zero
      // offset rotates to +0 exactly (for a finite quat), so the rotations are left out and the
      // sums below kept as they are (0 + p turns a -0 into +0, as the sum with the rotation does).
      const bool at_origin =
          is_positive_zero(jpos[0]) && is_positive_zero(jpos[1]) && is_positive_zero(jpos[2]);
      if (at_origin) {
        for (int k = 0; k < 3; ++k) xanchor[k] = 0.0 + pos[k];
      } else {
        quat_rotate(xanchor, quat, jpos);
        add3(xanchor, xanchor, pos);
      }
      quat_rotate(xaxis, quat, m.jnt_axis + 3 * j);
      const double q0 = m.qpos0[m.jnt_qposadr[j]];
      if (type == kJointSlide) {
        add_scaled3(pos, pos, xaxis, q[0] - q0);
        continue;
      }
      double rot[4];
      if (type == kJointBall) {
        quat_normalize(q);
        copy4(rot, q);
      } else {
        axis_angle_to_quat(rot, m.jnt_axis + 3 * j, q[0] - q0);
      }
      // Normalised once, after the last joint (MuJoCo's rounding: the last bits of a pose decide
      // whether a sphere resting on a plane touches it).
      quat_mul(quat, quat, rot);
      // The rotation keeps the anchor in place: pos += (xanchor - pos) - R jpos, rounded in this
      // order (MuJoCo's).
      double moved[3] = {0, 0, 0};
      if (!at_origin) quat_rotate(moved, quat, jpos);
      for (int k = 0; k < 3; ++k) pos[k] += (xanchor[k] - pos[k]) - moved[k];
    }

    quat_normalize(quat);
    copy3(d.xpos + 3 * b, pos);
    copy4(d.xquat + 4 * b, quat);
    double* xmat = d.xmat + 9 * b;
    quat_to_mat(xmat, quat);

    if (m.body_sameframe[b]) {
      // The inertial frame is the body frame.
      copy3(d.xipos + 3 * b, pos);
      for (int k = 0; k < 9; ++k) d.ximat[9 * b + k] = xmat[k];
    } else {
      double offset[3];
      mat_vec3(offset, xmat, m.body_ipos + 3 * b);
      add3(d.xipos + 3 * b, pos, offset);
      double iquat[4];
      quat_mul(iquat, quat, m.body_iquat + 4 * b);
      quat_to_mat(d.ximat + 9 * b, iquat);
    }
  }

  for (int g = 0; g < m.ngeom; ++g) {
    attach(d.geom_xpos + 3 * g, d.geom_xmat + 9 * g, d, m.geom_bodyid[g], m.geom_pos + 3 * g,
           m.geom_quat + 4 * g, m.geom_sameframe[g]);
  }
  for (int s = 0; s < m.nsite; ++s) {
    attach(d.site_xpos + 3 * s, d.site_xmat + 9 * s, d, m.site_bodyid[s], m.site_pos + 3 * s,
           m.site_quat + 4 * s, m.site_sameframe[s]);
  }
}

}  // namespace joco
