// Mean squared error over n values: loss = (1/n) sum_i (pred_i - target_i)^2.
#pragma once

#include <cstddef>

namespace glimpse {

template <class T>
double MseForward(const T* pred, const T* target, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(pred[i]) - static_cast<double>(target[i]);
    s += d * d;
  }
  return s / static_cast<double>(n);
}

// dpred = scale * 2 (pred - target) / n; with accumulate, added to dpred.
template <class T>
void MseBackward(const T* pred, const T* target, std::size_t n, T scale, T* dpred, bool accumulate = false) {
  const T k = scale * T(2) / static_cast<T>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const T g = k * (pred[i] - target[i]);
    dpred[i] = accumulate ? dpred[i] + g : g;
  }
}

}  // namespace glimpse
