// The zlib/DEFLATE decoder alone. Its output is bounded at 1 MiB (PNG decoding bounds it by the
// image's size): the decoder's logic is the same at any bound, and streams of several MiB (the
// seeds of large images) cost seconds each under the sanitizers.
#include "decode/inflate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    joco::compiler::zlib_decompress(data, size, size_t{1} << 20);
  } catch (const joco::compiler::InflateError&) {
  }
  return 0;
}
