#include "compiler/body_inertia.h"

#include "math/eig3.h"
#include "math/vec.h"

namespace joco::compiler {

void principal_inertia(double moments[3], double quat[4], const std::array<double, 6>& inertia) {
  const auto& i = inertia;
  const double full[9] = {i[0], i[3], i[4], i[3], i[1], i[5], i[4], i[5], i[2]};
  math::eig3(moments, quat, full);
}

MassElement combine_elements(const std::vector<MassElement>& elements) {
  double mass = 0, com[3] = {0, 0, 0};
  for (const MassElement& e : elements) {
    mass += e.mass;
    math::add_scaled3(com, com, e.pos.data(), e.mass);
  }
  MassElement total;
  if (mass < kMinVal) return total;
  math::scale3(com, com, 1 / mass);
  double tensor[9] = {};
  for (const MassElement& e : elements) {
    double r[9], tmp[9], rotated[9];
    math::quat_to_mat(r, e.quat.data());
    const double diag[9] = {e.inertia[0], 0, 0, 0, e.inertia[1], 0, 0, 0, e.inertia[2]};
    math::mat_mat3(tmp, r, diag);
    math::mat_mat_t3(rotated, tmp, r);
    double d[3];
    math::sub3(d, e.pos.data(), com);
    const double dd = math::dot3(d, d);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        tensor[3 * i + j] += rotated[3 * i + j] + e.mass * ((i == j ? dd : 0) - d[i] * d[j]);
      }
    }
  }
  double eig[3], q[4];
  math::eig3(eig, q, tensor);
  total.mass = mass;
  total.pos = {com[0], com[1], com[2]};
  total.quat = {q[0], q[1], q[2], q[3]};
  total.inertia = {eig[0], eig[1], eig[2]};
  return total;
}

InertiaFinish finish_inertia(double& mass, Vec3& moments, const CompilerSettings& c) {
  InertiaFinish result = InertiaFinish::kKept;
  if (mass < c.boundmass) mass = c.boundmass;
  for (double& v : moments) {
    if (v < c.boundinertia) {
      v = c.boundinertia;
      result = InertiaFinish::kBounded;
    }
  }
  const Vec3& I = moments;
  if (I[0] + I[1] >= I[2] && I[0] + I[2] >= I[1] && I[1] + I[2] >= I[0]) return result;
  if (!c.balanceinertia) return InertiaFinish::kViolatesTriangle;
  const double mean = (I[0] + I[1] + I[2]) / 3;
  moments = {mean, mean, mean};
  return InertiaFinish::kBalanced;
}

}  // namespace joco::compiler
