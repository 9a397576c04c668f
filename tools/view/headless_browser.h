// Running a page in a headless Chromium: joco-view's --png and the browser tests. The browser is an
// optional run-time dependency: find_browser says why when there is none, and callers report that
// (the tool with an error, the tests with GTEST_SKIP).
#pragma once

#include <string>
#include <vector>

namespace joco::tools::view {

// The browser's executable, or why there is none.
struct BrowserLookup {
  std::string path;        // empty when absent
  std::string why_absent;  // a sentence for messages when `path` is empty
};

// $JOCO_CHROMIUM when set (it must be executable: no fallback then, so a wrong setting is seen),
// else the first of chromium, chromium-browser, google-chrome found on PATH.
BrowserLookup find_browser();

struct BrowserRequest {
  std::string url;                 // file:///... (see file_url)
  int width = 1280, height = 720;  // the window, in CSS pixels (device scale 1)
  std::string screenshot;          // writes a PNG of the window there when not empty
  bool dump_dom = false;           // keeps the DOM (after load and the virtual time) in `dom`
  // Virtual time the page gets before the screenshot or DOM is taken (timers and animation frames
  // run in it, as fast as the machine allows). 0: none.
  int virtual_time_ms = 0;
  // With neither screenshot nor DOM: the page runs in real time until a console message starting
  // with this prefix appears (or the timeout), then the browser is stopped. For measurements.
  std::string stop_on_console;
  double timeout_s = 120;  // the browser is killed after this long
};

struct BrowserResult {
  bool ok = false;                          // the browser ran and finished what was asked
  std::string failure;                      // why not, when !ok (a sentence naming the browser)
  std::vector<std::string> console;         // the page's console messages, in order
  std::vector<std::string> console_errors;  // those that are errors (is_console_error)
  std::string dom;                          // with dump_dom
  std::string log;                          // the browser's standard error, for diagnostics
};

// Runs `browser` (find_browser().path) headless with software WebGL (SwiftShader), no sandbox, a
// temporary profile directory removed afterwards, and no network use beyond the page's own file.
BrowserResult run_browser(const std::string& browser, const BrowserRequest& request);

// Whether a console message is an error: an uncaught exception or rejection, a failed load, a WebGL
// error, or what a page logged through console.error once joco's page has tagged it (the viewer's
// error catcher prefixes console.error's messages with "console.error: ", since Chromium's log does
// not say a message's level).
bool is_console_error(const std::string& message);

// The file:// URL of a local path (made absolute, characters outside the URL's safe set escaped),
// with "#fragment" appended when `fragment` is not empty.
std::string file_url(const std::string& path, const std::string& fragment = "");

}  // namespace joco::tools::view
