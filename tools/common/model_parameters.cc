#include "common/model_parameters.h"

#include <fstream>
#include <iterator>
#include <sstream>

#include "common/h5.h"
#include "common/hdf5_columns.h"
#include "common/tool.h"
#include "joco/error.h"

namespace joco::tools {

namespace {

std::string trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const size_t last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

// The cells of a CSV line: separated by commas, each optionally in double quotes (a quoted cell
// may hold commas: "0.8, 0.005, 0.0001"; "" is a quote).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(trim(cell));
  return cells;
}

// A parameter named in a file: a usage error naming the file and the column.
ModelParameter find_column(const Model& m, const std::string& name, const std::string& where) {
  try {
    return find_parameter(m, name);
  } catch (const InputError& e) {
    throw UsageError("--params " + where + ": " + e.what());
  }
}

// CSV: a header row of names, then one row of values per rollout; blank lines and lines starting
// with '#' are skipped.
void read_csv(ParameterTable& t, const Model& m) {
  std::ifstream in(t.path);
  if (!in) throw InputError(t.path + ": cannot open the parameter file");
  std::string line;
  int line_number = 0;
  std::vector<std::string> names;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    std::vector<std::string> cells = csv_cells(text);
    const std::string where = t.path + " line " + std::to_string(line_number);
    if (names.empty()) {
      names = cells;
      for (const std::string& name : names) {
        if (name.empty()) throw InputError(where + ": a column without a name in the header");
        t.columns.push_back(find_column(m, name, t.path + " column " + name));
      }
      continue;
    }
    if (cells.size() != names.size()) {
      throw InputError(where + ": " + std::to_string(cells.size()) + " cells, but the header has " +
                       std::to_string(names.size()) + " columns");
    }
    std::vector<std::vector<double>> row;
    for (size_t c = 0; c < cells.size(); ++c) {
      try {
        row.push_back(parse_parameter_values(t.columns[c], cells[c]));
      } catch (const InputError& e) {
        throw UsageError("--params " + where + ": " + e.what());
      }
    }
    t.rows.push_back(std::move(row));
  }
  if (names.empty()) throw InputError(t.path + ": no header row (the parameters' names)");
}

// HDF5: every dataset of the root group (or FILE.h5:/group) is a column named by the dataset,
// (B) or (B, n) numbers for a parameter of n values, as h5py writes
// f["geom_friction[floor]"] = array.
void read_hdf5(ParameterTable& t, const Model& m) {
  const std::vector<Hdf5Column> read = read_hdf5_columns(t.path, "the parameter file");
  if (read.empty()) throw InputError(t.path + ": no datasets (one per parameter expected)");
  size_t rows = 0;
  for (const Hdf5Column& c : read) {
    const std::string where = t.path + "/" + c.name;
    const ModelParameter p = find_column(m, c.name, where);
    const size_t width = c.dims.size() == 2 ? c.dims[1] : 1;
    if (c.dims.empty() || c.dims.size() > 2 || static_cast<int>(width) != p.count) {
      throw UsageError("--params " + where + ": shape " + shape_text(c.dims) + ", expected (B" +
                       (p.count == 1 ? ",) or (B, 1)" : ", " + std::to_string(p.count) + ")") +
                       " for " + std::to_string(p.count) + " value" + (p.count == 1 ? "" : "s") +
                       " per rollout");
    }
    const size_t n = c.dims[0];
    if (!t.columns.empty() && n != rows) {
      throw InputError(where + ": " + std::to_string(n) + " rows, but " + t.path + "/" +
                       read[0].name + " has " + std::to_string(rows));
    }
    rows = n;
    t.columns.push_back(p);
  }
  t.rows.resize(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < read.size(); ++c) {
      const size_t width = static_cast<size_t>(t.columns[c].count);
      t.rows[r].emplace_back(read[c].values.begin() + static_cast<ptrdiff_t>(r * width),
                             read[c].values.begin() + static_cast<ptrdiff_t>((r + 1) * width));
    }
  }
}

bool is_hdf5(const std::string& path) {
  const std::string file = path.substr(0, path.rfind(":/"));
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::vector<uint8_t> head(8);
  in.read(reinterpret_cast<char*>(head.data()), 8);
  head.resize(static_cast<size_t>(in.gcount()));
  return looks_like_hdf5(head);
}

std::vector<ParameterValue> row_values(const ParameterTable& t, size_t row) {
  std::vector<ParameterValue> values;
  for (size_t c = 0; c < t.columns.size(); ++c) values.push_back({t.columns[c], t.rows[row][c]});
  return values;
}

// One parameter's values as an attribute: a number when it has one value, else an array.
void set_values_attribute(TrajectoryWriter& w, const std::string& name,
                          const std::vector<double>& values) {
  if (values.size() == 1) {
    w.set_attribute(name, values[0]);
  } else {
    w.set_attribute(name, std::span<const double>(values));
  }
}

std::string row_source(const ParameterTable& t, size_t row) {
  return "--params " + t.path + " row " + std::to_string(row);
}

}  // namespace

ParameterTable ParameterTable::read(const std::string& path, Model& m) {
  ParameterTable t;
  t.path = path;
  if (is_hdf5(path)) {
    read_hdf5(t, m);
  } else {
    read_csv(t, m);
  }
  if (t.rows.empty()) throw InputError(path + ": no rows of values");
  for (size_t r = 0; r < t.rows.size(); ++r) {
    try {
      check_parameters(m, row_values(t, r), row_source(t, r));
    } catch (const InputError& e) {
      throw UsageError(e.what());
    }
  }
  return t;
}

RolloutParameters::RolloutParameters(Model& m, const std::vector<std::string>& set,
                                     const std::string& params_file, int rollouts) {
  try {
    for (const std::string& s : set) set_.push_back(parse_parameter_assignment(m, s));
    if (!set_.empty()) set_parameters(m, set_, "--set");
  } catch (const InputError& e) {
    throw UsageError(std::string(e.what()).starts_with("--set") ? e.what()
                                                                : "--set " + std::string(e.what()));
  }
  if (params_file.empty()) return;
  table_ = ParameterTable::read(params_file, m);
  has_table_ = true;
  const size_t rows = table_.rows.size();
  if (rows != 1 && rows != static_cast<size_t>(std::max(rollouts, 1))) {
    throw UsageError("--params " + params_file + " has " + std::to_string(rows) + " rows, but " +
                     (rollouts ? "--batch is " + std::to_string(rollouts)
                               : std::string("there is one rollout (no --batch)")) +
                     ": give one row per rollout, or one row for all");
  }
}

const Model& RolloutParameters::model_of(const Model& base, int b, Model& scratch) const {
  if (!has_table_) return base;
  const size_t row = table_.rows.size() == 1 ? 0 : static_cast<size_t>(b);
  scratch = base;
  set_parameters(scratch, row_values(table_, row), row_source(table_, row));
  return scratch;
}

void RolloutParameters::write_attributes(TrajectoryWriter& w, int b, const Model& model) const {
  for (const ParameterValue& v : set_)
    set_values_attribute(w, "param:" + v.parameter.name, v.values);
  if (!has_table_) return;
  const size_t row = table_.rows.size() == 1 ? 0 : static_cast<size_t>(b);
  for (size_t c = 0; c < table_.columns.size(); ++c)
    set_values_attribute(w, "param:" + table_.columns[c].name, table_.rows[row][c]);
  w.set_attribute("params", table_.path);
  w.set_attribute("params_row", static_cast<int64_t>(row));
  w.set_attribute("timestep", model.opt.timestep);
}

}  // namespace joco::tools
