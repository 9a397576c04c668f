// The C library's pseudo-random generator, which MuJoCo 2.2.2 uses through rand(): the compiler's
// random texture marks (after srand(123)) and sensor noise (mju_standardNormal). This is glibc's
// generator (the additive feedback generator behind random(), TYPE_3), reproduced so that results
// are the same on every platform, with its state held by whoever draws rather than by the process.
#pragma once

#include <array>
#include <cstdint>

namespace joco {

class GlibcRandom {
 public:
  static constexpr int kMax = 2147483647;  // glibc's RAND_MAX

  // The state after srand(seed).
  explicit GlibcRandom(uint32_t seed = 1) { reseed(seed); }
  void reseed(uint32_t seed);

  // The next rand(): uniform in [0, kMax].
  int next();

  // A standard normal number by Marsaglia's polar method, as mju_standardNormal computes it bit for
  // bit: two draws per attempt, mapped to [-1, 1] as next() * (2 / kMax) - 1, repeated until the
  // pair falls inside the unit circle (and not at its centre). The pair's second normal goes to
  // *second when not null.
  double standard_normal(double* second = nullptr);

 private:
  std::array<uint32_t, 31> ring_{};  // the last 31 words of the sequence, word i at i % 31
  uint64_t index_ = 0;               // index of the next word
};

}  // namespace joco
