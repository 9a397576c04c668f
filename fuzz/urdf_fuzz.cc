// URDF to MJCF conversion (urdf_to_mjcf: reading, conversion rules, inertia, the MJCF writer),
// with meshes resolved in the asset folder of fuzz_support.h.
#include <string>

#include "fuzz_support.h"
#include "joco/urdf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string urdf(reinterpret_cast<const char*>(data), size);
  joco::UrdfOptions options;
  options.base_dir = joco::fuzz::asset_dir();
  try {
    joco::urdf_to_mjcf(urdf, "fuzz.urdf", options);
  } catch (const joco::InputError&) {
  }
  return 0;
}
