// The end of every sensor stage: noise when enabled, then cutoff (see joco/sensor.h).
#include <algorithm>
#include <cmath>

#include "math/vec.h"
#include "sensor/sensor_util.h"

namespace joco::sensor {

namespace {

// Four normals from two polar pairs: a rotation by noise * n0 about the axis (n1, n2, n3).
void random_rotation(GlibcRandom& random, double noise, double quat[4]) {
  double n[4];
  n[0] = random.standard_normal(&n[1]);
  n[2] = random.standard_normal(&n[3]);
  double axis[3] = {n[1], n[2], n[3]};
  math::normalize3(axis);
  math::axis_angle_to_quat(quat, axis, noise * n[0]);
}

void add_noise(const Model& m, Data& d, int i) {
  const double noise = m.sensor_noise[i];
  double* data = d.sensordata + m.sensor_adr[i];
  GlibcRandom& random = d.noise_random;
  switch (m.sensor_datatype[i]) {
    case kDataReal:
      for (int k = 0; k < m.sensor_dim[i]; ++k) data[k] += noise * random.standard_normal();
      break;
    case kDataPositive:
      for (int k = 0; k < m.sensor_dim[i]; ++k) {
        const double n = random.standard_normal();
        if (data[k] > 0) data[k] = std::max(0.0, data[k] + noise * n);
      }
      break;
    case kDataAxis: {
      double q[4];
      random_rotation(random, noise, q);
      math::quat_rotate(data, q, data);
      break;
    }
    case kDataQuaternion: {
      double q[4];
      random_rotation(random, noise, q);
      math::quat_mul(data, data, q);
      break;
    }
    default: break;
  }
}

void apply_cutoff(const Model& m, Data& d, int i) {
  const double cutoff = m.sensor_cutoff[i];
  double* data = d.sensordata + m.sensor_adr[i];
  for (int k = 0; k < m.sensor_dim[i]; ++k) {
    if (m.sensor_datatype[i] == kDataReal) {
      data[k] = std::clamp(data[k], -cutoff, cutoff);
    } else if (m.sensor_datatype[i] == kDataPositive) {
      data[k] = std::min(data[k], cutoff);
    }
  }
}

}  // namespace

void finish_stage(const Model& m, Data& d, int stage) {
  const bool noisy = (m.opt.enableflags & kEnableSensornoise) != 0;
  for (int i = 0; i < m.nsensor; ++i) {
    if (m.sensor_needstage[i] != stage) continue;
    if (noisy && m.sensor_noise[i] > 0) add_noise(m, d, i);
    if (m.sensor_cutoff[i] > 0) apply_cutoff(m, d, i);
  }
}

}  // namespace joco::sensor
