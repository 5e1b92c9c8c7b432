// Softmax cross-entropy over a minibatch: loss = -(1/B) sum_b log softmax(z_b)[y_b].
#pragma once

#include <cmath>
#include <cstdint>

#include "src/core/error.h"

namespace glimpse {

// logits (B, C), labels (B) in [0, C) -> probs (B, C); returns the mean loss.
template <class T>
double SoftmaxCrossEntropyForward(const T* logits, const std::int32_t* labels, int batch, int classes, T* probs) {
  double loss = 0.0;
  for (int r = 0; r < batch; ++r) {
    const T* z = logits + static_cast<std::ptrdiff_t>(r) * classes;
    T* p = probs + static_cast<std::ptrdiff_t>(r) * classes;
    T m = z[0];
    for (int c = 1; c < classes; ++c) m = z[c] > m ? z[c] : m;
    double sum = 0.0;
    for (int c = 0; c < classes; ++c) {
      p[c] = std::exp(z[c] - m);
      sum += p[c];
    }
    for (int c = 0; c < classes; ++c) p[c] = static_cast<T>(p[c] / sum);
    const int y = labels[r];
    Check(y >= 0 && y < classes, "label out of range: expected [0, ", classes, "), found ", y);
    loss -= static_cast<double>(z[y] - m) - std::log(sum);
  }
  return loss / batch;
}

// dlogits (B, C) = scale (probs - onehot(labels)) / B; with accumulate, added to dlogits.
template <class T>
void SoftmaxCrossEntropyBackward(const T* probs, const std::int32_t* labels, int batch, int classes, T scale,
                                 T* dlogits, bool accumulate = false) {
  const T k = scale / static_cast<T>(batch);
  for (int r = 0; r < batch; ++r) {
    const T* p = probs + static_cast<std::ptrdiff_t>(r) * classes;
    T* d = dlogits + static_cast<std::ptrdiff_t>(r) * classes;
    for (int c = 0; c < classes; ++c) {
      const T g = k * (p[c] - (c == labels[r] ? T(1) : T(0)));
      d[c] = accumulate ? d[c] + g : g;
    }
  }
}

}  // namespace glimpse
