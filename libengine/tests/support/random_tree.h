// Random kinematic trees built by hand, for tests that check algorithms against each other
// (independent of the MJCF compiler and of MuJoCo).
#pragma once

#include <cstdint>

#include "joco/data.h"
#include "joco/model.h"

namespace joco::test {

struct RandomTreeOptions {
  int nbody = 12;           // bodies besides the world
  bool free_joints = true;  // children of the world may get a free joint
  bool ball_joints = true;
  bool armature = true;        // random dof armature
  bool stiffness = true;       // random joint stiffness and spring positions
  bool mocap = true;           // one mocap body (child of the world, no joints) with a child
  bool cameras_lights = true;  // a camera and a light in every mode
  bool floating = false;       // every child of the world gets a free joint (no mocap then)
};

// A random tree: each body is a child of a random earlier body (or the world), with 0 to 3 joints
// of random types in MuJoCo's allowed orders (a free joint alone on a child of the world; a ball
// joint last among rotations), random frames, inertial frames, masses, inertias, joint anchors,
// axes and reference positions, one site per body; sizes and addresses (dof tree, dof_Madr, nM)
// consistent as the compiler makes them.
Model random_tree_model(uint64_t seed, const RandomTreeOptions& options = {});

// Random qpos (unit quaternions), qvel, qacc, qfrc_applied and xfrc_applied, and mocap poses, for a
// model from random_tree_model.
void random_tree_state(const Model& m, Data& d, uint64_t seed);

// The position and velocity stages of the smooth dynamics: kinematics, com_pos, camlight, crb,
// factor_m, com_vel.
void smooth_position_velocity(const Model& m, Data& d);

}  // namespace joco::test
