#include "common/external_loads.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "common/h5.h"
#include "common/hdf5_columns.h"
#include "common/io.h"
#include "common/opensim_storage.h"
#include "joco/error.h"
#include "joco/motion_differences.h"
#include "joco/xml_error.h"

namespace joco::tools {
namespace {

namespace fs = std::filesystem;

std::string trimmed(const char* text) {
  std::string s = text ? text : "";
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// A path named inside a file, relative to that file's folder.
std::string beside(const std::string& file, const std::string& name) {
  const fs::path p(name);
  if (p.is_absolute()) return name;
  return (fs::path(file).parent_path() / p).string();
}

// HDF5 tables: the datasets of the root group (or FILE.h5:/group) are columns, `time` (T) among
// them; a (T) dataset is one column, a (T, 3) dataset NAME the columns NAMEx, NAMEy, NAMEz.
Storage read_hdf5_table(const std::string& path) {
  std::vector<Hdf5Column> read = read_hdf5_columns(path, "the load file");
  const auto time_at =
      std::find_if(read.begin(), read.end(), [](const Hdf5Column& c) { return c.name == "time"; });
  if (time_at == read.end()) throw InputError(path + ": no dataset 'time'");
  std::rotate(read.begin(), time_at, time_at + 1);
  Storage s;
  s.path = path;
  s.angle_units = AngleUnits::kRadians;
  size_t rows = 0;
  std::vector<std::vector<double>> columns;
  for (const Hdf5Column& c : read) {
    const std::string where = path + "/" + c.name;
    const size_t width = c.dims.size() == 2 ? c.dims[1] : 1;
    if (c.dims.empty() || c.dims.size() > 2 || (c.dims.size() == 2 && width != 3) ||
        (c.name == "time" && c.dims.size() != 1)) {
      throw InputError(where + ": shape " + shape_text(c.dims) + ", expected (T" +
                       (c.name == "time" ? ")" : ") or (T, 3)"));
    }
    const size_t n = c.dims[0];
    if (!columns.empty() && n != rows)
      throw InputError(where + ": " + std::to_string(n) + " rows, but " + path + "/time has " +
                       std::to_string(rows));
    rows = n;
    for (size_t k = 0; k < width; ++k) {
      s.columns.push_back(width == 1 ? c.name : c.name + "xyz"[k]);
      std::vector<double> column(n);
      for (size_t r = 0; r < n; ++r) column[r] = c.values[r * width + k];
      columns.push_back(std::move(column));
    }
  }
  s.values.resize(rows * columns.size());
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < columns.size(); ++c) s.values[r * columns.size() + c] = columns[c][r];
  s.lines.assign(rows, 0);
  return s;
}

Storage read_table(const std::string& path) {
  std::string file = path;
  const size_t colon = path.rfind(":/");
  if (colon != std::string::npos) file = path.substr(0, colon);
  std::vector<uint8_t> head = read_input(file);
  if (looks_like_hdf5(head)) return read_hdf5_table(path);
  return parse_storage(std::string_view(reinterpret_cast<const char*>(head.data()), head.size()),
                       display_name(file));
}

int body_id(const Model& m, const std::string& name, const std::string& where) {
  const int b = m.name_to_id(kObjBody, name);
  if (b <= 0) {
    throw InputError(where + ": " +
                     (b == 0 ? std::string("loads on the world body do nothing")
                             : "the model has no body named '" + name + "'"));
  }
  return b;
}

// The three columns PREFIXx, PREFIXy, PREFIXz of the table (all or none; `required`).
void find_xyz(const Storage& s, const std::string& prefix, int* out, bool required,
              const std::string& where) {
  if (prefix.empty()) {
    if (required) throw InputError(where + ": no column prefix given");
    return;
  }
  int found = 0;
  for (int k = 0; k < 3; ++k) {
    out[k] = s.column(prefix + "xyz"[k]);
    found += out[k] >= 0;
  }
  if (found == 3 || (found == 0 && !required)) return;
  throw InputError(where + ": the data " + s.path + " has no column " + prefix + "x, " + prefix +
                   "y and " + prefix + "z");
}

int named_column(const Storage& s, const std::string& name, const std::string& where) {
  if (name == "-") return -1;
  const int c = s.column(name);
  if (c < 1) throw InputError(where + ": the data " + s.path + " has no column '" + name + "'");
  return c;
}

}  // namespace

std::optional<LoadFrame> parse_load_frame(const std::string& text) {
  if (text == "z-up") return LoadFrame::kZUp;
  if (text == "y-up") return LoadFrame::kYUp;
  return std::nullopt;
}

ExternalLoads ExternalLoads::read(const std::string& path, const Model& m,
                                  std::optional<LoadFrame> frame,
                                  const std::vector<std::string>& bodies,
                                  const std::string& data_path) {
  ExternalLoads out;
  out.path_ = path;
  std::vector<uint8_t> bytes = read_input(path);
  const std::string text(bytes.begin(), bytes.end());
  const size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  Storage data;
  LoadFrame file_frame = LoadFrame::kYUp;

  if (first != std::string::npos && text[first] == '<') {
    // OpenSim's ExternalLoads XML.
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
      throw InputError(path + ":" + std::to_string(doc.ErrorLineNum()) + ": malformed XML: " +
                       joco::xml_error_in_words(doc.ErrorID(), doc.ErrorStr()));
    const tinyxml2::XMLElement* root = doc.RootElement();
    const tinyxml2::XMLElement* loads = root && std::string(root->Name()) == "ExternalLoads" ? root
                                        : root ? root->FirstChildElement("ExternalLoads")
                                               : nullptr;
    if (!loads) throw InputError(path + ": no <ExternalLoads> element");
    const auto where = [&](const tinyxml2::XMLElement* e) {
      return path + ":" + std::to_string(e->GetLineNum()) + ": <" + e->Name() + ">";
    };
    const tinyxml2::XMLElement* datafile = loads->FirstChildElement("datafile");
    const std::string data_name = datafile ? trimmed(datafile->GetText()) : "";
    if (data_name.empty() && data_path.empty())
      throw InputError(path + ": <ExternalLoads> names no <datafile>");
    data = read_table(data_path.empty() ? beside(path, data_name) : data_path);
    const tinyxml2::XMLElement* objects = loads->FirstChildElement("objects");
    for (const tinyxml2::XMLElement* e = objects ? objects->FirstChildElement("ExternalForce")
                                                 : nullptr;
         e; e = e->NextSiblingElement("ExternalForce")) {
      const auto field = [&](const char* name) {
        const tinyxml2::XMLElement* c = e->FirstChildElement(name);
        return c ? trimmed(c->GetText()) : std::string();
      };
      if (field("isDisabled") == "true") continue;
      ExternalLoad load;
      load.name = e->Attribute("name") ? e->Attribute("name") : "";
      for (const char* frame_field : {"force_expressed_in_body", "point_expressed_in_body"}) {
        const std::string in = field(frame_field);
        if (!in.empty() && in != "ground")
          throw InputError(where(e) + " " + load.name + ": " + frame_field + " '" + in +
                           "': only 'ground' is supported");
      }
      load.body = body_id(m, field("applied_to_body"), where(e) + " applied_to_body");
      find_xyz(data, field("force_identifier"), load.force, true, where(e) + " force_identifier");
      find_xyz(data, field("point_identifier"), load.point, false, where(e) + " point_identifier");
      find_xyz(data, field("torque_identifier"), load.torque, false,
               where(e) + " torque_identifier");
      out.loads_.push_back(load);
    }
  } else if (text.rfind("joco external loads", first) == first) {
    // The mapping: `data FILE`, `frame z-up|y-up`, `load NAME BODY F F F P P P M M M`.
    file_frame = LoadFrame::kZUp;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    std::vector<std::pair<int, std::vector<std::string>>> load_lines;
    std::string data_name;
    while (std::getline(in, line)) {
      ++number;
      const size_t hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string word; words >> word;) w.push_back(word);
      if (w.empty() || number == 1) continue;
      const std::string here = path + ":" + std::to_string(number);
      if (w[0] == "data" && w.size() == 2) {
        data_name = w[1];
      } else if (w[0] == "frame" && w.size() == 2 && parse_load_frame(w[1])) {
        file_frame = *parse_load_frame(w[1]);
      } else if (w[0] == "load" && w.size() == 12) {
        load_lines.emplace_back(number, w);
      } else {
        throw InputError(here + ": expected 'data FILE', 'frame z-up|y-up' or 'load NAME BODY' " +
                         "and 9 columns (force x y z, point x y z, moment x y z; - for none)");
      }
    }
    if (data_name.empty() && data_path.empty()) throw InputError(path + ": no 'data FILE' line");
    data = read_table(data_path.empty() ? beside(path, data_name) : data_path);
    for (const auto& [line_number, w] : load_lines) {
      const std::string here = path + ":" + std::to_string(line_number);
      ExternalLoad load;
      load.name = w[1];
      load.body = body_id(m, w[2], here);
      for (int k = 0; k < 3; ++k) {
        load.force[k] = named_column(data, w[3 + k], here);
        load.point[k] = named_column(data, w[6 + k], here);
        load.torque[k] = named_column(data, w[9 + k], here);
        if (load.force[k] < 0) throw InputError(here + ": a force column cannot be '-'");
      }
      for (const int* cols : {load.point, load.torque})
        if ((cols[0] < 0) != (cols[1] < 0) || (cols[0] < 0) != (cols[2] < 0))
          throw InputError(here + ": give a point or moment's three columns, or '-' for all");
      out.loads_.push_back(load);
    }
  } else {
    // A .mot/.sto of ground reactions, plates named by prefix: "", "1_", "2_", ...
    data = read_table(path);
    for (int plate = 0;; ++plate) {
      const std::string prefix = plate == 0 ? "" : std::to_string(plate) + "_";
      ExternalLoad load;
      find_xyz(data, prefix + "ground_force_v", load.force, false, path);
      if (load.force[0] < 0) break;
      find_xyz(data, prefix + "ground_force_p", load.point, false, path);
      find_xyz(data, prefix + "ground_torque_", load.torque, false, path);
      load.name = "plate" + std::to_string(plate);
      if (static_cast<size_t>(plate) >= bodies.size())
        throw InputError(path + ": force plate " + std::to_string(plate) + " (" + prefix +
                         "ground_force_v*) has no body: name one per plate (--load-bodies), or use "
                         "an ExternalLoads XML or a mapping (schemas/external-loads.md)");
      load.body = body_id(m, bodies[plate], path);
      out.loads_.push_back(load);
    }
  }
  if (out.loads_.empty()) throw InputError(path + ": no loads");
  out.frame_ = frame.value_or(file_frame);

  // Samples, converted to the world frame.
  const size_t rows = data.rows(), n = out.loads_.size();
  if (rows == 0) throw InputError(data.path + ": no rows");
  for (size_t r = 1; r < rows; ++r)
    if (!(data.time(r) > data.time(r - 1)))
      throw InputError(data.where(r) + ": time does not increase");
  out.time_.resize(rows);
  out.values_.assign(rows * n * 9, 0.0);
  for (size_t r = 0; r < rows; ++r) {
    const double* row = data.row(r);
    out.time_[r] = row[0];
    for (size_t l = 0; l < n; ++l) {
      const ExternalLoad& load = out.loads_[l];
      double* v = out.values_.data() + (r * n + l) * 9;
      const int* cols[3] = {load.force, load.point, load.torque};
      for (int part = 0; part < 3; ++part) {
        if (cols[part][0] < 0) {
          // No point: the load acts at the centre of mass (NaN marks it); no moment: zero.
          if (part == 1) v[3] = v[4] = v[5] = std::nan("");
          continue;
        }
        double x[3];
        for (int k = 0; k < 3; ++k) x[k] = row[cols[part][k]];
        for (int k = 0; k < 3; ++k) {
          if (!std::isfinite(x[k]))
            throw InputError(data.where(r) + ": column '" + data.columns[cols[part][k]] +
                             "' is not finite");
        }
        double* dst = v + 3 * part;
        if (out.frame_ == LoadFrame::kYUp) {
          dst[0] = x[0];
          dst[1] = -x[2];
          dst[2] = x[1];
        } else {
          std::copy_n(x, 3, dst);
        }
      }
    }
  }
  return out;
}

void ExternalLoads::lowpass(double cutoff) {
  const int rows = static_cast<int>(time_.size());
  if (rows < 2) return;
  const double h = (time_.back() - time_.front()) / (rows - 1);
  for (int r = 1; r < rows; ++r) {
    if (std::abs(time_[r] - time_[0] - r * h) > 1e-3 * h)
      throw std::invalid_argument(path_ + ": the load samples are not evenly spaced in time (" +
                                  std::to_string(time_[r]) + " s at sample " + std::to_string(r) +
                                  ")");
  }
  // Points absent (NaN) stay absent: only finite columns are filtered.
  const int width = static_cast<int>(loads_.size() * 9);
  std::vector<double> column(static_cast<size_t>(rows));
  for (int c = 0; c < width; ++c) {
    if (std::isnan(values_[c])) continue;
    for (int r = 0; r < rows; ++r) column[r] = values_[static_cast<size_t>(r) * width + c];
    lowpass_filter(rows, 1, h, cutoff, column.data());
    for (int r = 0; r < rows; ++r) values_[static_cast<size_t>(r) * width + c] = column[r];
  }
}

std::vector<double> ExternalLoads::resample(const std::vector<double>& times) const {
  const size_t width = loads_.size() * 9;
  std::vector<double> out(times.size() * width);
  for (size_t i = 0; i < times.size(); ++i) {
    const double t = times[i];
    if (t < time_.front() - 1e-9 || t > time_.back() + 1e-9) {
      throw InputError(path_ + ": the loads are sampled from " + std::to_string(time_.front()) +
                       " to " + std::to_string(time_.back()) + " s, not at the trajectory's " +
                       std::to_string(t) + " s");
    }
    const size_t hi = std::clamp<size_t>(
        static_cast<size_t>(std::upper_bound(time_.begin(), time_.end(), t) - time_.begin()), 1,
        time_.size() - 1);
    const size_t lo = time_.size() == 1 ? 0 : hi - 1;
    const double span = time_.size() == 1 ? 1 : time_[hi] - time_[lo];
    const double w = time_.size() == 1 ? 0 : std::clamp((t - time_[lo]) / span, 0.0, 1.0);
    for (size_t c = 0; c < width; ++c) {
      const double a = values_[lo * width + c],
                   b = values_[std::min(hi, time_.size() - 1) * width + c];
      out[i * width + c] = w == 0 ? a : w == 1 ? b : a + w * (b - a);
    }
  }
  return out;
}

void ExternalLoads::apply(const Model& m, Data& d, const double* values) const {
  (void)m;
  for (size_t l = 0; l < loads_.size(); ++l) {
    const double* v = values + 9 * l;
    const int b = loads_[l].body;
    double* xfrc = d.xfrc_applied + 6 * b;
    const double* com = d.xipos + 3 * b;
    double r[3] = {0, 0, 0};
    if (!std::isnan(v[3]))
      for (int k = 0; k < 3; ++k) r[k] = v[3 + k] - com[k];
    xfrc[0] += v[0];
    xfrc[1] += v[1];
    xfrc[2] += v[2];
    xfrc[3] += r[1] * v[2] - r[2] * v[1] + v[6];
    xfrc[4] += r[2] * v[0] - r[0] * v[2] + v[7];
    xfrc[5] += r[0] * v[1] - r[1] * v[0] + v[8];
  }
}

}  // namespace joco::tools
