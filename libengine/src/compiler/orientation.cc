#include "compiler/orientation.h"

#include <cmath>

#include "joco/error.h"
#include "math/vec.h"

namespace joco::compiler {

Quat quat_from_zaxis(const Vec3& zaxis) {
  double z[3] = {zaxis[0], zaxis[1], zaxis[2]};
  math::normalize3(z);
  const double up[3] = {0, 0, 1};
  double axis[3];
  math::cross3(axis, up, z);
  const double s = math::normalize3(axis);
  Quat q = {1, 0, 0, 0};
  if (s < 1e-10) {
    // Parallel or anti-parallel to z: no rotation, or half a turn about x.
    if (z[2] < 0) q = {0, 1, 0, 0};
    return q;
  }
  const double angle = std::atan2(s, z[2]);
  math::axis_angle_to_quat(q.data(), axis, angle);
  return q;
}

Quat resolve_orientation(const Orientation& o, const Quat& current, bool degree,
                         const std::string& eulerseq, const std::string& where) {
  const double* v = o.values.data();
  const double to_radians = degree ? kPi / 180 : 1;
  Quat q = current;
  switch (o.kind) {
    case Orientation::kNone: return current;
    case Orientation::kQuat:
      q = {v[0], v[1], v[2], v[3]};
      if (std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) < kMinVal) {
        throw InputError(where + ": quaternion is zero");
      }
      math::quat_normalize(q.data());
      return q;
    case Orientation::kAxisAngle: {
      double axis[3] = {v[0], v[1], v[2]};
      if (math::norm3(axis) < kMinVal) throw InputError(where + ": axisangle has a zero axis");
      math::normalize3(axis);
      math::axis_angle_to_quat(q.data(), axis, v[3] * to_radians);
      return q;
    }
    case Orientation::kXYAxes: {
      double x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3];
      if (math::norm3(x) < kMinVal) throw InputError(where + ": xyaxes has a zero x axis");
      math::normalize3(x);
      math::add_scaled3(y, y, x, -math::dot3(x, y));
      if (math::norm3(y) < kMinVal) throw InputError(where + ": xyaxes y axis is parallel to x");
      math::normalize3(y);
      math::cross3(z, x, y);
      const double mat[9] = {x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]};
      math::mat_to_quat(q.data(), mat);
      return q;
    }
    case Orientation::kZAxis: {
      const Vec3 z = {v[0], v[1], v[2]};
      if (std::sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]) < kMinVal) {
        throw InputError(where + ": zaxis is zero");
      }
      return quat_from_zaxis(z);
    }
    case Orientation::kEuler: {
      // Lower case: axes that move with the frame (multiply on the right); upper case: fixed axes
      // of the parent (multiply on the left).
      if (eulerseq.find_first_not_of("xyzXYZ") != std::string::npos)
        throw InputError(where + ": eulerseq '" + eulerseq + "' may only contain x, y, z, X, Y, Z");
      q = {1, 0, 0, 0};
      for (int i = 0; i < 3; ++i) {
        const char c = eulerseq[static_cast<size_t>(i)];
        double axis[3] = {0, 0, 0};
        axis[(c == 'x' || c == 'X') ? 0 : (c == 'y' || c == 'Y') ? 1 : 2] = 1;
        double r[4];
        math::axis_angle_to_quat(r, axis, v[i] * to_radians);
        if (c >= 'a') {
          math::quat_mul(q.data(), q.data(), r);
        } else {
          math::quat_mul(q.data(), r, q.data());
        }
      }
      return q;
    }
  }
  return q;
}

}  // namespace joco::compiler
