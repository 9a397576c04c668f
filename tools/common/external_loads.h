// Measured external loads (force plates): forces applied to named bodies at a point (the centre of
// pressure) with a free moment, read from OpenSim's ExternalLoads XML with its .mot/.sto data, from
// a joco mapping file over a .mot/.sto or HDF5 table, and converted to the model's world frame
// (schemas/external-loads.md). Resampled to a trajectory's times, they enter inverse dynamics as
// xfrc_applied: the force, and the moment about the body's centre of mass (r x F + free moment).
// Unreadable or inconsistent files are InputError naming the file (and line or element).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "joco/data.h"
#include "joco/model.h"

namespace joco::tools {

// The axes of a load file: as the model's world (z-up), or OpenSim's lab frame (y up), whose
// (x, y, z) is (x, -z, y) in a Z-up MJCF world (testdata/mocap/gait2354_subject01/README.md).
enum class LoadFrame { kZUp, kYUp };

// "z-up" or "y-up"; nullopt otherwise.
std::optional<LoadFrame> parse_load_frame(const std::string& text);

// One measured load: which body, and its columns in the data table (-1 for an absent point, which
// then is the body's centre of mass, or an absent free moment, zero).
struct ExternalLoad {
  std::string name;
  int body = -1;
  int force[3] = {-1, -1, -1};
  int point[3] = {-1, -1, -1};
  int torque[3] = {-1, -1, -1};
};

// The loads of a file and their samples, in the model's world frame.
class ExternalLoads {
 public:
  // Reads FILE: an OpenSim ExternalLoads XML (<ExternalLoads>), a joco mapping (schemas/
  // external-loads.md), or a .mot/.sto whose columns follow OpenSim's ground reaction names
  // (ground_force_v*, ground_force_p*, ground_torque_*, with N_ prefixes for more plates), which
  // then needs `bodies` (one body per plate, in order). `frame` overrides the file's frame (the
  // default is y-up for OpenSim's files, the mapping's `frame` line or z-up for mappings). `data`,
  // when not empty, replaces the data file the XML or mapping names (which is otherwise found
  // beside it).
  static ExternalLoads read(const std::string& path, const Model& m,
                            std::optional<LoadFrame> frame = std::nullopt,
                            const std::vector<std::string>& bodies = {},
                            const std::string& data = "");

  const std::vector<ExternalLoad>& loads() const { return loads_; }
  const std::string& path() const { return path_; }
  LoadFrame frame() const { return frame_; }
  size_t samples() const { return time_.size(); }

  // Low-pass filters the force, point and moment columns at their own (even) sampling
  // (lowpass_filter of joco/motion_differences.h). std::invalid_argument for uneven samples.
  void lowpass(double cutoff);

  // The loads at `times` (linear interpolation between samples), one row of 9 values per load
  // (force, point, free moment; world frame) per time. InputError when a time lies outside the
  // samples' span (beyond 1e-9 s).
  std::vector<double> resample(const std::vector<double>& times) const;

  // Adds row `values` (9 per load, as resample gives) to d.xfrc_applied: the force on the body and
  // the moment about its centre of mass, (point - xipos) x force + free moment. Needs d.xipos of
  // the row's positions (kinematics).
  void apply(const Model& m, Data& d, const double* values) const;

  // The samples, for tests: time and, per sample, 9 values per load (world frame).
  const std::vector<double>& time() const { return time_; }
  const std::vector<double>& values() const { return values_; }

 private:
  std::string path_;
  LoadFrame frame_ = LoadFrame::kZUp;
  std::vector<ExternalLoad> loads_;
  std::vector<double> time_;
  std::vector<double> values_;  // samples x loads x 9
};

}  // namespace joco::tools
