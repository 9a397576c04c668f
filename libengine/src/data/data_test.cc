#include "joco/data.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "joco/error.h"
#include "support/hand_models.h"
#include "support/test_support.h"

namespace joco {
namespace {

TEST(Data, MadeAtTheInitialState) {
  const Model m = test::pendulum_model();
  const Data d = make_data(m);
  for (int i = 0; i < m.nq; ++i) EXPECT_EQ(d.qpos[i], m.qpos0[i]);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.qvel[i], 0);
  EXPECT_EQ(d.time, 0);
  EXPECT_EQ(d.nstack, m.nstack);
}

// Resident bytes of this process (Linux: /proc/self/statm).
double resident_bytes() {
  long pages = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return read == 2 ? double(resident) * double(sysconf(_SC_PAGESIZE)) : -1;
}

// The conditions in which a large block would come, dirty, from glibc's heap rather than from a
// fresh zero mapping: a freed 30 MB mapping raises the mmap threshold to 30 MB; then a 26 MB block
// comes from the heap and is freed below a small block, so it stays a free block rather than the
// top. Returns that small block (free it after measuring), or null when an allocation failed.
void* free_heap_block_of_26_mb() {
  void* mapped = std::malloc(size_t{30} << 20);
  if (mapped == nullptr) return nullptr;
  std::free(mapped);
  void* block = std::malloc(size_t{26} << 20);
  void* guard = std::malloc(64);
  std::free(block);
  if (block == nullptr) {
    std::free(guard);
    return nullptr;
  }
  return guard;
}

// A new Data's zeros cost nothing until written, also after the process has freed large blocks
// (as compiling a model does). Then glibc may serve a calloc of a few MB from a free block of its
// heap and write the zeros itself, touching every page of the stack (joco-profile's Data for the
// humanoid, 14 MB, made its peak memory 30 MB).
TEST(Data, StackIsNotTouchedWhenMade) {
  Model m = test::pendulum_model();
  m.nstack = 3 << 20;  // 24 MB of stack
  void* guard = free_heap_block_of_26_mb();
  ASSERT_NE(guard, nullptr);
  const double before = resident_bytes();
  ASSERT_GT(before, 0);
  const Data d = make_data(m);
  const double grown = resident_bytes() - before;
  std::free(guard);
  EXPECT_EQ(d.nstack, 3 << 20);
  EXPECT_LT(grown, 4 << 20) << "making the Data touched " << grown / (1 << 20) << " MB";
}

// A new Model's zeros cost nothing until written either (zeroed_memory.h), in the same
// conditions: most of a model with textures is their pixels, which the compiler writes once.
TEST(Data, ModelArraysAreNotTouchedWhenMade) {
  ModelSizes sizes;
  sizes.ntex = 1;
  sizes.ntexdata = 24 << 20;  // 24 MB of pixels
  void* guard = free_heap_block_of_26_mb();
  ASSERT_NE(guard, nullptr);
  const double before = resident_bytes();
  ASSERT_GT(before, 0);
  const Model m(sizes);
  const double grown = resident_bytes() - before;
  std::free(guard);
  ASSERT_EQ(m.ntexdata, 24 << 20);
  EXPECT_EQ(m.tex_rgb[0], 0);
  EXPECT_EQ(m.tex_rgb[m.ntexdata - 1], 0);
  EXPECT_LT(grown, 4 << 20) << "making the Model touched " << grown / (1 << 20) << " MB";
}

TEST(Data, ResetToKeyframe) {
  const Model m = test::pendulum_model();
  Data d = make_data(m);
  reset_to_keyframe(m, d, 0);
  EXPECT_EQ(d.time, 0.5);
  EXPECT_EQ(d.qpos[1], -0.2);
  EXPECT_EQ(d.qvel[0], 0.3);
  EXPECT_EQ(d.ctrl[0], 0.25);
  EXPECT_THROW(reset_to_keyframe(m, d, 1), InputError);
  reset_data(m, d);
  EXPECT_EQ(d.time, 0);
  EXPECT_EQ(d.qpos[1], 0);
}

TEST(Data, CopyIsDeep) {
  const Model m = test::pendulum_model();
  Data a = make_data(m);
  a.qpos[0] = 1.5;
  Data b = a;
  b.qpos[0] = 2.5;
  EXPECT_EQ(a.qpos[0], 1.5);
  Data c = std::move(b);
  EXPECT_EQ(c.qpos[0], 2.5);
}

TEST(Data, StackFramesNestAndRelease) {
  const Model m = test::pendulum_model();
  Data d = make_data(m);
  {
    StackFrame outer(d);
    double* a = outer.doubles(10);
    a[9] = 1;
    {
      StackFrame inner(d);
      int* b = inner.ints(3);
      b[2] = 1;
      EXPECT_EQ(d.pstack, 12);
    }
    EXPECT_EQ(d.pstack, 10);
  }
  EXPECT_EQ(d.pstack, 0);
  EXPECT_EQ(d.maxuse_stack, 12);
  StackFrame frame(d);
  EXPECT_THROW(frame.doubles(m.nstack + 1), RuntimeError);
}

TEST(Data, ResetAndStackUseNoHeap) {
  const Model m = test::pendulum_model();
  Data d = make_data(m);
  test::AllocationCounter counter;
  reset_data(m, d);
  reset_to_keyframe(m, d, 0);
  {
    StackFrame frame(d);
    frame.doubles(100);
  }
  EXPECT_EQ(counter.count(), 0);
}

TEST(Data, AllocationCounterSeesTheHeap) {
  test::AllocationCounter counter;
  auto* p = new int(3);
  asm volatile("" : : "r"(p) : "memory");  // keep the allocation from being optimised away
  delete p;
  EXPECT_GE(counter.count(), 1);
}

}  // namespace
}  // namespace joco
