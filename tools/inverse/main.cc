// joco-inverse MODEL MOCAP.h5[:/group]|MOTION.mot|.sto [-o OUT.h5] [--dt H] [--discrete]
//              [--smooth savgol:WINDOW:ORDER] [--lowpass HZ] [--external-loads FILE]
//              [--residuals] [--no-damping] [--osim MODEL.osim] [--set NAME=VALUES] [--threads T]
//              [--quat-tolerance E]
//
// Inverse dynamics along a recorded trajectory (schemas/trajectory.md) or OpenSim coordinates
// (.mot/.sto, columns matched to joints by name): qpos is required; qvel and qacc are used as given
// where present, otherwise estimated by finite differences of the positions (central by default,
// the integrator's own differences with --discrete, Savitzky-Golay with --smooth, after a zero-lag
// Butterworth with --lowpass). Measured loads (--external-loads) enter as xfrc_applied. Writes, per
// row, the qpos, qvel and qacc used, qfrc_inverse, qfrc_constraint, qfrc_bias, the sensors, the
// contact table with forces and, for models whose actuators are affine in their controls, the
// least-squares controls (ctrl_estimate) and their residual; for measured motion also the
// residual forces and moments on the unactuated root joints and per-row reliability flags.
// --osim: joints an OpenSim model couples to a coordinate by a function (the knee translations'
// splines) follow it instead of their joint equality's polynomial.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>

#include "common/external_loads.h"
#include "common/io.h"
#include "common/model_input.h"
#include "common/model_parameters.h"
#include "common/opensim_functions.h"
#include "common/opensim_storage.h"
#include "common/parallel.h"
#include "common/progress.h"
#include "common/time_grid.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/constraint.h"
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
  // Measured motion.
  double lowpass = 0;
  std::string lowpass_style = "joco";
  std::string external_loads, loads_frame, loads_data;
  std::vector<std::string> load_bodies;
  bool lowpass_loads = false, residuals = false, no_damping = false;
  bool strict = false;  // a non-finite value written: exit code 4
  std::vector<std::string> set;
  std::string osim;  // OpenSim model whose coordinate functions replace joint equalities
  double constraint_threshold = -1;  // N or N m; < 0: 5% of the model's weight
};

// The bits of the inverse_flags dataset (schemas/trajectory.md).
enum InverseFlag : int {
  kFlagContact = 1,     // a contact is active on bodies no external load acts on
  kFlagLimit = 2,       // a joint or tendon limit is active
  kFlagConstraint = 4,  // the constraint forces are large (|qfrc_constraint| above the threshold)
};

// A joint that follows another by a function of the .osim (--osim) instead of its joint equality:
// OpenSim's knee translations, SimmSplines of the knee angle, in place of the MJCF's quartics.
struct Coupler {
  int joint, leader;  // the follower and the coordinate it depends on (hinges or slides)
  OsimFunction f;
};

// The couplers of m from the .osim at `path`: each active joint equality of a hinge or slide on
// another whose follower is named JOINT_AXIS after a CustomJoint's TransformAxis (the conversion's
// names) that depends on the equality's leader alone. Those equalities are deactivated and the
// followers' ranges dropped (the function defines their motion, as in OpenSim's model, which has
// neither). Throws InputError when a matched axis's function is not one that is read.
std::vector<Coupler> osim_couplers(Model& m, const std::string& path) {
  const std::vector<OsimCoupling> axes = read_osim_couplings(path);
  std::vector<Coupler> couplers;
  for (int e = 0; e < m.neq; ++e) {
    if (m.eq_type[e] != kEqJoint || !m.eq_active[e] || m.eq_obj2id[e] < 0) continue;
    const int j1 = m.eq_obj1id[e], j2 = m.eq_obj2id[e];
    const std::string follower(m.name(kObjJoint, j1)), leader(m.name(kObjJoint, j2));
    const auto axis = std::find_if(axes.begin(), axes.end(), [&](const OsimCoupling& a) {
      return a.mjcf_joint() == follower;
    });
    if (follower.empty() || axis == axes.end()) {
      spdlog::info("--osim {}: no TransformAxis for joint '{}': its joint equality is kept", path,
                   follower);
      continue;
    }
    const std::string where =
        path + ":" + std::to_string(axis->line) + ": " + axis->joint + " " + axis->axis;
    const bool rotation = axis->axis.rfind("rotation", 0) == 0;
    const int type = m.jnt_type[j1], leader_type = m.jnt_type[j2];
    if (axis->coordinate != leader || type != (rotation ? kJointHinge : kJointSlide) ||
        (leader_type != kJointHinge && leader_type != kJointSlide)) {
      spdlog::warn(
          "{}: depends on '{}', the MJCF's joint '{}' ({}) follows '{}': its joint equality is "
          "kept",
          where, axis->coordinate, follower, type == kJointHinge ? "hinge" : "slide", leader);
      continue;
    }
    if (!axis->unsupported.empty())
      throw InputError(where + " (joint '" + follower + "'): " + axis->unsupported);
    couplers.push_back({j1, j2, axis->function});
    m.eq_active[e] = 0;
    m.jnt_limited[j1] = 0;
    spdlog::info(
        "--osim: joint '{}' follows '{}' by {} ({}); its joint equality and range left out",
        follower, leader, axis->function.name(), where);
  }
  if (couplers.empty())
    spdlog::warn(
        "--osim {}: no joint equality of the model matches a TransformAxis: nothing changed", path);
  return couplers;
}

// Rows of one trajectory, as read (optional fields empty when absent).
struct Inputs {
  size_t rows = 0;
  std::vector<double> time, qpos, qvel, qacc, act, ctrl, qfrc_applied, xfrc_applied;
  // Joints that no column of a .mot/.sto set and that follow others through the model's joint
  // equalities (the knee translations of OpenSim's knees): set again after filtering.
  std::vector<int> followers;
  // External loads at the rows' times (loads x 9 per row: force, point, free moment).
  std::vector<double> loads;
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
        throw InputError(t.where("time") + ": does not increase at row " + std::to_string(r) +
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

// Sets the joints of `followers` from the joints their joint equalities tie them to, by the
// constraint's own polynomial.
void set_followers(const Model& m, const std::vector<int>& followers, double* qpos) {
  for (int e = 0; e < m.neq; ++e) {
    if (m.eq_type[e] != kEqJoint || !m.eq_active[e]) continue;
    const int j1 = m.eq_obj1id[e];
    if (std::find(followers.begin(), followers.end(), j1) == followers.end()) continue;
    qpos[m.jnt_qposadr[j1]] = joint_equality_position(m, e, qpos);
  }
}

bool is_storage_path(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos) return false;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == "mot" || ext == "sto";
}

// OpenSim coordinates (.mot/.sto) as the trajectory: columns matched to joints by name, the
// joints no column names at the model's qpos0 or, when a joint equality ties them to a joint that
// is set, following it (reported otherwise). Times rounded in the file (OpenSim writes 0.417 for
// 0.41667) are put back on the even grid when every row lies within 5% of a spacing of it.
Inputs read_storage_inputs(const Model& m, const Options& o, const std::vector<Coupler>& couplers) {
  const Storage s = read_storage(o.input);
  const JointColumns jc = match_joint_columns(s, m);
  if (s.angle_units == AngleUnits::kUnstated)
    spdlog::warn(
        "{}: the header does not say whether angles are degrees (inDegrees=yes|no): "
        "read as radians",
        s.path);
  for (const std::string& c : jc.unmatched_columns)
    spdlog::info("{}: column '{}' names no hinge or slide joint: not used", s.path, c);
  Inputs in;
  in.rows = s.rows();
  if (in.rows == 0) throw InputError(s.path + ": no rows");
  for (int e = 0; e < m.neq; ++e) {
    const int j1 = m.eq_obj1id[e], j2 = m.eq_obj2id[e];
    const auto missing = [&](int j) {
      return std::find(jc.missing_joints.begin(), jc.missing_joints.end(), j) !=
             jc.missing_joints.end();
    };
    if (m.eq_type[e] == kEqJoint && m.eq_active[e] && missing(j1) && (j2 < 0 || !missing(j2)))
      in.followers.push_back(j1);
  }
  std::vector<std::string> left;
  for (int j : jc.missing_joints) {
    const bool coupled = std::any_of(couplers.begin(), couplers.end(),
                                     [j](const Coupler& c) { return c.joint == j; });
    if (!coupled && std::find(in.followers.begin(), in.followers.end(), j) == in.followers.end())
      left.emplace_back(m.name(kObjJoint, j));
  }
  if (!left.empty()) {
    std::string names;
    for (const std::string& n : left) names += (names.empty() ? "" : ", ") + n;
    spdlog::warn("{}: no column sets joint(s) {}: held at qpos0", s.path, names);
  }
  in.qpos.resize(in.rows * m.nq);
  in.time.resize(in.rows);
  for (size_t r = 0; r < in.rows; ++r) {
    double* q = in.qpos.data() + r * m.nq;
    std::copy_n(m.qpos0, m.nq, q);
    jc.row_to_qpos(s, r, q);
    set_followers(m, in.followers, q);
    in.time[r] = s.time(r);
  }
  if (o.dt > 0) {
    for (size_t r = 0; r < in.rows; ++r) in.time[r] = s.time(0) + static_cast<double>(r) * o.dt;
  } else if (in.rows > 2) {
    const double h = (in.time.back() - in.time.front()) / static_cast<double>(in.rows - 1);
    const double off = distance_from_even_grid(in.time, h);
    if (h > 0 && off > 1e-9 * h && off <= 0.05 * h) {
      spdlog::info(
          "{}: times within {:.3g} s of an even spacing of {:.9g} s: taken as evenly spaced",
          s.path, off, h);
      put_on_even_grid(in.time, h);
    }
  }
  for (size_t r = 1; r < in.rows; ++r) {
    if (!(in.time[r] > in.time[r - 1]))
      throw InputError(s.where(r) +
                       ": time does not increase; give --dt to use evenly spaced rows");
  }
  for (size_t i = 0; i < in.qpos.size(); ++i) {
    if (!std::isfinite(in.qpos[i]))
      throw InputError(s.where(i / static_cast<size_t>(m.nq)) + ": a coordinate is not finite");
  }
  return in;
}

// The positions, velocities and accelerations the inverse is given.
void prepare_motion(const Model& m, const std::string& where, Inputs& in,
                    const DifferenceOptions& d, double lowpass, LowpassStyle style) {
  const int rows = static_cast<int>(in.rows);
  if (lowpass > 0 && m.nv > 0) {
    // Filtered positions: the velocities and accelerations are theirs, not any given.
    if (!in.qvel.empty() || !in.qacc.empty())
      spdlog::info(
          "{}: --lowpass: qvel and qacc of the input replaced by the filtered positions' "
          "differences",
          where);
    in.qvel.clear();
    in.qacc.clear();
    if (in.time.empty()) throw InputError(where + ": --lowpass needs times (dataset time or --dt)");
    try {
      lowpass_positions(m, rows, in.time.data(), lowpass, in.qpos.data(), style);
    } catch (const std::invalid_argument& e) {
      throw InputError(where + ": " + e.what());
    }
    for (size_t r = 0; r < in.rows; ++r) set_followers(m, in.followers, in.qpos.data() + r * m.nq);
  }
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
    throw InputError(where + ": " + e.what());
  }
}

// The couplers' joints from their leaders' processed coordinates: q = f(p), qdot = f'(p) pdot,
// qddot = f'(p) pddot + f''(p) pdot^2.
void apply_couplers(const Model& m, const std::vector<Coupler>& couplers, Inputs& in) {
  for (size_t r = 0; r < in.rows; ++r) {
    double* q = in.qpos.data() + r * m.nq;
    for (const Coupler& c : couplers) {
      const auto [value, slope, curvature] = c.f(q[m.jnt_qposadr[c.leader]]);
      q[m.jnt_qposadr[c.joint]] = value;
      const int dof = m.jnt_dofadr[c.joint], lead = m.jnt_dofadr[c.leader];
      if (in.qvel.empty()) continue;
      const double v = in.qvel[r * m.nv + lead];
      in.qvel[r * m.nv + dof] = slope * v;
      if (!in.qacc.empty())
        in.qacc[r * m.nv + dof] = slope * in.qacc[r * m.nv + lead] + curvature * v * v;
    }
  }
}

// The root joints that carry residuals: the joints of the bodies on the world body, unless an
// actuator drives them (as OpenSim's pelvis coordinates, or a free joint), dof by dof: translations
// (slides, a free joint's first three dofs) are forces, rotations moments.
struct ResidualDofs {
  std::vector<int> force, moment;
  std::string force_names, moment_names;
};

ResidualDofs residual_dofs(const Model& m) {
  ResidualDofs r;
  std::vector<bool> actuated(m.njnt, false);
  for (int u = 0; u < m.nu; ++u)
    if (m.actuator_trntype[u] == kTrnJoint || m.actuator_trntype[u] == kTrnJointInParent)
      actuated[m.actuator_trnid[2 * u]] = true;
  const auto add = [](std::vector<int>& dofs, std::string& names, int dof, const std::string& n) {
    dofs.push_back(dof);
    names += (names.empty() ? "" : " ") + n;
  };
  for (int j = 0; j < m.njnt; ++j) {
    if (m.body_parentid[m.jnt_bodyid[j]] != 0 || actuated[j]) continue;
    std::string name(m.name(kObjJoint, j));
    if (name.empty()) name = "joint" + std::to_string(j);
    const int dof = m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case kJointSlide: add(r.force, r.force_names, dof, name); break;
      case kJointHinge: add(r.moment, r.moment_names, dof, name); break;
      case kJointBall:
        for (int k = 0; k < 3; ++k) add(r.moment, r.moment_names, dof + k, name + ":r" + "xyz"[k]);
        break;
      case kJointFree:
        for (int k = 0; k < 3; ++k) add(r.force, r.force_names, dof + k, name + ":t" + "xyz"[k]);
        for (int k = 0; k < 3; ++k)
          add(r.moment, r.moment_names, dof + 3 + k, name + ":r" + "xyz"[k]);
        break;
    }
  }
  return r;
}

// An allocator whose vectors leave new elements uninitialised (resize(n) does not zero them): for
// outputs that every row overwrites whole, where zeroing first cost as much as writing them.
template <class T>
struct OverwrittenAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = OverwrittenAllocator<U>;
  };
  OverwrittenAllocator() = default;
  template <class U>
  explicit OverwrittenAllocator(const OverwrittenAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
};
template <class T>
using RowValues = std::vector<T, OverwrittenAllocator<T>>;

// The outputs of one trajectory, row-major, one vector per field (each row sets its values).
struct Outputs {
  RowValues<double> qfrc_inverse, qfrc_constraint, qfrc_bias, sensordata, ncon, nefc, ctrl_estimate,
      ctrl_residual;
  // Measured motion: the xfrc_applied used (with --external-loads), the joints' share of the
  // inverse (qfrc_joint) and the reliability flags.
  RowValues<double> xfrc_applied, qfrc_joint, qfrc_reduced, flags;
  // Row r's contacts: contact_count[r] records from contact_first[r] in its thread's records.
  RowValues<size_t> contact_first;
  RowValues<int> contact_thread, contact_count;
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

// What a row of measured motion needs beyond the inputs: the loads, and the flags' settings.
struct Measured {
  const ExternalLoads* loads = nullptr;
  const std::vector<Coupler>* couplers = nullptr;  // --osim
  bool flags = false;
  double constraint_threshold = 0;
};

// The reliability flags of the row just computed in d (InverseFlag bits).
int row_flags(const Model& m, const Data& d, const Measured& measured, const double* loads) {
  int flags = 0;
  // A contact is explained when a load with a non-zero force acts on a body in it, or on the
  // parent or a child of one.
  const auto loaded = [&](int body) {
    if (!measured.loads) return false;
    const std::vector<ExternalLoad>& list = measured.loads->loads();
    for (size_t l = 0; l < list.size(); ++l) {
      const double* f = loads + 9 * l;
      if (f[0] == 0 && f[1] == 0 && f[2] == 0) continue;
      const int b = list[l].body;
      if (b == body || b == m.body_parentid[body] || m.body_parentid[b] == body) return true;
    }
    return false;
  };
  for (int i = 0; i < d.ncon; ++i) {
    const int b1 = m.geom_bodyid[d.contact[i].geom1], b2 = m.geom_bodyid[d.contact[i].geom2];
    if (!loaded(b1) && !loaded(b2)) {
      flags |= kFlagContact;
      break;
    }
  }
  for (int i = 0; i < d.nefc; ++i) {
    if (d.efc_type[i] == kCnstrLimitJoint || d.efc_type[i] == kCnstrLimitTendon) {
      flags |= kFlagLimit;
      break;
    }
  }
  for (int i = 0; i < m.nv; ++i) {
    if (std::abs(d.qfrc_constraint[i]) > measured.constraint_threshold) {
      flags |= kFlagConstraint;
      break;
    }
  }
  return flags;
}

void inverse_row(const Model& m, int thread, Worker& worker, const Inputs& in, size_t r,
                 const Options& o, bool estimate, const Measured& measured, Outputs& out) {
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
  const double* loads = nullptr;
  if (measured.loads) {
    // The loads' moments about the bodies' centres of mass at this row's positions.
    loads = in.loads.data() + r * 9 * measured.loads->loads().size();
    kinematics(m, d);
    measured.loads->apply(m, d, loads);
    std::copy_n(d.xfrc_applied, 6 * m.nbody, out.xfrc_applied.begin() + r * 6 * m.nbody);
  }
  InverseOptions options;
  options.discrete = o.discrete;
  if (o.discrete && in.rows > 1) {
    // The step from row r: the spacing to the next row (the previous one at the last row).
    const size_t a = r + 1 < in.rows ? r : r - 1;
    options.timestep = in.time.empty() ? 0 : in.time[a + 1] - in.time[a];
  }
  inverse(m, d, options);

  const auto put = [r](RowValues<double>& dst, const double* src, int n) {
    std::copy_n(src, n, dst.begin() + static_cast<std::ptrdiff_t>(r * n));
  };
  put(out.qfrc_inverse, d.qfrc_inverse, m.nv);
  put(out.qfrc_constraint, d.qfrc_constraint, m.nv);
  put(out.qfrc_bias, d.qfrc_bias, m.nv);
  put(out.sensordata, d.sensordata, m.nsensordata);
  out.ncon[r] = d.ncon;
  out.nefc[r] = d.nefc;
  if (measured.flags) {
    out.flags[r] = row_flags(m, d, measured, loads);
    // The joints' share: the inverse less the applied forces (qfrc_applied, xfrc_applied).
    double* joint = out.qfrc_joint.data() + r * m.nv;
    std::copy_n(d.qfrc_applied, m.nv, worker.external.begin());
    accumulate_xfrc(m, d, worker.external.data());
    for (int i = 0; i < m.nv; ++i) joint[i] = d.qfrc_inverse[i] - worker.external[i];
    // On the independent coordinates, as OpenSim reports a coordinate whose joint translations
    // are functions of it (the knee): the joints' forces projected on the motion the equalities
    // allow, i.e. each follower's joint share moved onto its leader by the equality's slope. The
    // equality's own force does no work along that motion (its Jacobian row is (1, -slope)), so
    // it is left out of both: in the inverse it is large (the soft constraint answers the
    // f''(q2) q2dot^2 the polynomial's acceleration row leaves out), and not the joints'.
    double* reduced = out.qfrc_reduced.data() + r * m.nv;
    std::copy_n(joint, m.nv, reduced);
    for (int e = 0; e < m.neq; ++e) {
      if (m.eq_type[e] != kEqJoint || !m.eq_active[e]) continue;
      const int j1 = m.eq_obj1id[e], j2 = m.eq_obj2id[e];
      const int t1 = m.jnt_type[j1];
      if (t1 != kJointHinge && t1 != kJointSlide) continue;
      const int dof1 = m.jnt_dofadr[j1];
      const double follower = joint[dof1];
      reduced[dof1] = 0;
      if (j2 < 0) continue;
      const double* poly = m.eq_data + static_cast<size_t>(e) * kNEQDATA;
      const double x = d.qpos[m.jnt_qposadr[j2]] - m.qpos0[m.jnt_qposadr[j2]];
      const double slope = poly[1] + x * (2 * poly[2] + x * (3 * poly[3] + x * 4 * poly[4]));
      reduced[m.jnt_dofadr[j2]] += slope * follower;
    }
    // Likewise the --osim couplers', by their functions' slopes (their equalities are inactive).
    for (const Coupler& c : *measured.couplers) {
      const int dof = m.jnt_dofadr[c.joint];
      reduced[m.jnt_dofadr[c.leader]] += c.f(d.qpos[m.jnt_qposadr[c.leader]])[1] * joint[dof];
      reduced[dof] = 0;
    }
  }
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

// Row numbers as text, "3, 4, 9 ... (12 rows)", for the summary.
std::string row_list(const std::vector<size_t>& rows, const std::vector<double>& time) {
  std::string text;
  for (size_t i = 0; i < rows.size() && i < 8; ++i) {
    text += (i ? ", " : "") + std::to_string(rows[i]);
    if (!time.empty()) text += fmt::format(" ({:.4g} s)", time[rows[i]]);
  }
  if (rows.size() > 8) text += fmt::format(" ... ({} rows)", rows.size());
  return text;
}

int run(const Options& o, const ToolContext& ctx) {
  Model m = load_model(o.model);
  if (o.no_damping) std::fill_n(m.dof_damping, m.nv, 0.0);
  const std::vector<Coupler> couplers =
      o.osim.empty() ? std::vector<Coupler>{} : osim_couplers(m, o.osim);
  std::optional<RolloutParameters> parameters;
  if (!o.set.empty()) parameters.emplace(m, o.set, "", 1);
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
    if (differences.scheme != DifferenceScheme::kSavitzkyGolay &&
        differences.scheme != DifferenceScheme::kQuinticSpline) {
      throw UsageError("--smooth " + o.smooth + ": expected savgol:WINDOW:ORDER or spline");
    }
  }
  if (o.lowpass_style != "joco" && o.lowpass <= 0)
    throw UsageError("--lowpass-style " + o.lowpass_style +
                     " chooses the --lowpass filter: give it");
  if (o.lowpass_loads && (o.lowpass <= 0 || o.external_loads.empty()))
    throw UsageError(
        "--lowpass-loads filters --external-loads with the --lowpass cutoff: give both");
  if ((!o.loads_frame.empty() || !o.load_bodies.empty() || !o.loads_data.empty()) &&
      o.external_loads.empty())
    throw UsageError(
        "--loads-frame, --loads-data and --load-bodies describe --external-loads: give it");
  std::optional<LoadFrame> loads_frame;
  if (!o.loads_frame.empty()) {
    loads_frame = parse_load_frame(o.loads_frame);
    if (!loads_frame)
      throw UsageError("--loads-frame " + o.loads_frame + ": expected z-up or y-up");
  }
  const bool estimate = m.nu > 0 && actuation_affine_in_control(m);
  if (m.nu > 0 && !estimate) {
    spdlog::info(
        "the model's actuators are not all affine in their controls (activation "
        "dynamics or user gains): no ctrl_estimate");
  }

  // Measured motion: loads, residuals and flags.
  const bool storage = is_storage_path(o.input);
  std::optional<ExternalLoads> loads;
  if (!o.external_loads.empty()) {
    loads = ExternalLoads::read(o.external_loads, m, loads_frame, o.load_bodies, o.loads_data);
    if (o.lowpass_loads) {
      try {
        loads->lowpass(o.lowpass);
      } catch (const std::invalid_argument& e) {
        throw InputError(e.what());
      }
    }
  }
  const bool measured_outputs = o.residuals || storage || loads || !couplers.empty();
  Measured measured;
  measured.loads = loads ? &*loads : nullptr;
  measured.couplers = &couplers;
  measured.flags = measured_outputs;
  if (o.constraint_threshold >= 0) {
    measured.constraint_threshold = o.constraint_threshold;
  } else {
    measured.constraint_threshold =
        0.05 * m.body_subtreemass[0] *
        std::sqrt(m.opt.gravity[0] * m.opt.gravity[0] + m.opt.gravity[1] * m.opt.gravity[1] +
                  m.opt.gravity[2] * m.opt.gravity[2]);
  }
  const ResidualDofs residuals = measured_outputs ? residual_dofs(m) : ResidualDofs{};

  std::optional<TrajectoryInput> input;
  std::vector<std::string> groups = {"/"};
  if (!storage) {
    input.emplace(TrajectoryInput::open(o.input));
    groups = input->trajectory_groups();
  }
  WriterOptions wo;
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  wo.strict_finite = o.strict;
  TrajectoryFileWriter file(o.output, m, wo);
  for (size_t g = 0; g < groups.size(); ++g) {
    std::optional<Trajectory> t;
    Inputs in;
    std::string where;
    if (storage) {
      in = read_storage_inputs(m, o, couplers);
      where = display_name(o.input);
    } else {
      t.emplace(input->trajectory(groups[g]));
      in = read_inputs(m, *t, o);
      where = t->where();
    }
    std::string scheme = scheme_name(o, in, m);
    if (o.lowpass > 0 && m.nv > 0) {
      scheme = fmt::format("lowpass {:g} Hz{}, {}", o.lowpass,
                           o.lowpass_style == "opensim" ? " (OpenSim's filter)" : "",
                           o.discrete          ? "discrete"
                           : !o.smooth.empty() ? o.smooth
                                               : "central");
    }
    prepare_motion(m, where, in, differences, o.lowpass,
                   o.lowpass_style == "opensim" ? LowpassStyle::kOpenSim : LowpassStyle::kJoco);
    apply_couplers(m, couplers, in);
    if (o.discrete && !in.time.empty() && in.rows > 1) {
      const double h = in.time[1] - in.time[0];
      if (std::abs(h - m.opt.timestep) > 1e-9 * m.opt.timestep) {
        spdlog::warn(
            "{}: rows are {} s apart, the model's time step is {} s; the discrete "
            "inverse uses the rows' spacing",
            where, h, m.opt.timestep);
      }
    }
    if (loads) {
      if (in.time.empty()) throw InputError(where + ": external loads need times (time or --dt)");
      in.loads = loads->resample(in.time);
      if (in.xfrc_applied.empty()) in.xfrc_applied.assign(in.rows * 6 * m.nbody, 0.0);
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
    if (loads) out.xfrc_applied.resize(rows * 6 * m.nbody);
    if (measured.flags) {
      out.flags.resize(rows);
      out.qfrc_joint.resize(rows * m.nv);
      out.qfrc_reduced.resize(rows * m.nv);
    }
    Progress progress("inverse " + groups[g], static_cast<int64_t>(rows), !ctx.quiet());
    const int threads = std::max(1, std::min<int>(o.threads, static_cast<int>(rows)));
    std::vector<Worker> workers;
    for (int th = 0; th < threads; ++th) workers.emplace_back(m);
    const auto start = std::chrono::steady_clock::now();
    parallel_for(rows, threads, [&](int th, size_t r) {
      inverse_row(m, th, workers[static_cast<size_t>(th)], in, r, o, estimate, measured, out);
      progress.advance();
    });
    progress.finish();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (out.outside_ctrlrange > 0) {
      spdlog::warn("{}: in {} row(s) the estimated controls leave the actuators' ctrlrange", where,
                   out.outside_ctrlrange.load());
    }
    if (loads) in.xfrc_applied.assign(out.xfrc_applied.begin(), out.xfrc_applied.end());

    TrajectoryWriter& w =
        groups[g] == "/" ? file.trajectory() : file.rollout(rollout_index(groups[g], g));
    // Zero-wide fields are not stored; qpos counts its rows (given) even when nq = 0.
    const auto write = [&](Field f, std::span<const double> values) {
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
    if (measured_outputs) {
      if (m.nv > 0) {
        w.append_extra("qfrc_joint", {static_cast<size_t>(m.nv)}, out.qfrc_joint);
        w.append_extra("qfrc_reduced", {static_cast<size_t>(m.nv)}, out.qfrc_reduced);
      }
      // Residuals: the joints' generalised forces on the unactuated root dofs.
      const auto residual = [&](const std::vector<int>& dofs, const std::string& names,
                                const char* name) {
        if (dofs.empty()) return;
        std::vector<double> values(rows * dofs.size());
        for (size_t r = 0; r < rows; ++r)
          for (size_t k = 0; k < dofs.size(); ++k)
            values[r * dofs.size() + k] = out.qfrc_reduced[r * m.nv + dofs[k]];
        w.append_extra(name, {dofs.size()}, values);
        w.set_extra_attribute(name, "dofs", names);
      };
      residual(residuals.force, residuals.force_names, "residual_force");
      residual(residuals.moment, residuals.moment_names, "residual_moment");
      w.append(Field::kInverseFlags, out.flags);
      w.set_attribute("constraint_threshold", measured.constraint_threshold);
      const char* words[] = {"contacts with no external load on their bodies",
                             "joint or tendon limits active",
                             "constraint forces above the threshold"};
      for (int bit = 0; bit < 3; ++bit) {
        std::vector<size_t> flagged;
        for (size_t r = 0; r < rows; ++r)
          if (static_cast<int>(out.flags[r]) & (1 << bit)) flagged.push_back(r);
        if (!flagged.empty())
          spdlog::warn("{}: unreliable rows ({}, flag {}): {}", where, words[bit], 1 << bit,
                       row_list(flagged, in.time));
      }
    }
    if (loads) {
      w.set_attribute("external_loads", o.external_loads);
      std::vector<double> samples = in.loads;
      w.allow_missing("external_loads");  // NaN: a load given no point (schemas/trajectory.md)
      w.append_extra("external_loads", {loads->loads().size(), 9}, samples);
      std::string names;
      for (const ExternalLoad& l : loads->loads())
        names += (names.empty() ? "" : " ") + l.name + ":" + std::string(m.name(kObjBody, l.body));
      w.set_extra_attribute("external_loads", "loads", names);
    }
    if (parameters) parameters->write_attributes(w, 0, m);
    w.enable_contacts();
    for (size_t r = 0; r < rows; ++r) {
      const auto& records = workers[static_cast<size_t>(out.contact_thread[r])].contacts;
      w.append_contacts(std::span<const ContactRecord>(records.data() + out.contact_first[r],
                                                       static_cast<size_t>(out.contact_count[r])));
    }
    w.set_attribute("inverse_of", o.input);
    w.set_attribute("differences", scheme);
    w.set_attribute("discrete", int64_t{o.discrete ? 1 : 0});
    if (o.no_damping) w.set_attribute("no_damping", int64_t{1});
    if (!o.osim.empty()) {
      std::string names;
      for (const Coupler& c : couplers)
        names += (names.empty() ? "" : " ") + std::string(m.name(kObjJoint, c.joint)) + ":" +
                 std::string(m.name(kObjJoint, c.leader));
      w.set_attribute("osim", o.osim);
      w.set_attribute("osim_couplers", names);
    }
    w.close();
    spdlog::info("{}: {} rows, velocities and accelerations {}; inverse {:.0f} rows/s", where, rows,
                 scheme, static_cast<double>(rows) / std::max(seconds, 1e-9));
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
                       "Trajectory: FILE.h5[:/group] (- for standard input; qpos is required), or "
                       "OpenSim coordinates FILE.mot|.sto (columns matched to joints by name)")
            ->required();
        joco::tools::add_hdf5_output_option(app, o.output);
        app.add_option("--dt", o.dt, "Seconds between rows (instead of the time dataset)")
            ->check(joco::tools::kPositive);
        auto* discrete = app.add_flag(
            "--discrete", o.discrete,
            "Discrete-time inverse of the model's one-step integrator: velocities and "
            "accelerations as an Euler step makes them, the integrator's damping undone");
        app.add_option("--smooth", o.smooth,
                       "Savitzky-Golay smoothing of the positions before differencing "
                       "(savgol:WINDOW:ORDER, WINDOW in rows, or in seconds as savgol:0.05s:3), or "
                       "velocities and accelerations from the natural "
                       "quintic spline through them (spline, as OpenSim's ID tool)")
            ->excludes(discrete);
        app.add_option("--lowpass", o.lowpass,
                       "Zero-lag low-pass Butterworth of the positions before differencing, "
                       "cutoff in Hz (4th order, forward and backward; -3 dB at HZ)")
            ->check(joco::tools::kPositive)
            ->excludes(discrete);
        app.add_option("--lowpass-style", o.lowpass_style,
                       "joco (default: 2nd order per pass, -3 dB at HZ) or opensim (OpenSim's ID "
                       "tool: 3rd order per pass, -6 dB at HZ, half the rows padded)")
            ->check(CLI::IsMember({"joco", "opensim"}));
        app.add_option("--external-loads", o.external_loads,
                       "Measured loads applied as xfrc_applied: OpenSim ExternalLoads XML, a joco "
                       "mapping, or a ground reaction .mot with --load-bodies "
                       "(schemas/external-loads.md)");
        app.add_option("--loads-frame", o.loads_frame,
                       "Axes of the load file: z-up (as the model) or y-up (OpenSim's lab frame, "
                       "(x, y, z) -> (x, -z, y)); default: the file's");
        app.add_option("--loads-data", o.loads_data,
                       "The loads' data file (.mot/.sto or HDF5), instead of the one the XML or "
                       "mapping names");
        app.add_option("--load-bodies", o.load_bodies,
                       "Bodies of a ground reaction .mot's plates, in order (plate 0, 1_, 2_, ...)")
            ->delimiter(',');
        app.add_flag("--lowpass-loads", o.lowpass_loads,
                     "Filter the external loads with the --lowpass cutoff (at their own rate)");
        app.add_flag("--residuals", o.residuals,
                     "Write residual_force, residual_moment and inverse_flags (always with a "
                     ".mot/.sto input or --external-loads)");
        app.add_option("--constraint-threshold", o.constraint_threshold,
                       "|qfrc_constraint| (N or N m) above which a row is flagged (default 5% of "
                       "the model's weight)")
            ->check(joco::tools::kNonNegative);
        app.add_flag("--strict", o.strict,
                     "Stop with exit code 4 when a row written is not finite (Inf or NaN)");
        app.add_flag("--no-damping", o.no_damping,
                     "Zero every joint's damping (dof_damping) before the inverse");
        app.add_option("--osim", o.osim,
                       "OpenSim model (.osim) the MJCF was converted from: joints it couples to a "
                       "coordinate by a function (knee_r_translation1 = JOINT_AXIS of a "
                       "CustomJoint) follow that function instead of their joint equality's "
                       "polynomial, and the leader's moment takes their share by its slope");
        app.add_option("--set", o.set,
                       "Change a model parameter by MuJoCo's name, NAME=VALUES (repeatable; as "
                       "joco-simulate --set)");
        joco::tools::add_threads_option(app, o.threads, "Threads (rows in parallel)");
        app.add_option("--quat-tolerance", o.quat_tolerance,
                       "Largest accepted |norm - 1| of a qpos quaternion (default 1e-3)")
            ->check(joco::tools::kPositive);
      },
      [&](const joco::tools::ToolContext& ctx) { return joco::tools::run(o, ctx); });
}
