// An exponential moving average of the parameters (--average DECAY): after every update,
//   a <- a + (1 - decay) (p - a),
// the same as a <- decay a + (1 - decay) p, written so that float keeps the small step (Polyak &
// Juditsky 1992 average all iterates; the exponential form, as in TensorFlow's
// ExponentialMovingAverage, forgets the early ones: its horizon is about 1 / (1 - decay) updates).
// a starts as the parameters it is reset to (the first draw, or --init-from's). Training never reads
// it: the trainer evaluates it as a second parameter set (src/train/trainer.cpp, EndEpoch) and the
// checkpoint stores it beside the optimizer state, so a resumed run continues it bit for bit.
#pragma once

#include <algorithm>
#include <cstddef>

#include "src/core/error.h"
#include "src/core/tensor.h"

namespace glimpse {

template <class T>
class WeightAverage {
 public:
  // n: the size of the flat parameter buffer; decay in [0, 1) (0: a is the last parameters).
  WeightAverage(std::size_t n, double decay) : rate_(static_cast<T>(1.0 - decay)), avg_(xt::zeros<T>({n})) {
    Check(decay >= 0 && decay < 1, "weight average: decay must be in [0, 1), found ", decay);
  }
  // a <- p (n values).
  void Reset(const T* p) { std::copy(p, p + avg_.size(), avg_.begin()); }
  // One step of the average towards p (n values). No allocation.
  void Update(const T* p) {
    T* __restrict a = avg_.data();
    const T* __restrict q = p;
    const T r = rate_;
    const std::size_t n = avg_.size();
    for (std::size_t i = 0; i < n; ++i) a[i] += r * (q[i] - a[i]);
  }
  // The averaged parameters (n), laid out as the ParamStore's values.
  Vec<T>& values() { return avg_; }
  const Vec<T>& values() const { return avg_; }

 private:
  T rate_;  // 1 - decay
  Vec<T> avg_;
};

}  // namespace glimpse
