#include "view/headless_browser.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace joco::tools::view {
namespace {

bool is_executable_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    if (is_executable_file(candidate)) return candidate;
  }
  return "";
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The console messages in Chromium's --enable-logging=stderr output: a message starts on a line
// with ":CONSOLE" after the log header, `] "text", source: URL (line)`, and may span lines.
std::vector<std::string> console_messages(const std::string& log) {
  std::vector<std::string> messages;
  size_t at = 0;
  while ((at = log.find(":CONSOLE", at)) != std::string::npos) {
    const size_t line_start =
        log.rfind('\n', at) == std::string::npos ? 0 : log.rfind('\n', at) + 1;
    const size_t open = log.find("] \"", at);
    const size_t next_line = log.find('\n', at);
    if (log[line_start] != '[' || open == std::string::npos ||
        (next_line != std::string::npos && open > next_line)) {
      at += 8;
      continue;
    }
    const size_t text = open + 3;
    // The message ends at the first `", source: ` that ends its line (a message may contain one).
    size_t end = text;
    size_t found = std::string::npos;
    while ((end = log.find("\", source: ", end)) != std::string::npos) {
      const size_t eol = log.find('\n', end);
      const std::string tail =
          log.substr(end, eol == std::string::npos ? std::string::npos : eol - end);
      if (!tail.empty() && tail.back() == ')') {
        found = end;
        break;
      }
      end += 1;
    }
    if (found == std::string::npos) {  // cut off (the browser was stopped mid-line)
      messages.push_back(log.substr(text));
      break;
    }
    messages.push_back(log.substr(text, found - text));
    at = found;
  }
  return messages;
}

// Stops the browser's whole process group (the browser forks a GPU and renderer processes).
void stop_group(pid_t pid) {
  ::kill(-pid, SIGTERM);
  for (int i = 0; i < 100; ++i) {  // up to 2 s for a clean exit
    int status;
    if (::waitpid(pid, &status, WNOHANG) != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-pid, SIGKILL);
  int status;
  ::waitpid(pid, &status, 0);
}

}  // namespace

BrowserLookup find_browser() {
  BrowserLookup found;
  if (const char* env = std::getenv("JOCO_CHROMIUM"); env && *env) {
    if (is_executable_file(env)) {
      found.path = env;
    } else {
      found.why_absent =
          std::string("JOCO_CHROMIUM is set to '") + env + "', which is not an executable file";
    }
    return found;
  }
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    found.path = on_path(name);
    if (!found.path.empty()) return found;
  }
  found.why_absent =
      "no headless browser found: none of chromium, chromium-browser, google-chrome is on PATH and "
      "JOCO_CHROMIUM is not set (Debian: apt-get install chromium)";
  return found;
}

BrowserResult run_browser(const std::string& browser, const BrowserRequest& request) {
  BrowserResult result;
  const char* tmp_env = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp_env && *tmp_env ? tmp_env : "/tmp") + "/joco-browser-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    result.failure = "cannot create a temporary profile directory under " + pattern + ": " +
                     std::strerror(errno);
    return result;
  }
  const std::string dir = pattern;
  const std::string out_path = dir + "/stdout", err_path = dir + "/stderr";

  std::vector<std::string> args = {
      browser,
      "--headless",
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--window-size=" + std::to_string(request.width) + "," + std::to_string(request.height),
      "--force-device-scale-factor=1",
      "--hide-scrollbars",
      "--enable-logging=stderr",
      "--v=0",
      "--user-data-dir=" + dir + "/profile",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-crash-reporter",
      "--mute-audio",
  };
  if (request.virtual_time_ms > 0) {
    args.push_back("--virtual-time-budget=" + std::to_string(request.virtual_time_ms));
  }
  if (!request.screenshot.empty()) {
    args.push_back("--screenshot=" + std::filesystem::absolute(request.screenshot).string());
  }
  if (request.dump_dom) args.push_back("--dump-dom");
  args.push_back(request.url);

  const pid_t pid = ::fork();
  if (pid < 0) {
    result.failure = std::string("cannot start ") + browser + ": " + std::strerror(errno);
    std::filesystem::remove_all(dir);
    return result;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(browser.c_str(), argv.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so stop_group cannot race the child's own call

  const auto start = std::chrono::steady_clock::now();
  const bool waits_for_console =
      request.screenshot.empty() && !request.dump_dom && !request.stop_on_console.empty();
  bool finished = false, stopped = false, timed_out = false;
  int status = 0;
  for (int tick = 0;; ++tick) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      finished = true;
      break;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
        request.timeout_s) {
      timed_out = true;
      break;
    }
    if (waits_for_console && tick % 5 == 0) {
      bool seen = false;
      for (const auto& m : console_messages(read_whole(err_path))) {
        if (m.rfind(request.stop_on_console, 0) == 0) seen = true;
      }
      if (seen) {
        stopped = true;
        break;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (finished) {
    ::kill(-pid, SIGKILL);  // helpers the browser may have left behind
  } else {
    stop_group(pid);
  }

  result.log = read_whole(err_path);
  result.console = console_messages(result.log);
  for (const auto& m : result.console) {
    if (is_console_error(m)) result.console_errors.push_back(m);
  }
  if (request.dump_dom) result.dom = read_whole(out_path);
  std::filesystem::remove_all(dir);

  if (timed_out) {
    std::ostringstream why;
    why << browser << " did not finish within " << request.timeout_s << " s";
    result.failure = why.str();
  } else if (stopped) {
    result.ok = true;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.log.empty()) {
    result.failure = std::string("cannot run ") + browser;
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.failure = browser + " failed (" +
                     (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                        : "signal " + std::to_string(WTERMSIG(status))) +
                     ")";
  } else if (waits_for_console) {
    result.failure = browser + " exited before the page logged '" + request.stop_on_console + "'";
  } else if (!request.screenshot.empty() && !std::filesystem::exists(request.screenshot)) {
    result.failure = browser + " wrote no screenshot to " + request.screenshot;
  } else {
    result.ok = true;
  }
  return result;
}

bool is_console_error(const std::string& message) {
  for (const char* prefix : {"Uncaught", "console.error: ", "Failed to load",
                             "WebGL: ", "Not allowed to load", "Refused to"}) {
    if (message.rfind(prefix, 0) == 0) return true;
  }
  // Chromium's own WebGL error reports, e.g. "[.WebGL-0x...]GL_INVALID_OPERATION: ...".
  return message.rfind("[.WebGL-", 0) == 0 && message.find("GL_INVALID") != std::string::npos;
}

std::string file_url(const std::string& path, const std::string& fragment) {
  const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
  std::string url = "file://";
  static const char* hex = "0123456789ABCDEF";
  for (unsigned char c : absolute) {
    if (std::isalnum(c) || std::strchr("/-._~", c)) {
      url += static_cast<char>(c);
    } else {
      url += '%';
      url += hex[c >> 4];
      url += hex[c & 15];
    }
  }
  if (!fragment.empty()) url += "#" + fragment;
  return url;
}

}  // namespace joco::tools::view
