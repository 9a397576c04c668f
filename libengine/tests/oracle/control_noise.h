// The Halton sequence of MuJoCo's testspeed control noise, for oracle tests that drive both engines
// with it (they cannot link tools/common/controls.h, which has the tools' own).
#pragma once

#include <cstdint>

namespace joco::oracle {

inline double halton(int64_t index, int base) {
  double result = 0, fraction = 1.0 / base;
  for (; index > 0; index /= base, fraction /= base)
    result += fraction * static_cast<double>(index % base);
  return result;
}

}  // namespace joco::oracle
