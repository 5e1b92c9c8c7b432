// Flush-to-zero (FTZ, MXCSR bit 15) and denormals-are-zero (DAZ, bit 6); see denormals.h.
#include "src/core/denormals.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace glimpse {

#if defined(__SSE__)
namespace {
constexpr unsigned kFtz = 1u << 15;
constexpr unsigned kDaz = 1u << 6;
}  // namespace

bool CanFlushDenormals() { return true; }
bool FlushingDenormals() { return (_mm_getcsr() & (kFtz | kDaz)) == (kFtz | kDaz); }
void SetFlushDenormals(bool on) {
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(on ? (csr | kFtz | kDaz) : (csr & ~(kFtz | kDaz)));
}
#else
bool CanFlushDenormals() { return false; }
bool FlushingDenormals() { return false; }
void SetFlushDenormals(bool) {}
#endif

}  // namespace glimpse
