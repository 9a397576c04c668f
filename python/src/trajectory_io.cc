// Trajectory files in the tools' HDF5 layout (schemas/trajectory.md), through the tools' own reader
// and writer (tools/common/trajectory_*): what Python writes, the tools read, and back.
#include <pybind11/stl.h>

#include "bindings.h"
#include "common/trajectory.h"
#include "joco/error.h"

namespace joco::python {

namespace {

// A trajectory group's datasets as {name: array}: the fields with their stored shapes (counts as
// int32), then the extra datasets (derivative matrices, --record arrays) as float64.
py::dict read_group(const tools::Trajectory& t) {
  py::dict out;
  for (const tools::Field f : t.fields()) {
    const tools::Matrix values = t.read(f, 0, SIZE_MAX, false);
    std::vector<py::ssize_t> shape;
    for (size_t n : t.dims(f)) shape.push_back(static_cast<py::ssize_t>(n));
    if (shape.empty()) shape.push_back(static_cast<py::ssize_t>(values.rows));
    py::array_t<double> a(shape);
    std::copy(values.data.begin(), values.data.end(), a.mutable_data());
    const tools::FieldInfo& info = tools::field_info(f);
    out[info.name] = info.integer ? py::object(a.attr("astype")("int32")) : py::object(a);
  }
  for (const std::string& name : t.extra_names()) {
    std::vector<size_t> dims;
    const tools::Matrix values = t.read_extra(name, &dims);
    py::array_t<double> a(std::vector<py::ssize_t>(dims.begin(), dims.end()));
    std::copy(values.data.begin(), values.data.end(), a.mutable_data());
    out[py::str(name)] = a;
  }
  return out;
}

py::object read_trajectory(const std::string& ref, const ModelPtr& m) {
  const tools::TrajectoryInput input = tools::TrajectoryInput::open(ref);
  const std::vector<std::string> groups = input.trajectory_groups();
  auto read = [&](const std::string& g) {
    tools::Trajectory t = input.trajectory(g);
    if (m) t.validate(*m, {tools::Field::kQpos});
    return read_group(t);
  };
  if (groups.size() == 1) return read(groups[0]);
  py::list out;
  for (const std::string& g : groups) out.append(read(g));
  return out;
}

// One group's datasets from {name: array}: trajectory fields by their names (row shapes checked
// against the model), anything else as an extra float64 dataset. Every array has the rows of qpos.
void write_group(tools::TrajectoryWriter& w, const Model& m, const py::dict& arrays,
                 const std::string& where) {
  if (!arrays.contains("qpos"))
    throw InputError(where + ": no qpos (it counts a trajectory's rows)");
  const py::array qpos = py::array::ensure(arrays["qpos"]);
  if (!qpos) PyErr_Clear();
  const int64_t rows = qpos && qpos.ndim() > 0 ? qpos.shape(0) : -1;
  for (const auto& [key, value] : arrays) {
    const std::string name = py::str(key);
    const std::string what = where + name;
    const py::array any = py::array::ensure(value);
    if (!any) PyErr_Clear();
    if (!any || any.ndim() == 0) throw InputError(what + ": not an array with rows");
    if (const auto f = tools::field_by_name(name)) {
      std::vector<int64_t> shape{rows};
      for (size_t n : tools::field_row_shape(*f, m.sizes()))
        shape.push_back(static_cast<int64_t>(n));
      const auto a = as_doubles(any.attr("astype")("float64"), shape, what);
      w.append(*f, std::span<const double>(a.data(), static_cast<size_t>(a.size())),
               static_cast<size_t>(rows));
    } else {
      std::vector<int64_t> shape(any.shape(), any.shape() + any.ndim());
      if (shape[0] != rows || shape.size() < 2) {
        throw InputError(what + ": an extra dataset needs qpos's " + std::to_string(rows) +
                         " rows and at least one more dimension");
      }
      const auto a = as_doubles(any.attr("astype")("float64"), shape, what);
      w.append_extra(name, std::vector<size_t>(shape.begin() + 1, shape.end()),
                     std::span<const double>(a.data(), static_cast<size_t>(a.size())),
                     static_cast<size_t>(rows));
    }
  }
}

void write_trajectory(const std::string& path, const ModelPtr& mp, py::handle trajectories,
                      bool compress) {
  const Model& m = *mp;
  tools::WriterOptions options;
  options.model_name = std::string(m.model_name());
  options.creator = std::string("joco (Python) ") + JOCO_VERSION;
  options.deflate_level = compress ? 1 : 0;
  tools::TrajectoryFileWriter file(path, m, options);
  if (py::isinstance<py::dict>(trajectories)) {
    write_group(file.trajectory(), m, trajectories.cast<py::dict>(), path + ":/");
  } else {
    int b = 0;
    for (py::handle item : trajectories) {
      if (!py::isinstance<py::dict>(item))
        throw InputError("trajectories: a dict or a list of dicts");
      tools::TrajectoryWriter& w = file.rollout(b);
      write_group(w, m, item.cast<py::dict>(), path + ":" + tools::rollout_group(b) + "/");
      w.close();
      ++b;
    }
  }
  file.commit();
}

}  // namespace

void bind_trajectory_io(py::module_& mod) {
  mod.def("read_trajectory", &read_trajectory, py::arg("path"), py::arg("model") = ModelPtr(),
          "Reads FILE.h5 or FILE.h5:/group written by the tools (schemas/trajectory.md): a dict "
          "{dataset: array} for one trajectory, a list of them for a batch's rollout groups. With "
          "a model, the datasets are checked against it.");
  mod.def("write_trajectory", &write_trajectory, py::arg("path"), py::arg("m"),
          py::arg("trajectories"), py::arg("compress") = false,
          "Writes a trajectory file the tools read: a dict {dataset: array} (qpos required, rows "
          "first; time, qvel, act, ctrl, ... by the tools' names, anything else an extra dataset) "
          "as the file's trajectory, or a list of dicts as the rollout groups of a batch.");
}

}  // namespace joco::python
