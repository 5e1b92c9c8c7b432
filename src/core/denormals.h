// Subnormal ("denormal") floats, |x| < 1.2e-38 in float: whether the CPU flushes them to zero.
//
// x86 cores compute with a subnormal input or result about 100 times slower than with a normal one.
// A trained model can be full of them: from the trained weights of the cluttered60 spatial
// transformer with an LSTM core, the backward pass's matrix products ran at a fifth of their speed and
// training at a third (README, "Performance"); Adam's first moment of such a run held 10-13%
// subnormals. Other trained models measured there did not slow down. Flushing sets the x86 MXCSR bits
// FTZ (a subnormal result becomes 0) and DAZ (a subnormal input reads as 0). No result of this
// project depends on values that small, but a flushed run is a different run, bit for bit.
//
// The bits belong to a thread. Threads started after a change inherit it (Linux copies the
// floating-point state into a new thread), so the Trainer sets it before it starts its workers.
// OpenBLAS's own threads are started when the library loads, before any of this: with
// --parallel blas and more than one thread, products that OpenBLAS splits over its threads do not
// flush there (the default, --parallel data, calls BLAS on one thread, the caller's).
#pragma once

namespace glimpse {

// True where this build can flush (x86 with SSE); elsewhere the functions below do nothing.
bool CanFlushDenormals();
// Whether the calling thread flushes (FTZ and DAZ both set).
bool FlushingDenormals();
// Sets or clears FTZ and DAZ for the calling thread.
void SetFlushDenormals(bool on);

// A mode for the calling thread while this object lives; the thread's previous mode afterwards.
class DenormalMode {
 public:
  explicit DenormalMode(bool flush) : previous_(FlushingDenormals()) { SetFlushDenormals(flush); }
  ~DenormalMode() { SetFlushDenormals(previous_); }
  DenormalMode(const DenormalMode&) = delete;
  DenormalMode& operator=(const DenormalMode&) = delete;

 private:
  bool previous_;
};

}  // namespace glimpse
