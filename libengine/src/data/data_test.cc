#include "joco/data.h"

#include <gtest/gtest.h>

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
