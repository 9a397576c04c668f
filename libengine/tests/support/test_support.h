// Helpers shared by the engine's tests: test data paths and a heap allocation counter.
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
