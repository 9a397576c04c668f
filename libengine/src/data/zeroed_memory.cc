#include "data/zeroed_memory.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace joco {

namespace {

// Blocks of at least this many bytes are mapped with mmap (glibc's default mmap threshold).
constexpr size_t kMapFrom = size_t{128} << 10;

// Kept just before the aligned buffer: where the allocation starts and its mapped length (0 when
// it came from calloc).
struct Header {
  void* allocation;
  size_t mapped;
};

}  // namespace

void* allocate_zeroed(size_t bytes) {
  const size_t total = (bytes > 0 ? bytes : 1) + sizeof(Header) + kZeroedAlignment;
  void* allocation = nullptr;
  size_t mapped = 0;
  if (total >= kMapFrom) {
    allocation = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (allocation == MAP_FAILED) throw std::bad_alloc();
    mapped = total;
  } else {
    allocation = std::calloc(total, 1);
    if (!allocation) throw std::bad_alloc();
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(allocation) + sizeof(Header);
  const uintptr_t aligned = (start + kZeroedAlignment - 1) / kZeroedAlignment * kZeroedAlignment;
  Header* header = reinterpret_cast<Header*>(aligned) - 1;
  header->allocation = allocation;
  header->mapped = mapped;
  return reinterpret_cast<void*>(aligned);
}

void free_zeroed(void* buffer) {
  if (!buffer) return;
  const Header header = *(static_cast<Header*>(buffer) - 1);
  if (header.mapped != 0) {
    munmap(header.allocation, header.mapped);
  } else {
    std::free(header.allocation);
  }
}

}  // namespace joco
