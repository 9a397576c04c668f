#include "common/shard.h"

#include <gtest/gtest.h>

#include "common/tool.h"

namespace joco::tools {
namespace {

TEST(Shard, ParsesKOfN) {
  const Shard s = parse_shard("2/5");
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 5);
  for (const char* bad :
       {"", "1", "1/", "/2", "2/2", "-1/2", "1/0", "a/2", "1/2x", "1/2/3", " 1/2"})
    EXPECT_THROW(parse_shard(bad), UsageError) << bad;
}

// The parts of a range are contiguous, in order, cover it exactly and differ by at most one.
TEST(Shard, PartsCoverTheRangeEqually) {
  int checked = 0;
  for (int first : {0, 7}) {
    for (int count = 1; count <= 40; ++count) {
      for (int n = 1; n <= count; ++n) {
        int next = first, smallest = count, largest = 0;
        for (int k = 0; k < n; ++k) {
          const RolloutRange p = part_of({first, count}, {k, n});
          ASSERT_EQ(p.first, next) << count << " " << k << "/" << n;
          next = p.end();
          smallest = std::min(smallest, p.count);
          largest = std::max(largest, p.count);
          ++checked;
        }
        EXPECT_EQ(next, first + count);
        EXPECT_LE(largest - smallest, 1);
        EXPECT_GE(smallest, 1);
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// Large batches do not overflow: k * count is computed in 64 bits.
TEST(Shard, LargeBatches) {
  const RolloutRange last = part_of({0, 2'000'000'000}, {99, 100});
  EXPECT_EQ(last.first, 1'980'000'000);
  EXPECT_EQ(last.end(), 2'000'000'000);
}

}  // namespace
}  // namespace joco::tools
