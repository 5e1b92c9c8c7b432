// Attention scores between a key k and a query q of size a (shared by the soft grid sensor and the
// item attention of the query model):
//   additive:   e = v^T tanh(k + q)      (Bahdanau et al. 2015; k and q already projected, v learned)
//   dot:        e = k . q
//   scaled-dot: e = k . q / sqrt(a)      (Vaswani et al. 2017)
// Computed in double; the backward pass adds into the gradients it is given.
#pragma once

#include <cmath>
#include <string>

#include "src/core/error.h"

namespace glimpse {

enum class ScoreKind { kAdditive, kDot, kScaledDot };

inline ScoreKind ParseScore(const std::string& s) {
  if (s == "additive") return ScoreKind::kAdditive;
  if (s == "dot") return ScoreKind::kDot;
  if (s == "scaled-dot") return ScoreKind::kScaledDot;
  Fail("unknown score '", s, "': expected additive, dot or scaled-dot");
}

// e(key, q); v (a) is read only by the additive score.
template <class T>
double ScoreForward(ScoreKind kind, const T* key, const T* q, const T* v, int a) {
  double s = 0;
  if (kind == ScoreKind::kAdditive) {
    for (int j = 0; j < a; ++j) s += v[j] * std::tanh(static_cast<double>(key[j]) + q[j]);
    return s;
  }
  for (int j = 0; j < a; ++j) s += static_cast<double>(key[j]) * q[j];
  return kind == ScoreKind::kScaledDot ? s / std::sqrt(static_cast<double>(a)) : s;
}

// Given de = dL/de: dkey (a) += de de/dkey, dq (a) += de de/dq, dv (a) += de de/dv (additive only).
template <class T>
void ScoreBackward(ScoreKind kind, const T* key, const T* q, const T* v, int a, double de, T* dkey, T* dq,
                   T* dv) {
  if (kind == ScoreKind::kAdditive) {
    for (int j = 0; j < a; ++j) {
      const double u = std::tanh(static_cast<double>(key[j]) + q[j]);
      dv[j] += static_cast<T>(de * u);
      const double dpre = de * v[j] * (1 - u * u);
      dq[j] += static_cast<T>(dpre);
      dkey[j] += static_cast<T>(dpre);
    }
    return;
  }
  const double s = kind == ScoreKind::kScaledDot ? 1 / std::sqrt(static_cast<double>(a)) : 1.0;
  for (int j = 0; j < a; ++j) {
    dq[j] += static_cast<T>(de * s * key[j]);
    dkey[j] += static_cast<T>(de * s * q[j]);
  }
}

}  // namespace glimpse
