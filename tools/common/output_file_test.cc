// Output-file faults, for every tool that writes a file: a full disk (a file size limit, and a
// small tmpfs where the test may mount one) is exit 4 with the temporary file removed and no crash;
// -o onto a symbolic link replaces the target and keeps the link; onto a FIFO or a device node it
// writes straight through; a directory or a place where nothing can be made is exit 2 before any
// work; SIGINT, SIGTERM and SIGHUP remove the temporary files and kill the tool by the same signal;
// temporary files of processes that are gone are removed by the next run beside them.
#include "common/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/h5.h"
#include "tools/tool_test_support.h"

namespace joco::tools {
namespace {

namespace fs = std::filesystem;

const std::string kTestdata = JOCO_TESTDATA_DIR;
const std::string kChain = kTestdata + "/inverse/chain.xml";
const std::string kHumanoid = kTestdata + "/mujoco/model/humanoid/humanoid.xml";
const std::string kIkModel =
    kTestdata + "/mocap/gait2354_subject01/model/subject01_simbody_cvt1_npp.xml";
const std::string kIkMarkers = kTestdata + "/markers/walk1_array.h5";
const std::string kUr5 = kTestdata + "/urdf/ur5/ur5_robot.urdf";

std::string tool(const std::string& name) { return JOCO_TOOL_DIR "/" + name; }

// A tool started directly (no shell between, so its own death by a signal is seen), standard output
// in a file and standard error through a pipe (which a file size limit does not cut short);
// `in_child` runs in the child before exec (limits, environment).
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::string& out,
        const std::function<void()>& in_child = {}) {
    int err[2];
    if (::pipe(err) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int n = ::open("/dev/null", O_RDONLY);
      if (o < 0 || n < 0) ::_exit(126);
      ::dup2(n, 0);
      ::dup2(o, 1);
      ::dup2(err[1], 2);
      ::close(err[0]);
      if (in_child) in_child();
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(err[1]);
    err_fd_ = err[0];
  }
  pid_t pid() const { return pid_; }
  // Reads standard error to its end and returns the wait status.
  int wait() {
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(err_fd_, buffer, sizeof(buffer))) != 0) {
      if (n > 0) err_.append(buffer, static_cast<size_t>(n));
      if (n < 0 && errno != EINTR) break;
    }
    ::close(err_fd_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
  }
  const std::string& err() const { return err_; }

 private:
  pid_t pid_ = -1;
  int err_fd_ = -1;
  std::string err_;
};

std::string describe(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by ") + ::strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

// Runs to the end; the status, and standard error.
struct Outcome {
  int status = 0;
  std::string err;
};
Outcome run_child(const std::vector<std::string>& argv, const std::string& dir,
                  const std::function<void()>& in_child = {}) {
  Child c(argv, dir + "/stdout.txt", in_child);
  Outcome r;
  r.status = c.wait();
  r.err = c.err();
  fs::remove(dir + "/stdout.txt");
  return r;
}

// The names in `dir` that are temporary files of an output (".NAME.tmp.PID.N", or
// "joco-output.tmp.PID.N" for standard output, FIFOs and devices).
std::vector<std::string> temporaries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) names.push_back(name);
  }
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += n + " ";
  return s;
}

// Every tool that writes an output file, writing to `out` (its inputs made in `dir` first).
std::vector<std::vector<std::string>> every_writing_tool(const std::string& dir,
                                                         const std::string& out) {
  const std::string run = dir + "/inputs/run.h5";
  if (!fs::exists(run)) {
    fs::create_directories(dir + "/inputs");
    const auto r = test::run(
        "joco-simulate " + kChain + " --steps 50 -o " + run + " && joco-simulate " + kChain +
        " --steps 20 --batch 2 --shard 0/2 -o " + dir + "/inputs/s0.h5 && joco-simulate " + kChain +
        " --steps 20 --batch 2 --shard 1/2 -o " + dir + "/inputs/s1.h5");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  return {
      {tool("joco-compile"), kHumanoid, "-o", out},
      {tool("joco-urdf2mjcf"), kUr5, "-o", out},
      {tool("joco-simulate"), kChain, "--steps", "3000", "-o", out},
      {tool("joco-simulate"), kChain, "--steps", "300", "--batch", "8", "-o", out},
      {tool("joco-simulate"), kChain, "--evaluate", run, "-o", out},
      {tool("joco-simulate"), "--join", dir + "/inputs/s0.h5", dir + "/inputs/s1.h5",
       "--self-contained", "-o", out},
      {tool("joco-inverse"), kChain, run, "-o", out},
      {tool("joco-derivatives"), kChain, "--states", run, "-o", out},
      {tool("joco-ik"), kIkModel, kIkMarkers, "-o", out},
      {tool("joco-fwdinv-check"), kChain, "--states", run, "--report", "json", "-o", out},
  };
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += fs::path(a).filename().string() + " ";
  return s;
}

// A tmpfs of `kilobytes` (and read-only when asked) mounted on `dir` for the test's life.
class SmallTmpfs {
 public:
  SmallTmpfs(const std::string& dir, int kilobytes, bool read_only = false) : dir_(dir) {
    fs::create_directories(dir);
    const std::string options = "size=" + std::to_string(kilobytes) + "k";
    if (::mount("tmpfs", dir.c_str(), "tmpfs", read_only ? MS_RDONLY : 0, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      reason_ = std::string("cannot mount a tmpfs here: ") + std::strerror(errno);
    }
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string dir_;
  bool mounted_ = false;
  std::string reason_;
};

// The size of each command's output, written without a limit.
std::vector<uintmax_t> output_sizes(const std::vector<std::vector<std::string>>& commands,
                                    const std::string& dir, const std::string& out) {
  std::vector<uintmax_t> sizes;
  for (const auto& argv : commands) {
    EXPECT_EQ(describe(run_child(argv, dir).status), "exit 0") << command_text(argv);
    sizes.push_back(fs::exists(out) ? fs::file_size(out) : 0);
    fs::remove(out);
  }
  return sizes;
}

// A file size limit of half the output makes a write past it fail with EFBIG (no privilege needed,
// unlike a full disk), after the file was made: HDF5's close then fails, and its exit handler used
// to close that file again (SIGSEGV after the message). With SIGXFSZ ignored (as the issue ran it)
// and with it at its default, which used to kill the tool and leave the temporary file.
TEST(OutputFaults, FileSizeLimitIsAWriteErrorWithTheTemporaryFileRemoved) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  fs::create_directory(dir + "/out");
  const std::string out = dir + "/out/result";
  const auto commands = every_writing_tool(dir, out);
  const auto sizes = output_sizes(commands, dir, out);
  for (const bool ignore_sigxfsz : {true, false}) {
    for (size_t i = 0; i < commands.size(); ++i) {
      SCOPED_TRACE(command_text(commands[i]) + (ignore_sigxfsz ? "(SIGXFSZ ignored)" : ""));
      ASSERT_GT(sizes[i], 0u);
      const rlim_t half = sizes[i] / 2;
      const Outcome r = run_child(commands[i], dir, [&] {
        const rlimit limit = {half, half};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::signal(SIGXFSZ, ignore_sigxfsz ? SIG_IGN : SIG_DFL);
      });
      EXPECT_EQ(describe(r.status), "exit 4") << r.err;
      EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
      EXPECT_TRUE(temporaries(dir + "/out").empty()) << joined(temporaries(dir + "/out"));
      EXPECT_FALSE(fs::exists(out));
    }
  }
  // -o -: the private temporary file in $TMPDIR is removed too.
  fs::create_directory(dir + "/tmp");
  const Outcome r =
      run_child({tool("joco-simulate"), kChain, "--steps", "3000", "-o", "-"}, dir, [&] {
        const rlimit limit = {65536, 65536};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::setenv("TMPDIR", (dir + "/tmp").c_str(), 1);
      });
  EXPECT_EQ(describe(r.status), "exit 4") << r.err;
  EXPECT_TRUE(temporaries(dir + "/tmp").empty()) << joined(temporaries(dir + "/tmp"));
}

// A full disk: a tmpfs with room for half the output, so that the file is made and a later write
// fails (HDF5's close among them, which used to end in SIGSEGV at exit).
TEST(OutputFaults, FullDiskIsAWriteErrorWithTheTemporaryFileRemoved) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  fs::create_directory(dir + "/ref");
  const auto commands = every_writing_tool(dir, dir + "/full/result");
  const auto sizes =
      output_sizes(every_writing_tool(dir, dir + "/ref/result"), dir, dir + "/ref/result");
  for (size_t i = 0; i < commands.size(); ++i) {
    SCOPED_TRACE(command_text(commands[i]));
    const int kilobytes = std::max<int>(4, static_cast<int>(sizes[i] / 2048) / 4 * 4);
    const SmallTmpfs full(dir + "/full", kilobytes);
    if (!full.mounted()) GTEST_SKIP() << full.reason();
    // What does not fit in half the output (a page at least) filled, if anything.
    if (sizes[i] / 2 < 4096) {
      std::FILE* f = std::fopen((dir + "/full/filler").c_str(), "wb");
      ASSERT_NE(f, nullptr);
      const std::vector<char> block(4096, 'x');
      std::fwrite(block.data(), 1, block.size(), f);
      std::fclose(f);
    }
    const Outcome r = run_child(commands[i], dir);
    // A simulation given --steps compares the rows it will write with the free space first
    // (run_size.h) and refuses at once, exit 2, before any file is made; every other tool finds
    // the full disk when a write fails, exit 4.
    const bool checked_up_front =
        command_text(commands[i]).rfind("joco-simulate chain.xml --steps", 0) == 0;
    if (checked_up_front) {
      EXPECT_EQ(describe(r.status), "exit 2") << r.err;
      EXPECT_NE(r.err.find("free on the file system"), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(describe(r.status), "exit 4") << r.err;
      EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(temporaries(dir + "/full").empty()) << joined(temporaries(dir + "/full"));
    EXPECT_FALSE(fs::exists(dir + "/full/result"));
  }
}

bool is_hdf5(const std::string& path) {
  std::vector<uint8_t> head(8);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::fclose(f);
  return looks_like_hdf5(head);
}

// -o onto a symbolic link writes its target (through relative links and chains of them, or a
// dangling link naming a file to make) and leaves the link a link.
TEST(OutputFaults, SymbolicLinksAreFollowedToTheirTarget) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  fs::create_directories(dir + "/data");
  fs::create_directories(dir + "/links");
  {
    std::FILE* f = std::fopen((dir + "/data/old.h5").c_str(), "wb");
    std::fputs("old", f);
    std::fclose(f);
  }
  fs::create_symlink("../data/old.h5", dir + "/links/chain1");  // relative to the link
  fs::create_symlink(dir + "/links/chain1", dir + "/links/out.h5");
  fs::create_symlink("../data/new.jmb", dir + "/links/model.jmb");  // dangling
  const Outcome a =
      run_child({tool("joco-simulate"), kChain, "--steps", "5", "-o", dir + "/links/out.h5"}, dir);
  EXPECT_EQ(describe(a.status), "exit 0") << a.err;
  const Outcome b = run_child({tool("joco-compile"), kChain, "-o", dir + "/links/model.jmb"}, dir);
  EXPECT_EQ(describe(b.status), "exit 0") << b.err;
  EXPECT_TRUE(fs::is_symlink(dir + "/links/out.h5"));
  EXPECT_TRUE(fs::is_symlink(dir + "/links/chain1"));
  EXPECT_TRUE(fs::is_symlink(dir + "/links/model.jmb"));
  EXPECT_TRUE(is_hdf5(dir + "/data/old.h5"));
  EXPECT_TRUE(fs::is_regular_file(dir + "/data/new.jmb"));
  EXPECT_GT(fs::file_size(dir + "/data/new.jmb"), 100u);
  EXPECT_TRUE(temporaries(dir + "/data").empty()) << joined(temporaries(dir + "/data"));
  EXPECT_TRUE(temporaries(dir + "/links").empty()) << joined(temporaries(dir + "/links"));
}

// -o onto a FIFO writes the bytes a file would get straight into it, and the FIFO stays a FIFO.
TEST(OutputFaults, FifosAreWrittenStraightThrough) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string fifo = dir + "/fifo";
  const std::vector<std::vector<std::string>> commands = {
      {tool("joco-compile"), kChain, "-o"},
      {tool("joco-simulate"), kChain, "--steps", "20", "-o"},
      {tool("joco-urdf2mjcf"), kUr5, "-o"},
  };
  for (std::vector<std::string> argv : commands) {
    SCOPED_TRACE(command_text(argv));
    // The reference: the same command to a regular file of the same name (the command line is
    // in the file).
    argv.push_back(fifo);
    ASSERT_EQ(describe(run_child(argv, dir).status), "exit 0");
    const std::string expected = joco::test::read_text(fifo);
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    Child c(argv, dir + "/stdout.txt");
    std::string got;
    std::thread reader([&] {
      std::FILE* f = std::fopen(fifo.c_str(), "rb");  // blocks until a writer opens it
      if (!f) return;
      char buffer[65536];
      size_t n;
      while ((n = std::fread(buffer, 1, sizeof(buffer), f)) > 0) got.append(buffer, n);
      std::fclose(f);
    });
    const int status = c.wait();
    // A tool that never opened the FIFO (one that replaced it) leaves the reader waiting: a writer
    // opened and closed here releases it.
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
    reader.join();
    EXPECT_EQ(describe(status), "exit 0") << c.err();
    struct stat st;
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
    EXPECT_EQ(got, expected);
    EXPECT_FALSE(got.empty());
    EXPECT_TRUE(temporaries(dir).empty()) << joined(temporaries(dir));
    fs::remove(fifo);
  }
}

// -o onto a device node (made here: a copy of /dev/null and of /dev/full, so that the real ones are
// never at risk) writes into the device and leaves the node; a full device is a write error.
TEST(OutputFaults, DeviceNodesAreWrittenStraightThrough) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string null = dir + "/null", full = dir + "/full";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
    GTEST_SKIP() << "cannot make device nodes here: " << std::strerror(errno);
  }
  // Opening the node must work (a file system mounted nodev refuses).
  const int fd = ::open(null.c_str(), O_WRONLY);
  if (fd < 0) GTEST_SKIP() << "cannot open a device node made here: " << std::strerror(errno);
  ::close(fd);
  const std::vector<std::vector<std::string>> commands = {
      {tool("joco-compile"), kChain, "-o"},
      {tool("joco-simulate"), kChain, "--steps", "20", "-o"},
      {tool("joco-fwdinv-check"), kChain, "--steps", "5", "--report", "json", "-o"},
  };
  for (std::vector<std::string> argv : commands) {
    SCOPED_TRACE(command_text(argv));
    argv.push_back(null);
    const Outcome ok = run_child(argv, dir, [&] { ::setenv("TMPDIR", dir.c_str(), 1); });
    EXPECT_EQ(describe(ok.status), "exit 0") << ok.err;
    argv.back() = full;
    const Outcome no_space = run_child(argv, dir, [&] { ::setenv("TMPDIR", dir.c_str(), 1); });
    EXPECT_EQ(describe(no_space.status), "exit 4") << no_space.err;
    EXPECT_NE(no_space.err.find("No space left on device"), std::string::npos) << no_space.err;
    for (const std::string& node : {null, full}) {
      struct stat st;
      ASSERT_EQ(::lstat(node.c_str(), &st), 0);
      EXPECT_TRUE(S_ISCHR(st.st_mode)) << node << " was replaced";
    }
    EXPECT_TRUE(temporaries(dir).empty()) << joined(temporaries(dir));
  }
}

// -o naming a directory, a missing directory or a place where nothing can be made is a usage
// error found before any work: before the model is even read (a missing model would be exit 3).
TEST(OutputFaults, UnusableOutputIsAUsageErrorBeforeAnyWork) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  const std::string missing_model = dir + "/no-such-model.xml";
  const std::vector<std::vector<std::string>> commands = {
      {tool("joco-compile"), missing_model, "-o"},
      {tool("joco-urdf2mjcf"), dir + "/no-such.urdf", "-o"},
      {tool("joco-simulate"), missing_model, "--steps", "1000000000", "-o"},
      {tool("joco-simulate"), "--join", dir + "/no-such-part.h5", "-o"},
      {tool("joco-inverse"), missing_model, dir + "/no-such.h5", "-o"},
      {tool("joco-derivatives"), missing_model, "-o"},
      {tool("joco-ik"), missing_model, dir + "/no-such.trc", "-o"},
      {tool("joco-fwdinv-check"), missing_model, "--report", "json", "-o"},
  };
  struct Place {
    std::string path;
    std::string says;
  };
  std::vector<Place> places = {
      {dir, "is a directory"},
      {dir + "/", "is a directory"},
      {dir + "/no-such-dir/out", "No such file or directory"},
      {kChain + "/out", "chain.xml is not a directory"},
      {"/proc/joco-output-test", "cannot create /proc/joco-output-test"},
  };
  // A read-only file system, where one can be mounted (root ignores permission bits).
  const SmallTmpfs read_only(dir + "/ro", 64, true);
  if (read_only.mounted()) {
    places.push_back({dir + "/ro/out", "Read-only file system"});
  } else {
    std::cout << "not testing a read-only file system: " << read_only.reason() << "\n";
  }
  for (const Place& place : places) {
    for (std::vector<std::string> argv : commands) {
      argv.push_back(place.path);
      SCOPED_TRACE(command_text(argv) + place.path);
      const Outcome r = run_child(argv, dir);
      EXPECT_EQ(describe(r.status), "exit 2") << r.err;
      EXPECT_NE(r.err.find(place.says), std::string::npos) << r.err;
    }
  }
  EXPECT_TRUE(temporaries(dir).empty()) << joined(temporaries(dir));
}

// Waits (up to 20 s) until a temporary file appears in `dir`.
bool wait_for_temporary(const std::string& dir) {
  for (int i = 0; i < 2000; ++i) {
    if (!temporaries(dir).empty()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// SIGINT (Ctrl-C), SIGTERM and SIGHUP remove the temporary files, beside the output and (for -o -)
// in $TMPDIR, and the tool dies by the same signal (so a shell reports 128 + signal, and a script
// running the tool stops).
TEST(OutputFaults, SignalsRemoveTheTemporaryFiles) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  fs::create_directory(dir + "/out");
  fs::create_directory(dir + "/tmp");
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    for (const std::string& out : {dir + "/out/run.h5", std::string("-")}) {
      SCOPED_TRACE(std::string(::strsignal(sig)) + " -o " + out);
      const std::string where = out == "-" ? dir + "/tmp" : dir + "/out";
      // Long enough never to end by itself.
      Child c({tool("joco-simulate"), kChain, "--steps", "2000000", "--batch", "2", "-o", out},
              dir + "/stdout.txt", [&] {
                ::setenv("TMPDIR", (dir + "/tmp").c_str(), 1);
                // As from a terminal, even where the test runs with them ignored (a background job
                // of a script ignores SIGINT, and the tools keep an ignored signal ignored).
                for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);
              });
      EXPECT_TRUE(wait_for_temporary(where));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // well into the run
      ::kill(c.pid(), sig);
      const int status = c.wait();
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << describe(status) << "\n"
                                                                  << c.err();
      EXPECT_TRUE(temporaries(where).empty()) << joined(temporaries(where));
      EXPECT_FALSE(fs::exists(dir + "/out/run.h5"));
    }
  }
}

// A pid that no process has: a child's, once it has been waited for.
pid_t gone_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

void touch(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("partial", f);
  std::fclose(f);
}

// Temporary files left by processes that are gone (SIGKILL, the OOM killer) are removed by the next
// run that writes beside them (or, for -o -, in $TMPDIR); those of live processes and files of
// other names are kept.
TEST(OutputFaults, StaleTemporaryFilesOfGoneProcessesAreRemoved) {
  const test::TempDir temp;
  const std::string dir = temp.path();
  fs::create_directory(dir + "/tmp");
  const std::string gone = std::to_string(gone_pid());
  const std::string live = std::to_string(::getpid());
  const std::vector<std::string> removed = {"/.run.h5.tmp." + gone + ".123456",
                                            "/.model.jmb.tmp." + gone + ".7",
                                            "/tmp/joco-output.tmp." + gone + ".42"};
  const std::vector<std::string> kept = {
      "/.run.h5.tmp." + live + ".1",    // a live process's
      "/.run.h5.tmp.x.1",               // not ours
      "/.other.h5.tmp." + gone + ".1",  // beside another output
      "/.run.h5.tmp." + gone,           // not of the form PID.N
  };
  for (const std::string& name : removed) touch(dir + name);
  for (const std::string& name : kept) touch(dir + name);
  const auto env = [&] { ::setenv("TMPDIR", (dir + "/tmp").c_str(), 1); };
  EXPECT_EQ(
      describe(run_child({tool("joco-simulate"), kChain, "--steps", "5", "-o", dir + "/run.h5"},
                         dir, env)
                   .status),
      "exit 0");
  EXPECT_EQ(
      describe(
          run_child({tool("joco-compile"), kChain, "-o", dir + "/model.jmb"}, dir, env).status),
      "exit 0");
  EXPECT_EQ(
      describe(
          run_child({tool("joco-simulate"), kChain, "--steps", "5", "-o", "-"}, dir, env).status),
      "exit 0");
  for (const std::string& name : removed) EXPECT_FALSE(fs::exists(dir + name)) << name;
  for (const std::string& name : kept) EXPECT_TRUE(fs::exists(dir + name)) << name;
}

}  // namespace
}  // namespace joco::tools
