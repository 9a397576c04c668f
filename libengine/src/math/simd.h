// Run-time dispatch of vectorisable loops: builds target generic x86-64 (SSE2), so a function
// whose loops pay for wider vectors is compiled twice, for AVX and for the baseline, and the
// loader picks the clone the processor runs (GCC's target_clones, an ifunc resolved once at load:
// no allocation, no test per call). AVX has no fused multiply-add, and vectorisation without
// -ffast-math keeps every operation's rounding and order, so both clones give the same bits.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define JOCO_AVX_CLONES __attribute__((target_clones("avx", "default")))
#else
#define JOCO_AVX_CLONES
#endif

#include <cstring>

namespace joco::math {

// Four doubles as one value (GCC's vector extension: one AVX register in an AVX clone, two SSE2
// registers otherwise); its operations are element-wise, each rounded as the scalar one.
typedef double Vec4 __attribute__((vector_size(32)));

// v = p[0..3] (no alignment needed; a function returning a Vec4 would change the ABI between the
// clones, so this one writes through a reference).
inline void load4(Vec4& v, const double* p) { std::memcpy(&v, p, sizeof v); }

}  // namespace joco::math
