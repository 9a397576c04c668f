// Continuous-time derivatives of forward and inverse dynamics by one-sided finite differences, the
// scheme of MuJoCo's `derivative` sample: columns split over threads, each thread with its own
// Data, forward evaluations from the centre point's converged warmstart.
#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include "derivative/fd_support.h"
#include "joco/constants.h"
#include "joco/derivative.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/smooth.h"
#include "joco/state.h"

namespace joco {

namespace {

// Column i of an nv x nv row-major matrix: (output - centre) / eps.
void set_column(double* matrix, int nv, int i, const double* output, const double* centre,
                double eps) {
  if (!matrix) return;
  for (int j = 0; j < nv; ++j)
    matrix[static_cast<size_t>(j) * nv + i] = (output[j] - centre[j]) / eps;
}

// The state and inputs a worker takes from the caller's Data, and qacc (the inverse's input).
void copy_inputs(const Model& m, const Data& from, Data& to) {
  copy_state(m, from, to, kStateIntegration);
  fd::copy(to.qacc, from.qacc, m.nv);
}

// Runs fn(worker index, column begin, column end) on every worker, one thread each (inline for a
// single worker), and rethrows the first failure. Workers whose thread the system refuses (ulimit
// -u, -v) run on the calling thread: the result is the same, only slower.
template <class Fn>
void for_each_worker(int nv, int nworker, Fn fn) {
  const int chunk = (nv + nworker - 1) / nworker;
  if (nworker == 1) {
    fn(0, 0, nv);
    return;
  }
  std::exception_ptr failure;
  std::mutex mutex;
  const auto run = [&](int t) {
    try {
      fn(t, std::min(nv, t * chunk), std::min(nv, (t + 1) * chunk));
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(nworker));
  int started = 0;
  for (; started < nworker; ++started) {
    try {
      threads.emplace_back(run, started);
    } catch (const std::system_error&) {
      break;  // a thread or memory limit: the calling thread does the rest
    }
  }
  // Workers whose thread could not start run here, one after the other, with their own scratch.
  for (int t = started; t < nworker; ++t) run(t);
  for (std::thread& th : threads) th.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

const char* const kAccuracyNames[kNAccuracy] = {"G2*F2 - I",  "G2 - G2'",   "G1 - G1'",
                                                "F2 - F2'",   "G1 + G2*F1", "G0 + G2*F0",
                                                "F1 + F2*G1", "F0 + F2*G0"};

void prepare_model_for_continuous_fd(Model& m, int iterations) {
  m.opt.iterations = iterations;
  m.opt.tolerance = 0;
}

void forward_dynamics_fd(const Model& m, Data& d, const ContinuousOptions& options, int begin,
                         int end, double* dqacc_dqpos, double* dqacc_dqvel, double* dqacc_dqfrc) {
  check_data(m, d);
  const int nv = m.nv;
  const double eps = options.eps;
  StackFrame frame(d);
  double* centre = frame.doubles(nv);
  double* warm = frame.doubles(nv);
  double* saved_warm = frame.doubles(nv);
  double* saved_qpos = frame.doubles(m.nq);
  double* dq = frame.doubles(nv);
  fd::copy(saved_warm, d.qacc_warmstart, nv);
  fd::copy(saved_qpos, d.qpos, m.nq);

  forward_skip(m, d, kStageNone, true);
  // More solves at the centre bring its warmstart (and qacc) to convergence.
  for (int rep = 1; rep < options.nwarmup; ++rep) forward_skip(m, d, kStageVel, true);
  fd::copy(centre, d.qacc, nv);
  fd::copy(warm, d.qacc_warmstart, nv);
  auto evaluate = [&](Stage skip) {
    fd::copy(d.qacc_warmstart, warm, nv);
    forward_skip(m, d, skip, true);
  };

  for (int i = begin; i < end; ++i) {
    const double f = d.qfrc_applied[i];
    d.qfrc_applied[i] = f + eps;
    evaluate(kStageVel);
    d.qfrc_applied[i] = f;
    set_column(dqacc_dqfrc, nv, i, d.qacc, centre, eps);
  }
  for (int i = begin; i < end; ++i) {
    const double v = d.qvel[i];
    d.qvel[i] = v + eps;
    evaluate(kStagePos);
    d.qvel[i] = v;
    set_column(dqacc_dqvel, nv, i, d.qacc, centre, eps);
  }
  std::fill(dq, dq + nv, 0.0);
  for (int i = begin; i < end; ++i) {
    // Every column from the caller's qpos: the centre's forward normalised its quaternions in
    // place, and a worker's first column would otherwise start from those (a result that depended
    // on how the columns are split among threads).
    fd::copy(d.qpos, saved_qpos, m.nq);
    dq[i] = 1;
    integrate_pos(m, d.qpos, dq, eps);
    dq[i] = 0;
    evaluate(kStageNone);
    set_column(dqacc_dqpos, nv, i, d.qacc, centre, eps);
  }
  fd::copy(d.qpos, saved_qpos, m.nq);
  fd::copy(d.qacc_warmstart, saved_warm, nv);
}

void inverse_dynamics_fd(const Model& m, Data& d, const ContinuousOptions& options, int begin,
                         int end, double* dqfrc_dqpos, double* dqfrc_dqvel, double* dqfrc_dqacc) {
  check_data(m, d);
  const int nv = m.nv;
  const double eps = options.eps;
  StackFrame frame(d);
  double* centre = frame.doubles(nv);
  double* saved_qpos = frame.doubles(m.nq);
  double* dq = frame.doubles(nv);
  fd::copy(saved_qpos, d.qpos, m.nq);

  inverse_skip(m, d, kStageNone, true);
  fd::copy(centre, d.qfrc_inverse, nv);
  // Each input recomputes only the stages it reaches, as mujoco-derivative does (qacc: the
  // acceleration stage; qvel: from the velocity stage; qpos: all).
  for (int i = begin; i < end; ++i) {
    const double a = d.qacc[i];
    d.qacc[i] = a + eps;
    inverse_skip(m, d, kStageVel, true);
    d.qacc[i] = a;
    set_column(dqfrc_dqacc, nv, i, d.qfrc_inverse, centre, eps);
  }
  for (int i = begin; i < end; ++i) {
    const double v = d.qvel[i];
    d.qvel[i] = v + eps;
    inverse_skip(m, d, kStagePos, true);
    d.qvel[i] = v;
    set_column(dqfrc_dqvel, nv, i, d.qfrc_inverse, centre, eps);
  }
  std::fill(dq, dq + nv, 0.0);
  for (int i = begin; i < end; ++i) {
    fd::copy(d.qpos, saved_qpos, m.nq);  // the caller's, as in forward_dynamics_fd
    dq[i] = 1;
    integrate_pos(m, d.qpos, dq, eps);
    dq[i] = 0;
    inverse_skip(m, d, kStageNone, true);
    set_column(dqfrc_dqpos, nv, i, d.qfrc_inverse, centre, eps);
  }
  fd::copy(d.qpos, saved_qpos, m.nq);
}

ContinuousDerivatives continuous_derivatives(const Model& m, const Data& state,
                                             std::span<Data> workers,
                                             const ContinuousOptions& options) {
  if (workers.empty()) throw RuntimeError("continuous_derivatives: no worker Data");
  const int nv = m.nv;
  const size_t n = static_cast<size_t>(nv) * static_cast<size_t>(nv);
  ContinuousDerivatives r;
  r.nv = nv;
  const int nworker = static_cast<int>(std::min<size_t>(workers.size(), std::max(nv, 1)));
  if (options.inverse) {
    r.dqfrc_dqpos.assign(n, 0.0);
    r.dqfrc_dqvel.assign(n, 0.0);
    r.dqfrc_dqacc.assign(n, 0.0);
    for_each_worker(nv, nworker, [&](int t, int begin, int end) {
      Data& d = workers[static_cast<size_t>(t)];
      copy_inputs(m, state, d);
      inverse_dynamics_fd(m, d, options, begin, end, r.dqfrc_dqpos.data(), r.dqfrc_dqvel.data(),
                          r.dqfrc_dqacc.data());
    });
  }
  if (options.forward) {
    r.dqacc_dqpos.assign(n, 0.0);
    r.dqacc_dqvel.assign(n, 0.0);
    r.dqacc_dqfrc.assign(n, 0.0);
    for_each_worker(nv, nworker, [&](int t, int begin, int end) {
      Data& d = workers[static_cast<size_t>(t)];
      copy_inputs(m, state, d);
      forward_dynamics_fd(m, d, options, begin, end, r.dqacc_dqpos.data(), r.dqacc_dqvel.data(),
                          r.dqacc_dqfrc.data());
    });
  }
  return r;
}

namespace {

// log10 of |residual|_1 / |base|_1, both floored at kMinVal.
double relative_norm(const std::vector<double>& residual, const std::vector<double>& base) {
  double res = 0, ref = 0;
  for (double x : residual) res += std::fabs(x);
  for (double x : base) ref += std::fabs(x);
  return std::log10(std::max(kMinVal, res / std::max(kMinVal, ref)));
}

// a * b for nv x nv row-major matrices.
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b, int nv) {
  std::vector<double> c(a.size(), 0.0);
  for (int i = 0; i < nv; ++i) {
    for (int k = 0; k < nv; ++k) {
      const double aik = a[static_cast<size_t>(i * nv + k)];
      for (int j = 0; j < nv; ++j)
        c[static_cast<size_t>(i * nv + j)] += aik * b[static_cast<size_t>(k * nv + j)];
    }
  }
  return c;
}

std::vector<double> minus_transpose(const std::vector<double>& a, int nv) {
  std::vector<double> c(a.size());
  for (int i = 0; i < nv; ++i) {
    for (int j = 0; j < nv; ++j) {
      c[static_cast<size_t>(i * nv + j)] =
          a[static_cast<size_t>(j * nv + i)] - a[static_cast<size_t>(i * nv + j)];
    }
  }
  return c;
}

std::vector<double> sum(std::vector<double> a, const std::vector<double>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

}  // namespace

std::array<double, kNAccuracy> continuous_derivative_accuracy(const ContinuousDerivatives& deriv) {
  const int nv = deriv.nv;
  const size_t n = static_cast<size_t>(nv) * static_cast<size_t>(nv);
  for (const std::vector<double>* x :
       {&deriv.dqacc_dqpos, &deriv.dqacc_dqvel, &deriv.dqacc_dqfrc, &deriv.dqfrc_dqpos,
        &deriv.dqfrc_dqvel, &deriv.dqfrc_dqacc}) {
    if (x->size() != n)
      throw RuntimeError("the accuracy check needs forward and inverse derivatives");
  }
  const auto& G0 = deriv.dqfrc_dqpos;
  const auto& G1 = deriv.dqfrc_dqvel;
  const auto& G2 = deriv.dqfrc_dqacc;
  const auto& F0 = deriv.dqacc_dqpos;
  const auto& F1 = deriv.dqacc_dqvel;
  const auto& F2 = deriv.dqacc_dqfrc;
  std::vector<double> g2f2 = product(G2, F2, nv);
  for (int i = 0; i < nv; ++i) g2f2[static_cast<size_t>(i * (nv + 1))] -= 1;
  return {relative_norm(g2f2, G2),
          relative_norm(minus_transpose(G2, nv), G2),
          relative_norm(minus_transpose(G1, nv), G1),
          relative_norm(minus_transpose(F2, nv), F2),
          relative_norm(sum(product(G2, F1, nv), G1), G1),
          relative_norm(sum(product(G2, F0, nv), G0), G0),
          relative_norm(sum(product(F2, G1, nv), F1), F1),
          relative_norm(sum(product(F2, G0, nv), F0), F0)};
}

void smooth_velocity_derivative_dense(const Model& m, Data& d, bool with_bias, double* dense) {
  fwd_position(m, d);
  fwd_velocity(m, d);
  smooth_velocity_derivative(m, d, with_bias);
  const int nv = m.nv;
  std::fill(dense, dense + static_cast<size_t>(nv) * nv, 0.0);
  for (int i = 0; i < nv; ++i) {
    for (int k = 0; k < d.D_rownnz[i]; ++k) {
      const int adr = d.D_rowadr[i] + k;
      dense[static_cast<size_t>(i) * nv + d.D_colind[adr]] = d.qDeriv[adr];
    }
  }
}

}  // namespace joco
