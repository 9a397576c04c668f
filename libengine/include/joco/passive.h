// Passive forces (computation chapter, "Passive forces"; fluid models of the MJCF option density,
// viscosity and wind and the geom attributes fluidshape and fluidcoef), writing MuJoCo 2.2.2's
// fields of Data. No heap allocation: temporaries come from the Data stack.
#pragma once

#include "joco/data.h"
#include "joco/model.h"

namespace joco {

// qfrc_passive (mj_passive): joint springs towards qpos_spring (hinge and slide: -k (q - q0);
// ball: -k times the rotation vector from the spring orientation to the joint's, in the child
// frame; free: the translation as for slide joints and the rotation as for ball joints), joint
// damping -b qvel, tendon springs and dampers along the tendons' moment arms, and the fluid
// forces of fluid (when density or viscosity is positive). All zero with the passive flag
// disabled. Needs tendon, tendon_velocity and com_vel.
void passive(const Model& m, Data& d);

// Adds the fluid forces to qfrc: the inertia-box model for bodies without fluidshape="ellipsoid"
// geoms, the ellipsoid model for each such geom (added mass, blunt and slender drag, angular drag,
// Kutta and Magnus lift, viscous resistance), with the medium's density, viscosity and wind.
void fluid(const Model& m, Data& d, double* qfrc);

// The semi-axes of the ellipsoid the fluid model gives a geom: spheres (r, r, r), capsules
// (r, r, half-length + r), cylinders (r, r, half-length), ellipsoids and boxes their sizes.
void fluid_semi_axes(int geom_type, const double size[3], double axes[3]);

}  // namespace joco
