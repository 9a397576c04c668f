// The PNG decoder (chunks, CRCs, every colour type and depth, filters, Adam7) and, through it,
// inflate.
#include <vector>

#include "decode/png.h"
#include "joco/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    joco::compiler::decode_png(std::vector<uint8_t>(data, data + size), "fuzz.png");
  } catch (const joco::InputError&) {
  }
  return 0;
}
