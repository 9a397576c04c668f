// joco-view MODEL [TRAJ.h5[:/group]] [-o replay.html] [--fps F | --all-rows] [--rollouts LIST]
//           [--png FILE [--time T] [--size WxH] [--camera NAME|free|track:BODY]]
//
// One self-contained HTML page that replays a model and a trajectory offline: three.js, the
// viewer and the data are inlined, nothing is fetched when it is viewed. The data
// (schemas/replay.md) holds the model's geometry, materials, textures, lights, cameras and
// keyframes; for each trajectory (each rollout of a batch file, or those --rollouts names) the
// body poses joco's kinematics gives at every displayed row, decimated to --fps, the contacts of
// the file's contact table and every per-row dataset for the plots, as float32. Without a
// trajectory the page shows the initial state and every keyframe. --png writes a still of the
// page at --time through a headless Chromium (the page's #still=1 view: the 3-D view alone).
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "common/io.h"
#include "common/model_input.h"
#include "common/tool.h"
#include "joco/error.h"
#include "view/headless_browser.h"
#include "view/page.h"
#include "view/replay.h"

namespace joco::tools::view {
namespace {

struct Options {
  std::string model, trajectory, output, rollouts;
  ReplayOptions replay;
  // --png: a still of the page.
  std::string png, size = "1280x720", camera;
  double time = 0;
};

// "WxH" as two sizes of 16 to 8192 pixels.
std::pair<int, int> parse_size(const std::string& text) {
  int w = 0, h = 0;
  const size_t x = text.find('x');
  const auto number = [](const std::string& s, int& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size() && v >= 16 && v <= 8192;
  };
  if (x == std::string::npos || !number(text.substr(0, x), w) || !number(text.substr(x + 1), h)) {
    throw UsageError("--size: '" + text + "' is not WIDTHxHEIGHT in pixels (16 to 8192 each)");
  }
  return {w, h};
}

// A directory of the system's temporary directory, removed with its files when done.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/joco-view-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
      throw RuntimeError("cannot create a temporary directory " + pattern + ": " +
                         std::strerror(errno));
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The still: the page at `page_path` opened in a headless Chromium at the page's still view
// (#time=T&still=1, the 3-D view alone, paused) and its window written as a PNG.
void write_still(const Options& o, const std::string& page_path, const std::string& temp_dir) {
  const auto [width, height] = parse_size(o.size);
  const BrowserLookup browser = find_browser();
  if (browser.path.empty()) {
    throw RuntimeError("--png needs a headless Chromium: " + browser.why_absent);
  }
  std::string fragment = fmt::format("time={}&still=1", o.time);
  if (!o.camera.empty()) fragment += "&camera=" + o.camera;
  BrowserRequest request;
  request.url = file_url(page_path, fragment);
  request.width = width;
  request.height = height;
  request.screenshot = temp_dir + "/still.png";  // Chromium takes the image type from the name
  request.virtual_time_ms = 5000;
  const BrowserResult result = run_browser(browser.path, request);
  if (!result.ok) throw RuntimeError("--png: " + result.failure);
  if (!result.console_errors.empty()) {
    std::string errors;
    for (const std::string& e : result.console_errors) errors += "\n  " + e;
    throw RuntimeError("--png: the page reported errors in " + browser.path + ":" + errors);
  }
  std::ifstream in(request.screenshot, std::ios::binary);
  const std::vector<uint8_t> png((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw RuntimeError("--png: cannot read " + request.screenshot);
  write_output(o.png, png);
  spdlog::info("still: {} ({}x{}, t = {} s) by {}", o.png, width, height, o.time, browser.path);
}

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
  if (!o.png.empty()) {
    parse_size(o.size);  // a usage error before the work
    if (o.png != "-") refuse_binary_to_terminal(o.png);
  }
  const std::string page = assemble_page(replay_json(m, o.model, trajectory, replay));
  // With --png alone the page is only a step to the still: it goes to a temporary file.
  const bool page_wanted = o.png.empty() || !o.output.empty();
  if (page_wanted) {
    write_output(o.output.empty() ? "-" : o.output, page);
    spdlog::info("page: {} ({} bytes)", o.output.empty() ? "standard output" : o.output,
                 page.size());
  }
  if (!o.png.empty()) {
    const TempDir temp;
    std::string path = o.output;
    if (!page_wanted || o.output == "-") {
      path = temp.path() + "/replay.html";
      write_output(path, page);
    }
    write_still(o, path, temp.path());
  }
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
        auto* png = app.add_option("--png", o.png,
                                   "Also (or, without -o, only) a still of the page as a PNG file, "
                                   "taken by a headless Chromium ($JOCO_CHROMIUM, else chromium, "
                                   "chromium-browser or google-chrome on PATH)");
        app.add_option("--time", o.time, "With --png: the time shown, in seconds (default 0)")
            ->check(CLI::NonNegativeNumber)
            ->needs(png);
        app.add_option("--size", o.size, "With --png: WIDTHxHEIGHT in pixels (default 1280x720)")
            ->needs(png);
        app.add_option("--camera", o.camera,
                       "With --png: the view, a camera of the model by name, free (default) or "
                       "track:BODY")
            ->needs(png);
      },
      [&](const joco::tools::ToolContext&) { return joco::tools::view::run(o); });
}
