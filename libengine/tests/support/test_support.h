// Helpers shared by the engine's and the tools' tests: test data paths, scoped temporary
// directories and a heap allocation counter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace joco::test {

// Path of a file under testdata/ (the repository's copy; tests never read ../shared).
std::string testdata(const std::string& relative);

// Reads a whole file; fails the current test when it cannot.
std::vector<uint8_t> read_file(const std::string& path);

// The same, as text.
std::string read_text(const std::string& path);

// A fresh empty directory under the system's temporary directory (TMPDIR, else /tmp), named
// <prefix>-XXXXXX, removed with everything in it when the object goes out of scope: tests write
// their files there and leave nothing behind.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "joco-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // The path of `name` inside the directory.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Counts heap allocations (operator new, and malloc/calloc/realloc where the C allocator can be
// wrapped, i.e. outside sanitizer builds) made on this thread while it is alive.
class AllocationCounter {
 public:
  AllocationCounter();
  ~AllocationCounter();
  AllocationCounter(const AllocationCounter&) = delete;
  AllocationCounter& operator=(const AllocationCounter&) = delete;
  int64_t count() const;

 private:
  int64_t start_;
};

// Called by the replaced allocation functions.
void note_allocation();

}  // namespace joco::test
