// The reading process (h5_guard.h): requests and replies, streamed values, exceptions by kind, log
// messages, and the failures the tool survives (a crash, a hang, a process that ends), in a forked
// process and, for the fuzz target, in this one.
#include "common/h5_guard.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "common/tool.h"
#include "joco/error.h"

namespace joco::tools {
namespace {

enum Ask : uint64_t { kEcho, kStream, kInput, kRuntime, kUsage, kBadAlloc, kOther, kLog, kCrash };

// A handler of test requests: echoes a string, streams 0..n-1 in blocks, throws, logs, crashes.
ReaderHandler test_handler() {
  return [](Wire& in, Wire& out, ReplyStream& stream) {
    switch (in.u64()) {
      case kEcho: out.put("echo " + in.string()); return;
      case kStream: {
        const uint64_t n = in.u64();
        std::vector<double> block;
        for (uint64_t i = 0; i < n; ++i) {
          block.push_back(static_cast<double>(i));
          if (block.size() == 1000 || i + 1 == n) {
            stream.values(block);
            block.clear();
          }
        }
        out.put(n);
        return;
      }
      case kInput: throw InputError("file.h5: bad");
      case kRuntime: throw RuntimeError("write failed");
      case kUsage: throw UsageError("--flag");
      case kBadAlloc: throw std::bad_alloc();
      case kOther: throw std::length_error("too long");
      case kLog: spdlog::warn("from the reader"); return;
      case kCrash: raise(SIGSEGV); return;
    }
  };
}

Wire ask(Ask a) {
  Wire w;
  w.put(static_cast<uint64_t>(a));
  return w;
}

class ReaderProcessTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override { ReaderProcess::set_in_process(GetParam()); }
  void TearDown() override { ReaderProcess::set_in_process(false); }
  std::shared_ptr<ReaderProcess> start() {
    return ReaderProcess::start("file.h5",
                                [](const std::function<void()>&) { return test_handler(); });
  }
};

TEST_P(ReaderProcessTest, RepliesAndStreamsValues) {
  auto p = start();
  Wire w = ask(kEcho);
  w.put(std::string("hello"));
  EXPECT_EQ(p->call(w).string(), "echo hello");
  Wire s = ask(kStream);
  s.put(uint64_t{2500});
  std::vector<double> grown;
  ValueSink sink;
  sink.grow = &grown;
  EXPECT_EQ(p->call(s, &sink).u64(), 2500u);
  ASSERT_EQ(grown.size(), 2500u);
  EXPECT_EQ(grown[2499], 2499.0);
  std::vector<double> fixed(2500);
  ValueSink into{fixed};
  p->call(s, &into);
  EXPECT_EQ(into.filled, 2500u);
  EXPECT_EQ(fixed[1234], 1234.0);
}

TEST_P(ReaderProcessTest, ExceptionsKeepTheirKind) {
  auto p = start();
  EXPECT_THROW(p->call(ask(kInput)), InputError);
  EXPECT_THROW(p->call(ask(kRuntime)), RuntimeError);
  EXPECT_THROW(p->call(ask(kUsage)), UsageError);
  EXPECT_THROW(p->call(ask(kBadAlloc)), std::bad_alloc);
  EXPECT_THROW(p->call(ask(kOther)), std::length_error);
  try {
    p->call(ask(kInput));
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "file.h5: bad");
  }
  Wire w = ask(kEcho);
  w.put(std::string("after"));
  EXPECT_EQ(p->call(w).string(), "echo after");  // an exception does not end the process
}

TEST_P(ReaderProcessTest, LogMessagesReachTheTool) {
  std::ostringstream captured;
  auto logger = spdlog::default_logger();
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(captured);
  logger->sinks().push_back(sink);
  auto p = start();
  p->call(ask(kLog));
  logger->sinks().pop_back();
  EXPECT_NE(captured.str().find("from the reader"), std::string::npos) << captured.str();
}

TEST_P(ReaderProcessTest, AnExceptionAtTheOpenIsThrownByStart) {
  EXPECT_THROW(ReaderProcess::start("file.h5",
                                    [](const std::function<void()>&) -> ReaderHandler {
                                      throw InputError("file.h5: not an HDF5 file");
                                    }),
               InputError);
}

INSTANTIATE_TEST_SUITE_P(ForkedAndInProcess, ReaderProcessTest, testing::Bool(),
                         [](const auto& p) { return p.param ? "InProcess" : "Forked"; });

TEST(ReaderProcess, ACrashIsTheFilesInputErrorAndTheToolGoesOn) {
  auto p =
      ReaderProcess::start("file.h5", [](const std::function<void()>&) { return test_handler(); });
  const uint64_t failures = ReaderProcess::failures();
  try {
    p->call(ask(kCrash));
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("file.h5: damaged HDF5 file: the HDF5 library crashed"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(ReaderProcess::failures(), failures + 1);
  Wire w = ask(kEcho);
  w.put(std::string("x"));
  EXPECT_THROW(p->call(w), InputError);  // the same failure again, no hang
}

TEST(ReaderProcess, AHangAtTheOpenIsRefused) {
  const auto start = std::chrono::steady_clock::now();
  try {
    ReaderProcess::start("file.h5", [](const std::function<void()>&) -> ReaderHandler {
      volatile uint64_t spins = 0;
      for (;;) spins = spins + 1;
    });
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("made no progress reading it"), std::string::npos)
        << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(kGuardStallSeconds));
}

TEST(ReaderProcess, ASetIdleLimitRefusesAHangSooner) {
  ReaderProcess::set_idle_limit(0.3, 0.1);
  const auto start = std::chrono::steady_clock::now();
  try {
    ReaderProcess::start("file.h5", [](const std::function<void()>&) -> ReaderHandler {
      volatile uint64_t spins = 0;
      for (;;) spins = spins + 1;
    });
    ADD_FAILURE() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("made no progress reading it for 0.3 s"),
              std::string::npos)
        << e.what();
  }
  const auto took = std::chrono::steady_clock::now() - start;
  ReaderProcess::set_idle_limit(kGuardIdleSeconds, kGuardIdleCpuSeconds);
  // 0.3 s of a busy process, against the default 5 s; the bound allows for a loaded machine.
  EXPECT_LT(took, std::chrono::seconds(kGuardIdleSeconds - 1));
}

// Whether process `pid` still runs (not gone, and not a zombie waiting to be reaped).
bool runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t close = line.rfind(')');  // the state follows the command's name
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(ReaderProcess, EndsWhenTheToolIsKilled) {
  int channel[2];
  ASSERT_EQ(pipe(channel), 0);
  const pid_t tool = fork();
  ASSERT_GE(tool, 0);
  if (tool == 0) {  // a tool whose reading process loops in the library, as on a damaged file
    close(channel[0]);
    ReaderProcess::set_idle_limit(600, 600);  // the tool waits on; the test kills it
    try {
      ReaderProcess::start("file.h5", [&](const std::function<void()>&) -> ReaderHandler {
        const pid_t self = getpid();
        if (write(channel[1], &self, sizeof(self)) != sizeof(self)) _exit(1);
        volatile uint64_t spins = 0;
        for (;;) spins = spins + 1;
      });
    } catch (...) {
    }
    _exit(0);
  }
  close(channel[1]);
  pid_t reader = 0;
  const bool told = read(channel[0], &reader, sizeof(reader)) == sizeof(reader);
  close(channel[0]);
  kill(tool, SIGKILL);  // as the OOM killer or a timeout would
  waitpid(tool, nullptr, 0);
  ASSERT_TRUE(told);
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = !runs(reader);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!gone) kill(reader, SIGKILL);  // not left spinning after a failure
  EXPECT_TRUE(gone) << "the reading process " << reader << " outlived its tool";
}

TEST(ReaderProcess, GrowthBeyondTheLimitIsRefused) {
  try {
    ReaderProcess::start("file.h5", [](const std::function<void()>& step) -> ReaderHandler {
      // Address space, as a damaged file makes the library ask for it (touched, so it is real).
      std::vector<char*> blocks;
      for (;;) {
        char* b = static_cast<char*>(malloc(64 << 20));
        if (b) b[0] = 1;
        blocks.push_back(b);
        step();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("asked for more than"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace joco::tools
