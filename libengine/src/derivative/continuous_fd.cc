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
  ContinuousDerivatives r;
  continuous_derivatives(m, state, workers, options, r);
  return r;
}

void continuous_derivatives(const Model& m, const Data& state, std::span<Data> workers,
                            const ContinuousOptions& options, ContinuousDerivatives& out) {
  if (workers.empty()) throw RuntimeError("continuous_derivatives: no worker Data");
  const int nv = m.nv;
  const size_t n = static_cast<size_t>(nv) * static_cast<size_t>(nv);
  out.nv = nv;
  const int nworker = static_cast<int>(std::min<size_t>(workers.size(), std::max(nv, 1)));
  // (every column of each matrix is set below, by one worker)
  if (options.inverse) {
    for (std::vector<double>* x : {&out.dqfrc_dqpos, &out.dqfrc_dqvel, &out.dqfrc_dqacc}) {
      x->resize(n);
    }
    for_each_worker(nv, nworker, [&](int t, int begin, int end) {
      Data& d = workers[static_cast<size_t>(t)];
      copy_inputs(m, state, d);
      inverse_dynamics_fd(m, d, options, begin, end, out.dqfrc_dqpos.data(), out.dqfrc_dqvel.data(),
                          out.dqfrc_dqacc.data());
    });
  }
  if (options.forward) {
    for (std::vector<double>* x : {&out.dqacc_dqpos, &out.dqacc_dqvel, &out.dqacc_dqfrc}) {
      x->resize(n);
    }
    for_each_worker(nv, nworker, [&](int t, int begin, int end) {
      Data& d = workers[static_cast<size_t>(t)];
      copy_inputs(m, state, d);
      forward_dynamics_fd(m, d, options, begin, end, out.dqacc_dqpos.data(), out.dqacc_dqvel.data(),
                          out.dqacc_dqfrc.data());
    });
  }
}

namespace {

// log10 of |residual|_1 / |base|_1 for nv x nv matrices, both floored at kMinVal; the residual's
// entries from residual(i, j), summed in row-major order (no matrix is formed: the check runs
// once a state in joco-derivatives' loop).
template <typename Entry>
double relative_norm(int nv, Entry residual, const std::vector<double>& base) {
  double res = 0, ref = 0;
  for (int i = 0; i < nv; ++i) {
    for (int j = 0; j < nv; ++j) res += std::fabs(residual(i, j));
  }
  for (double x : base) ref += std::fabs(x);
  return std::log10(std::max(kMinVal, res / std::max(kMinVal, ref)));
}

// (a * b)(i, j) for nv x nv row-major matrices, summed over k in order.
double product_at(const std::vector<double>& a, const std::vector<double>& b, int nv, int i,
                  int j) {
  double c = 0;
  for (int k = 0; k < nv; ++k) {
    c += a[static_cast<size_t>(i * nv + k)] * b[static_cast<size_t>(k * nv + j)];
  }
  return c;
}

double at(const std::vector<double>& a, int nv, int i, int j) {
  return a[static_cast<size_t>(i * nv + j)];
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
  // a product plus a matrix, and a matrix's asymmetry
  auto product_plus = [nv](const std::vector<double>& a, const std::vector<double>& b,
                           const std::vector<double>& c) {
    return [&a, &b, &c, nv](int i, int j) { return product_at(a, b, nv, i, j) + at(c, nv, i, j); };
  };
  auto asymmetry = [nv](const std::vector<double>& a) {
    return [&a, nv](int i, int j) { return at(a, nv, j, i) - at(a, nv, i, j); };
  };
  return {
      relative_norm(
          nv, [&](int i, int j) { return product_at(G2, F2, nv, i, j) - (i == j ? 1 : 0); }, G2),
      relative_norm(nv, asymmetry(G2), G2),
      relative_norm(nv, asymmetry(G1), G1),
      relative_norm(nv, asymmetry(F2), F2),
      relative_norm(nv, product_plus(G2, F1, G1), G1),
      relative_norm(nv, product_plus(G2, F0, G0), G0),
      relative_norm(nv, product_plus(F2, G1, F1), F1),
      relative_norm(nv, product_plus(F2, G0, F0), F0)};
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
