// OpenSim's storage text files (.mot motions, .sto storages), read whole, and their columns matched
// to a model's joints by name.
//
// The form read (OpenSim's Storage and the older SIMM motion files):
//   header lines, up to a line `endheader`:
//     a first line without '=' (the storage's name), `key=value` lines (version, nRows, nColumns,
//     inDegrees=yes|no, DataType, ...), and the SIMM motion header's words (`name NAME`,
//     `datacolumns N`, `datarows N`, `otherdata N`, `range T0 T1`); `#` lines and free text are
//     kept and ignored;
//   one line of column labels (tab separated; separated by blanks when the line has no tab), the
//   first of which is `time`;
//   data rows of numbers separated by tabs or blanks, as many as the labels.
// Angles: `inDegrees=yes|no` says; a SIMM motion header without it means degrees (SIMM's motion
// files hold angles in degrees); otherwise the unit is unstated and the reader of the columns
// decides. Malformed input is an InputError naming the file and the line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "joco/model.h"

namespace joco::tools {

enum class AngleUnits { kUnstated, kDegrees, kRadians };

// One storage file, read whole.
struct Storage {
  std::string path;  // as named in messages
  std::string name;  // the header's first line (or SIMM's `name`)
  AngleUnits angle_units = AngleUnits::kUnstated;
  std::vector<std::string> header;   // the header lines before `endheader`, trimmed
  std::vector<std::string> columns;  // the labels; columns[0] is "time"
  std::vector<double> values;        // rows() x columns.size(), row-major
  std::vector<int> lines;            // the file line (from 1) of each row, for messages

  size_t rows() const { return columns.empty() ? 0 : values.size() / columns.size(); }
  const double* row(size_t r) const { return values.data() + r * columns.size(); }
  double time(size_t r) const { return row(r)[0]; }
  // Index of the column labelled `label`, -1 when there is none.
  int column(std::string_view label) const;
  // One column's values, a row each.
  std::vector<double> column_values(int c) const;
  // "PATH:LINE" of row r, for messages.
  std::string where(size_t r) const;
};

// Reads a storage from text; `path` names it in messages. Throws InputError.
Storage parse_storage(std::string_view text, const std::string& path);
// Reads a storage file ("-" for standard input). Throws InputError naming the file.
Storage read_storage(const std::string& path);

// A column label's coordinate name: the label itself, or for OpenSim 4's state labels
// `/jointset/JOINT/COORD/value` the COORD ("" for the other state columns: /speed, muscles, ...).
std::string storage_coordinate_name(std::string_view label);

// Storage columns matched to a model's joints: a column whose (coordinate) name is a hinge or
// slide joint's name sets that joint's qpos. Rotations (hinge joints) convert from degrees when the
// storage's angles are in degrees; slides are in metres, as stored. Ball and free joints take no
// column (one OpenSim coordinate is one scalar): they are listed in missing_joints.
struct JointColumns {
  struct Match {
    int column;    // storage column
    int joint;     // model joint
    int qposadr;   // its qpos address
    double scale;  // qpos = scale * value (pi/180 for a hinge in degrees, else 1)
  };
  std::vector<Match> matches;                  // in column order
  std::vector<std::string> unmatched_columns;  // labels (not time) naming no hinge or slide joint
  std::vector<int> missing_joints;             // joints no column sets, in joint order
  AngleUnits angle_units = AngleUnits::kRadians;  // the unit the hinge columns were read in

  // Sets the matched joints' qpos from row r of s; the other qpos are left as they are.
  void row_to_qpos(const Storage& s, size_t r, double* qpos) const;
};

// Matches s's columns to m's joints. `unstated` is the angle unit taken when the file does not say
// (OpenSim's own default is radians). Throws InputError naming the file when no column matches a
// joint, or when two columns name the same joint.
JointColumns match_joint_columns(const Storage& s, const Model& m,
                                 AngleUnits unstated = AngleUnits::kRadians);

}  // namespace joco::tools
