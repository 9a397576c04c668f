// Stands in for the oracle tests where MuJoCo 2.2.2 is not installed.
#include <gtest/gtest.h>

TEST(Oracle, Available) {
  GTEST_SKIP() << "MuJoCo 2.2.2 (Debian libmujoco-dev) is not installed: the differential tests "
                  "against it were not built. scripts/setup installs it.";
}
