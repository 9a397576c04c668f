// camlight: geometric properties of every mode on random trees.
#include <gtest/gtest.h>

#include "joco/smooth.h"
#include "math/vec.h"
#include "support/random_tree.h"

namespace joco {
namespace {

using namespace math;

TEST(Camlight, EveryModeHasItsGeometry) {
  for (uint64_t seed = 0; seed < 5; ++seed) {
    const Model m = test::random_tree_model(seed);
    Data d(m);
    test::random_tree_state(m, d, seed);
    kinematics(m, d);
    com_pos(m, d);
    camlight(m, d);
    for (int c = 0; c < m.ncam; ++c) {
      const int body = m.cam_bodyid[c];
      const double* pos = d.cam_xpos + 3 * c;
      const double* mat = d.cam_xmat + 9 * c;
      double rrt[9];
      mat_mat_t3(rrt, mat, mat);
      for (int k = 0; k < 9; ++k) EXPECT_NEAR(rrt[k], k % 4 == 0 ? 1 : 0, 1e-14) << "camera " << c;
      // Fixed in the body: the body's frame carries the camera's local pose.
      double local[3], rel[3];
      sub3(rel, pos, d.xpos + 3 * body);
      mat_t_vec3(local, d.xmat + 9 * body, rel);
      switch (m.cam_mode[c]) {
        case kCamLightFixed:
          for (int k = 0; k < 3; ++k) EXPECT_NEAR(local[k], m.cam_pos[3 * c + k], 1e-14);
          break;
        case kCamLightTrack:
          for (int k = 0; k < 3; ++k) EXPECT_NEAR(rel[k], m.cam_pos0[3 * c + k], 1e-14);
          for (int k = 0; k < 9; ++k) EXPECT_EQ(mat[k], m.cam_mat0[9 * c + k]);
          break;
        case kCamLightTrackCom:
          for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(pos[k] - d.subtree_com[3 * body + k], m.cam_poscom0[3 * c + k], 1e-14);
          }
          break;
        default: {
          for (int k = 0; k < 3; ++k) EXPECT_NEAR(local[k], m.cam_pos[3 * c + k], 1e-14);
          // Looks along -z at the target, with a horizontal x axis.
          const int t = m.cam_targetbodyid[c];
          const double* target =
              m.cam_mode[c] == kCamLightTargetBody ? d.xpos + 3 * t : d.subtree_com + 3 * t;
          double dir[3], in_cam[3];
          sub3(dir, target, pos);
          normalize3(dir);
          mat_t_vec3(in_cam, mat, dir);
          EXPECT_NEAR(in_cam[2], -1, 1e-14);
          EXPECT_NEAR(mat[6], 0, 1e-14);  // x axis (first column) has no z component
        }
      }
    }
    for (int l = 0; l < m.nlight; ++l) {
      const double* dir = d.light_xdir + 3 * l;
      const int body = m.light_bodyid[l];
      if (m.light_mode[l] >= kCamLightTargetBody) {
        const int t = m.light_targetbodyid[l];
        const double* target =
            m.light_mode[l] == kCamLightTargetBody ? d.xpos + 3 * t : d.subtree_com + 3 * t;
        double to[3], c[3];
        sub3(to, target, d.light_xpos + 3 * l);
        cross3(c, to, dir);
        EXPECT_NEAR(norm3(c), 0, 1e-13);
        EXPECT_GT(dot3(to, dir), 0);
      } else if (m.light_mode[l] == kCamLightFixed) {
        double local[3];
        mat_t_vec3(local, d.xmat + 9 * body, dir);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(local[k], m.light_dir[3 * l + k], 1e-14);
      } else {
        for (int k = 0; k < 3; ++k) EXPECT_EQ(dir[k], m.light_dir0[3 * l + k]);
      }
    }
  }
}

}  // namespace
}  // namespace joco
