// The engine's functions on a Model and a Data: forward, step and its halves, inverse, resets and
// keyframes, the state as one array (joco/state.h), and the transition derivatives A, B, C, D. Each
// is the engine's entry point, called as it is (it refuses a Data of another model itself); none
// allocates on the heap but the derivatives (which need a Data with more stack).
#include <algorithm>
#include <limits>
#include <optional>

#include "bindings.h"
#include "joco/derivative.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/state.h"

namespace joco::python {

py::array_t<double, py::array::c_style> as_doubles(py::handle arg,
                                                   const std::vector<int64_t>& shape,
                                                   const std::string& what) {
  if (py::isinstance<py::array>(arg)) {
    const py::array a = py::reinterpret_borrow<py::array>(arg);
    if (!a.dtype().is(py::dtype::of<double>())) {
      throw InputError(what + ": dtype " + py::str(a.dtype()).cast<std::string>() +
                       ", expected float64");
    }
  }
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(arg);
  if (!a) {
    PyErr_Clear();
    throw InputError(what + ": not an array of numbers");
  }
  auto describe = [](auto dims) {
    std::string s = "(";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + (dims.size() == 1 ? ",)" : ")");
  };
  std::vector<int64_t> actual(a.shape(), a.shape() + a.ndim());
  if (actual != shape) {
    throw InputError(what + ": shape " + describe(actual) + ", expected " + describe(shape));
  }
  return a;
}

namespace {

unsigned state_mask(unsigned mask) {
  if (mask > kStateAll)
    throw InputError("state mask " + std::to_string(mask) + " has bits beyond STATE_ALL");
  return mask;
}

int keyframe(const Model& m, py::handle key) {
  if (py::isinstance<py::str>(key)) {
    const std::string name = key.cast<std::string>();
    const int id = m.name_to_id(kObjKey, name);
    if (id < 0) throw InputError("the model has no keyframe named '" + name + "'");
    return id;
  }
  return key.cast<int>();
}

// The transition Jacobians at d's state and inputs (joco/derivative.h's transition_fd), in a Data
// of the model with the stack transition_fd needs on top of step's; d is left as it is.
py::tuple transition(const ModelPtr& mp, PyData& pd, double eps, bool centered, bool sensors) {
  const Model& m = *mp;
  check_pair(m, pd);
  if (!(eps > 0)) throw InputError("eps must be positive, not " + std::to_string(eps));
  const int nx = 2 * m.nv + m.na;
  py::array_t<double> A({nx, nx}), B({nx, m.nu});
  std::optional<py::array_t<double>> C, D;
  if (sensors) {
    C.emplace(std::vector<py::ssize_t>{m.nsensordata, nx});
    D.emplace(std::vector<py::ssize_t>{m.nsensordata, m.nu});
  }
  double* a = A.mutable_data();
  double* b = B.mutable_data();
  double* c = C ? C->mutable_data() : nullptr;
  double* dd = D ? D->mutable_data() : nullptr;
  {
    py::gil_scoped_release release;
    Model fd = m;
    fd.nstack = static_cast<int>(std::min<int64_t>(std::numeric_limits<int>::max(),
                                                   int64_t{m.nstack} + transition_fd_stack(m)));
    Data scratch(fd);
    std::vector<double> state(static_cast<size_t>(state_size(m, kStateIntegration)));
    get_state(m, pd.data, state.data(), kStateIntegration);
    set_state(fd, scratch, state.data(), kStateIntegration);
    transition_fd(fd, scratch, eps, centered, a, b, c, dd);
  }
  return py::make_tuple(A, B, C ? py::object(*C) : py::none(), D ? py::object(*D) : py::none());
}

}  // namespace

void bind_functions(py::module_& mod) {
  mod.def(
      "forward", [](const Model& m, PyData& d) { forward(m, d.data); }, py::arg("m"), py::arg("d"),
      "Forward dynamics at the current state (mj_forward).");
  mod.def(
      "step", [](const Model& m, PyData& d) { step(m, d.data); }, py::arg("m"), py::arg("d"),
      "One time step with the model's integrator (mj_step).");
  mod.def(
      "step1", [](const Model& m, PyData& d) { step1(m, d.data); }, py::arg("m"), py::arg("d"),
      "First half of step: checks and the whole of forward (set ctrl before it; see "
      "joco/forward.h for how it differs from mj_step1).");
  mod.def(
      "step2", [](const Model& m, PyData& d) { step2(m, d.data); }, py::arg("m"), py::arg("d"),
      "Second half of step: the model's integrator (RK4 included).");
  mod.def(
      "inverse",
      [](const Model& m, PyData& d, bool discrete) {
        InverseOptions o;
        o.discrete = discrete;
        inverse(m, d.data, o);
      },
      py::arg("m"), py::arg("d"), py::arg("discrete") = false,
      "Inverse dynamics at qpos, qvel, act and qacc: qfrc_inverse (mj_inverse); discrete=True "
      "reads "
      "qacc as the integrator's discrete-time acceleration.");
  mod.def(
      "reset", [](const Model& m, PyData& d) { reset_data(m, d.data); }, py::arg("m"), py::arg("d"),
      "Back to the model's initial state (mj_resetData).");
  mod.def(
      "reset_keyframe",
      [](const Model& m, PyData& d, py::handle key) {
        reset_to_keyframe(m, d.data, keyframe(m, key));
      },
      py::arg("m"), py::arg("d"), py::arg("key"),
      "Reset, then the keyframe's state (by index or name; mj_resetDataKeyframe).");

  mod.attr("STATE_TIME") = static_cast<unsigned>(kStateTime);
  mod.attr("STATE_QPOS") = static_cast<unsigned>(kStateQpos);
  mod.attr("STATE_QVEL") = static_cast<unsigned>(kStateQvel);
  mod.attr("STATE_ACT") = static_cast<unsigned>(kStateAct);
  mod.attr("STATE_WARMSTART") = static_cast<unsigned>(kStateWarmstart);
  mod.attr("STATE_CTRL") = static_cast<unsigned>(kStateCtrl);
  mod.attr("STATE_QFRC_APPLIED") = static_cast<unsigned>(kStateQfrcApplied);
  mod.attr("STATE_XFRC_APPLIED") = static_cast<unsigned>(kStateXfrcApplied);
  mod.attr("STATE_MOCAP_POS") = static_cast<unsigned>(kStateMocapPos);
  mod.attr("STATE_MOCAP_QUAT") = static_cast<unsigned>(kStateMocapQuat);
  mod.attr("STATE_ALL") = static_cast<unsigned>(kStateAll);
  mod.attr("STATE_PHYSICS") = static_cast<unsigned>(kStatePhysics);
  mod.attr("STATE_FULLPHYSICS") = static_cast<unsigned>(kStateFullPhysics);
  mod.attr("STATE_USER") = static_cast<unsigned>(kStateUser);
  mod.attr("STATE_INTEGRATION") = static_cast<unsigned>(kStateIntegration);

  mod.def(
      "state_size", [](const Model& m, unsigned mask) { return state_size(m, state_mask(mask)); },
      py::arg("m"), py::arg("mask") = static_cast<unsigned>(kStateFullPhysics),
      "Doubles of a state of these components (mj_stateSize).");
  mod.def(
      "get_state",
      [](const Model& m, const PyData& d, unsigned mask) {
        check_pair(m, d);
        py::array_t<double> out(state_size(m, state_mask(mask)));
        get_state(m, d.data, out.mutable_data(), mask);
        return out;
      },
      py::arg("m"), py::arg("d"), py::arg("mask") = static_cast<unsigned>(kStateFullPhysics),
      "The state's components of `mask` as one array (mj_getState).");
  mod.def(
      "set_state",
      [](const Model& m, PyData& d, py::handle state, unsigned mask) {
        check_pair(m, d);
        const auto s = as_doubles(state, {state_size(m, state_mask(mask))}, "state");
        set_state(m, d.data, s.data(), mask);
      },
      py::arg("m"), py::arg("d"), py::arg("state"),
      py::arg("mask") = static_cast<unsigned>(kStateFullPhysics),
      "Sets the components of `mask` from a state get_state wrote (mj_setState).");

  mod.def(
      "transition_fd",
      [](const ModelPtr& m, PyData& d, double eps, bool centered, bool sensors) {
        return transition(m, d, eps, centered, sensors);
      },
      py::arg("m"), py::arg("d"), py::arg("eps") = 1e-6, py::arg("centered") = false,
      py::arg("sensors") = true,
      "Transition Jacobians (A, B, C, D) of step at d's state and inputs, by finite differences "
      "(mjd_transitionFD); x = (qpos tangent, qvel, act): A = dx'/dx, B = dx'/du, C = dy/dx, "
      "D = dy/du with y = sensordata (None unless sensors). d is left as it is.");
}

}  // namespace joco::python
