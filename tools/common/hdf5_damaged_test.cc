// Damaged and hostile HDF5 inputs (issue 19): every tool that reads HDF5 refuses them with exit 3,
// never dies by a signal (the HDF5 library runs in the reading process of h5_guard.h, where its
// crashes stay) and never hangs. The single-byte reproducers crashed or hung the tools before the
// guard; the sweeps feed deterministic mutations (a byte set in the headers, a bit flipped
// anywhere, a truncation) of h5py-written files (testdata/foreign, testdata/markers, testdata/hdf5)
// and of one joco wrote (testdata/hdf5/chain_sim.h5) to every reading tool: a few hundred runs
// here, a few thousand under the `long` label (LongSweep/).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::string kTestdata = JOCO_TESTDATA_DIR;

struct Outcome {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  bool hung = false;   // still running after the limit (then killed)
  std::string err;
};

// Runs a tool with its arguments (no shell, so that a signal is seen as such), standard output
// discarded, standard error kept; kills it after `limit_s` seconds.
Outcome run_tool(const std::vector<std::string>& argv, const std::string& err_path,
                 double limit_s = 10) {
  Outcome o;
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_RDWR);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(null, 0);
    dup2(null, 1);
    dup2(err, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec + 1e-9 * (now.tv_nsec - start.tv_nsec) > limit_s) {
      o.hung = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(2000);
  }
  if (!o.hung && WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  if (!o.hung && WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  std::ifstream in(err_path);
  o.err.assign(std::istreambuf_iterator<char>(in), {});
  return o;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

std::string tool(const std::string& name) { return std::string(JOCO_TOOL_DIR) + "/" + name; }

// A scratch folder of its own for each test.
std::string scratch() {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const fs::path dir =
      fs::temp_directory_path() / ("joco-damaged-" + name + "-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir.string();
}

// One reading tool: its command line with FILE for the input and OUT for an output, the inputs
// it is fed, and the exit codes a mutation that leaves the file readable may give (a changed value
// is still a value; joco-fwdinv-check exits 1 when the changed states fail its check).
struct Reader {
  const char* name;
  std::vector<std::string> args;
  std::vector<std::string> sources;  // under testdata/
  std::set<int> allowed = {0, 3};
};

const std::string kChain = kTestdata + "/inverse/chain.xml";
const std::string kTrial = kTestdata + "/mocap/gait2354_subject01";
const std::vector<std::string> kStates = {"hdf5/chain_sim.h5", "foreign/mocap_float32.h5",
                                          "foreign/foreign_attrs.h5"};

std::vector<Reader> readers() {
  return {
      {"simulate_evaluate",
       {tool("joco-simulate"), kChain, "--evaluate", "FILE", "-o", "OUT"},
       kStates},
      {"simulate_init",
       {tool("joco-simulate"), kChain, "--init", "FILE", "--steps", "3", "-o", "OUT"},
       kStates},
      {"simulate_ctrl",
       {tool("joco-simulate"), kChain, "--ctrl", "FILE", "--steps", "3", "-o", "OUT"},
       {"foreign/controls_only.h5", "hdf5/chain_sim.h5"}},
      // A readable file whose changed dataset name is no Model field is exit 2, as the same name
      // in a CSV header or in --set is.
      {"simulate_params",
       {tool("joco-simulate"), kChain, "--params", "FILE", "--batch", "2", "--steps", "3", "-o",
        "OUT"},
       {"hdf5/params.h5"},
       {0, 2, 3}},
      {"inverse", {tool("joco-inverse"), kChain, "FILE", "-o", "OUT"}, kStates},
      {"fwdinv_check", {tool("joco-fwdinv-check"), kChain, "--states", "FILE"}, kStates, {0, 1, 3}},
      {"derivatives",
       {tool("joco-derivatives"), kChain, "--states", "FILE", "--rows", "0-2", "-o", "OUT"},
       kStates},
      {"ik",
       {tool("joco-ik"), kTrial + "/model/subject01_simbody_cvt1_npp.xml", "FILE", "--setup",
        kTrial + "/opensim/subject01_Setup_IK.xml", "--time-range", "0", "10", "-o", "OUT"},
       {"markers/walk1_array.h5", "markers/walk1_groups.h5"}},
  };
}

std::vector<std::string> command(const Reader& r, const std::string& file, const std::string& out) {
  std::vector<std::string> argv = r.args;
  for (std::string& a : argv) {
    if (a == "FILE") a = file;
    if (a == "OUT") a = out;
  }
  return argv;
}

// The i-th mutation of `bytes` for a seed: a byte of the first 4 KiB (superblock, object headers,
// B-tree and heap of a small file) set to another value, a bit flipped anywhere, or the file
// truncated; the same every run.
std::vector<uint8_t> mutate(std::vector<uint8_t> bytes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t kind = rng() % 4;
  if (kind <= 1) {
    const size_t at = rng() % std::min<size_t>(bytes.size(), 4096);
    bytes[at] = static_cast<uint8_t>(bytes[at] + 1 + rng() % 255);
  } else if (kind == 2) {
    bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
  } else {
    bytes.resize(rng() % bytes.size());
  }
  return bytes;
}

struct Sweep {
  size_t reader;  // index into readers()
  uint64_t first_seed;
  size_t count;  // mutations per reader
};

void PrintTo(const Sweep& s, std::ostream* os) {
  *os << readers()[s.reader].name << ", mutations " << s.first_seed << " to "
      << s.first_seed + s.count - 1;
}

class DamagedHdf5Sweep : public testing::TestWithParam<Sweep> {};

TEST_P(DamagedHdf5Sweep, EveryMutationExitsCleanly) {
  const Sweep& sweep = GetParam();
  const Reader r = readers()[sweep.reader];
  const std::string dir = scratch();
  // Each unmutated input is accepted: the mutations are what is refused.
  for (const std::string& source : r.sources) {
    const Outcome o =
        run_tool(command(r, kTestdata + "/" + source, dir + "/out.h5"), dir + "/err.txt");
    ASSERT_EQ(o.exit_code, 0) << r.name << " " << source << ": " << o.err;
  }
  size_t refused = 0, accepted = 0;
  for (size_t i = 0; i < sweep.count; ++i) {
    const uint64_t seed = sweep.first_seed + i;
    const std::string& source = r.sources[i % r.sources.size()];
    const std::string file = dir + "/mutated.h5";
    write_bytes(file, mutate(read_bytes(kTestdata + "/" + source), seed * 1000 + sweep.reader));
    const Outcome o = run_tool(command(r, file, dir + "/out.h5"), dir + "/err.txt");
    const std::string what =
        std::string(r.name) + " on " + source + " mutation " + std::to_string(seed) + ": ";
    EXPECT_FALSE(o.hung) << what << "ran for more than 10 s";
    EXPECT_EQ(o.signal, 0) << what << "died by " << strsignal(o.signal);
    if (o.hung || o.signal) {
      fs::copy_file(file, dir + "/failed-" + std::to_string(seed) + ".h5",
                    fs::copy_options::overwrite_existing);
      continue;
    }
    EXPECT_TRUE(r.allowed.count(o.exit_code)) << what << "exit " << o.exit_code << ": " << o.err;
    if (o.exit_code == 3) {
      ++refused;
      EXPECT_NE(o.err.find("error:"), std::string::npos) << what << o.err;
    } else {
      ++accepted;
    }
  }
  // Some mutations damage what the tool reads; others change bytes it never reads (padding,
  // unused space, datasets it ignores) or values it reads as values.
  EXPECT_GT(refused, 0u) << r.name;
  std::printf("%s: %zu mutated files refused (exit 3), %zu still readable\n", r.name, refused,
              accepted);
  if (!HasFailure()) fs::remove_all(dir);
}

std::vector<Sweep> sweeps(uint64_t first_seed, size_t count) {
  std::vector<Sweep> out;
  for (size_t i = 0; i < readers().size(); ++i) out.push_back({i, first_seed, count});
  return out;
}

std::string sweep_name(const testing::TestParamInfo<Sweep>& info) {
  return readers()[info.param.reader].name;
}

// 8 readers x 40 = 320 runs; under `long`, 8 x 300 = 2,400 others.
INSTANTIATE_TEST_SUITE_P(Default, DamagedHdf5Sweep, testing::ValuesIn(sweeps(0, 40)), sweep_name);
INSTANTIATE_TEST_SUITE_P(LongSweep, DamagedHdf5Sweep, testing::ValuesIn(sweeps(100000, 300)),
                         sweep_name);

// Single bytes changed in testdata's files that made joco-inverse die by SIGSEGV or run past 10 s
// before the guard (found by mutating them; the offset and the new value).
struct Reproducer {
  const char* source;
  size_t offset;
  uint8_t value;
  const char* before;
};

TEST(DamagedHdf5, SingleByteReproducersExit3) {
  const Reproducer kReproducers[] = {
      {"foreign/foreign_attrs.h5", 2047, 0xb3, "SIGSEGV"},
      {"foreign/foreign_attrs.h5", 7324, 0x01, "SIGSEGV"},
      {"hdf5/chain_sim.h5", 2438, 0xa0, "SIGSEGV"},
      {"hdf5/chain_sim.h5", 2471, 0xe5, "SIGSEGV"},
      {"foreign/foreign_attrs.h5", 2015, 0x3a, "a hang"},
      {"foreign/foreign_attrs.h5", 1479, 0xae, "11 s in the library (a type of 2.9 GB)"},
  };
  const std::string dir = scratch();
  for (const Reproducer& r : kReproducers) {
    std::vector<uint8_t> bytes = read_bytes(kTestdata + "/" + r.source);
    ASSERT_LT(r.offset, bytes.size());
    ASSERT_NE(bytes[r.offset], r.value);
    bytes[r.offset] = r.value;
    const std::string file = dir + "/reproducer.h5";
    write_bytes(file, bytes);
    const Outcome o =
        run_tool({tool("joco-inverse"), kChain, file, "-o", dir + "/out.h5"}, dir + "/err.txt");
    const std::string what = std::string(r.source) + " with byte " + std::to_string(r.offset) +
                             " set (" + r.before + " before): ";
    EXPECT_FALSE(o.hung) << what << "ran for more than 10 s";
    EXPECT_EQ(o.signal, 0) << what << "died by " << strsignal(o.signal);
    EXPECT_EQ(o.exit_code, 3) << what << o.err;
    EXPECT_NE(o.err.find(file), std::string::npos) << what << o.err;
  }
  fs::remove_all(dir);
}

// A 4 KB file whose qpos claims 10^9 rows (chunked and deflated, one chunk written): refused as
// damaged before anything is allocated (exit 3), not "out of memory" (exit 4).
TEST(DamagedHdf5, ClaimedRowsBeyondTheFileExit3) {
  const std::string dir = scratch();
  const std::string file = kTestdata + "/hdf5/claims_1e9_rows.h5";
  for (const Reader& r : readers()) {
    if (r.sources != kStates) continue;
    const Outcome o = run_tool(command(r, file, dir + "/out.h5"), dir + "/err.txt");
    EXPECT_EQ(o.exit_code, 3) << r.name << ": " << o.err;
    EXPECT_NE(o.err.find("qpos: claims shape (1000000000, 4) (32000000000 bytes), more than the "
                         "file's"),
              std::string::npos)
        << r.name << ": " << o.err;
  }
  fs::remove_all(dir);
}

// Found by hdf5_trajectory_fuzz (testdata/fuzz/hdf5_trajectory/markers_crash_at_close.h5): a
// markers file on which the library crashed in H5Fclose, after every read had gone well (in the
// fuzz target's sanitized process; a Release joco-ik's checking child crashed earlier). The
// library now runs only in the reading process, where a crash at close stays.
TEST(DamagedHdf5, MarkersThatCrashTheLibraryAtCloseExit3) {
  const std::string dir = scratch();
  const std::string file = kTestdata + "/fuzz/hdf5_trajectory/markers_crash_at_close.h5";
  for (const Reader& r : readers()) {
    if (std::string(r.name) != "ik") continue;
    const Outcome o = run_tool(command(r, file, dir + "/out.h5"), dir + "/err.txt", 60);
    EXPECT_EQ(o.signal, 0) << r.name << " died by " << strsignal(o.signal);
    EXPECT_EQ(o.exit_code, 3) << r.name << ": " << o.err;
  }
  fs::remove_all(dir);
}

// Found by hdf5_trajectory_fuzz (testdata/fuzz/hdf5_trajectory/): a group whose attributes the
// library cannot list (so the checking process read none of them) while opening one by name
// ("format") still worked, and reading it copied 32 MB from a 4 KB block: SIGSEGV in
// joco-inverse and joco-simulate --evaluate. The readers now open by name only listed attributes.
TEST(DamagedHdf5, AttributesThatCannotBeListedExit3) {
  const std::string dir = scratch();
  // the damaged group named, for the tools that read one rollout of a file holding two
  const std::string file =
      kTestdata + "/fuzz/hdf5_trajectory/attributes_not_listable.h5:/rollout_00001";
  for (const Reader& r : readers()) {
    if (r.sources != kStates) continue;
    const Outcome o = run_tool(command(r, file, dir + "/out.h5"), dir + "/err.txt");
    EXPECT_EQ(o.signal, 0) << r.name << " died by " << strsignal(o.signal);
    EXPECT_EQ(o.exit_code, 3) << r.name << ": " << o.err;
    EXPECT_NE(o.err.find("/rollout_00001: damaged HDF5 file: its attributes cannot be listed"),
              std::string::npos)
        << r.name << ": " << o.err;
  }
  fs::remove_all(dir);
}

// Found by hdf5_trajectory_fuzz as a timeout of its sanitized process
// (testdata/fuzz/hdf5_trajectory/string_of_a_gigabyte.h5): a string of /model whose damaged length
// makes the library allocate and clear about 1 GB to read it. A tool reads it (in its reading
// process, which may grow by 1 GB) and refuses the file for what else is wrong with it, exit 3,
// in about 2 s.
TEST(DamagedHdf5, AStringOfAGigabyteExit3) {
  const std::string dir = scratch();
  const std::string file = kTestdata + "/fuzz/hdf5_trajectory/string_of_a_gigabyte.h5";
  for (const Reader& r : readers()) {
    if (std::string(r.name) != "inverse") continue;
    const Outcome o = run_tool(command(r, file, dir + "/out.h5"), dir + "/err.txt", 60);
    EXPECT_EQ(o.signal, 0) << r.name << " died by " << strsignal(o.signal);
    EXPECT_EQ(o.exit_code, 3) << r.name << ": " << o.err;
  }
  fs::remove_all(dir);
}

// Found by hdf5_trajectory_fuzz (testdata/fuzz/hdf5_trajectory/crash_at_close_after_reading.h5):
// a bad free in H5Fclose in the target's own process, when it also read each input there (no
// longer: it reads as the tools do). The tools, which never close an input in their own process,
// refuse the file, exit 3, without a signal.
TEST(DamagedHdf5, ACrashAtCloseAfterReadingExit3) {
  const std::string dir = scratch();
  const std::string file = kTestdata + "/fuzz/hdf5_trajectory/crash_at_close_after_reading.h5";
  for (const Reader& r : readers()) {
    if (r.sources != kStates) continue;
    const Outcome o = run_tool(command(r, file, dir + "/out.h5"), dir + "/err.txt", 60);
    EXPECT_EQ(o.signal, 0) << r.name << " died by " << strsignal(o.signal);
    EXPECT_EQ(o.exit_code, 3) << r.name << ": " << o.err;
  }
  fs::remove_all(dir);
}

}  // namespace
