#include "common/controls.h"

#include <algorithm>
#include <cstring>

#include "joco/error.h"

namespace joco::tools {

double halton(int64_t index, int base) {
  double result = 0, fraction = 1.0 / base;
  while (index > 0) {
    result += fraction * static_cast<double>(index % base);
    index /= base;
    fraction /= base;
  }
  return result;
}

void control_noise(const Model& m, double noise, int64_t seed, int64_t i, double* ctrl) {
  constexpr int64_t kSeedStride = int64_t{1} << 32;
  for (int j = 0; j < m.nu; ++j) {
    double center = 0, radius = 1;
    if (m.actuator_ctrllimited[j]) {
      const double* range = m.actuator_ctrlrange + 2 * j;
      center = (range[1] + range[0]) / 2;
      radius = (range[1] - range[0]) / 2;
    }
    ctrl[j] = center + noise * radius * (2 * halton(i + seed * kSeedStride, j + 2) - 1);
  }
}

ControlSource ControlSource::from_file(const std::string& ref, const Model& m) {
  Trajectory t = TrajectoryInput::open(ref, TrajectoryUse::kControls).single();
  return from_trajectory(t, m);
}

ControlSource ControlSource::from_trajectory(Trajectory& t, const Model& m) {
  t.validate(m);
  ControlSource s;
  s.file_rows_ = t.rows();
  if (s.file_rows_ == 0) throw InputError(t.where() + ": no rows");
  if (m.nu > 0) {
    if (!t.has(Field::kCtrl))
      throw InputError(t.where() + ": no 'ctrl' dataset, but the model has actuators");
    s.ctrl_ = t.read(Field::kCtrl);
  }
  if (t.has(Field::kQfrcApplied)) s.qfrc_applied_ = t.read(Field::kQfrcApplied);
  if (t.has(Field::kXfrcApplied)) s.xfrc_applied_ = t.read(Field::kXfrcApplied);
  return s;
}

ControlSource ControlSource::noise(double amplitude, int64_t seed) {
  ControlSource s;
  s.noise_ = amplitude;
  s.seed_ = seed;
  return s;
}

std::optional<size_t> ControlSource::rows() const {
  if (file_rows_ > 0) return file_rows_;
  return std::nullopt;
}

ControlSource ControlSource::with_seed_offset(int64_t offset) const {
  ControlSource s = *this;
  s.seed_ += offset;
  return s;
}

void ControlSource::apply(const Model& m, Data& d, size_t row) const {
  if (file_rows_ > 0) {
    const size_t r = std::min(row, file_rows_ - 1);
    if (m.nu > 0) std::memcpy(d.ctrl, ctrl_.row(r), sizeof(double) * static_cast<size_t>(m.nu));
    if (!qfrc_applied_.data.empty()) {
      std::memcpy(d.qfrc_applied, qfrc_applied_.row(r), sizeof(double) * static_cast<size_t>(m.nv));
    }
    if (!xfrc_applied_.data.empty()) {
      std::memcpy(d.xfrc_applied, xfrc_applied_.row(r),
                  sizeof(double) * 6 * static_cast<size_t>(m.nbody));
    }
  } else if (noise_ > 0) {
    control_noise(m, noise_, seed_, static_cast<int64_t>(row), d.ctrl);
  } else {
    std::fill(d.ctrl, d.ctrl + m.nu, 0.0);
  }
}

}  // namespace joco::tools
