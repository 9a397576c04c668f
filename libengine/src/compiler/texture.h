// Textures: builtin patterns (gradient, checker, flat, with marks) and texture files, to the RGB bytes
// MuJoCo 2.2.2 stores in tex_rgb.
#pragma once

#include "compiler/assets.h"
#include "compiler/spec.h"

namespace joco::compiler {

CompiledTexture make_texture(const TextureSpec& texture, const ModelSpec& spec);

}  // namespace joco::compiler
