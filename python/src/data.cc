// joco.Data: every array of the Data table as a writable NumPy view (no copies, as MuJoCo's
// bindings make them), the contacts as a structured view, time and the counts of the current step.
// A Data keeps its Model alive.
#include <pybind11/stl.h>

#include <cstddef>

#include "bindings.h"
#include "joco/error.h"

namespace joco::python {

py::array view(ScalarType type, void* ptr, int64_t rows, int64_t cols, py::handle base,
               bool writable, bool keep_2d) {
  py::dtype dtype;
  switch (type) {
    case ScalarType::kFloat64: dtype = py::dtype::of<double>(); break;
    case ScalarType::kFloat32: dtype = py::dtype::of<float>(); break;
    case ScalarType::kInt32: dtype = py::dtype::of<int32_t>(); break;
    case ScalarType::kUInt8: dtype = py::dtype::of<uint8_t>(); break;
    case ScalarType::kChar: dtype = py::dtype::of<int8_t>(); break;
  }
  const auto size = static_cast<py::ssize_t>(dtype.itemsize());
  py::array a =
      cols == 1 && !keep_2d
          ? py::array(dtype, {static_cast<py::ssize_t>(rows)}, {size}, ptr, base)
          : py::array(dtype, {static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)},
                      {size * static_cast<py::ssize_t>(cols), size}, ptr, base);
  if (!writable)
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array view(const ArrayField& f, py::handle base, bool writable) {
  return view(f.type, f.data, f.rows, f.cols, base, writable);
}

void check_pair(const Model& m, const PyData& d) { check_data(m, d.data); }

namespace {

// The NumPy record type of joco::Contact (MuJoCo's mjContact fields).
py::dtype contact_dtype() {
  py::list names, formats, offsets;
  auto add = [&](const char* name, const std::string& format, size_t offset) {
    names.append(name);
    formats.append(format);
    offsets.append(offset);
  };
  add("dist", "f8", offsetof(Contact, dist));
  add("pos", "(3,)f8", offsetof(Contact, pos));
  add("frame", "(9,)f8", offsetof(Contact, frame));
  add("includemargin", "f8", offsetof(Contact, includemargin));
  add("friction", "(5,)f8", offsetof(Contact, friction));
  add("solref", "(" + std::to_string(kNREF) + ",)f8", offsetof(Contact, solref));
  add("solimp", "(" + std::to_string(kNIMP) + ",)f8", offsetof(Contact, solimp));
  add("mu", "f8", offsetof(Contact, mu));
  add("H", "(36,)f8", offsetof(Contact, H));
  add("dim", "i4", offsetof(Contact, dim));
  add("geom1", "i4", offsetof(Contact, geom1));
  add("geom2", "i4", offsetof(Contact, geom2));
  add("exclude", "i4", offsetof(Contact, exclude));
  add("efc_address", "i4", offsetof(Contact, efc_address));
  py::dict spec;
  spec["names"] = names;
  spec["formats"] = formats;
  spec["offsets"] = offsets;
  spec["itemsize"] = sizeof(Contact);
  return py::dtype::from_args(spec);
}

}  // namespace

void bind_data(py::module_& mod) {
  py::class_<PyData> cls(mod, "Data", "The workspace of one simulation (MuJoCo's mjData).");
  cls.def(py::init<ModelPtr>(), py::arg("model"), "A Data for the model, at its initial state.");
  cls.def_property_readonly("model", [](const PyData& d) { return d.model; });

  // Every array of the Data table, by its name: views into the Data, writable.
  const std::vector<ArrayField> fields = data_array_fields(ModelSizes{});
  for (size_t i = 0; i < fields.size(); ++i) {
    cls.def_property_readonly(fields[i].name, [i](py::object self) {
      const PyData& d = self.cast<const PyData&>();
      return view(d.fields[i], self, true);
    });
  }
  cls.def_property_readonly_static(
      "array_names",
      [](py::object) {
        std::vector<std::string> names;
        for (const ArrayField& f : data_array_fields(ModelSizes{})) names.emplace_back(f.name);
        return py::cast(names);
      },
      "The names of the Data's arrays, in the table's order.");

  // Never freed: a static py::object would be released after the interpreter is gone.
  static const py::dtype& contact = *new py::dtype(contact_dtype());
  cls.def_property_readonly(
      "contact",
      [](py::object self) {
        PyData& d = self.cast<PyData&>();
        return py::array(contact, {static_cast<py::ssize_t>(d.data.ncon)},
                         {static_cast<py::ssize_t>(sizeof(Contact))}, d.data.contact, self);
      },
      "The contacts of the last forward (ncon records: dist, pos, frame, ..., geom1, geom2).");
  cls.def_property(
      "time", [](const PyData& d) { return d.data.time; },
      [](PyData& d, double t) { d.data.time = t; });
  cls.def_property_readonly("ncon", [](const PyData& d) { return d.data.ncon; });
  cls.def_property_readonly("nefc", [](const PyData& d) { return d.data.nefc; });
  cls.def_property_readonly("ne", [](const PyData& d) { return d.data.ne; });
  cls.def_property_readonly("nf", [](const PyData& d) { return d.data.nf; });
  cls.def_property_readonly("solver_iter", [](const PyData& d) { return d.data.solver_iter; });
  cls.def_property_readonly("energy", [](py::object self) {
    PyData& d = self.cast<PyData&>();
    return view(ScalarType::kFloat64, d.data.energy, 2, 1, self, false);
  });
  cls.def_property_readonly("solver_fwdinv", [](py::object self) {
    PyData& d = self.cast<PyData&>();
    return view(ScalarType::kFloat64, d.data.solver_fwdinv, 2, 1, self, false);
  });
  cls.def_property_readonly(
      "warning_number",
      [](const PyData& d) {
        std::vector<int> n;
        for (const WarningStat& w : d.data.warning) n.push_back(w.number);
        return n;
      },
      "How many times each warning was raised (joco/constants.h's Warning order).");
  cls.def_property_readonly("maxuse_stack", [](const PyData& d) { return d.data.maxuse_stack; });
  cls.def("__repr__", [](const PyData& d) {
    return "<joco.Data time=" + std::to_string(d.data.time) +
           " ncon=" + std::to_string(d.data.ncon) + ">";
  });
}

}  // namespace joco::python
