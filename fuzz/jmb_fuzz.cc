// The .jmb loader (read_jmb: format, sizes, shapes, validation of every field), then one forward
// pass of what it accepts. The checksum is re-sealed before loading, so that mutations reach the
// fields instead of stopping at the checksum check (which is exercised by the unit tests).
#include <cstring>
#include <vector>

#include "fuzz_support.h"
#include "joco/jmb.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (bytes.size() >= 8) {
    const size_t body = bytes.size() - 8;
    const uint64_t sum = joco::jmb_checksum({bytes.data(), body});
    std::memcpy(bytes.data() + body, &sum, 8);
  }
  try {
    const joco::Model m = joco::read_jmb(bytes, "fuzz.jmb");
    joco::fuzz::run_once(m);
  } catch (const joco::InputError&) {
  }
  return 0;
}
