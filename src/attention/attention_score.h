// Attention scores between a key k and a query q of size a (shared by the soft grid sensor and the
// item attention of the query model):
//   additive:   e = v^T tanh(k + q)      (Bahdanau et al. 2015; k and q already projected, v learned)
//   dot:        e = k . q
//   scaled-dot: e = k . q / sqrt(a)      (Vaswani et al. 2017)
// ScoreForward/ScoreBackward score one key; Scores/ScoresBackward score K keys against one query
// with the tanh vectorised (the soft grid sensor's hot loop). Backward passes add into the
// gradients they are given.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "src/core/error.h"
#include "src/nn/vmath.h"

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
void ScoreBackward(ScoreKind kind, const T* key, const T* q, const T* v, int a, double de, T* dkey, T* dq, T* dv) {
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

// e (K) = scores of keys (K, a) against q (a). u (K a) is scratch that ScoresBackward reuses: the
// additive score's tanh(k + q); untouched by the dot scores.
template <class T>
void Scores(ScoreKind kind, const T* keys, int K, const T* q, const T* v, int a, double* e, std::vector<T>& u) {
  if (kind != ScoreKind::kAdditive) {
    for (int k = 0; k < K; ++k) e[k] = ScoreForward(kind, keys + static_cast<std::ptrdiff_t>(k) * a, q, v, a);
    return;
  }
  u.resize(static_cast<std::size_t>(K) * a);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < a; ++j)
      u[static_cast<std::size_t>(k) * a + j] = keys[static_cast<std::ptrdiff_t>(k) * a + j] + q[j];
  VTanh(u.data(), u.size(), u.data());
  for (int k = 0; k < K; ++k) {
    const T* uk = u.data() + static_cast<std::size_t>(k) * a;
    T s = 0;
    for (int j = 0; j < a; ++j) s += v[j] * uk[j];
    e[k] = s;
  }
}

// Given de (K) and the u left by Scores for the same keys and query: dkeys (K, a) +=, dq (a) +=,
// dv (a) += (additive only).
template <class T>
void ScoresBackward(ScoreKind kind, const T* keys, int K, const T* q, const T* v, int a, const double* de,
                    const std::vector<T>& u, T* dkeys, T* dq, T* dv) {
  if (kind != ScoreKind::kAdditive) {
    for (int k = 0; k < K; ++k)
      ScoreBackward(kind, keys + static_cast<std::ptrdiff_t>(k) * a, q, v, a, de[k],
                    dkeys + static_cast<std::ptrdiff_t>(k) * a, dq, dv);
    return;
  }
  for (int k = 0; k < K; ++k) {
    const T* uk = u.data() + static_cast<std::size_t>(k) * a;
    T* dk = dkeys + static_cast<std::ptrdiff_t>(k) * a;
    const T d = static_cast<T>(de[k]);
    for (int j = 0; j < a; ++j) {
      dv[j] += d * uk[j];
      const T dpre = d * v[j] * (T(1) - uk[j] * uk[j]);
      dq[j] += dpre;
      dk[j] += dpre;
    }
  }
}

}  // namespace glimpse
