// The `joco` Python module: one file per concern, assembled here.
#include "bindings.h"

PYBIND11_MODULE(joco, mod) {
  mod.doc() = "joco: multibody physics with contact (MuJoCo 2.2.2's system), from Python";
  mod.attr("__version__") = JOCO_VERSION;
  joco::python::bind_errors(mod);
  joco::python::bind_model(mod);
  joco::python::bind_data(mod);
  joco::python::bind_functions(mod);
  joco::python::bind_rollout(mod);
  joco::python::bind_trajectory_io(mod);
}
