#include "common/opensim_storage.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <string>

#include "common/io.h"
#include "joco/constants.h"
#include "joco/error.h"

namespace joco::tools {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Splits on tabs when the line has one (labels may hold blanks), else on runs of blanks.
std::vector<std::string_view> split_labels(std::string_view line) {
  std::vector<std::string_view> out;
  if (line.find('\t') != std::string_view::npos) {
    size_t start = 0;
    while (start <= line.size()) {
      size_t end = line.find('\t', start);
      if (end == std::string_view::npos) end = line.size();
      std::string_view cell = trim(line.substr(start, end - start));
      if (!cell.empty()) out.push_back(cell);
      start = end + 1;
    }
    return out;
  }
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    size_t j = i;
    while (j < line.size() && !is_blank(line[j])) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

// A number as the whole cell ("+1.5", "-2e-3", "nan" and "inf" too); false when it is not one.
bool parse_number(std::string_view cell, double& value) {
  if (!cell.empty() && cell.front() == '+') cell.remove_prefix(1);
  const char* end = cell.data() + cell.size();
  auto [ptr, ec] = std::from_chars(cell.data(), end, value);
  return ec == std::errc() && ptr == end;
}

// The integer of a header count (nRows=73, datarows 73); -1 when absent or not a count.
long parse_count(std::string_view text) {
  long n = -1;
  text = trim(text);
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  return ec == std::errc() && ptr == text.data() + text.size() && n >= 0 ? n : -1;
}

}  // namespace

int Storage::column(std::string_view label) const {
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == label) return static_cast<int>(c);
  return -1;
}

std::vector<double> Storage::column_values(int c) const {
  std::vector<double> out(rows());
  for (size_t r = 0; r < out.size(); ++r) out[r] = row(r)[c];
  return out;
}

std::string Storage::where(size_t r) const {
  return path + ":" + std::to_string(r < lines.size() ? lines[r] : 0);
}

Storage parse_storage(std::string_view text, const std::string& path) {
  Storage s;
  s.path = path;
  size_t pos = 0;
  int line_number = 0;
  auto next_line = [&](std::string_view& line) {
    if (pos >= text.size()) return false;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    return true;
  };
  auto fail = [&](const std::string& what) -> void {
    throw InputError(path + ":" + std::to_string(line_number) + ": " + what);
  };
  if (text.find('\0') != std::string_view::npos)
    throw InputError(path + ": not an OpenSim storage (.mot/.sto) text file: it holds NUL bytes");

  // The header.
  long rows_stated = -1, columns_stated = -1;
  bool simm = false, ended = false;
  std::string_view line;
  while (next_line(line)) {
    std::string_view t = trim(line);
    if (t == "endheader") {
      ended = true;
      break;
    }
    s.header.emplace_back(t);
    if (t.empty()) continue;
    if (t.front() == '#') {
      if (lower(t).find("simm motion file header") != std::string::npos) simm = true;
      continue;
    }
    size_t eq = t.find('=');
    if (eq != std::string_view::npos) {
      std::string key = lower(trim(t.substr(0, eq)));
      std::string_view value = trim(t.substr(eq + 1));
      if (key == "nrows") rows_stated = parse_count(value);
      if (key == "ncolumns") columns_stated = parse_count(value);
      if (key == "indegrees") {
        std::string v = lower(value);
        if (v == "yes")
          s.angle_units = AngleUnits::kDegrees;
        else if (v == "no")
          s.angle_units = AngleUnits::kRadians;
        else
          fail("inDegrees must be yes or no, not '" + std::string(value) + "'");
      }
      continue;
    }
    // SIMM's words: `datarows 73`.
    size_t gap = t.find_first_of(" \t");
    std::string word = lower(t.substr(0, gap));
    std::string_view rest = gap == std::string_view::npos ? "" : trim(t.substr(gap));
    if (word == "datarows" || word == "datacolumns" || word == "otherdata" || word == "range") {
      simm = true;
      if (word == "datarows") rows_stated = parse_count(rest);
      if (word == "datacolumns") columns_stated = parse_count(rest);
    } else if (word == "name" && !rest.empty()) {
      s.name = std::string(rest);
    } else if (s.header.size() == 1) {
      s.name = std::string(t);
    }
  }
  if (!ended)
    throw InputError(path +
                     ": not an OpenSim storage (.mot/.sto): no 'endheader' line ends the header");
  if (s.angle_units == AngleUnits::kUnstated && simm) s.angle_units = AngleUnits::kDegrees;

  // The column labels: the first line after the header that is not blank.
  bool have_labels = false;
  while (next_line(line)) {
    if (trim(line).empty()) continue;
    for (std::string_view label : split_labels(line)) s.columns.emplace_back(label);
    have_labels = true;
    break;
  }
  if (!have_labels) fail("no line of column labels after 'endheader'");
  if (lower(s.columns[0]) != "time") fail("the first column is '" + s.columns[0] + "', not 'time'");
  for (size_t c = 1; c < s.columns.size(); ++c)
    for (size_t k = 0; k < c; ++k)
      if (s.columns[k] == s.columns[c]) fail("the column label '" + s.columns[c] + "' repeats");
  if (columns_stated >= 0 && static_cast<size_t>(columns_stated) != s.columns.size())
    fail(std::to_string(s.columns.size()) + " column labels, but the header says " +
         std::to_string(columns_stated) + " columns");

  // The rows.
  const size_t n = s.columns.size();
  while (next_line(line)) {
    if (trim(line).empty()) continue;
    size_t count = 0;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_blank(line[i])) ++i;
      size_t j = i;
      while (j < line.size() && !is_blank(line[j])) ++j;
      if (j == i) break;
      std::string_view cell = line.substr(i, j - i);
      double value = 0;
      if (!parse_number(cell, value))
        fail("'" + std::string(cell.substr(0, 40)) + "' in column " +
             (count < n ? "'" + s.columns[count] + "'" : std::to_string(count + 1)) +
             " is not a number");
      if (count < n) s.values.push_back(value);
      ++count;
      i = j;
    }
    if (count != n) {
      fail(std::to_string(count) + " values, but there are " + std::to_string(n) +
           " column labels");
    }
    s.lines.push_back(line_number);
  }
  if (rows_stated >= 0 && static_cast<size_t>(rows_stated) != s.rows())
    throw InputError(path + ": " + std::to_string(s.rows()) + " data rows, but the header says " +
                     std::to_string(rows_stated));
  return s;
}

Storage read_storage(const std::string& path) {
  std::vector<uint8_t> bytes = read_input(path);
  return parse_storage(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                       display_name(path));
}

std::string storage_coordinate_name(std::string_view label) {
  constexpr std::string_view kJointSet = "/jointset/";
  if (label.substr(0, kJointSet.size()) != kJointSet) return std::string(label);
  // /jointset/JOINT/COORD/value
  std::string_view rest = label.substr(kJointSet.size());
  size_t a = rest.find('/');
  if (a == std::string_view::npos) return "";
  size_t b = rest.find('/', a + 1);
  if (b == std::string_view::npos || rest.substr(b + 1) != "value") return "";
  return std::string(rest.substr(a + 1, b - a - 1));
}

JointColumns match_joint_columns(const Storage& s, const Model& m, AngleUnits unstated) {
  JointColumns jc;
  jc.angle_units = s.angle_units == AngleUnits::kUnstated ? unstated : s.angle_units;
  const double degrees = std::numbers::pi / 180;
  std::vector<int> column_of_joint(m.njnt, -1);
  for (size_t c = 1; c < s.columns.size(); ++c) {
    std::string name = storage_coordinate_name(s.columns[c]);
    int j = name.empty() ? -1 : m.name_to_id(kObjJoint, name);
    if (j >= 0 && (m.jnt_type[j] == kJointHinge || m.jnt_type[j] == kJointSlide)) {
      if (column_of_joint[j] >= 0)
        throw InputError(s.path + ": columns '" + s.columns[column_of_joint[j]] + "' and '" +
                         s.columns[c] + "' both set joint '" + name + "'");
      column_of_joint[j] = static_cast<int>(c);
      const bool rotation = m.jnt_type[j] == kJointHinge;
      jc.matches.push_back({static_cast<int>(c), j, m.jnt_qposadr[j],
                            rotation && jc.angle_units == AngleUnits::kDegrees ? degrees : 1.0});
    } else if (s.columns[c] != "") {
      jc.unmatched_columns.push_back(s.columns[c]);
    }
  }
  if (jc.matches.empty())
    throw InputError(s.path +
                     ": no column names a hinge or slide joint of the model (columns are " +
                     "matched to joints by name)");
  for (int j = 0; j < m.njnt; ++j)
    if (column_of_joint[j] < 0) jc.missing_joints.push_back(j);
  return jc;
}

void JointColumns::row_to_qpos(const Storage& s, size_t r, double* qpos) const {
  const double* values = s.row(r);
  for (const Match& match : matches) qpos[match.qposadr] = match.scale * values[match.column];
}

}  // namespace joco::tools
