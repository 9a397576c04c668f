// Orientations as MJCF gives them (quat, axisangle, xyaxes, zaxis, euler) to unit quaternions.
// Shared by the MJCF compiler, composite expansion and the URDF converter (URDF's rpy).
#pragma once

#include <string>

#include "compiler/spec.h"

namespace joco::compiler {

// The quaternion of an orientation; `current` when none was given. `degree` says whether angles are
// in degrees; `eulerseq` is the compiler's Euler sequence. `where` names the element in errors.
Quat resolve_orientation(const Orientation& o, const Quat& current, bool degree,
                         const std::string& eulerseq, const std::string& where);

// The minimal rotation taking (0, 0, 1) to the direction `z` (normalised here).
Quat quat_from_zaxis(const Vec3& z);

}  // namespace joco::compiler
