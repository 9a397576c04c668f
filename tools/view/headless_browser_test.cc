#include "view/headless_browser.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/test_support.h"

namespace joco::tools::view {
namespace {

using joco::test::TempDir;

// Sets an environment variable for one scope, restoring it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(HeadlessBrowser, FileUrlIsAbsoluteAndEscaped) {
  EXPECT_EQ(file_url("/a b/c#d.html"), "file:///a%20b/c%23d.html");
  EXPECT_EQ(file_url("/x/./y/../p.html", "time=1.5&still=1"), "file:///x/p.html#time=1.5&still=1");
  const std::string relative = file_url("p.html");
  EXPECT_EQ(relative.rfind("file:///", 0), 0u) << relative;
}

TEST(HeadlessBrowser, ConsoleErrorsAreRecognised) {
  EXPECT_TRUE(is_console_error("Uncaught ReferenceError: f is not defined"));
  EXPECT_TRUE(is_console_error("Uncaught (in promise) boom"));
  EXPECT_TRUE(is_console_error("console.error: THREE.WebGLProgram: shader error"));
  EXPECT_TRUE(is_console_error("Failed to load resource: net::ERR_FILE_NOT_FOUND"));
  EXPECT_TRUE(is_console_error("WebGL: INVALID_OPERATION: drawArrays: no buffer"));
  EXPECT_TRUE(is_console_error("[.WebGL-0x1234]GL_INVALID_VALUE: glTexImage2D: bad size"));
  EXPECT_FALSE(
      is_console_error("[.WebGL-0x1234]GL Driver Message (OpenGL, Performance): GPU stall"));
  EXPECT_FALSE(is_console_error("fps 60.0"));
  EXPECT_FALSE(is_console_error("a warning about Uncaught things"));
}

TEST(HeadlessBrowser, JocoChromiumNamesTheBrowserOrSaysWhyNot) {
  {
    ScopedEnv env("JOCO_CHROMIUM", "/nonexistent/chromium");
    const BrowserLookup found = find_browser();
    EXPECT_TRUE(found.path.empty());
    EXPECT_NE(found.why_absent.find("/nonexistent/chromium"), std::string::npos)
        << found.why_absent;
  }
  {
    ScopedEnv env("JOCO_CHROMIUM", "/bin/sh");
    EXPECT_EQ(find_browser().path, "/bin/sh");
  }
  {
    TempDir dir;
    ScopedEnv env("JOCO_CHROMIUM", "");
    ScopedEnv path("PATH", dir.path().c_str());
    const BrowserLookup found = find_browser();
    EXPECT_TRUE(found.path.empty());
    EXPECT_NE(found.why_absent.find("chromium"), std::string::npos) << found.why_absent;
  }
}

TEST(HeadlessBrowser, MissingBrowserFailsWithAReason) {
  const BrowserResult r = run_browser("/nonexistent/chromium", {.url = "file:///dev/null"});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.failure.find("/nonexistent/chromium"), std::string::npos) << r.failure;
}

class HeadlessBrowserRun : public ::testing::Test {
 protected:
  void SetUp() override {
    const BrowserLookup found = find_browser();
    if (found.path.empty()) GTEST_SKIP() << found.why_absent;
    browser_ = found.path;
  }
  std::string browser_;
  TempDir dir_;
};

// The page draws a red square with WebGL in an animation frame, logs, marks the DOM and throws
// once.
const char* kPage = R"(<!doctype html><html><head><meta charset="utf-8">
<style>body{margin:0;background:#0000ff}canvas{display:block}</style></head><body>
<canvas id="c" width="100" height="80"></canvas><script>
console.log("plain message");
console.log("two\nlines");
requestAnimationFrame(function () {
  var gl = document.getElementById("c").getContext("webgl", {preserveDrawingBuffer: true});
  gl.clearColor(1, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT);
  console.log("drawn " + (gl ? "webgl" : "none"));
});
// --dump-dom runs no animation frame (and may not wait for timers): the DOM is marked at once.
document.body.dataset.ready = "1";
setTimeout(function () { notDefined(); }, 10);
</script></body></html>
)";

TEST_F(HeadlessBrowserRun, ScreenshotDomAndConsole) {
  write(dir_ / "p.html", kPage);
  BrowserRequest request{.url = file_url(dir_ / "p.html"), .width = 200, .height = 120};
  request.screenshot = dir_ / "shot.png";
  request.virtual_time_ms = 500;
  const BrowserResult shot = run_browser(browser_, request);
  ASSERT_TRUE(shot.ok) << shot.failure << "\n" << shot.log;
  ASSERT_TRUE(std::filesystem::exists(dir_ / "shot.png"));
  EXPECT_GT(std::filesystem::file_size(dir_ / "shot.png"), 100u);
  ASSERT_EQ(shot.console.size(), 4u) << shot.log;
  EXPECT_EQ(shot.console[0], "plain message");
  EXPECT_EQ(shot.console[1], "two\nlines");
  EXPECT_NE(std::find(shot.console.begin(), shot.console.end(), "drawn webgl"), shot.console.end());
  ASSERT_EQ(shot.console_errors.size(), 1u) << shot.log;
  EXPECT_NE(shot.console_errors[0].find("notDefined"), std::string::npos);

  request.screenshot.clear();
  request.dump_dom = true;
  const BrowserResult dom = run_browser(browser_, request);
  ASSERT_TRUE(dom.ok) << dom.failure;
  EXPECT_NE(dom.dom.find("data-ready=\"1\""), std::string::npos) << dom.dom;
}

TEST_F(HeadlessBrowserRun, StopsOnAConsoleMessageInRealTime) {
  write(dir_ / "p.html", R"(<!doctype html><html><body><script>
    var n = 0, t0 = 0;
    function f(t) { if (!t0) t0 = t; if (++n < 20) requestAnimationFrame(f); else console.log("frames " + n); }
    requestAnimationFrame(f);
  </script></body></html>)");
  BrowserRequest request{.url = file_url(dir_ / "p.html"), .width = 200, .height = 120};
  request.stop_on_console = "frames ";
  request.timeout_s = 60;
  const BrowserResult r = run_browser(browser_, request);
  ASSERT_TRUE(r.ok) << r.failure << "\n" << r.log;
  ASSERT_FALSE(r.console.empty());
  EXPECT_EQ(r.console.back(), "frames 20");
}

TEST_F(HeadlessBrowserRun, TimeoutStopsTheBrowser) {
  write(dir_ / "p.html", "<!doctype html><html><body>nothing logged</body></html>");
  BrowserRequest request{.url = file_url(dir_ / "p.html"), .width = 200, .height = 120};
  request.stop_on_console = "never";
  request.timeout_s = 3;
  const BrowserResult r = run_browser(browser_, request);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.failure.find("did not finish within 3 s"), std::string::npos) << r.failure;
}

}  // namespace
}  // namespace joco::tools::view
