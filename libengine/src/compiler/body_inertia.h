// A body's inertia from rigid masses, and MuJoCo 2.2.2's last step for each body's inertia: shared
// by the MJCF compiler (bodies, fusestatic) and the URDF converter (links fused into a body).
#pragma once

#include <array>
#include <vector>

#include "compiler/spec.h"

namespace joco::compiler {

// A rigid mass in a body's frame: mass, centre, principal frame and principal moments.
struct MassElement {
  double mass = 0;
  Vec3 pos{};
  Quat quat{1, 0, 0, 0};
  Vec3 inertia{};
};

// The principal moments (math::eig3's order, descending) and principal axes of an inertia given by
// its six values ixx iyy izz ixy ixz iyz, as MJCF's fullinertia and URDF's <inertia> give it.
void principal_inertia(double moments[3], double quat[4], const std::array<double, 6>& inertia);

// The elements as one rigid mass: total mass, centre, and the principal axes (math::eig3) of the
// summed inertia (each element rotated into the body frame and shifted to the centre). Without
// mass (below kMinVal) everything is zero.
MassElement combine_elements(const std::vector<MassElement>& elements);

// What finish_inertia did to the principal moments.
enum class InertiaFinish { kKept, kBounded, kBalanced, kViolatesTriangle };

// The compiler's last step for one body's mass and principal moments, which MuJoCo 2.2.2 takes for
// each body before it fuses static bodies into their parents: the lower bounds boundmass and
// boundinertia, then the triangle inequality A + B >= C (with balanceinertia, all three moments are
// replaced by their mean; without, kViolatesTriangle and the moments are left as they are).
InertiaFinish finish_inertia(double& mass, Vec3& moments, const CompilerSettings& c);

}  // namespace joco::compiler
