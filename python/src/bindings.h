// What the files of the joco Python module share: the Python-side Data (a joco::Data that keeps its
// Model alive), NumPy views of engine arrays, and argument checks. Each file binds one concern;
// module.cc assembles them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "joco/data.h"
#include "joco/field.h"
#include "joco/model.h"

namespace joco::python {

namespace py = pybind11;

using ModelPtr = std::shared_ptr<Model>;

// joco.Data: the engine's Data with the Model it was made for (kept alive while the Data lives).
struct PyData {
  explicit PyData(ModelPtr m) : model(std::move(m)), data(*model), fields(data.arrays()) {}
  ModelPtr model;
  Data data;
  std::vector<ArrayField> fields;  // data's arrays, fixed for its life (views are made per access)
};

// A NumPy array over `count` elements at `ptr` (rows x cols, or 1-D when cols == 1 and not
// `keep_2d`), owned by `base` (the Python object that keeps the memory alive); no copy.
py::array view(ScalarType type, void* ptr, int64_t rows, int64_t cols, py::handle base,
               bool writable, bool keep_2d = false);
py::array view(const ArrayField& f, py::handle base, bool writable);

// A C-contiguous float64 array of exactly `shape` from `arg`, or ValueError naming `what` and the
// shapes. Only float64 (or what converts to it without loss: ints, lists of floats) is accepted.
py::array_t<double, py::array::c_style> as_doubles(py::handle arg,
                                                   const std::vector<int64_t>& shape,
                                                   const std::string& what);

// Throws ValueError unless d was made for m (the engine's check_data, with its message).
void check_pair(const Model& m, const PyData& d);

void bind_errors(py::module_& mod);
void bind_model(py::module_& mod);
void bind_data(py::module_& mod);
void bind_functions(py::module_& mod);
void bind_rollout(py::module_& mod);
void bind_trajectory_io(py::module_& mod);

}  // namespace joco::python
