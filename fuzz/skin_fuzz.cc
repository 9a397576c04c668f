// The SKN skin reader.
#include <vector>

#include "decode/skin_file.h"
#include "joco/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    joco::compiler::parse_skin(std::vector<uint8_t>(data, data + size), "fuzz.skn", "skin");
  } catch (const joco::InputError&) {
  }
  return 0;
}
