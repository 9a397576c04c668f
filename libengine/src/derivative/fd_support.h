// Small pieces shared by the finite-difference derivatives: differences of physics states
// (kStatePhysics of joco/state.h: positions in the tangent space) and of plain vectors.
#pragma once

#include <cstring>

#include "joco/data.h"
#include "joco/model.h"
#include "joco/smooth.h"

namespace joco::fd {

inline void copy(double* dst, const double* src, int n) {
  if (n > 0) std::memcpy(dst, src, sizeof(double) * static_cast<size_t>(n));
}

// dx = (x2 - x1) / h for two physics states x = (qpos, qvel, act) in the tangent space (2nv + na values): differentiate_pos for qpos.
inline void state_difference(const Model& m, double* dx, const double* x1, const double* x2,
                             double h) {
  differentiate_pos(m, dx, h, x1, x2);
  for (int i = 0; i < m.nv + m.na; ++i) dx[m.nv + i] = (x2[m.nq + i] - x1[m.nq + i]) / h;
}

// dy = (y2 - y1) / h.
inline void difference(double* dy, const double* y1, const double* y2, int n, double h) {
  for (int i = 0; i < n; ++i) dy[i] = (y2[i] - y1[i]) / h;
}

}  // namespace joco::fd
