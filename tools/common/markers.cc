// Marker file readers (schemas/markers.md).
#include "common/markers.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

#include "common/h5.h"
#include "common/h5_guard.h"
#include "common/io.h"
#include "common/time_grid.h"
#include "joco/error.h"

namespace joco::tools {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> cells;
  size_t start = 0;
  while (true) {
    const size_t end = line.find(sep, start);
    cells.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return cells;
}

std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> cells;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) cells.push_back(line.substr(start, i - start));
  }
  return cells;
}

// The lines of a text, without line ends (\n, \r\n).
std::vector<std::string_view> lines_of(const std::string& text) {
  std::vector<std::string_view> lines = split(text, '\n');
  for (std::string_view& l : lines) {
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// A number, or nullopt; "NaN"/"nan" and an empty cell are gaps (NaN).
std::optional<double> parse_cell(std::string_view cell) {
  cell = trim(cell);
  if (cell.empty()) return kNaN;
  const std::string l = lower(std::string(cell));
  if (l == "nan" || l == "-nan" || l == "na") return kNaN;
  double v = 0;
  const char* first = cell.data();
  if (*first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, cell.data() + cell.size(), v);
  if (ec != std::errc() || ptr != cell.data() + cell.size()) return std::nullopt;
  return v;
}

[[noreturn]] void fail(const std::string& where, size_t line, const std::string& what) {
  throw InputError(where + ":" + std::to_string(line) + ": " + what);
}

// Scales to metres and turns a Y-up file into the MJCF world: (x, y, z) -> (x, -z, y).
void to_world(MarkerData& data, const std::string& where) {
  const double scale = metres_per_unit(data.units);
  if (scale == 0) {
    throw InputError(where + ": unknown units \"" + data.units + "\" (expected mm, cm or m)");
  }
  for (size_t i = 0; i + 2 < data.positions.size(); i += 3) {
    double* p = data.positions.data() + i;
    const double x = p[0] * scale, y = p[1] * scale, z = p[2] * scale;
    if (data.up == 'y') {
      p[0] = x, p[1] = -z, p[2] = y;
    } else {
      p[0] = x, p[1] = y, p[2] = z;
    }
  }
}

void check_time(const MarkerData& data, const std::string& where) {
  for (size_t t = 0; t < data.time.size(); ++t) {
    if (!std::isfinite(data.time[t])) {
      throw InputError(where + ": the time of frame " + std::to_string(t) + " is not a number");
    }
    if (t > 0 && !(data.time[t] > data.time[t - 1])) {
      throw InputError(where + ": time does not increase at frame " + std::to_string(t) + " (" +
                       fmt::format("{} after {}", data.time[t], data.time[t - 1]) + ")");
    }
  }
  if (data.time.empty()) throw InputError(where + ": no frames");
  if (data.names.empty()) throw InputError(where + ": no markers");
}

void apply_options(MarkerData& data, const MarkerReadOptions& o) {
  if (!o.units.empty()) data.units = o.units;
  if (o.up != 0) data.up = o.up;
}

// key=value words of CSV comment lines ("# units=mm up=y rate=100").
void read_marks(std::string_view comment, MarkerData& data, const std::string& where, size_t line) {
  for (std::string_view word : split_whitespace(comment)) {
    const size_t eq = word.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string key = lower(std::string(trim(word.substr(0, eq))));
    const std::string value = std::string(trim(word.substr(eq + 1)));
    if (key == "units") {
      data.units = value;
    } else if (key == "up") {
      const std::string v = lower(value);
      if (v != "y" && v != "z") fail(where, line, "up=" + value + ": expected y or z");
      data.up = v[0];
    } else if (key == "rate") {
      const std::optional<double> r = parse_cell(value);
      if (!r || !(*r > 0)) fail(where, line, "rate=" + value + ": expected a positive number");
      data.rate = *r;
    }
  }
}

}  // namespace

double metres_per_unit(const std::string& units) {
  const std::string u = lower(std::string(trim(units)));
  if (u == "mm" || u == "millimeters" || u == "millimetres") return 0.001;
  if (u == "cm" || u == "centimeters" || u == "centimetres") return 0.01;
  if (u == "m" || u == "meters" || u == "metres") return 1;
  return 0;
}

MarkerData parse_trc(const std::string& text, const std::string& where,
                     const MarkerReadOptions& options) {
  const std::vector<std::string_view> lines = lines_of(text);
  if (lines.empty() || lower(std::string(trim(lines[0]))).rfind("pathfiletype", 0) != 0) {
    fail(where, 1, "not a TRC file (the first line does not start with PathFileType)");
  }
  if (lines.size() < 5) fail(where, lines.size(), "the TRC header ends early (5 lines expected)");
  // Line 2 names the fields of line 3.
  const std::vector<std::string_view> keys = split(lines[1], '\t'), values = split(lines[2], '\t');
  std::map<std::string, std::string> header;
  for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
    header[lower(std::string(trim(keys[i])))] = std::string(trim(values[i]));
  }
  MarkerData data;
  data.up = 'y';  // OpenSim's lab frame
  data.units = header.count("units") ? header["units"] : "";
  if (header.count("datarate")) {
    const std::optional<double> rate = parse_cell(header["datarate"]);
    if (!rate || !(*rate > 0)) fail(where, 3, "DataRate \"" + header["datarate"] + "\"");
    data.rate = *rate;
  }
  // Line 4: Frame#, Time, then each name once over its three columns.
  const std::vector<std::string_view> name_cells = split(lines[3], '\t');
  if (name_cells.size() < 2 || lower(std::string(trim(name_cells[0]))) != "frame#") {
    fail(where, 4, "expected the column names Frame#, Time, then the marker names");
  }
  for (size_t i = 2; i < name_cells.size(); ++i) {
    const std::string_view name = trim(name_cells[i]);
    if (!name.empty()) data.names.emplace_back(name);
  }
  if (header.count("nummarkers")) {
    const std::optional<double> n = parse_cell(header["nummarkers"]);
    if (!n || *n != static_cast<double>(data.names.size())) {
      fail(where, 4,
           fmt::format("{} marker names, but NumMarkers is {}", data.names.size(),
                       header["nummarkers"]));
    }
  }
  const size_t nm = data.names.size();
  for (size_t l = 5; l < lines.size(); ++l) {
    if (trim(lines[l]).empty()) continue;
    std::vector<std::string_view> cells = lines[l].find('\t') != std::string_view::npos
                                              ? split(lines[l], '\t')
                                              : split_whitespace(lines[l]);
    const std::optional<double> time = cells.size() > 1 ? parse_cell(cells[1]) : std::nullopt;
    if (!time || std::isnan(*time)) fail(where, l + 1, "Time is not a number");
    // Tab-separated writers may end a row with empty cells of missing markers, or not at all.
    while (cells.size() > 2 + 3 * nm && trim(cells.back()).empty()) cells.pop_back();
    if (cells.size() > 2 + 3 * nm) {
      fail(where, l + 1,
           fmt::format("{} values, more than Frame#, Time and 3 x {} markers", cells.size(), nm));
    }
    data.time.push_back(*time);
    for (size_t c = 0; c < 3 * nm; ++c) {
      if (2 + c >= cells.size()) {
        data.positions.push_back(kNaN);
        continue;
      }
      const std::optional<double> v = parse_cell(cells[2 + c]);
      if (!v) {
        fail(where, l + 1,
             fmt::format("marker {} {}: \"{}\" is not a number", data.names[c / 3], "XYZ"[c % 3],
                         trim(cells[2 + c])));
      }
      data.positions.push_back(*v);
    }
  }
  if (header.count("numframes")) {
    const std::optional<double> n = parse_cell(header["numframes"]);
    if (n && *n != static_cast<double>(data.time.size())) {
      spdlog::warn("{}: NumFrames says {} but {} frames follow; all are read", where,
                   header["numframes"], data.time.size());
    }
  }
  check_time(data, where);
  // TRC times are often printed rounded (0.017 for 1/60 s): when every time lies within 0.5 ms of
  // the DataRate's grid, the grid's exact times are used (velocities from these times then do
  // not carry the rounding).
  if (data.rate > 0 && distance_from_even_grid(data.time, 1 / data.rate) <= 0.0005 + 1e-12) {
    put_on_even_grid(data.time, 1 / data.rate);
  }
  apply_options(data, options);
  if (data.units.empty()) fail(where, 3, "no Units in the header: give --units");
  to_world(data, where);
  return data;
}

MarkerData parse_marker_csv(const std::string& text, const std::string& where,
                            const MarkerReadOptions& options) {
  const std::vector<std::string_view> lines = lines_of(text);
  MarkerData data;
  data.units = "m";
  data.up = 'z';
  size_t l = 0;
  for (; l < lines.size(); ++l) {
    const std::string_view t = trim(lines[l]);
    if (t.empty()) continue;
    if (t.front() != '#') break;
    read_marks(t.substr(1), data, where, l + 1);
  }
  if (l == lines.size()) fail(where, lines.size(), "no header row");
  const size_t header_line = l;
  const char sep = lines[l].find(',') != std::string_view::npos    ? ','
                   : lines[l].find('\t') != std::string_view::npos ? '\t'
                                                                   : ';';
  const std::vector<std::string_view> header = split(lines[l], sep);
  // Columns: time, frame columns (ignored), then NAME_x NAME_y NAME_z (or . : / and X Y Z).
  int time_column = -1;
  std::vector<int> column_marker(header.size(), -1), column_axis(header.size(), -1);
  std::map<std::string, size_t> marker_index;
  std::vector<int> axes_seen;
  for (size_t c = 0; c < header.size(); ++c) {
    const std::string name(trim(header[c]));
    const std::string l_name = lower(name);
    if (l_name == "time" || l_name == "t" || l_name == "time_s" || l_name == "time (s)") {
      time_column = static_cast<int>(c);
      continue;
    }
    if (l_name == "frame" || l_name == "frame#" || l_name == "frames") continue;
    if (name.size() < 3 || std::string("_.:/ ").find(name[name.size() - 2]) == std::string::npos ||
        std::string("xyzXYZ").find(name.back()) == std::string::npos) {
      fail(where, header_line + 1,
           "column " + std::to_string(c + 1) + " \"" + name +
               "\": expected time, frame or NAME_x / NAME_y / NAME_z");
    }
    const std::string marker = name.substr(0, name.size() - 2);
    const int axis = std::tolower(static_cast<unsigned char>(name.back())) - 'x';
    auto [it, added] = marker_index.emplace(marker, data.names.size());
    if (added) {
      data.names.push_back(marker);
      axes_seen.push_back(0);
    }
    if (axes_seen[it->second] & (1 << axis)) {
      fail(where, header_line + 1, "column \"" + name + "\" appears twice");
    }
    axes_seen[it->second] |= 1 << axis;
    column_marker[c] = static_cast<int>(it->second);
    column_axis[c] = axis;
  }
  if (time_column < 0) fail(where, header_line + 1, "no time column");
  for (size_t i = 0; i < data.names.size(); ++i) {
    if (axes_seen[i] != 7) {
      fail(where, header_line + 1, "marker " + data.names[i] + " lacks an x, y or z column");
    }
  }
  const size_t nm = data.names.size();
  for (++l; l < lines.size(); ++l) {
    const std::string_view t = trim(lines[l]);
    if (t.empty() || t.front() == '#') continue;
    const std::vector<std::string_view> cells = split(lines[l], sep);
    if (cells.size() > header.size()) {
      fail(
          where, l + 1,
          fmt::format("{} values, more than the header's {} columns", cells.size(), header.size()));
    }
    const size_t frame = data.time.size();
    data.positions.resize((frame + 1) * 3 * nm, kNaN);
    double time = kNaN;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (static_cast<int>(c) != time_column && column_marker[c] < 0) continue;
      const std::optional<double> v = parse_cell(cells[c]);
      if (!v) {
        fail(where, l + 1,
             "column \"" + std::string(trim(header[c])) + "\": \"" + std::string(trim(cells[c])) +
                 "\" is not a number");
      }
      if (static_cast<int>(c) == time_column) {
        time = *v;
      } else {
        data.positions[(frame * nm + column_marker[c]) * 3 + column_axis[c]] = *v;
      }
    }
    if (std::isnan(time)) fail(where, l + 1, "the time is missing");
    data.time.push_back(time);
  }
  check_time(data, where);
  apply_options(data, options);
  to_world(data, where);
  return data;
}

namespace {

// One (T, 3) dataset per marker in the group `markers`, in name order.
herr_t collect_link(hid_t, const char* name, const H5L_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->emplace_back(name);
  return 0;
}

std::optional<std::string> string_mark(hid_t obj, const char* name, const std::string& where) {
  const LooseAttribute a = loose_attribute(obj, name, where);
  if (!a.present) return std::nullopt;
  if (!a.text) throw InputError(where + ": attribute " + name + " is not a string");
  return a.text;
}

// What the file holds, as read in the reading process (h5_guard.h): names, time, positions as
// stored, and the file's marks.
MarkerData read_marker_file(std::vector<uint8_t>& bytes, const std::string& where,
                            const std::function<void()>& step) {
  // A file image, so that standard input and files are read alike.
  H5Handle file =
      make_in(open_hdf5_image(bytes, "marker-image"), H5Fclose, where + ": cannot open as HDF5");
  read_whole_hdf5(file.get(), "", step);
  const hid_t root = file.get();
  MarkerData data;
  data.units = "m";
  data.up = 'z';
  const auto read_marks = [&](hid_t obj, const std::string& at) {
    if (auto u = string_mark(obj, "units", at)) data.units = *u;
    if (auto up = string_mark(obj, "up", at)) {
      const std::string v = lower(*up);
      if (v != "y" && v != "z")
        throw InputError(at + ": attribute up=" + *up + ": expected y or z");
      data.up = v[0];
    }
    const LooseAttribute rate = loose_attribute(obj, "rate", at);
    if (rate.present) {
      if (!rate.number || !(*rate.number > 0)) {
        throw InputError(at + ": attribute rate " + rate.describe() + ": expected a number > 0");
      }
      data.rate = *rate.number;
    }
  };
  read_marks(root, where);

  size_t frames = 0;
  if (has_object(root, "markers", H5I_DATASET)) {
    const std::string at = where + ":/markers";
    InputDataset ds = open_numeric(root, "markers", at);
    read_marks(ds.dataset.get(), at);
    if (ds.dims.size() != 3 || ds.dims[2] != 3) {
      throw InputError(at + ": shape " + shape_text(ds.dims) + ", expected (frames, markers, 3)");
    }
    frames = ds.dims[0];
    const size_t nm = ds.dims[1];
    // Names: an attribute names on the dataset, or a dataset marker_names / names.
    if (has_listed_attribute(ds.dataset.get(), "names", at)) {
      H5Handle a = make_in(H5Aopen(ds.dataset.get(), "names", H5P_DEFAULT), H5Aclose,
                           at + ": attribute names");
      H5Handle space = make_in(H5Aget_space(a.get()), H5Sclose, at + ": attribute names");
      if (element_count(space.get()) != nm) {
        throw InputError(at + ": attribute names holds " +
                         std::to_string(element_count(space.get())) + " names for " +
                         std::to_string(nm) + " markers");
      }
      data.names = read_strings(a.get(), true, nm, at + ": attribute names");
    } else {
      const char* name_set = has_object(root, "marker_names", H5I_DATASET) ? "marker_names"
                             : has_object(root, "names", H5I_DATASET)      ? "names"
                                                                           : nullptr;
      if (!name_set) {
        throw InputError(at + ": no marker names (an attribute names, or a dataset marker_names)");
      }
      H5Handle d =
          make_in(H5Dopen2(root, name_set, H5P_DEFAULT), H5Dclose, where + ":/" + name_set);
      H5Handle space = make_in(H5Dget_space(d.get()), H5Sclose, where + ":/" + name_set);
      if (element_count(space.get()) != nm) {
        throw InputError(where + ":/" + name_set + ": " +
                         std::to_string(element_count(space.get())) + " names for " +
                         std::to_string(nm) + " markers");
      }
      data.names = read_strings(d.get(), false, nm, where + ":/" + name_set);
    }
    data.positions.resize(frames * nm * 3);
    if (frames > 0) read_doubles(ds.dataset.get(), ds.dims, 0, frames, data.positions.data(), at);
  } else if (has_object(root, "markers", H5I_GROUP)) {
    const std::string at = where + ":/markers";
    H5Handle group = make_in(H5Gopen2(root, "markers", H5P_DEFAULT), H5Gclose, at);
    read_marks(group.get(), at);
    std::vector<std::string> names;
    H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link, &names);
    std::vector<std::vector<double>> columns;
    for (const std::string& name : names) {
      if (!has_object(group.get(), name, H5I_DATASET)) continue;
      InputDataset ds = open_numeric(group.get(), name, at + "/" + name);
      if (ds.dims.size() != 2 || ds.dims[1] != 3) {
        throw InputError(at + "/" + name + ": shape " + shape_text(ds.dims) +
                         ", expected (frames, 3)");
      }
      if (!columns.empty() && ds.dims[0] != frames) {
        throw InputError(at + "/" + name + ": " + std::to_string(ds.dims[0]) + " frames, " +
                         data.names.front() + " has " + std::to_string(frames));
      }
      frames = ds.dims[0];
      columns.emplace_back(frames * 3);
      if (frames > 0) read_doubles(ds.dataset.get(), ds.dims, 0, frames, columns.back().data(), at);
      data.names.push_back(name);
    }
    const size_t nm = data.names.size();
    data.positions.resize(frames * nm * 3);
    for (size_t t = 0; t < frames; ++t) {
      for (size_t i = 0; i < nm; ++i) {
        std::copy_n(columns[i].data() + 3 * t, 3, data.positions.data() + (t * nm + i) * 3);
      }
    }
  } else {
    throw InputError(where + ": no dataset or group named markers (schemas/markers.md)");
  }
  // Time: a dataset time, else the rate.
  if (has_object(root, "time", H5I_DATASET)) {
    InputDataset ds = open_numeric(root, "time", where + ":/time");
    if (ds.dims.size() != 1 || ds.dims[0] != frames) {
      throw InputError(where + ":/time: shape " + shape_text(ds.dims) + ", expected (" +
                       std::to_string(frames) + ",)");
    }
    data.time.resize(frames);
    if (frames > 0) read_doubles(ds.dataset.get(), ds.dims, 0, frames, data.time.data(), where);
  } else if (data.rate > 0) {
    for (size_t t = 0; t < frames; ++t) data.time.push_back(static_cast<double>(t) / data.rate);
  } else {
    throw InputError(where + ": no dataset time and no attribute rate");
  }
  return data;
}

MarkerData read_markers_hdf5(std::vector<uint8_t>& bytes, const std::string& where,
                             const MarkerReadOptions& options) {
  const std::shared_ptr<ReaderProcess> process =
      ReaderProcess::start(where, [&](const std::function<void()>& step) -> ReaderHandler {
        auto read = std::make_shared<MarkerData>(read_marker_file(bytes, where, step));
        return [read](Wire&, Wire& out, ReplyStream&) {
          out.put(read->names);
          out.put_doubles(read->time);
          out.put_doubles(read->positions);
          out.put(read->units);
          out.put(static_cast<uint64_t>(read->up));
          out.put(read->rate);
        };
      });
  Wire reply = process->call(Wire());
  MarkerData data;
  data.names = reply.strings();
  data.time = reply.doubles();
  data.positions = reply.doubles();
  data.units = reply.string();
  data.up = static_cast<char>(reply.u64());
  data.rate = reply.f64();
  check_time(data, where);
  apply_options(data, options);
  to_world(data, where);
  return data;
}

}  // namespace

MarkerData read_markers(const std::string& path, const MarkerReadOptions& options) {
  const std::string where = display_name(path);
  MarkerFormat format = options.format;
  std::vector<uint8_t> bytes = read_input(path);
  if (format == MarkerFormat::kAuto) {
    const std::string start(bytes.begin(), bytes.begin() + std::min<size_t>(bytes.size(), 64));
    const std::string name = lower(path);
    if (looks_like_hdf5(bytes)) {
      format = MarkerFormat::kHdf5;
    } else if (lower(std::string(trim(start))).rfind("pathfiletype", 0) == 0) {
      format = MarkerFormat::kTrc;
    } else if (name.size() > 4 && name.substr(name.size() - 4) == ".trc") {
      format = MarkerFormat::kTrc;
    } else {
      format = MarkerFormat::kCsv;
    }
  }
  if (format == MarkerFormat::kHdf5) return read_markers_hdf5(bytes, where, options);
  const std::string text(bytes.begin(), bytes.end());
  return format == MarkerFormat::kTrc ? parse_trc(text, where, options)
                                      : parse_marker_csv(text, where, options);
}

}  // namespace joco::tools
