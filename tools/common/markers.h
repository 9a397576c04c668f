// Recorded marker trajectories (schemas/markers.md): OpenSim's TRC text format, a simple CSV
// layout, and HDF5 as h5py users write it. Every reader gives positions in metres in the MJCF
// world (Z up), a NaN triple where a marker is missing (a gap), and fails with InputError naming
// the file, the line (text) or dataset (HDF5) and the field.
#pragma once

#include <string>
#include <vector>

namespace joco::tools {

enum class MarkerFormat { kAuto, kTrc, kCsv, kHdf5 };

// What the command line says about units and axes, before the file: empty / 0 for "as the file
// says" (TRC: its Units field and OpenSim's Y up; CSV and HDF5: their units / up marks, else metres
// and Z up).
struct MarkerReadOptions {
  MarkerFormat format = MarkerFormat::kAuto;
  std::string units;  // "mm", "cm" or "m"
  char up = 0;        // 'y' or 'z'
};

struct MarkerData {
  std::vector<std::string> names;  // M markers
  std::vector<double> time;        // T frames, increasing
  std::vector<double> positions;   // T x M x 3, metres, MJCF world; NaN where missing
  std::string units;               // the file's units as applied ("mm", "cm", "m")
  char up = 'z';                   // the file's up axis as applied
  double rate = 0;                 // frames per second, when the file says
  size_t frames() const { return time.size(); }
  size_t markers() const { return names.size(); }
  const double* frame(size_t t) const { return positions.data() + t * 3 * names.size(); }
};

// Reads a marker file; the format from `options.format`, else from the content (HDF5 signature,
// TRC's "PathFileType" first line) and, for text, the name (.csv).
MarkerData read_markers(const std::string& path, const MarkerReadOptions& options = {});

// The text readers on text already in memory; `where` names the file in messages.
MarkerData parse_trc(const std::string& text, const std::string& where,
                     const MarkerReadOptions& options = {});
MarkerData parse_marker_csv(const std::string& text, const std::string& where,
                            const MarkerReadOptions& options = {});

// Metres per unit of "mm", "cm", "m" (case-insensitive; also "millimeters", "meters"...);
// 0 when unknown.
double metres_per_unit(const std::string& units);

}  // namespace joco::tools
