// Element-wise activations as plain loops over contiguous storage (docs/architecture.md, "The stack": fused
// xtensor expressions are ~50x slower here). Backward functions take the forward *output* y, from
// which each derivative follows: relu' = [y > 0], tanh' = 1 - y^2, sigmoid' = y (1 - y).
// With accumulate, dx += ...; otherwise dx = ... . dx may alias dy when not accumulating.
#pragma once

#include <cmath>
#include <cstddef>

#include "src/nn/vmath.h"

namespace glimpse {

template <class T>
void ReluForward(const T* x, std::size_t n, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = x[i] > T(0) ? x[i] : T(0);
}
template <class T>
void ReluBackward(const T* y, const T* dy, std::size_t n, T* dx, bool accumulate = false) {
  if (accumulate)
    for (std::size_t i = 0; i < n; ++i) dx[i] += y[i] > T(0) ? dy[i] : T(0);
  else
    for (std::size_t i = 0; i < n; ++i) dx[i] = y[i] > T(0) ? dy[i] : T(0);
}

template <class T>
void TanhForward(const T* x, std::size_t n, T* y) {
  VTanh(x, n, y);
}
template <class T>
void TanhBackward(const T* y, const T* dy, std::size_t n, T* dx, bool accumulate = false) {
  if (accumulate)
    for (std::size_t i = 0; i < n; ++i) dx[i] += dy[i] * (T(1) - y[i] * y[i]);
  else
    for (std::size_t i = 0; i < n; ++i) dx[i] = dy[i] * (T(1) - y[i] * y[i]);
}

template <class T>
inline T Sigmoid(T x) {
  return T(1) / (T(1) + std::exp(-x));
}
template <class T>
void SigmoidForward(const T* x, std::size_t n, T* y) {
  VSigmoid(x, n, y);
}
template <class T>
void SigmoidBackward(const T* y, const T* dy, std::size_t n, T* dx, bool accumulate = false) {
  if (accumulate)
    for (std::size_t i = 0; i < n; ++i) dx[i] += dy[i] * y[i] * (T(1) - y[i]);
  else
    for (std::size_t i = 0; i < n; ++i) dx[i] = dy[i] * y[i] * (T(1) - y[i]);
}

}  // namespace glimpse
