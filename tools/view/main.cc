// joco-view MODEL [TRAJ.h5[:/group]] [-o replay.html] [--fps F | --all-rows] [--rollouts LIST]
//           [--png FILE [--time T] [--size WxH] [--camera NAME]]
//
// One self-contained HTML page that replays a model and a trajectory offline: three.js, the
// viewer and the data are inlined, nothing is fetched when it is viewed. The data
// (schemas/replay.md) holds the model's geometry, materials, textures, lights, cameras and
// keyframes; for each trajectory (each rollout of a batch file, or those --rollouts names) the
// body poses joco's kinematics gives at every displayed row, decimated to --fps, the contacts of
// the file's contact table and every per-row dataset for the plots, as float32. Without a
// trajectory the page shows the initial state and every keyframe. --png writes a still of the
// page at --time through a headless Chromium.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "common/io.h"
#include "common/model_input.h"
#include "common/tool.h"
#include "view/page.h"
#include "view/replay.h"

namespace joco::tools::view {
namespace {

struct Options {
  std::string model, trajectory, output, rollouts;
  ReplayOptions replay;
};

// "0,3,5-7" as rollout indices in the order given.
std::vector<int> parse_rollouts(const std::string& text) {
  std::vector<int> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const size_t dash = item.find('-');
    const auto number = [&](const std::string& s) {
      int v = -1;
      const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0) {
        throw UsageError("--rollouts: '" + item +
                         "' is not a rollout index or a range of them (e.g. 0,3,5-7)");
      }
      return v;
    };
    const int first = number(item.substr(0, dash));
    const int last = dash == std::string::npos ? first : number(item.substr(dash + 1));
    if (last < first) throw UsageError("--rollouts: the range '" + item + "' is empty");
    if (last - first >= 100000)
      throw UsageError("--rollouts: the range '" + item + "' is too long");
    for (int k = first; k <= last; ++k) out.push_back(k);
    start = end + 1;
  }
  return out;
}

int run(const Options& o) {
  ReplayOptions replay = o.replay;
  if (!o.rollouts.empty()) replay.rollouts = parse_rollouts(o.rollouts);
  const Model m = load_model(o.model);
  const std::optional<std::string> trajectory =
      o.trajectory.empty() ? std::nullopt : std::optional<std::string>(o.trajectory);
  const std::string page = assemble_page(replay_json(m, o.model, trajectory, replay));
  write_output(o.output.empty() ? "-" : o.output, page);
  spdlog::info("page: {} bytes", page.size());
  return kExitOk;
}

}  // namespace
}  // namespace joco::tools::view

int main(int argc, char** argv) {
  joco::tools::view::Options o;
  return joco::tools::run_tool(
      argc, argv, "joco-view",
      "A model and its trajectory replayed in one self-contained HTML page that works offline: "
      "play, scrub, cameras, contacts and plots of every dataset.",
      [&](CLI::App& app) {
        joco::tools::add_model_argument(app, o.model);
        app.add_option("TRAJECTORY", o.trajectory,
                       "Trajectory: FILE.h5[:/group] (- for standard input); every rollout of a "
                       "batch file unless --rollouts chooses. Without it: the initial state and "
                       "the keyframes");
        app.add_option("-o,--output", o.output, "The HTML page (default: standard output)");
        auto* fps = app.add_option("--fps", o.replay.fps,
                                   "Frames per second of simulated time, at most: every Nth row "
                                   "is shown (default 60)")
                        ->check(CLI::Range(0.001, 10000.0));
        app.add_flag("--all-rows", o.replay.all_rows, "Every row a frame (no decimation)")
            ->excludes(fps);
        app.add_option("--rollouts", o.rollouts,
                       "Rollouts of a batch file to show, by index: 0,3,5-7 (default: all)");
      },
      [&](const joco::tools::ToolContext&) { return joco::tools::view::run(o); });
}
