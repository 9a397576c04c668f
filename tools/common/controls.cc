#include "common/controls.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "joco/error.h"

namespace joco::tools {

namespace {

// The radical inverse of index in base: its base digits mirrored about the point.
template <typename Int>
double radical_inverse(Int index, int base) {
  double result = 0, fraction = 1.0 / base;
  for (const Int b = static_cast<Int>(base); index > 0; index /= b) {
    result += fraction * static_cast<double>(index % b);
    fraction /= base;
  }
  return result;
}

}  // namespace

double halton(int64_t index, int base) {
  // 32-bit division where the index fits: the same digits, several times faster than 64-bit on
  // some processors (joco-profile draws nu of these a step)
  if (index >= 0 && index <= UINT32_MAX) {
    return radical_inverse(static_cast<uint32_t>(index), base);
  }
  return radical_inverse(index, base);
}

namespace {

// The shift of seed `seed`'s sequence for control j, uniform in [0, 1), 0 for seed 0 (so that seed
// 0 is testspeed's sequence): a random shift modulo 1 (Cranley-Patterson rotation) keeps each
// sequence's even spread and makes sequences of different seeds independent. (Offsetting the index
// by seed * 2^32, as before, moved each value by about 1e-10 only: the radical inverse puts an
// index's high digits in its lowest.)
double seed_shift(int64_t seed, int j) {
  if (seed == 0) return 0;
  uint64_t z = static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(j) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finaliser
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

}  // namespace

void control_noise(const Model& m, double noise, int64_t seed, int64_t i, double* ctrl) {
  for (int j = 0; j < m.nu; ++j) {
    double center = 0, radius = 1;
    if (m.actuator_ctrllimited[j]) {
      const double* range = m.actuator_ctrlrange + 2 * j;
      center = (range[1] + range[0]) / 2;
      radius = (range[1] - range[0]) / 2;
    }
    double u = halton(i, j + 2) + seed_shift(seed, j);
    if (u >= 1) u -= 1;
    ctrl[j] = center + noise * radius * (2 * u - 1);
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

namespace {

// "(8, 1001, 3)", as numpy prints a shape.
std::string shape_text(const std::vector<size_t>& dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + (dims.size() == 1 ? ",)" : ")");
}

}  // namespace

std::optional<StackedBatch> StackedBatch::find(const TrajectoryInput& input, const Model& m,
                                               std::span<const Field> markers,
                                               std::span<const Field> fields) {
  const ModelSizes sizes = m.sizes();
  // The shape field f has stacked: [B, T] and its row shape.
  auto stacked_shape = [&](Field f, size_t rollouts, size_t rows) {
    std::vector<size_t> shape = {rollouts, rows};
    for (size_t n : field_row_shape(f, sizes)) shape.push_back(n);
    return shape;
  };
  std::vector<size_t> marker_dims;
  Field marker = Field::kCtrl;
  for (Field f : markers) {
    marker_dims = input.dataset_dims(field_info(f).name);
    marker = f;
    if (!marker_dims.empty()) break;
  }
  if (marker_dims.size() != field_row_shape(marker, sizes).size() + 2) return std::nullopt;

  StackedBatch s(input);
  s.rollouts_ = marker_dims[0];
  s.rows_ = marker_dims[1];
  const std::string marker_where = input.dataset_where(field_info(marker).name);
  if (s.rollouts_ == 0 || s.rows_ == 0) {
    throw InputError(marker_where + ": has shape " + shape_text(marker_dims) +
                     ", no rollouts or no rows (a stacked batch is [B, T, ...])");
  }
  for (Field f : fields) {
    const std::vector<size_t> dims = input.dataset_dims(field_info(f).name);
    if (dims.empty()) continue;
    const std::vector<size_t> expected = stacked_shape(f, s.rollouts_, s.rows_);
    if (dims != expected) {
      throw InputError(input.dataset_where(field_info(f).name) + ": has shape " + shape_text(dims) +
                       "; expected " + shape_text(expected) + " (" + std::to_string(s.rollouts_) +
                       " rollouts of " + std::to_string(s.rows_) + " rows, stacked as " +
                       field_info(marker).name + " " + shape_text(marker_dims) +
                       ", and the model's " + width_name(field_info(f).width) + ")");
    }
    s.fields_.push_back(f);
  }
  return s;
}

Matrix StackedBatch::read(Field f, size_t b) const {
  const char* name = field_info(f).name;
  Matrix out;
  out.rows = rows_;
  out.data = input_.read_dataset(name, b, 1);
  out.cols = out.data.size() / rows_;
  for (size_t i = 0; i < out.data.size(); ++i) {
    if (!std::isfinite(out.data[i])) {
      throw InputError(input_.dataset_where(name) + ": rollout " + std::to_string(b) + ", row " +
                       std::to_string(i / out.cols) + ", column " + std::to_string(i % out.cols) +
                       " is " + fmt::format("{}", out.data[i]));
    }
  }
  return out;
}

std::string StackedBatch::where(size_t b) const {
  return input_.dataset_where("") + "[" + std::to_string(b) + "]";
}

ControlSource ControlSource::from_stacked(const StackedBatch& s, size_t b, const Model& m) {
  ControlSource c;
  c.file_rows_ = s.rows();
  if (m.nu > 0) {
    if (!s.has(Field::kCtrl))
      throw InputError(s.where(b) + ": no 'ctrl' dataset, but the model has actuators");
    c.ctrl_ = s.read(Field::kCtrl, b);
  }
  if (s.has(Field::kQfrcApplied)) c.qfrc_applied_ = s.read(Field::kQfrcApplied, b);
  if (s.has(Field::kXfrcApplied)) c.xfrc_applied_ = s.read(Field::kXfrcApplied, b);
  return c;
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
