// Textures: builtin patterns (gradient, checker, flat, with marks) and texture files (PNG or
// MuJoCo's custom binary format), to the RGB bytes MuJoCo 2.2.2 stores in tex_rgb.
#pragma once

#include <array>
#include <cstdint>

#include "compiler/assets.h"
#include "compiler/spec.h"
#include "joco/random.h"

namespace joco::compiler {

// MuJoCo 2.2.2 draws random marks from the C library's rand() after srand(123), once per compile,
// one number per pixel of every texture with mark="random", in texture order.
class MarkRandom : public GlibcRandom {
 public:
  static constexpr uint32_t kSeed = 123;
  explicit MarkRandom(uint32_t seed = kSeed) : GlibcRandom(seed) {}
};

// Compiles one texture. Textures must be compiled in model order with one shared MarkRandom.
CompiledTexture make_texture(const TextureSpec& texture, const ModelSpec& spec, MarkRandom& random);

// The pixels of a builtin texture (texture.builtin != 0).
CompiledTexture builtin_texture(const TextureSpec& texture, MarkRandom& random);

}  // namespace joco::compiler
