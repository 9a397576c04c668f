// The mesh file readers: binary and ASCII STL, OBJ, MSH, each given the same bytes.
#include <string>

#include "decode/mesh_file.h"
#include "joco/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  using namespace joco::mesh_file;
  for (auto load : {load_stl, load_obj, load_msh}) {
    try {
      load(bytes, "fuzz mesh");
    } catch (const joco::InputError&) {
    }
  }
  return 0;
}
