// Zeroed memory that costs nothing until written: pages are mapped as they are first touched. A
// large block is mapped directly rather than taken from calloc: once the process has freed a
// larger block, glibc serves calloc from its heap and writes the zeros itself, touching every page.
// The Model's buffer comes from here (most of a model with textures is their pixels, which the
// compiler writes once); the Data's buffer is made the same way in data.cc, whose header keeps the
// allocation in a member of joco/data.h (to move onto this when that header next changes).
#pragma once

#include <cstddef>

namespace joco {

inline constexpr size_t kZeroedAlignment = 64;

// `bytes` zeroed bytes (at least one), aligned to kZeroedAlignment; std::bad_alloc on failure.
void* allocate_zeroed(size_t bytes);
// Frees what allocate_zeroed returned; nullptr is ignored.
void free_zeroed(void* buffer);

}  // namespace joco
