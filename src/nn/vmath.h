// Vectorised transcendental functions over contiguous arrays (xsimd). libm's scalar tanh and exp
// dominate the LSTM's element-wise work otherwise; xsimd's versions are accurate to a few ulp, so the
// double-precision gradient checks are unaffected.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <xsimd/xsimd.hpp>

namespace glimpse {

// Applies the batch function f to x[0..n) into y. The last partial batch goes through f too (padded
// with zeros), so every element gets the same arithmetic wherever it sits in the array: a row's
// result does not depend on how the rows are grouped (data-parallel shards rely on it).
template <class T, class F>
void VApply(const T* x, std::size_t n, T* y, F f) {
  using B = xsimd::batch<T>;
  std::size_t i = 0;
  for (; i + B::size <= n; i += B::size) f(B::load_unaligned(x + i)).store_unaligned(y + i);
  if (i == n) return;
  alignas(64) T in[B::size] = {}, out[B::size];
  std::copy(x + i, x + n, in);
  f(B::load_aligned(in)).store_aligned(out);
  std::copy(out, out + (n - i), y + i);
}

// y[i] = tanh(x[i]); y may alias x.
template <class T>
void VTanh(const T* x, std::size_t n, T* y) {
  VApply(x, n, y, [](const xsimd::batch<T>& v) { return xsimd::tanh(v); });
}

// y[i] = 1 / (1 + exp(-x[i])); y may alias x.
template <class T>
void VSigmoid(const T* x, std::size_t n, T* y) {
  VApply(x, n, y, [](const xsimd::batch<T>& v) { return xsimd::batch<T>(T(1)) / (T(1) + xsimd::exp(-v)); });
}

// sum_i x[i]^2 in one vectorised pass (float lanes, summed in double at the end). A NaN or inf
// anywhere makes the result NaN or inf, so it doubles as a finiteness check.
template <class T>
double SumOfSquares(const T* x, std::size_t n) {
  using B = xsimd::batch<T>;
  B a0(T(0)), a1(T(0)), a2(T(0)), a3(T(0));
  std::size_t i = 0;
  for (; i + 4 * B::size <= n; i += 4 * B::size) {
    const B x0 = B::load_unaligned(x + i), x1 = B::load_unaligned(x + i + B::size);
    const B x2 = B::load_unaligned(x + i + 2 * B::size), x3 = B::load_unaligned(x + i + 3 * B::size);
    a0 = xsimd::fma(x0, x0, a0);
    a1 = xsimd::fma(x1, x1, a1);
    a2 = xsimd::fma(x2, x2, a2);
    a3 = xsimd::fma(x3, x3, a3);
  }
  double s = static_cast<double>(xsimd::hadd(a0)) + xsimd::hadd(a1) + xsimd::hadd(a2) + xsimd::hadd(a3);
  for (; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
  return s;
}

}  // namespace glimpse
