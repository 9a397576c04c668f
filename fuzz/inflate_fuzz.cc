// The zlib/DEFLATE decoder alone, with the output bound PNG decoding gives it.
#include "decode/inflate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    joco::compiler::zlib_decompress(data, size, size_t{1} << 24);
  } catch (const joco::compiler::InflateError&) {
  }
  return 0;
}
