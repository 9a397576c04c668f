// joco-inverse MODEL MOCAP.h5[:/group] [-o OUT.h5] [--dt H] [--discrete]
//              [--smooth savgol:WINDOW:ORDER] [--threads T] [--quat-tolerance E]
//
// Inverse dynamics along a recorded trajectory (schemas/trajectory.md): qpos is required; qvel and
// qacc are used as given where present, otherwise estimated by finite differences of the positions
// (central by default, the integrator's own differences with --discrete, Savitzky-Golay with
// --smooth). Writes, per row, the qpos, qvel and qacc used, qfrc_inverse, qfrc_constraint,
// qfrc_bias, the sensors, the contact table with forces and, for models whose actuators are affine
// in their controls, the least-squares controls (ctrl_estimate) and their residual.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "common/io.h"
#include "common/model_input.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/error.h"
#include "joco/forward.h"
#include "joco/inverse.h"
#include "joco/motion_differences.h"
#include "joco/smooth.h"

namespace joco::tools {
namespace {

struct Options {
  std::string model, input, output = "-", smooth;
  double dt = 0;
  bool discrete = false;
  int threads = 1;
  double quat_tolerance = 1e-3;
};

// Rows of one trajectory, as read (optional fields empty when absent).
struct Inputs {
  size_t rows = 0;
  std::vector<double> time, qpos, qvel, qacc, act, ctrl, qfrc_applied, xfrc_applied;
};

std::string join_rows(const std::vector<std::string>& problems) {
  std::string text;
  const size_t shown = std::min<size_t>(problems.size(), 20);
  for (size_t i = 0; i < shown; ++i) text += "\n  " + problems[i];
  if (problems.size() > shown) {
    text += "\n  ... and " + std::to_string(problems.size() - shown) + " more";
  }
  return text;
}

// Every row whose qpos (or given qvel / qacc) is unusable: a value that is not finite, or a free or
// ball joint quaternion whose norm is off 1 by more than the tolerance. Rows within the tolerance
// have their quaternions normalised.
void check_rows(const Model& m, const Trajectory& t, Inputs& in, double tolerance) {
  std::vector<std::string> problems;
  const auto check_finite = [&](const std::vector<double>& values, int width, const char* name) {
    if (values.empty() || width == 0) return;
    for (size_t r = 0; r < in.rows; ++r) {
      for (int c = 0; c < width; ++c) {
        const double v = values[r * width + c];
        if (!std::isfinite(v)) {
          problems.push_back("row " + std::to_string(r) + ": " + name + " column " +
                             std::to_string(c) + " is " + fmt::format("{}", v));
          break;
        }
      }
    }
  };
  check_finite(in.qpos, m.nq, "qpos");
  check_finite(in.qvel, m.nv, "qvel");
  check_finite(in.qacc, m.nv, "qacc");
  for (size_t r = 0; r < in.rows; ++r) {
    double* q = in.qpos.data() + r * m.nq;
    for (int j = 0; j < m.njnt; ++j) {
      const int type = m.jnt_type[j];
      if (type != kJointFree && type != kJointBall) continue;
      double* quat = q + m.jnt_qposadr[j] + (type == kJointFree ? 3 : 0);
      const double n =
          std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
      if (!std::isfinite(n)) continue;  // reported above
      if (std::abs(n - 1) > tolerance) {
        const std::string_view name = m.name(kObjJoint, j);
        problems.push_back("row " + std::to_string(r) + ": the quaternion of joint " +
                           (name.empty() ? std::to_string(j) : "'" + std::string(name) + "'") +
                           " has norm " + fmt::format("{:.6g}", n) + " (tolerance " +
                           fmt::format("{:g}", tolerance) + ")");
      } else {
        for (int k = 0; k < 4; ++k) quat[k] /= n;
      }
    }
  }
  if (!problems.empty()) {
    std::sort(problems.begin(), problems.end(), [](const std::string& a, const std::string& b) {
      return std::stoul(a.substr(4)) < std::stoul(b.substr(4));
    });
    throw InputError(t.where() + ": " + std::to_string(problems.size()) +
                     " invalid row(s), not used:" + join_rows(problems));
  }
}

Inputs read_inputs(const Model& m, Trajectory& t, const Options& o) {
  t.validate(m, {Field::kQpos});
  Inputs in;
  in.rows = t.rows();
  auto read = [&](Field f, bool check_finite = true) {
    return t.has(f) && field_row_size(f, m) > 0 ? t.read(f, 0, SIZE_MAX, check_finite).data
                                                : std::vector<double>{};
  };
  in.qpos = read(Field::kQpos, false);
  in.qvel = read(Field::kQvel, false);
  in.qacc = read(Field::kQacc);
  in.act = read(Field::kAct);
  in.ctrl = read(Field::kCtrl);
  in.qfrc_applied = read(Field::kQfrcApplied);
  in.xfrc_applied = read(Field::kXfrcApplied);
  if (o.dt > 0) {
    in.time.resize(in.rows);
    const double t0 = t.has(Field::kTime) ? t.read(Field::kTime, 0, 1).data[0] : 0.0;
    for (size_t r = 0; r < in.rows; ++r) in.time[r] = t0 + static_cast<double>(r) * o.dt;
  } else if (t.has(Field::kTime)) {
    in.time = t.read(Field::kTime).data;
    for (size_t r = 1; r < in.rows; ++r) {
      if (!(in.time[r] > in.time[r - 1])) {
        throw InputError(t.where() + "/time: does not increase at row " + std::to_string(r) +
                         "; give --dt to use evenly spaced rows instead");
      }
    }
  }
  check_rows(m, t, in, o.quat_tolerance);
  const bool need_time = m.nv > 0 && (in.qvel.empty() || in.qacc.empty());
  if (need_time && in.time.empty()) {
    throw InputError(t.where() + ": no dataset time, so differences need --dt H");
  }
  return in;
}

// The positions, velocities and accelerations the inverse is given.
void prepare_motion(const Model& m, const Trajectory& t, Inputs& in, const DifferenceOptions& d) {
  const int rows = static_cast<int>(in.rows);
  if (m.nv == 0 || (!in.qvel.empty() && !in.qacc.empty())) return;
  try {
    std::vector<double> qvel(in.rows * m.nv), qacc(in.rows * m.nv), qpos(in.qpos.size());
    if (!in.qvel.empty()) {
      differentiate_velocities(m, rows, in.time.data(), in.qvel.data(), d, qacc.data());
      in.qacc = std::move(qacc);
      return;
    }
    differentiate_positions(m, rows, in.time.data(), in.qpos.data(), d, qpos.data(), qvel.data(),
                            qacc.data());
    in.qpos = std::move(qpos);
    in.qvel = std::move(qvel);
    if (in.qacc.empty()) in.qacc = std::move(qacc);
  } catch (const std::invalid_argument& e) {
    throw InputError(t.where() + ": " + e.what());
  }
}

// The outputs of one trajectory, row-major, one vector per field.
struct Outputs {
  std::vector<double> qfrc_inverse, qfrc_constraint, qfrc_bias, sensordata, ncon, nefc,
      ctrl_estimate, ctrl_residual;
  // Row r's contacts: contact_count[r] records from contact_first[r] in its thread's records.
  std::vector<size_t> contact_first;
  std::vector<int> contact_thread, contact_count;
  std::atomic<int> outside_ctrlrange{0};
};

// A thread's memory for its rows: the Data, the control estimator and its forces, and the contact
// records of its rows (one array that grows, not one allocation per row).
struct Worker {
  Data d;
  ControlEstimator estimator;
  std::vector<double> target, external;
  std::vector<ContactRecord> contacts;
  explicit Worker(const Model& m)
      : d(m),
        estimator(m),
        target(static_cast<size_t>(m.nv)),
        external(static_cast<size_t>(m.nv)) {}
};

void inverse_row(const Model& m, int thread, Worker& worker, const Inputs& in, size_t r,
                 const Options& o, bool estimate, Outputs& out) {
  Data& d = worker.d;
  reset_state(m, d);
  const auto set = [r](double* dst, const std::vector<double>& src, int n) {
    if (!src.empty() && n > 0) std::memcpy(dst, src.data() + r * n, sizeof(double) * n);
  };
  set(d.qpos, in.qpos, m.nq);
  set(d.qvel, in.qvel, m.nv);
  set(d.qacc, in.qacc, m.nv);
  set(d.act, in.act, m.na);
  set(d.ctrl, in.ctrl, m.nu);
  set(d.qfrc_applied, in.qfrc_applied, m.nv);
  set(d.xfrc_applied, in.xfrc_applied, 6 * m.nbody);
  if (!in.time.empty()) d.time = in.time[r];
  InverseOptions options;
  options.discrete = o.discrete;
  if (o.discrete && in.rows > 1) {
    // The step from row r: the spacing to the next row (the previous one at the last row).
    const size_t a = r + 1 < in.rows ? r : r - 1;
    options.timestep = in.time.empty() ? 0 : in.time[a + 1] - in.time[a];
  }
  inverse(m, d, options);

  const auto put = [r](std::vector<double>& dst, const double* src, int n) {
    std::copy_n(src, n, dst.begin() + static_cast<std::ptrdiff_t>(r * n));
  };
  put(out.qfrc_inverse, d.qfrc_inverse, m.nv);
  put(out.qfrc_constraint, d.qfrc_constraint, m.nv);
  put(out.qfrc_bias, d.qfrc_bias, m.nv);
  put(out.sensordata, d.sensordata, m.nsensordata);
  out.ncon[r] = d.ncon;
  out.nefc[r] = d.nefc;
  out.contact_thread[r] = thread;
  out.contact_first[r] = worker.contacts.size();
  out.contact_count[r] = d.ncon;
  for (int i = 0; i < d.ncon; ++i)
    worker.contacts.push_back(contact_record(m, d, i, static_cast<int64_t>(r)));
  if (estimate) {
    // What the actuators must produce: the inverse force less the applied forces of the input.
    std::vector<double>& target = worker.target;
    std::vector<double>& external = worker.external;
    std::copy_n(d.qfrc_inverse, m.nv, target.begin());
    std::copy_n(d.qfrc_applied, m.nv, external.begin());
    accumulate_xfrc(m, d, external.data());
    for (int i = 0; i < m.nv; ++i) target[i] -= external[i];
    double* ctrl = out.ctrl_estimate.data() + r * m.nu;
    worker.estimator.estimate(m, d, target.data(), ctrl, out.ctrl_residual.data() + r * m.nv);
    for (int u = 0; u < m.nu; ++u) {
      const double* range = m.actuator_ctrlrange + 2 * u;
      if (m.actuator_ctrllimited[u] && (ctrl[u] < range[0] - 1e-9 || ctrl[u] > range[1] + 1e-9)) {
        ++out.outside_ctrlrange;
        break;
      }
    }
  }
}

// The output group of an input group: the same /rollout_NNNNN (a group named on the command line
// keeps its number), or the position among the inputs for groups of other names.
int rollout_index(const std::string& group, size_t position) {
  constexpr std::string_view kPrefix = "/rollout_";
  if (group.rfind(kPrefix, 0) == 0) {
    try {
      size_t used = 0;
      const int index = std::stoi(group.substr(kPrefix.size()), &used);
      if (used == group.size() - kPrefix.size() && index >= 0) return index;
    } catch (const std::exception&) {
    }
  }
  return static_cast<int>(position);
}

std::string scheme_name(const Options& o, const Inputs& in, const Model& m) {
  if (m.nv == 0 || (!in.qvel.empty() && !in.qacc.empty())) return "given";
  std::string scheme = o.discrete ? "discrete" : !o.smooth.empty() ? o.smooth : "central";
  return in.qvel.empty() ? scheme : "qvel given, qacc " + scheme;
}

int run(const Options& o, const ToolContext& ctx) {
  const Model m = load_model(o.model);
  DifferenceOptions differences;
  if (o.discrete) {
    differences.scheme = DifferenceScheme::kDiscrete;
    if (m.opt.integrator == kIntRK4) {
      spdlog::warn(
          "the model integrates with RK4, which has no discrete-time form: --discrete "
          "differences the positions as an Euler step would, and the inverse is the "
          "continuous one");
    }
  } else if (!o.smooth.empty()) {
    try {
      differences = parse_difference_scheme(o.smooth);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--smooth ") + e.what());
    }
    if (differences.scheme != DifferenceScheme::kSavitzkyGolay) {
      throw UsageError("--smooth " + o.smooth + ": expected savgol:WINDOW:ORDER");
    }
  }
  const bool estimate = m.nu > 0 && actuation_affine_in_control(m);
  if (m.nu > 0 && !estimate) {
    spdlog::info(
        "the model's actuators are not all affine in their controls (activation "
        "dynamics or user gains): no ctrl_estimate");
  }

  TrajectoryInput input = TrajectoryInput::open(o.input);
  const std::vector<std::string> groups = input.trajectory_groups();
  WriterOptions wo;
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  TrajectoryFileWriter file(o.output, m, wo);
  for (size_t g = 0; g < groups.size(); ++g) {
    Trajectory t = input.trajectory(groups[g]);
    Inputs in = read_inputs(m, t, o);
    const std::string scheme = scheme_name(o, in, m);
    prepare_motion(m, t, in, differences);
    if (o.discrete && !in.time.empty() && in.rows > 1) {
      const double h = in.time[1] - in.time[0];
      if (std::abs(h - m.opt.timestep) > 1e-9 * m.opt.timestep) {
        spdlog::warn(
            "{}: rows are {} s apart, the model's time step is {} s; the discrete "
            "inverse uses the rows' spacing",
            t.where(), h, m.opt.timestep);
      }
    }

    const size_t rows = in.rows;
    Outputs out;
    out.qfrc_inverse.resize(rows * m.nv);
    out.qfrc_constraint.resize(rows * m.nv);
    out.qfrc_bias.resize(rows * m.nv);
    out.sensordata.resize(rows * m.nsensordata);
    out.ncon.resize(rows);
    out.nefc.resize(rows);
    out.contact_first.resize(rows);
    out.contact_thread.resize(rows);
    out.contact_count.resize(rows);
    if (estimate) {
      out.ctrl_estimate.resize(rows * m.nu);
      out.ctrl_residual.resize(rows * m.nv);
    }
    Progress progress("inverse " + groups[g], static_cast<int64_t>(rows), !ctx.quiet());
    const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(rows)));
    std::vector<Worker> workers;
    for (int th = 0; th < threads; ++th) workers.emplace_back(m);
    parallel_for(rows, threads, [&](int th, size_t r) {
      inverse_row(m, th, workers[static_cast<size_t>(th)], in, r, o, estimate, out);
      progress.advance();
    });
    progress.finish();
    if (out.outside_ctrlrange > 0) {
      spdlog::warn("{}: in {} row(s) the estimated controls leave the actuators' ctrlrange",
                   t.where(), out.outside_ctrlrange.load());
    }

    TrajectoryWriter& w =
        groups[g] == "/" ? file.trajectory() : file.rollout(rollout_index(groups[g], g));
    // Zero-wide fields are not stored; qpos counts its rows (given) even when nq = 0.
    const auto write = [&](Field f, const std::vector<double>& values) {
      if (field_row_size(f, m) > 0 && !values.empty()) w.append(f, values);
    };
    if (!in.time.empty()) w.append(Field::kTime, in.time);
    w.append(Field::kQpos, in.qpos, rows);
    write(Field::kQvel, in.qvel);
    write(Field::kQacc, in.qacc);
    write(Field::kAct, in.act);
    write(Field::kCtrl, in.ctrl);
    write(Field::kQfrcApplied, in.qfrc_applied);
    write(Field::kXfrcApplied, in.xfrc_applied);
    write(Field::kSensordata, out.sensordata);
    write(Field::kQfrcInverse, out.qfrc_inverse);
    write(Field::kQfrcConstraint, out.qfrc_constraint);
    write(Field::kQfrcBias, out.qfrc_bias);
    w.append(Field::kNcon, out.ncon);
    w.append(Field::kNefc, out.nefc);
    if (estimate) {
      write(Field::kCtrlEstimate, out.ctrl_estimate);
      write(Field::kCtrlResidual, out.ctrl_residual);
    }
    w.enable_contacts();
    for (size_t r = 0; r < rows; ++r) {
      const auto& records = workers[static_cast<size_t>(out.contact_thread[r])].contacts;
      w.append_contacts(std::span<const ContactRecord>(records.data() + out.contact_first[r],
                                                       static_cast<size_t>(out.contact_count[r])));
    }
    w.set_attribute("inverse_of", o.input);
    w.set_attribute("differences", scheme);
    w.set_attribute("discrete", int64_t{o.discrete ? 1 : 0});
    w.close();
    spdlog::info("{}: {} rows, velocities and accelerations {}", t.where(), rows, scheme);
  }
  file.commit();
  return kExitOk;
}

}  // namespace
}  // namespace joco::tools

int main(int argc, char** argv) {
  joco::tools::Options o;
  return joco::tools::run_tool(
      argc, argv, "joco-inverse",
      "Inverse dynamics along a recorded trajectory: the joint forces, constraint forces and "
      "controls that produce its motion.",
      [&](CLI::App& app) {
        joco::tools::add_model_argument(app, o.model);
        app.add_option("MOCAP", o.input,
                       "Trajectory: FILE.h5[:/group] (- for standard input); qpos is required")
            ->required();
        joco::tools::add_hdf5_output_option(app, o.output);
        app.add_option("--dt", o.dt, "Seconds between rows (instead of the time dataset)")
            ->check(CLI::PositiveNumber);
        auto* discrete = app.add_flag(
            "--discrete", o.discrete,
            "Discrete-time inverse of the model's one-step integrator: velocities and "
            "accelerations as an Euler step makes them, the integrator's damping undone");
        app.add_option("--smooth", o.smooth,
                       "Savitzky-Golay smoothing of the positions before differencing: "
                       "savgol:WINDOW:ORDER")
            ->excludes(discrete);
        joco::tools::add_threads_option(app, o.threads, "Threads (rows in parallel)");
        app.add_option("--quat-tolerance", o.quat_tolerance,
                       "Largest accepted |norm - 1| of a qpos quaternion (default 1e-3)")
            ->check(CLI::PositiveNumber);
      },
      [&](const joco::tools::ToolContext& ctx) { return joco::tools::run(o, ctx); });
}
