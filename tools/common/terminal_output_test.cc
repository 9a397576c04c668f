// A binary output (HDF5, .jmb) is never written to a terminal: with standard output a terminal and
// no -o (or -o -), every tool that writes one stops with a usage error (exit 2), as gzip does,
// before it makes anything; text (a --print dump, MJCF) still goes there. The tools run here with
// a pseudo-terminal as standard output (forkpty).
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

const std::string kTestdata = JOCO_TESTDATA_DIR;
const std::string kChain = kTestdata + "/inverse/chain.xml";

struct TerminalRun {
  int exit_code = -1;
  std::string output;  // standard output and standard error, as the terminal showed them
};

// Runs `command` through the shell with a pseudo-terminal as its standard output and error (and
// standard input from /dev/null), the tools' build directory first on PATH.
TerminalRun run_on_terminal(const std::string& command) {
  TerminalRun result;
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) {
    ADD_FAILURE() << "forkpty failed: " << errno;
    return result;
  }
  if (pid == 0) {
    const std::string line =
        "PATH='" JOCO_TOOL_DIR "':\"$PATH\"; exec </dev/null; test -t 1 || exit 99; " + command;
    ::execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(master, buffer, sizeof(buffer));
    if (n > 0) {
      result.output.append(buffer, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed the terminal
    }
  }
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(TerminalOutput, BinaryOutputIsNeverWrittenToATerminal) {
  const test::TempDir temp;
  const std::string& dir = temp.path();
  // States for the tools that read them, written to a file as usual.
  auto r = test::run("joco-simulate " + kChain + " --steps 5 -o " + dir + "/run.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string run = dir + "/run.h5";
  const std::string refused[] = {
      "joco-simulate " + kChain + " --steps 5",
      "joco-simulate " + kChain + " --steps 5 -o -",
      "joco-simulate " + kChain + " --steps 5 --batch 2",
      "joco-simulate " + kChain + " --evaluate " + run,
      "joco-inverse " + kChain + " " + run,
      "joco-derivatives " + kChain + " --states " + run + " --rows 0",
      "joco-derivatives " + kChain + " --states " + run + " --rows 0 --continuous",
      "joco-compile " + kChain + " -o -",
      "joco-ik " + kTestdata + "/mocap/gait2354_subject01/model/subject01_simbody_cvt1_npp.xml " +
          kTestdata + "/markers/walk1_array.h5",
  };
  for (const std::string& command : refused) {
    SCOPED_TRACE(command);
    const TerminalRun t = run_on_terminal(command);
    EXPECT_EQ(t.exit_code, 2) << t.output;
    EXPECT_NE(t.output.find("standard output is a terminal: not writing binary output there"),
              std::string::npos)
        << t.output;
    EXPECT_EQ(t.output.find("HDF"), std::string::npos) << "binary bytes on the terminal";
  }
  // The same with -o FILE on the terminal, or standard output a pipe, work; text goes to the
  // terminal.
  const std::string allowed[] = {
      "joco-simulate " + kChain + " --steps 5 -o " + dir + "/a.h5",
      "joco-simulate " + kChain + " --steps 5 | cat > " + dir + "/b.h5",
      "joco-compile " + kChain + " -o " + dir + "/chain.jmb",
      "joco-compile " + kChain + " --print text",
  };
  for (const std::string& command : allowed) {
    SCOPED_TRACE(command);
    const TerminalRun t = run_on_terminal(command);
    EXPECT_EQ(t.exit_code, 0) << t.output;
  }
  EXPECT_NE(run_on_terminal("joco-compile " + kChain + " --print text").output.find("nq"),
            std::string::npos);
}

}  // namespace
}  // namespace joco::tools
