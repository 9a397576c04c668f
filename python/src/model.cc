// joco.Model: loading (MJCF, URDF, .jmb through the tools' loader), the sizes, every array of the
// field table as a read-only NumPy view, the options (writable), the statistics, and look-ups
// between names and ids.
#include <pybind11/stl.h>

#include <fstream>
#include <utility>

#include "bindings.h"
#include "common/model_input.h"
#include "joco/error.h"
#include "joco/jmb.h"
#include "joco/keywords.h"

namespace joco::python {

namespace {

ObjType object_type(const std::string& name) {
  for (const auto& [n, type] : object_type_keywords()) {
    if (name == n) return static_cast<ObjType>(type);
  }
  std::string known;
  for (const auto& [n, type] : object_type_keywords())
    known += std::string(known.empty() ? "" : ", ") + n;
  throw InputError("unknown object type '" + name + "' (one of: " + known + ")");
}

// The named object of a type as (id, name); KeyError when there is none.
py::object named_object(const Model& m, const std::string& type, const std::string& name) {
  const int id = m.name_to_id(object_type(type), name);
  if (id < 0) throw py::key_error("the model has no " + type + " named '" + name + "'");
  py::object ns = py::module_::import("types").attr("SimpleNamespace");
  return ns(py::arg("id") = id, py::arg("name") = name, py::arg("type") = type);
}

// A fixed-size struct member (Option, Statistic): a scalar, or a view of its N elements.
template <class Owner, class T, int N>
void bind_member(py::class_<Owner>& cls, const char* name, FieldMember<T, N> Owner::*member,
                 bool writable) {
  if constexpr (N == 1) {
    if (writable) {
      cls.def_property(
          name, [member](const Owner& o) { return o.*member; },
          [member](Owner& o, T v) { o.*member = v; });
    } else {
      cls.def_property_readonly(name, [member](const Owner& o) { return o.*member; });
    }
  } else {
    cls.def_property_readonly(name, [member, writable](py::object self) {
      Owner& o = self.cast<Owner&>();
      return view(scalar_type_of<T>(), &(o.*member)[0], N, 1, self, writable);
    });
  }
}

}  // namespace

void bind_model(py::module_& mod) {
  py::class_<Option> opt(mod, "Option", "The physics options (MJCF <option>), writable.");
#define JOCO_BIND_OPTION(type, name, count) \
  bind_member<Option, type, count>(opt, #name, &Option::name, true);
  JOCO_OPTION_FIELDS(JOCO_BIND_OPTION)
#undef JOCO_BIND_OPTION

  py::class_<Statistic> stat(mod, "Statistic", "Model statistics computed by the compiler.");
#define JOCO_BIND_STAT(type, name, count) \
  bind_member<Statistic, type, count>(stat, #name, &Statistic::name, false);
  JOCO_STATISTIC_FIELDS(JOCO_BIND_STAT)
#undef JOCO_BIND_STAT

  py::class_<Model, ModelPtr> cls(mod, "Model", "A compiled model (MuJoCo's mjModel).");
  cls.def_static(
      "load",
      [](const std::string& path) { return std::make_shared<Model>(tools::load_model(path)); },
      py::arg("path"),
      "Loads a model: MJCF, URDF or .jmb, told apart by content (as every joco tool loads one).");
  cls.def(
      "save",
      [](const Model& m, const std::string& path) {
        const std::vector<uint8_t> bytes = write_jmb(m);
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out) throw RuntimeError(path + ": cannot write the .jmb");
      },
      py::arg("path"), "Writes the model as .jmb (what joco-compile -o writes).");

#define JOCO_BIND_SIZE(name) \
  cls.def_property_readonly(#name, [](const Model& m) { return m.name; });
  JOCO_MODEL_SIZES(JOCO_BIND_SIZE)
#undef JOCO_BIND_SIZE

  // Every array of the field table, by its name, read-only (the model is shared by its Data).
  const std::vector<ArrayField> fields = ModelSizes{}.array_fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    cls.def_property_readonly(fields[i].name, [i](py::object self) {
      const Model& m = self.cast<const Model&>();
      return view(m.arrays()[i], self, false);
    });
  }
  cls.def_property_readonly_static(
      "array_names",
      [](py::object) {
        std::vector<std::string> names;
        for (const ArrayField& f : ModelSizes{}.array_fields()) names.emplace_back(f.name);
        return names;
      },
      "The names of the model's arrays, in the field table's order.");
  cls.def_property_readonly_static(
      "size_names",
      [](py::object) {
        std::vector<std::string> names;
        for (const auto& [name, value] : ModelSizes{}.size_list()) names.emplace_back(name);
        return names;
      },
      "The names of the model's sizes, in the field table's order.");

  cls.def_property_readonly(
      "opt", [](Model& m) -> Option& { return m.opt; },
      py::return_value_policy::reference_internal);
  cls.def_property_readonly(
      "stat", [](Model& m) -> Statistic& { return m.stat; },
      py::return_value_policy::reference_internal);
  cls.def_property_readonly("name", [](const Model& m) { return std::string(m.model_name()); });

  cls.def(
      "name2id",
      [](const Model& m, const std::string& type, const std::string& name) {
        return m.name_to_id(object_type(type), name);
      },
      py::arg("type"), py::arg("name"),
      "Id of the named object of a type ('body', 'joint', 'geom', ...), -1 when there is none.");
  cls.def(
      "id2name",
      [](const Model& m, const std::string& type, int id) -> py::object {
        const ObjType t = object_type(type);
        if (id < 0 || id >= object_count(m, t)) return py::none();
        return py::str(std::string(m.name(t, id)));
      },
      py::arg("type"), py::arg("id"),
      "Name of object `id` of a type ('' unnamed, None out of range).");
  for (const char* type : {"body", "joint", "geom", "site", "camera", "light", "mesh", "equality",
                           "tendon", "actuator", "sensor", "key"}) {
    cls.def(
        type,
        [t = std::string(type)](const Model& m, const std::string& name) {
          return named_object(m, t, name);
        },
        py::arg("name"), "The named object: .id, .name, .type (KeyError when absent).");
  }
  cls.def("__repr__", [](const Model& m) {
    return "<joco.Model '" + std::string(m.model_name()) + "' nq=" + std::to_string(m.nq) +
           " nv=" + std::to_string(m.nv) + " nu=" + std::to_string(m.nu) +
           " nbody=" + std::to_string(m.nbody) + ">";
  });
}

}  // namespace joco::python
