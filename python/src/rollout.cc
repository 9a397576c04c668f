// joco.rollout: a batch of rollouts from initial states under given controls, on threads with the
// GIL released, through the stepping loop joco-simulate runs (tools/common/rollout_steps.h), so
// that a rollout gives the same bits as joco-simulate's for the same inputs.
#include <cstring>

#include "bindings.h"
#include "common/parallel.h"
#include "common/rollout_steps.h"
#include "joco/error.h"
#include "joco/state.h"

namespace joco::python {

namespace {

// The leading (batch) dimension of an input that may omit it: B, or 0 when absent.
int64_t batch_of(py::handle a, int full_rank) {
  const auto arr = py::array::ensure(a);
  if (!arr) {
    PyErr_Clear();
    throw InputError("not an array");
  }
  return arr.ndim() == full_rank ? arr.shape(0) : 0;
}

py::tuple rollout(const ModelPtr& mp, py::handle initial_state, py::handle ctrl, int threads) {
  const Model& m = *mp;
  if (threads < 1) throw InputError("threads must be at least 1, not " + std::to_string(threads));
  const unsigned mask = kStateFullPhysics;
  const int nstate = state_size(m, mask);
  const int64_t b_init = batch_of(initial_state, 2), b_ctrl = batch_of(ctrl, 3);
  const auto ctrl_arr = py::array::ensure(ctrl);
  if (!ctrl_arr) {
    PyErr_Clear();
    throw InputError("ctrl: not an array");
  }
  if (ctrl_arr.ndim() != 2 && ctrl_arr.ndim() != 3) {
    throw InputError("ctrl: " + std::to_string(ctrl_arr.ndim()) +
                     " dimensions, expected [B, T, nu] or [T, nu]");
  }
  const int64_t T = ctrl_arr.shape(ctrl_arr.ndim() - 2);
  const int64_t B = std::max<int64_t>({b_init, b_ctrl, 1});
  if (b_init && b_ctrl && b_init != b_ctrl) {
    throw InputError("initial_state has " + std::to_string(b_init) + " rollouts, ctrl " +
                     std::to_string(b_ctrl));
  }
  const auto init = as_doubles(
      initial_state, b_init ? std::vector<int64_t>{B, nstate} : std::vector<int64_t>{nstate},
      "initial_state (time, qpos, qvel, act)");
  const auto u = as_doubles(
      ctrl, b_ctrl ? std::vector<int64_t>{B, T, m.nu} : std::vector<int64_t>{T, m.nu}, "ctrl");
  py::array_t<double> state({B, T, int64_t{nstate}});
  py::array_t<double> sensordata({B, T, int64_t{m.nsensordata}});
  const double* init_p = init.data();
  const double* u_p = u.data();
  double* state_p = state.mutable_data();
  double* sens_p = sensordata.mutable_data();
  const int nthreads = static_cast<int>(std::min<int64_t>(threads, B));
  std::vector<Data> datas;
  for (int i = 0; i < nthreads; ++i) datas.emplace_back(m);
  {
    py::gil_scoped_release release;
    tools::parallel_for(static_cast<size_t>(B), nthreads, [&](int thread, size_t b) {
      Data& d = datas[static_cast<size_t>(thread)];
      // joco-simulate's start from a state: the model's initial state, then the given components.
      reset_data(m, d);
      set_state(m, d, init_p + (b_init ? b * nstate : 0), mask);
      const double* ub = u_p + (b_ctrl ? b * T * m.nu : 0);
      double* sb = state_p + b * T * nstate;
      double* yb = sens_p + b * T * m.nsensordata;
      tools::rollout_steps(
          m, d, T,
          [&](int64_t t) {
            if (t > 0) get_state(m, d, sb + (t - 1) * nstate, mask);  // after step t - 1
            if (T > 0) {  // the last row holds the last controls, as a controls file's does
              std::memcpy(d.ctrl, ub + std::min(t, T - 1) * m.nu, sizeof(double) * m.nu);
            }
          },
          [&](int64_t t) {
            if (t < T)
              std::memcpy(yb + t * m.nsensordata, d.sensordata, sizeof(double) * m.nsensordata);
          });
    });
  }
  return py::make_tuple(state, sensordata);
}

}  // namespace

void bind_rollout(py::module_& mod) {
  mod.def(
      "rollout", &rollout, py::arg("m"), py::arg("initial_state"), py::arg("ctrl"),
      py::arg("threads") = 1,
      "Rollouts of T steps: initial_state [B, nstate] (time, qpos, qvel, act: "
      "state_size(m, STATE_FULLPHYSICS); [nstate] for all), ctrl [B, T, nu] ([T, nu] for all), "
      "float64. Returns (state [B, T, nstate], sensordata [B, T, nsensordata]): state[b, t] after "
      "step t, sensordata[b, t] computed at the state step t starts from (MuJoCo's rollout). "
      "Each rollout starts from the model's initial state with the given components, as "
      "joco-simulate --init does, and gives its bits. The GIL is released.");
}

}  // namespace joco::python
