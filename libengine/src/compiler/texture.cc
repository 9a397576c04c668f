#include "compiler/texture.h"

#include "joco/error.h"

namespace joco::compiler {

CompiledTexture make_texture(const TextureSpec& t, const ModelSpec&) {
  CompiledTexture c;
  c.type = t.type;
  if (t.builtin == 0) {
    throw InputError(t.origin.describe(t.name) + ": texture files are not supported yet");
  }
  if (t.width <= 0 || t.height <= 0) throw InputError(t.origin.describe(t.name) + ": builtin textures need width and height");
  c.width = t.width;
  c.height = t.type == kTexture2D ? t.height : 6 * t.width;
  c.rgb.assign(static_cast<size_t>(3) * static_cast<size_t>(c.width) * static_cast<size_t>(c.height), 0);
  return c;
}

}  // namespace joco::compiler
