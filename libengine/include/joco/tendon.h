// Tendons (MJCF tendon/fixed and tendon/spatial): lengths, wrap paths, moment arms and velocities,
// writing MuJoCo 2.2.2's fields of Data. No heap allocation: temporaries come from the Data stack.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// Tendon lengths and moment arms (mj_tendon). Needs kinematics and com_pos.
//
// Fixed tendons: length = sum coef * qpos of their (scalar) joints. Spatial tendons: the path
// through their sites, wrapping around spheres and cylinders (infinite for wrapping) as MuJoCo
// 2.2.2 decides it: without a side site only when the straight segment crosses the geom, the short
// way; with a side site outside the geom on the side of the side site; with a side site inside the
// geom the path must touch it (the touch point found as MuJoCo 2.2.2 finds it, within about 1e-7 of
// the shortest path's). Each branch started by a pulley is divided by its divisor.
//
// Writes ten_length; ten_J as a dense ntendon x nv matrix (the gradient of the length with respect
// to the joint velocities); ten_J_rownnz, ten_J_rowadr, ten_J_colind: the dofs each row can depend
// on (the union of the dof chains of the bodies its path touches, increasing), packed one row
// after the other as MuJoCo's sparse mode packs them (joco fills them in dense mode too, where
// MuJoCo leaves them untouched); ten_wrapadr, ten_wrapnum, wrap_obj and
// wrap_xpos: the points of each spatial path (sites: obj -1, tangent points on a wrapped geom:
// the geom's id, pulleys: obj -2 at the origin), three numbers per point, as MuJoCo stores them.
void tendon(const Model& m, Data& d);

// Tendon velocities ten_velocity = ten_J qvel (part of mj_fwdVelocity). Needs tendon.
void tendon_velocity(const Model& m, Data& d);

}  // namespace joco
