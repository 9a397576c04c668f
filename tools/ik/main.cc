// joco-ik MODEL MARKERS [-o OUT.h5] [--setup FILE ...] [--units mm|cm|m] [--up y|z]
//         [--format trc|csv|hdf5] [--time-range START END] [--max-iterations N] [--no-limits]
//
// Inverse kinematics from recorded markers (schemas/markers.md): each frame the qpos whose sites
// best fit the markers in the weighted least-squares sense (joco/inverse_kinematics.h),
// warm-started from the previous frame. Writes a trajectory (time, qpos) that joco-inverse and
// joco-simulate --evaluate read as is, with the fit's marker errors per frame
// (schemas/trajectory.md, "joco-ik").
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "common/ik_setup.h"
#include "common/io.h"
#include "common/markers.h"
#include "common/model_input.h"
#include "common/progress.h"
#include "common/tool.h"
#include "common/trajectory.h"
#include "joco/constants.h"
#include "joco/error.h"
#include "joco/inverse_kinematics.h"

namespace joco::tools {
namespace {

struct Options {
  std::string model, markers, output = "-", units, up, format;
  std::vector<std::string> setups;
  std::vector<double> time_range;
  int max_iterations = 100;
  bool no_limits = false;
};

// A marker of the file used in the fit.
struct UsedMarker {
  size_t column;  // in the marker file
  int site;
  double weight;
};

int run(const Options& o, const ToolContext& ctx) {
  refuse_binary_to_terminal(o.output);  // before any work
  const Model m = load_model(o.model);
  int unenforced = 0;
  for (int e = 0; e < m.neq; ++e) unenforced += m.eq_active[e] && m.eq_type[e] != kEqJoint;
  if (unenforced > 0) {
    spdlog::warn(
        "the model has {} active connect, weld, tendon or distance equalities: joco-ik keeps "
        "joint equalities only",
        unenforced);
  }
  IkSetup setup;
  for (const std::string& path : o.setups) setup.merge(read_ik_setup(path));

  MarkerReadOptions read;
  read.format = o.format == "trc"    ? MarkerFormat::kTrc
                : o.format == "csv"  ? MarkerFormat::kCsv
                : o.format == "hdf5" ? MarkerFormat::kHdf5
                                     : MarkerFormat::kAuto;
  read.units = !o.units.empty() ? o.units : setup.units;
  read.up = !o.up.empty() ? o.up[0] : setup.up;
  const MarkerData data = read_markers(o.markers, read);
  const std::string where = display_name(o.markers);

  // Markers to sites: the set-up's site, else <marker>_marker, else <marker>.
  std::vector<UsedMarker> used;
  std::vector<std::string> used_names, unmatched;
  for (size_t c = 0; c < data.markers(); ++c) {
    const std::string& name = data.names[c];
    const auto s = std::find_if(setup.markers.begin(), setup.markers.end(),
                                [&](const IkMarkerSetting& e) { return e.marker == name; });
    const bool listed = s != setup.markers.end();
    if ((listed && !s->apply) || (!listed && setup.only_listed)) continue;
    int site = -1;
    if (listed && !s->site.empty()) {
      site = m.name_to_id(kObjSite, s->site);
      if (site < 0) throw InputError(s->where + ": the model has no site " + s->site);
    } else {
      site = m.name_to_id(kObjSite, name + "_marker");
      if (site < 0) site = m.name_to_id(kObjSite, name);
    }
    if (site < 0) {
      if (listed) spdlog::warn("{}: marker {} has no site in the model; not used", s->where, name);
      unmatched.push_back(name);
      continue;
    }
    used.push_back({c, site, listed ? s->weight : setup.default_weight});
    used_names.push_back(name);
  }
  for (const IkMarkerSetting& s : setup.markers) {
    if (s.apply && std::find(data.names.begin(), data.names.end(), s.marker) == data.names.end()) {
      spdlog::warn("{}: marker {} is not in {}", s.where, s.marker, where);
    }
  }
  if (used.empty()) {
    throw InputError(where + ": no marker matches a site of the model (a site <marker>_marker " +
                     "or <marker>, or a site named in a set-up file)");
  }

  std::vector<IkMarker> markers;
  for (const UsedMarker& u : used) markers.push_back({u.site, u.weight});
  std::vector<IkCoordinate> coordinates;
  std::vector<IkLock> locks;
  for (const IkJointSetting& s : setup.joints) {
    const int j = m.name_to_id(kObjJoint, s.joint);
    if (j < 0) throw InputError(s.where + ": the model has no joint " + s.joint);
    const double value = s.default_value ? m.qpos0[m.jnt_qposadr[j]] : s.value;
    if (s.lock) {
      locks.push_back({j, value});
    } else {
      coordinates.push_back({j, value, s.weight});
    }
  }
  IkOptions options;
  options.max_iterations = o.max_iterations;
  options.limits = !o.no_limits;
  IkOptions first = options;
  first.max_iterations = 10 * o.max_iterations;  // the first frame starts from qpos0
  std::optional<InverseKinematics> ik, ik_first;
  try {
    ik.emplace(m, markers, coordinates, locks, options);
    ik_first.emplace(m, markers, coordinates, locks, first);
  } catch (const std::invalid_argument& e) {
    throw InputError(std::string("inverse kinematics set-up: ") + e.what());
  }

  // Frames in the time range.
  double t0 = -std::numeric_limits<double>::infinity(), t1 = -t0;
  if (!o.time_range.empty()) {
    t0 = o.time_range[0], t1 = o.time_range[1];
  } else if (setup.time_range) {
    std::tie(t0, t1) = *setup.time_range;
  }
  std::vector<size_t> frames;
  for (size_t t = 0; t < data.frames(); ++t) {
    if (data.time[t] >= t0 - 1e-9 && data.time[t] <= t1 + 1e-9) frames.push_back(t);
  }
  if (frames.empty()) {
    throw InputError(
        fmt::format("{}: no frame in the time range {} to {} s (the file has {} to {} s)", where,
                    t0, t1, data.time.front(), data.time.back()));
  }

  const size_t nf = frames.size(), nu = used.size();
  std::vector<double> qpos(nf * m.nq), time(nf), rms(nf), worst(nf), iterations(nf),
      errors(nf * nu), targets(3 * nu);
  std::vector<double> q(m.qpos0, m.qpos0 + m.nq);
  Data d(m);
  int unconverged = 0, empty = 0;
  Progress progress("ik", static_cast<int64_t>(nf), !ctx.quiet());
  const auto start = std::chrono::steady_clock::now();
  for (size_t f = 0; f < nf; ++f) {
    const double* frame = data.frame(frames[f]);
    for (size_t i = 0; i < nu; ++i) std::copy_n(frame + 3 * used[i].column, 3, &targets[3 * i]);
    double* e = errors.data() + f * nu;
    const IkResult r = (f == 0 ? *ik_first : *ik).solve(d, targets.data(), q.data(), e);
    if (!r.converged) ++unconverged;
    if (r.markers_used == 0) ++empty;
    std::copy(q.begin(), q.end(), qpos.begin() + static_cast<std::ptrdiff_t>(f * m.nq));
    time[f] = data.time[frames[f]];
    double sum2 = 0, max = 0;
    int n = 0;
    for (size_t i = 0; i < nu; ++i) {
      if (std::isnan(e[i])) continue;
      sum2 += e[i] * e[i], max = std::max(max, e[i]), ++n;
    }
    rms[f] = n ? std::sqrt(sum2 / n) : std::numeric_limits<double>::quiet_NaN();
    worst[f] = n ? max : std::numeric_limits<double>::quiet_NaN();
    iterations[f] = r.iterations;
    progress.advance();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish();

  WriterOptions wo;
  wo.model_name = std::string(m.model_name());
  wo.creator = ctx.name + " " JOCO_VERSION;
  wo.command = command_line();
  TrajectoryFileWriter file(o.output, m, wo);
  TrajectoryWriter& w = file.trajectory();
  w.append(Field::kTime, time);
  w.append(Field::kQpos, qpos, nf);
  // A frame or marker with no measurement has NaN errors (schemas/markers.md), not a failure.
  for (const char* missing : {"marker_rms", "marker_max", "marker_error"}) w.allow_missing(missing);
  w.append_extra("marker_rms", {}, rms, nf);
  w.append_extra("marker_max", {}, worst, nf);
  w.append_extra("marker_error", {nu}, errors, nf);
  w.append_extra("ik_iterations", {}, iterations, nf);
  std::string names;
  for (const std::string& n : used_names) names += (names.empty() ? "" : "\n") + n;
  w.set_extra_attribute("marker_error", "names", names);
  w.set_attribute("ik_markers", o.markers);
  w.close();
  file.commit();

  // Summary: overall RMS, the worst markers by their RMS over the frames.
  std::vector<double> marker_rms(nu);
  double all2 = 0;
  size_t all = 0;
  for (size_t i = 0; i < nu; ++i) {
    double s = 0;
    size_t n = 0;
    for (size_t f = 0; f < nf; ++f) {
      const double e = errors[f * nu + i];
      if (!std::isnan(e)) s += e * e, ++n;
    }
    all2 += s, all += n;
    marker_rms[i] = n ? std::sqrt(s / n) : std::numeric_limits<double>::quiet_NaN();
  }
  std::vector<size_t> order(nu);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return (std::isnan(marker_rms[b]) ? -1 : marker_rms[b]) <
           (std::isnan(marker_rms[a]) ? -1 : marker_rms[a]);
  });
  const size_t shown = ctx.verbosity > 0 ? nu : std::min<size_t>(nu, 5);
  std::string list;
  for (size_t k = 0; k < shown; ++k) {
    list += fmt::format("{}{} {:.1f} mm", k ? ", " : "", used_names[order[k]],
                        1000 * marker_rms[order[k]]);
  }
  const size_t worst_frame = static_cast<size_t>(
      std::max_element(
          worst.begin(), worst.end(),
          [](double a, double b) { return (std::isnan(a) ? -1 : a) < (std::isnan(b) ? -1 : b); }) -
      worst.begin());
  // The summary goes to standard error unless -q (as joco-fwdinv-check's).
  if (!ctx.quiet()) {
    std::string summary = fmt::format(
        "{}: {} frames ({:.3f} to {:.3f} s), {} markers on sites: marker error {:.2f} mm RMS, "
        "largest "
        "{:.1f} mm (frame at {:.3f} s); {:.0f} frames/s\n",
        where, nf, time.front(), time.back(), nu, 1000 * std::sqrt(all2 / std::max<size_t>(all, 1)),
        1000 * worst[worst_frame], time[worst_frame], nf / std::max(seconds, 1e-9));
    summary += fmt::format("  {} by RMS error: {}\n",
                           ctx.verbosity > 0 ? "markers" : "worst markers", list);
    if (!unmatched.empty()) {
      std::string without;
      for (const std::string& n : unmatched) without += (without.empty() ? "" : ", ") + n;
      summary += fmt::format("  not used, no site in the model: {}\n", without);
    }
    std::fputs(summary.c_str(), stderr);
  }
  if (unconverged > 0) {
    spdlog::warn("{} frame(s) stopped at --max-iterations {} before converging", unconverged,
                 o.max_iterations);
  }
  if (empty > 0) spdlog::warn("{} frame(s) had no marker: their qpos repeats the previous", empty);
  return kExitOk;
}

}  // namespace
}  // namespace joco::tools

int main(int argc, char** argv) {
  joco::tools::Options o;
  return joco::tools::run_tool(
      argc, argv, "joco-ik",
      "Inverse kinematics from recorded markers: the joint positions whose sites best fit the "
      "markers, frame by frame.",
      [&](CLI::App& app) {
        joco::tools::add_model_argument(app, o.model);
        app.add_option("MARKERS", o.markers,
                       "Markers: TRC, CSV or HDF5 (schemas/markers.md), - for standard input")
            ->required();
        joco::tools::add_hdf5_output_option(app, o.output);
        app.add_option("--setup", o.setups,
                       "Set-up file (repeatable): joco's text format or OpenSim's IK setup XML; "
                       "marker sites and weights, joint locks and targets, time range")
            ->allow_extra_args(false);
        app.add_option("--units", o.units, "Units of the marker file: mm, cm or m")
            ->check(CLI::IsMember({"mm", "cm", "m"}));
        app.add_option("--up", o.up, "Vertical axis of the marker file: y or z")
            ->check(CLI::IsMember({"y", "z"}));
        app.add_option("--format", o.format, "Marker file format (default: from the content)")
            ->check(CLI::IsMember({"trc", "csv", "hdf5"}));
        app.add_option("--time-range", o.time_range, "Only the frames from START to END seconds")
            ->expected(2);
        app.add_option("--max-iterations", o.max_iterations,
                       "Levenberg-Marquardt iterations per frame (default 100; 10 times more "
                       "for the first frame)")
            ->check(joco::tools::in_range(1, 1000000));
        app.add_flag("--no-limits", o.no_limits, "Let limited joints leave their range");
      },
      [&](const joco::tools::ToolContext& ctx) { return joco::tools::run(o, ctx); });
}
