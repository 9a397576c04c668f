// The MuJoCo 2.2.2 oracle for differential tests: load the same XML into MuJoCo, and compare named
// fields of joco's Model/Data with mjModel/mjData, reporting the worst element of each field.
//
// Only test code includes this header. It is built only where libmujoco-dev is installed; elsewhere
// the oracle tests are replaced by one test that skips with a message (see tests/CMakeLists.txt).
#pragma once

#include <mujoco/mujoco.h>

#include <memory>
#include <string>
#include <vector>

#include "joco/data.h"
#include "joco/model.h"

namespace joco::oracle {

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

// Loads an MJCF (or URDF) file in MuJoCo; on failure returns null and puts MuJoCo's message in
// *error.
MjModelPtr load(const std::string& path, std::string* error);
MjDataPtr make_data(const mjModel* m);

// How two numbers are compared. For an element pair (a, b) of a field whose largest |b| is S:
//   err = |a - b| / max(|a|, |b|, floor_fraction * S, tiny)
// so elements are compared relatively, except those far below the field's scale, which are compared
// against a floor. Integer fields must be equal.
struct Tolerance {
  double rel = 1e-10;
  double floor_fraction = 1e-3;
  double tiny = 1e-300;
};

// The result of comparing one field.
struct FieldResult {
  std::string name;
  enum Status { kMatch, kDiffer, kShape, kMissing } status = kMatch;
  int64_t count = 0;        // elements compared
  int64_t worst = -1;       // index of the worst element
  double joco_value = 0;    // at the worst element
  double mujoco_value = 0;  // at the worst element
  double error = 0;         // err of the worst element (see Tolerance)
  std::string detail;       // shape mismatch or why it is missing
};

struct Comparison {
  std::vector<FieldResult> fields;

  bool all_match() const;
  std::vector<std::string> differing() const;  // names of fields that differ or have another shape
  std::vector<std::string> missing() const;    // MuJoCo fields joco lacks
  // A table, one line per field: status, worst element, values and error.
  std::string table(bool only_problems = false) const;
};

// Compares the whole compiled model: sizes, options, visual, statistics and every array MuJoCo has.
// `tolerance_for(name)` may give a field its own tolerance (mesh-derived fields, say).
Comparison compare_model(const Model& m, const mjModel* mj, const Tolerance& tolerance,
                         Tolerance (*tolerance_for)(const std::string& field,
                                                    const Tolerance&) = nullptr);

// Compares the named Data arrays (all arrays both have, when names is empty). Constraint arrays
// (efc_*) are compared over the first nefc rows; contacts separately.
Comparison compare_data(const Data& d, const mjData* md, const mjModel* mj,
                        const std::vector<std::string>& names, const Tolerance& tolerance);

// A joco Model holding exactly MuJoCo's compiled model (every size, option and array copied by
// name), so pipeline stages can be tested against MuJoCo independently of joco's compiler.
Model model_from_mujoco(const mjModel* mj);

// Copies the state and inputs (time, qpos, qvel, act, ctrl, qfrc_applied, xfrc_applied, mocap,
// qacc_warmstart) from MuJoCo's data to joco's.
void copy_state(const mjModel* mj, const mjData* md, const Model& m, Data& d);

// The error of one pair of numbers under a tolerance, with S the field's scale. Counts the pair as
// compared (see count_compared).
double element_error(double a, double b, double scale, const Tolerance& tolerance);

// Every oracle test counts what it compared with MuJoCo, and fails when it ends having compared
// nothing (a gtest listener, installed by this library, checks the count after each test), so that
// a test whose states, rows or cases all turned out empty cannot pass. The comparisons above
// (compare_model, compare_data, element_error) and the helpers beside them count for themselves; a
// test comparing in its own way (EXPECT_EQ on a MuJoCo value, an error message against MuJoCo's
// verdict) calls count_compared for each thing compared.
void count_compared(int64_t n = 1);

}  // namespace joco::oracle
