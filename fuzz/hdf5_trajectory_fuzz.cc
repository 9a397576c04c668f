// libFuzzer target: the HDF5 trajectory reader as every reading tool uses it. The input is an HDF5
// file image (as `-`, standard input, is read: TrajectoryInput::open_image); every trajectory
// group is opened, validated against testdata/inverse/chain.xml, and every field, the contact
// table, the group's attributes and /model's names are read; or the bytes are read as joco-ik's
// markers instead. The input's size picks the reader (even: trajectories, odd: markers): each
// reader forks its reading process (tools/common/h5_guard.h), and the fork of this sanitized
// process is most of an execution's cost, so one reader per input doubles the executions a
// second; inserting or erasing a byte, among libFuzzer's commonest mutations, moves an input to
// the other reader.
//
// Each input is read as the tools read it: the HDF5 library runs in the reading process, where
// its own crashes on damaged files stay (they are exit 3 for the tools, and not joco's to fix);
// this process must only ever see values or an InputError. joco's reading code runs there too, so
// what that process covers and the sanitizers' reports on joco's code there are passed back to
// this one (the section "The reading process" below): libFuzzer sees the coverage of both sides,
// and a report on joco's code in the reading process is a finding here, while one on the
// library's code ends the reading process as a crash would. A second reading of the same requests
// in this process (which gave that coverage before) was tried on 2026-11-28 and dropped: the
// library's out-of-bounds writes, unseen by AddressSanitizer since the library is not
// instrumented, corrupted the heap here (a CHECK of the sanitizer's allocator in H5Gclose) where
// the same writes in the reading process had hit bytes that did not matter.
// JOCO_FUZZ_IN_PROCESS=1 reads in this process instead (ReaderProcess::set_in_process): to see a
// reading process's crash on one input under the sanitizers, with its stack.
// A crash, a sanitizer report, a hang or any exception but joco::InputError here is a finding.
#include <fcntl.h>
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/mman.h>  // memfd_create
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "common/h5_guard.h"
#include "common/markers.h"
#include "common/trajectory_reader.h"
#include "joco/error.h"
#include "joco/mjcf.h"
#include "reading_coverage.h"

namespace {

const joco::Model& chain() {
  static const joco::Model m =
      joco::compile_mjcf_file(std::string(JOCO_TESTDATA_DIR) + "/inverse/chain.xml");
  return m;
}

void read_trajectories(const std::vector<uint8_t>& bytes) {
  using namespace joco::tools;
  try {
    const TrajectoryInput in = TrajectoryInput::open_image(bytes, "fuzz.h5");
    (void)in.model_info();
    for (const std::string& group : in.trajectory_groups()) {
      try {
        Trajectory t = in.trajectory(group);
        (void)t.string_attribute("model_name");
        (void)t.double_attribute("timestep");
        t.validate(chain());
        for (Field f : t.fields()) (void)t.read(f, 0, SIZE_MAX, false);
        if (t.rows() > 1) (void)t.read(Field::kQpos, 1, 1);
        if (t.has_contacts()) (void)t.read_contacts();
      } catch (const joco::InputError&) {
      }
    }
  } catch (const joco::InputError&) {
  }
}

// A file of this process's own in the temporary directory.
std::string per_process_path(const std::string& suffix) {
  return (std::filesystem::temp_directory_path() /
          ("hdf5_trajectory_fuzz." + std::to_string(getpid()) + suffix))
      .string();
}

// read_markers takes a path: the bytes are written to one file per process.
void read_markers_file(const std::vector<uint8_t>& bytes) {
  static const std::string path = [] {
    static const std::string p = per_process_path(".h5");
    std::atexit([] { std::remove(p.c_str()); });
    return p;
  }();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  try {
    joco::tools::MarkerReadOptions options;
    options.format = joco::tools::MarkerFormat::kHdf5;
    (void)joco::tools::read_markers(path, options);
  } catch (const joco::InputError&) {
  }
}

// ---------------------------------------------------------------------------------------------
// The reading process
//
// Its coverage: fuzz/reading_coverage.h.
//
// Sanitizer reports: a reading process writes its reports to a memory file of its own, and its
// death callback (which replaces libFuzzer's, so that the process never saves the input as a
// finding of its own) reads the report back. A report on joco's code is left in a file that this
// process checks after each input, and turns into a finding; any other ends the reading process
// as a crash does.
std::string g_fault_path;  // where a reading process leaves a report on joco's code
int g_report_fd = -1;      // in a reading process: its memory file of reports

// Whether a sanitizer's report is about joco's code. UndefinedBehaviorSanitizer checks only
// instrumented code, which is all joco's. An AddressSanitizer report is joco's when, going down
// its first stack from the top, a frame in a source file of this repository comes before any
// frame in the HDF5 library (the frames above both are the sanitizer's own: its allocator, an
// intercepted call); so a bad free, or an allocator check failing, inside the library is the
// library's. A failed check of the sanitizer's allocator (a block's header found overwritten,
// whoever frees next) is the library's too: joco's code is instrumented, so its own writes out of
// bounds are reported where they happen, and a header damaged unseen was damaged by code that is
// not (the campaign of 2026-11-29 met one, raised in the destructor of a joco string). A stack
// with neither (no symbols) counts as joco's, so as not to pass unseen.
bool report_is_jocos(const char* report) {
  // No allocation here: the report may be about the heap.
  if (std::strstr(report, "runtime error:")) return true;
  if (std::strstr(report, "CHECK failed: asan_allocator")) return false;
  const auto in = [](const char* begin, const char* end, const char* what) {
    return memmem(begin, static_cast<size_t>(end - begin), what, std::strlen(what)) != nullptr;
  };
  for (const char* line = report; *line;) {
    const char* end = std::strchr(line, '\n');
    if (!end) end = line + std::strlen(line);
    const char* text = line;
    while (text < end && *text == ' ') ++text;
    if (text < end && *text == '#') {  // a stack frame
      // A source file is named after a space; a module (this executable, in the build tree)
      // in parentheses.
      if (in(text, end, " " JOCO_SOURCE_DIR "/")) return true;
      if (in(text, end, "libhdf5")) return false;
    }
    line = *end ? end + 1 : end;
  }
  return true;
}

void on_reading_process_death() {
  static char report[1 << 16];
  ssize_t n = g_report_fd >= 0 ? pread(g_report_fd, report, sizeof(report) - 1, 0) : -1;
  report[n > 0 ? n : 0] = '\0';
  if (report_is_jocos(report)) {
    const int fd = open(g_fault_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      (void)!write(fd, report, n > 0 ? static_cast<size_t>(n) : 0);
      close(fd);
    }
  }
  _exit(134);
}

void in_reading_process() {  // pthread_atfork's child handler: every fork here is a reader
  g_report_fd = memfd_create("sanitizer-report", MFD_CLOEXEC);
  if (g_report_fd >= 0)
    __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<intptr_t>(g_report_fd)));
  __sanitizer_set_death_callback(on_reading_process_death);
}

// After each input: a report a reading process left on joco's code is this process's finding.
void check_reading_faults() {
  if (access(g_fault_path.c_str(), F_OK) != 0) return;
  std::ifstream in(g_fault_path, std::ios::binary);
  const std::string report((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  unlink(g_fault_path.c_str());
  std::fprintf(stderr,
               "hdf5_trajectory_fuzz: a sanitizer report on joco's code in the reading process "
               "(JOCO_FUZZ_IN_PROCESS=1 reproduces it here):\n%s\n",
               report.c_str());
  std::abort();
}

// Writes where the sanitizer does not look, as the library's code does.
__attribute__((no_sanitize("address"))) void write_unseen(char* at, size_t n) {
  for (size_t i = 0; i < n; ++i) reinterpret_cast<volatile char*>(at)[i] = static_cast<char>(0xcc);
}

// JOCO_FUZZ_SELF_TEST (scripts/fuzz-ci): every input instead starts a reading process that makes
// one fault, to show that a fault of joco's code there is a finding and one of the library's is
// not. joco-fault: a write past a heap block. library-fault: a free, inside the HDF5 library, of
// a pointer that was not allocated. library-heap: a freed block's header overwritten unseen (as
// the library's out-of-bounds writes are), which the allocator finds when joco's code frees
// enough to recycle it.
std::string g_self_test;

void self_test() {
  const auto fault = [](const std::function<void()>&) -> joco::tools::ReaderHandler {
    if (g_self_test == "joco-fault") {
      std::vector<char> block(16);
      volatile char* p = block.data();
      p[block.size()] = 1;
    } else if (g_self_test == "library-fault") {
      static char not_allocated[64];
      H5free_memory(not_allocated + 8);
    } else if (g_self_test == "library-heap") {
      char* freed = static_cast<char*>(std::malloc(64));
      std::free(freed);
      write_unseen(freed - 16, 16);  // its header
      // 64 MB freed, past the quarantine's 16 MB: the damaged block is recycled.
      for (int i = 0; i < 64; ++i) std::vector<char> churn(size_t{1} << 20);
    }
    return {};
  };
  try {
    (void)joco::tools::ReaderProcess::start("self-test.h5", fault);
  } catch (const joco::InputError& e) {
    std::fprintf(stderr, "hdf5_trajectory_fuzz: self-test: the reading process ended: %s\n",
                 e.what());
  }
}

}  // namespace

// Leaks inside the HDF5 library are not joco's: on the error paths of damaged files HDF5 1.10.8's
// object-header code drops what it had copied (a filter pipeline message, H5O_pline_copy, found by
// CI) and its free lists keep blocks. Every one of HDF5's
// functions is named H5<something>; joco's are all in namespace joco, so "^H5" matches a leak
// only when HDF5's code is on the stack where the block was allocated.
extern "C" const char* __lsan_default_suppressions() { return "leak:^H5\n"; }

// libFuzzer's limit on one allocation (-malloc_limit_mb, by default the RSS limit, 2 GB) is a hook
// that the child inherits too: a damaged file that makes the library ask for more in the child
// (which the guard contains: it ends the child once it has grown by 256 MB here) wrote an "oom-"
// artifact from the child, counted as a finding though this process went on unharmed. So the
// limit is put out of reach (1 TB) before libFuzzer reads its flags (a -malloc_limit_mb on the
// command line still wins, being later): this process's own memory stays bounded by -rss_limit_mb.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (const char* in = std::getenv("JOCO_FUZZ_IN_PROCESS"); in && std::string(in) == "1")
    joco::tools::ReaderProcess::set_in_process(true);
  // Its inputs are images of at most some 60 KB, which a reading process reads in a few MB: 256 MB
  // of growth (not the tools' 1 GB) stops a damaged string that makes the library allocate and
  // clear 1 GB before the sanitized reading takes most of the 10 s of a hang (a Release
  // joco-inverse reads that file in 2.3 s).
  joco::tools::ReaderProcess::set_memory_limit(uint64_t{256} << 20);
  // A step (an object, an attribute, a block of rows) comes within milliseconds even here, and
  // the library loops for ever on some damaged files (a Release joco-inverse refuses them after
  // its 5 s): such inputs were about 1% of the campaign's mutations, and at 5 s each, three
  // quarters of its time (13 executions a second; 44 with half a second). A quarter of a
  // second, 0.1 s of it busy, refuses them as surely.
  joco::tools::ReaderProcess::set_idle_limit(0.25, 0.1);
  pthread_atfork(nullptr, nullptr, in_reading_process);
  g_fault_path = per_process_path(".reading-fault");
  if (joco::fuzz::share_coverage())
    joco::tools::ReaderProcess::set_before_reply(joco::fuzz::pass_coverage_back);
  if (const char* test = std::getenv("JOCO_FUZZ_SELF_TEST")) g_self_test = test;
  static std::vector<char*> args;
  static char limit[] = "-malloc_limit_mb=1048576";
  args.assign(*argv, *argv + *argc);
  args.insert(args.begin() + (*argc > 0 ? 1 : 0), limit);
  args.push_back(nullptr);
  *argc += 1;
  *argv = args.data();
  return 0;
}

// A fork copies the page tables of everything this process has touched, and AddressSanitizer's
// quarantine of freed blocks (256 MB by default) grows it to some 400 MB within a minute: 16 MB
// keeps it near 100 MB, which makes each fork, and so each execution, several times cheaper,
// while a use after free is still caught on any block among the last 16 MB freed.
//
// The HDF5 library is not instrumented; AddressSanitizer sees its accesses only through the
// functions it intercepts (memcpy, strlen, ...). Those reports are the library's faults on a
// damaged file, so they are suppressed when the intercepted call came from the library
// (fuzz/asan.supp): the reading process goes on as a Release one would. So does a malloc of an
// impossible size (the library asks for 2^54 bytes on some damaged headers): it returns null, as
// in the tools, where the library reports an error, instead of ending the reading process with a
// report whose symbolizing took a fifth of the target's time. joco's own allocations go through
// operator new, which still reports.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=16:allocator_may_return_null=1:suppressions=" JOCO_FUZZ_DIR
         "/asan.supp";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  if (!g_self_test.empty()) {
    self_test();
  } else if (size % 2 == 0) {
    read_trajectories(bytes);
  } else {
    read_markers_file(bytes);
  }
  joco::fuzz::take_coverage_back();
  check_reading_faults();
  return 0;
}
