// Textures: builtin patterns (gradient, checker, flat, with marks) and texture files (PNG or
// MuJoCo's custom binary format), to the RGB bytes MuJoCo 2.2.2 stores in tex_rgb.
#pragma once

#include <array>
#include <cstdint>

#include "compiler/assets.h"
#include "compiler/spec.h"

namespace joco::compiler {

// MuJoCo 2.2.2 draws random marks from the C library's rand() after srand(123), once per compile,
// one number per pixel of every texture with mark="random", in texture order. This is glibc's
// generator (the additive feedback generator behind random(), TYPE_3), reproduced so the marks land
// on the same pixels on every platform.
class MarkRandom {
 public:
  static constexpr int kSeed = 123;
  static constexpr int kMax = 2147483647;  // glibc's RAND_MAX

  explicit MarkRandom(uint32_t seed = kSeed);
  int next();  // uniform in [0, kMax]

 private:
  std::array<uint32_t, 31> ring_{};  // the last 31 words of the sequence, word i at i % 31
  uint64_t index_ = 0;               // index of the next word
};

// Compiles one texture. Textures must be compiled in model order with one shared MarkRandom.
CompiledTexture make_texture(const TextureSpec& texture, const ModelSpec& spec, MarkRandom& random);

// The pixels of a builtin texture (texture.builtin != 0).
CompiledTexture builtin_texture(const TextureSpec& texture, MarkRandom& random);

}  // namespace joco::compiler
