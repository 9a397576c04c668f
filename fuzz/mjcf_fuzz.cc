// The MJCF reader and compiler (XML tree, includes, schema, defaults, every element, composites,
// assets), compiled from a folder holding one file of each asset kind (fuzz_support.h: a.stl,
// b.stl, a.obj, a.msh, hf.png, hf.bin, tex.png, a.skn), then one forward pass of the model.
#include <string>

#include "fuzz_support.h"
#include "joco/mjcf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  try {
    const joco::Model m = joco::compile_mjcf(xml, "fuzz.xml", joco::fuzz::asset_dir());
    joco::fuzz::run_once(m);
  } catch (const joco::InputError&) {
  }
  return 0;
}
