#include "joco/random.h"

#include <cmath>

namespace joco {

void GlibcRandom::reseed(uint32_t seed) {
  // glibc's initialisation: a Lehmer generator fills words 0..30, words 31..33 repeat 0..2, and
  // the first 310 words of the additive sequence are discarded.
  std::array<uint32_t, 34> r{};
  int32_t word = seed == 0 ? 1 : static_cast<int32_t>(seed);
  r[0] = static_cast<uint32_t>(word);
  for (size_t i = 1; i < 31; ++i) {
    const int32_t hi = word / 127773, lo = word % 127773;
    word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    r[i] = static_cast<uint32_t>(word);
  }
  for (size_t i = 31; i < 34; ++i) r[i] = r[i - 31];
  for (size_t i = 3; i < 34; ++i) ring_[i % 31] = r[i];
  index_ = 34;
  for (int i = 0; i < 310; ++i) next();
}

int GlibcRandom::next() {
  // word i = word i-31 + word i-3 (mod 2^32); the output drops the lowest bit
  const size_t slot = static_cast<size_t>(index_ % 31);
  ring_[slot] += ring_[static_cast<size_t>((index_ - 3) % 31)];
  ++index_;
  return static_cast<int>(ring_[slot] >> 1);
}

double GlibcRandom::standard_normal(double* second) {
  double x1, x2, w;
  do {
    // uniform in [-1, 1], scaled by the reciprocal as MuJoCo's are (bit for bit)
    constexpr double kScale = 2.0 / kMax;
    x1 = static_cast<double>(next()) * kScale - 1;
    x2 = static_cast<double>(next()) * kScale - 1;
    w = x1 * x1 + x2 * x2;
  } while (w >= 1 || w == 0);
  w = std::sqrt(-2 * std::log(w) / w);
  if (second) *second = x2 * w;
  return x1 * w;
}

}  // namespace joco
