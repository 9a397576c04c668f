#include "joco/mjcf.h"

#include "joco/error.h"

namespace joco {

Model compile_mjcf(const std::string&, const std::string& source, const std::string&) {
  throw InputError(source + ": MJCF compilation is not available in this build yet");
}

Model compile_mjcf_file(const std::string& path) { return compile_mjcf("", path, ""); }

}  // namespace joco
