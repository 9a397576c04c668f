// joco-view's page run in a real browser (headless Chromium with SwiftShader WebGL): it loads with
// no console error and every control works, the model is drawn, a moving model differs at two
// times, and a still of a bundled model matches a stored reference. Skips, saying why, without a
// browser.
//
// The reference (testdata/view/browser_humanoid.png) is rewritten by running this test with
// JOCO_UPDATE_VIEW_REFERENCE=1 (then check the picture by eye and commit it).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "decode/png.h"
#include "tools/tool_test_support.h"
#include "view/headless_browser.h"

namespace joco::tools::view {
namespace {

using compiler::RgbImage;

// Stills are taken at this size; the pages get this much virtual time (timers, animation frames).
constexpr int kWidth = 480, kHeight = 320;
constexpr int kVirtualMs = 3000;
// The background (viewer.js: scene.background, 0.18 0.2 0.24), as the canvas writes it.
constexpr int kBackground[3] = {46, 51, 61};

class ViewBrowser : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const BrowserLookup found = find_browser();
    if (found.path.empty()) {
      why_skip_ = found.why_absent;
      return;
    }
    browser_ = found.path;
    dir_ = new test::TempDir("joco-view-browser");
    const std::string humanoid = joco::test::testdata("mujoco/model/humanoid/humanoid.xml");
    auto ok = [](const test::RunResult& r) {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      return r.exit_code == 0;
    };
    // The model alone (its initial state), and a humanoid falling for 1 s (two rollouts).
    ok(test::run("joco-view " + humanoid + " -o " + (*dir_ / "model.html")));
    ok(test::run("joco-simulate " + humanoid + " --steps 200 --batch 2 --ctrl-noise 0.3 -q -o " +
                 (*dir_ / "fall.h5")));
    ok(test::run("joco-view " + humanoid + " " + (*dir_ / "fall.h5") + " -o " +
                 (*dir_ / "fall.html")));
    // Every geom type, a light, a camera and keyframes (no trajectory: the initial state and keys).
    const std::string scene = joco::test::testdata("view/scene.xml");
    ok(test::run("joco-view " + scene + " -o " + (*dir_ / "scene.html")));
    // A file whose one trajectory is its root group.
    ok(test::run("joco-simulate " + scene + " --steps 20 -q -o " + (*dir_ / "single.h5")));
    ok(test::run("joco-view " + scene + " " + (*dir_ / "single.h5") + " -o " +
                 (*dir_ / "single.html")));
    // MuJoCo's visual settings: skybox, cube texture, spot and directional lights, fog.
    ok(test::run("joco-view " + joco::test::testdata("view/visual.xml") + " -o " +
                 (*dir_ / "visual.html")));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
    shots_.clear();
  }
  void SetUp() override {
    if (browser_.empty()) GTEST_SKIP() << why_skip_;
  }

  // Runs `page#fragment` at the still size with a screenshot; once per URL for the whole suite.
  static const BrowserResult& shot(const std::string& page, const std::string& fragment,
                                   RgbImage* image, int width = kWidth, int height = kHeight) {
    const std::string url = file_url(*dir_ / page, fragment);
    auto it = shots_.find(url);
    if (it == shots_.end()) {
      const std::string png = *dir_ / ("shot" + std::to_string(shots_.size()) + ".png");
      BrowserRequest request{.url = url, .width = width, .height = height};
      request.screenshot = png;
      request.virtual_time_ms = kVirtualMs;
      request.timeout_s = 600;  // SwiftShader on a loaded machine can be very slow
      Shot s{run_browser(browser_, request), {}, png};
      if (s.result.ok) s.image = compiler::decode_png(joco::test::read_file(png), png);
      it = shots_.emplace(url, std::move(s)).first;
    }
    if (image) *image = it->second.image;
    last_png_ = it->second.png;
    return it->second.result;
  }

  // The page ran: no console error, and it said it was ready.
  static void expect_clean(const BrowserResult& r, const std::string& what) {
    ASSERT_TRUE(r.ok) << what << ": " << r.failure << "\n" << r.log;
    for (const auto& e : r.console_errors) ADD_FAILURE() << what << ": console error: " << e;
    bool ready = false;
    for (const auto& m : r.console) ready |= m.rfind("joco-view ready", 0) == 0;
    EXPECT_TRUE(ready) << what << ": the page never said it was ready\n" << r.log;
  }

  static std::string browser_, why_skip_, last_png_;
  static test::TempDir* dir_;
  struct Shot {
    BrowserResult result;
    RgbImage image;
    std::string png;
  };
  static std::map<std::string, Shot> shots_;
};
std::string ViewBrowser::browser_, ViewBrowser::why_skip_, ViewBrowser::last_png_;
test::TempDir* ViewBrowser::dir_ = nullptr;
std::map<std::string, ViewBrowser::Shot> ViewBrowser::shots_;

// Pixels whose largest channel difference exceeds `threshold` (0-255).
double fraction_differing(const RgbImage& a, const RgbImage& b, int threshold) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  if (a.rgb.size() != b.rgb.size() || a.rgb.empty()) return 1;
  size_t n = 0;
  for (size_t i = 0; i < a.rgb.size(); i += 3) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.rgb[i + c]) - int(b.rgb[i + c])));
    n += d > threshold;
  }
  return double(n) / double(a.rgb.size() / 3);
}

TEST_F(ViewBrowser, EveryControlWorksWithNoConsoleError) {
  // The full page (panels, plots, timeline) with every control used once by #selftest=1, in real
  // time (a page that keeps drawing can hold a headless browser's virtual time back for minutes):
  // the falling humanoid's two rollouts with contacts and plots, the scene of every geom type
  // with its keyframes, and the visual settings' scene (skybox, cube texture, spot light shadows,
  // fog).
  for (const char* page : {"fall.html", "scene.html", "visual.html"}) {
    BrowserRequest request{
        .url = file_url(*dir_ / page, "selftest=1"), .width = 1024, .height = 640};
    request.stop_on_console = "joco-view selftest: ok";
    request.timeout_s = 600;
    const BrowserResult r = run_browser(browser_, request);
    expect_clean(r, std::string(page) + "#selftest=1");
  }
}

TEST_F(ViewBrowser, DrawsTheModelsGeoms) {
  RgbImage drawn, empty, no_sky;
  expect_clean(shot("model.html", "still=1", &drawn), "model.html#still=1");
  // No geom group visible: the background (the humanoid's skybox) alone.
  expect_clean(shot("model.html", "still=1&groups=", &empty), "model.html#still=1&groups=");
  ASSERT_EQ(drawn.width, kWidth);
  ASSERT_EQ(drawn.height, kHeight);
  ASSERT_EQ(empty.width, kWidth);
  // The floor fills the lower part and the body stands in the middle: most pixels are geoms.
  EXPECT_GT(fraction_differing(drawn, empty, 16), 0.5);
  // A model without a skybox and no geom shown: the plain background, everywhere.
  expect_clean(shot("scene.html", "still=1&groups=", &no_sky), "scene.html#still=1&groups=");
  ASSERT_EQ(no_sky.width, kWidth);
  size_t off_background = 0;
  for (size_t i = 0; i < no_sky.rgb.size(); i += 3) {
    for (int c = 0; c < 3; ++c)
      off_background += std::abs(int(no_sky.rgb[i + c]) - kBackground[c]) > 2;
  }
  EXPECT_EQ(off_background, 0u) << "the page without geoms is not the plain background";
}

// The pixel at column x, row y.
std::array<int, 3> pixel(const RgbImage& image, int x, int y) {
  const size_t i = (size_t(y) * size_t(image.width) + size_t(x)) * 3;
  return {image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]};
}
double distance(const std::array<int, 3>& a, const std::array<int, 3>& b) {
  return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// testdata/view/visual.xml: MuJoCo's visual settings as the page draws them.
TEST_F(ViewBrowser, SkyboxCubeTexturesLightsAndFogAsMuJoCoSetsThem) {
  RgbImage level, fogged, down;
  expect_clean(shot("visual.html", "still=1&camera=level", &level), "visual.html#camera=level");
  expect_clean(shot("visual.html", "still=1&camera=level&fog=1", &fogged), "visual.html#fog=1");
  expect_clean(shot("visual.html", "still=1&camera=down", &down), "visual.html#camera=down");
  ASSERT_EQ(level.width, kWidth);
  ASSERT_EQ(fogged.width, kWidth);
  ASSERT_EQ(down.width, kWidth);
  const int cx = kWidth / 2, cy = kHeight / 2;

  // The gradient skybox, seen level: its rgb1 (orange) above the horizon, rgb2 (blue) below,
  // where the view passes the floor's far edge.
  const std::array<int, 3> orange{255, 128, 0}, blue{0, 0, 255};
  const auto top = pixel(level, cx, 3), bottom = pixel(level, cx, kHeight - 3);
  EXPECT_LT(distance(top, orange), distance(top, blue)) << top[0] << " " << top[1] << " " << top[2];
  EXPECT_LT(distance(bottom, blue), distance(bottom, orange))
      << bottom[0] << " " << bottom[1] << " " << bottom[2];

  // The ball (radius about 45 pixels at the centre) wears the cube texture's checks: white
  // (grey in its light) and blue squares.
  int bluish = 0, greyish = 0, n = 0;
  for (int y = cy - 30; y <= cy + 30; ++y) {
    for (int x = cx - 30; x <= cx + 30; ++x, ++n) {
      const auto p = pixel(level, x, y);
      bluish += p[2] > p[0] + 40;
      greyish += p[0] > 20 && std::abs(p[2] - p[0]) < 15;
    }
  }
  EXPECT_GT(bluish, n / 10);
  EXPECT_GT(greyish, n / 10);

  // Fog (green, ending 2 extents away): the ball, 8.5 m off, is the fog's colour; without it not.
  const auto ball = pixel(level, cx, cy), ball_fogged = pixel(fogged, cx, cy);
  EXPECT_GT(ball_fogged[1], ball_fogged[0] + 100);
  EXPECT_GT(ball_fogged[1], ball_fogged[2] + 100);
  EXPECT_LT(ball[1], ball[0] + 30);

  // The spot light, 3 m above the white matte floor, seen from 5 m straight above: MuJoCo's
  // (OpenGL's) cos(angle)^exponent fall-off (exponent 20) and attenuation 1 / (1 + 0.1 d) inside
  // the 20-degree cutoff; outside it, the directional light alone.
  const double tan_half = std::tan(22.5 * M_PI / 180);  // the camera's fovy is 45
  auto floor_x = [&](int column) { return 5 * (column + 0.5 - cx) / cy * tan_half; };
  auto spot = [&](double x) {  // the spot's light at floor point (x, 0, 0), relative to below it
    const double d = std::hypot(3.0, x), c = 3 / d;
    return std::pow(c, 20) * c * (1 + 0.1 * 3) / (1 + 0.1 * d);
  };
  const int outside = pixel(down, cx + 150, cy)[0];  // 33 degrees off the spot's axis
  EXPECT_EQ(pixel(down, cx + 200, cy)[0], outside);  // 40 degrees: the same
  EXPECT_EQ(pixel(down, cx - 150, cy)[0], outside);
  EXPECT_EQ(pixel(down, cx + 95, cy)[0], outside);  // 22.4 degrees: just outside the cutoff
  const double centre = pixel(down, cx, cy)[0] - outside;
  ASSERT_GT(centre, 100);
  int compared = 0;
  for (const int column : {cx + 30, cx + 62, cx - 62, cx + 80}) {  // 7.6, 14.9, 14.9, 19 degrees
    const double measured = (pixel(down, column, cy)[0] - outside) / centre;
    const double expected = spot(floor_x(column)) / spot(floor_x(cx));
    EXPECT_NEAR(measured, expected, 0.03) << "column " << column;
    ++compared;
  }
  EXPECT_EQ(compared, 4);
}

// A file whose one trajectory is its root group "/" is listed by the file's name.
TEST_F(ViewBrowser, ARootTrajectoryIsListedByItsFilesName) {
  BrowserRequest request{.url = file_url(*dir_ / "single.html"), .width = 1024, .height = 640};
  request.dump_dom = true;
  request.virtual_time_ms = 500;
  request.timeout_s = 600;
  const BrowserResult r = run_browser(browser_, request);
  expect_clean(r, "single.html");
  EXPECT_NE(r.dom.find(">single.h5 (3 frames)</option>"), std::string::npos)
      << r.dom.substr(0, 4000);
  EXPECT_EQ(r.dom.find(">/ ("), std::string::npos);
}

// The record button's MediaRecorder, run by #record=N: a WebM video of the canvas, not empty.
TEST_F(ViewBrowser, RecordsTheCanvasToAWebmVideo) {
  BrowserRequest request{.url = file_url(*dir_ / "fall.html", "still=1&record=10"),
                         .width = kWidth,
                         .height = kHeight};
  request.stop_on_console = "joco-view record:";
  request.timeout_s = 600;
  const BrowserResult r = run_browser(browser_, request);
  expect_clean(r, "fall.html#record=10");
  std::string report;
  for (const auto& m : r.console) {
    if (m.rfind("joco-view record:", 0) == 0) report = m;
  }
  ASSERT_FALSE(report.empty()) << r.log;
  long frames = 0, bytes = 0;
  char type[64] = {}, head[16] = {};
  ASSERT_EQ(
      std::sscanf(report.c_str(), "joco-view record: %ld frames, %ld bytes, %63[^,], starts %15s",
                  &frames, &bytes, type, head),
      4)
      << report;
  EXPECT_EQ(frames, 10);
  EXPECT_GT(bytes, 0) << report;
  EXPECT_EQ(std::string(type).rfind("video/webm", 0), 0u) << report;
  EXPECT_STREQ(head, "1a45dfa3") << report;  // EBML, as a WebM file starts
}

TEST_F(ViewBrowser, AMovingModelDiffersAtTwoTimes) {
  RgbImage start, later, later_again;
  expect_clean(shot("fall.html", "still=1&time=0", &start), "fall.html#time=0");
  expect_clean(shot("fall.html", "still=1&time=0.8", &later), "fall.html#time=0.8");
  // The same time in the second rollout (other noise) and with a model camera and tracking:
  // the fragment's other settings load cleanly too.
  expect_clean(shot("fall.html", "still=1&time=0.8&rollout=1&camera=track:torso", &later_again),
               "fall.html#rollout=1&camera=track:torso");
  const double moved = fraction_differing(start, later, 32);
  EXPECT_GT(moved, 0.01) << "frames at 0 s and 0.8 s are the same";
  EXPECT_GT(fraction_differing(later, later_again, 32), 0.0);
}

// #aa=0 makes the WebGL context without multisampling: the same picture, its edges not smoothed.
TEST_F(ViewBrowser, WithoutMultisamplingOnlyEdgesChange) {
  RgbImage smooth, sharp;
  expect_clean(shot("model.html", "still=1", &smooth), "model.html#still=1");
  expect_clean(shot("model.html", "still=1&aa=0", &sharp), "model.html#still=1&aa=0");
  ASSERT_EQ(smooth.rgb.size(), sharp.rgb.size());
  EXPECT_GT(fraction_differing(smooth, sharp, 0), 0.0) << "#aa=0 changed nothing";
  EXPECT_LT(fraction_differing(smooth, sharp, 32), 0.05) << "more than the edges changed";
}

// Tolerance: SwiftShader renders deterministically, but another Chromium or three.js build may
// round differently at edges; the still has no text. Mean absolute difference under 2/255 per
// channel, and under 1% of pixels off by more than 32/255 in some channel.
TEST_F(ViewBrowser, StillMatchesTheStoredReference) {
  RgbImage image;
  const BrowserResult& r = shot("model.html", "still=1", &image);
  expect_clean(r, "model.html#still=1");
  const std::string reference = joco::test::testdata("view/browser_humanoid.png");
  if (const char* update = std::getenv("JOCO_UPDATE_VIEW_REFERENCE"); update && *update == '1') {
    std::filesystem::copy_file(last_png_, reference,
                               std::filesystem::copy_options::overwrite_existing);
    GTEST_SKIP() << "reference rewritten: " << reference;
  }
  const RgbImage expected = compiler::decode_png(joco::test::read_file(reference), reference);
  ASSERT_EQ(image.width, expected.width);
  ASSERT_EQ(image.height, expected.height);
  double sum = 0;
  for (size_t i = 0; i < image.rgb.size(); ++i)
    sum += std::abs(int(image.rgb[i]) - int(expected.rgb[i]));
  const double mean = sum / double(image.rgb.size());
  EXPECT_LT(mean, 2.0) << "mean absolute difference per channel (of 255)";
  EXPECT_LT(fraction_differing(image, expected, 32), 0.01);
}

}  // namespace
}  // namespace joco::tools::view
