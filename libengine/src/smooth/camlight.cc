// Global poses of cameras and lights in their tracking modes.
#include "joco/smooth.h"
#include "math/vec.h"

namespace joco {

using namespace math;

namespace {

// The point a camera or light in a target mode looks at.
inline const double* target_point(const Data& d, int mode, int target) {
  return mode == kCamLightTargetBodyCom ? d.subtree_com + 3 * target : d.xpos + 3 * target;
}

}  // namespace

void camlight(const Model& m, Data& d) {
  for (int c = 0; c < m.ncam; ++c) {
    const int body = m.cam_bodyid[c];
    const int mode = m.cam_mode[c];
    double* pos = d.cam_xpos + 3 * c;
    double* mat = d.cam_xmat + 9 * c;
    // The frame fixed in the body; the modes then replace the position or the orientation.
    double offset[3], quat[4];
    mat_vec3(offset, d.xmat + 9 * body, m.cam_pos + 3 * c);
    add3(pos, d.xpos + 3 * body, offset);
    quat_mul(quat, d.xquat + 4 * body, m.cam_quat + 4 * c);
    quat_to_mat(mat, quat);
    if (mode == kCamLightTrack || mode == kCamLightTrackCom) {
      // Constant offset from the body (or its subtree's com), constant orientation.
      const double* base = mode == kCamLightTrack ? d.xpos + 3 * body : d.subtree_com + 3 * body;
      const double* offset0 = mode == kCamLightTrack ? m.cam_pos0 + 3 * c : m.cam_poscom0 + 3 * c;
      add3(pos, base, offset0);
      for (int k = 0; k < 9; ++k) mat[k] = m.cam_mat0[9 * c + k];
    } else if (camlight_targets(mode, m.cam_targetbodyid[c])) {
      // Look at the target (along -z), keeping the x axis horizontal.
      double x[3], y[3], z[3];
      sub3(z, pos, target_point(d, mode, m.cam_targetbodyid[c]));
      normalize3(z);
      const double up[3] = {0, 0, 1};
      cross3(x, up, z);
      normalize3(x);
      cross3(y, z, x);
      normalize3(y);
      for (int k = 0; k < 3; ++k) {
        mat[3 * k] = x[k];
        mat[3 * k + 1] = y[k];
        mat[3 * k + 2] = z[k];
      }
    }
  }

  for (int l = 0; l < m.nlight; ++l) {
    const int body = m.light_bodyid[l];
    const int mode = m.light_mode[l];
    double* pos = d.light_xpos + 3 * l;
    double* dir = d.light_xdir + 3 * l;
    double offset[3];
    mat_vec3(offset, d.xmat + 9 * body, m.light_pos + 3 * l);
    add3(pos, d.xpos + 3 * body, offset);
    mat_vec3(dir, d.xmat + 9 * body, m.light_dir + 3 * l);
    if (mode == kCamLightTrack || mode == kCamLightTrackCom) {
      const double* base = mode == kCamLightTrack ? d.xpos + 3 * body : d.subtree_com + 3 * body;
      const double* offset0 =
          mode == kCamLightTrack ? m.light_pos0 + 3 * l : m.light_poscom0 + 3 * l;
      add3(pos, base, offset0);
      copy3(dir, m.light_dir0 + 3 * l);
    } else if (camlight_targets(mode, m.light_targetbodyid[l])) {
      sub3(dir, target_point(d, mode, m.light_targetbodyid[l]), pos);
      normalize3(dir);
    }
  }
}

}  // namespace joco
