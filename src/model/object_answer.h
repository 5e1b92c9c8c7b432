// The answer a sequential agent (DRAM, src/train/dram_agent.h) composes from its objects: J objects
// named independently, object j with digit log-probabilities lp_j = log softmax(z_j) (D digits),
// and a task that maps each digit tuple d = (d_1 .. d_J) to its answer a(d) (Task::Answer). The log-
// probability of answer c is
//   Z_c = log sum_{d : a(d) = c} exp(S_d),   S_d = sum_j lp_j[d_j]                         (N, C)
// pairs100 (a = 10 d_1 + d_2): Z_{10a+b} = lp_1[a] + lp_2[b], so the answer's cross-entropy is the sum
// of the objects'; sum100 (a = d_1 + d_2): the likelihood of the sum with the digits unobserved.
// Backward, with w_d = exp(S_d - Z_{a(d)}) the posterior of tuple d within its answer:
//   dlp_j[k] = sum_{d : d_j = k} dZ_{a(d)} w_d,   dz_j = dlp_j - softmax(z_j) sum_k dlp_j[k].
// Every answer in [0, C) must be reachable. Per row: no allocation (J <= 2, D <= 10).
// The objects' logits are read from a rollout's step logits (T N, D), T = J K: object j (0-based) is
// named after step (j + 1) K, so its logits are that step's block of N rows.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "src/core/error.h"

namespace glimpse {

template <class T>
class ObjectAnswer {
 public:
  static constexpr int kMaxObjects = 2, kMaxDigits = 10, kMaxTuples = 100;

  // answer_of: (D^J) the answer of tuple d, indexed d_1 D^{J-1} + ... + d_J, each in [0, C);
  // K: steps per object.
  ObjectAnswer(int objects, int steps_per_object, int digits, int classes, std::vector<int> answer_of)
      : J_(objects), K_(steps_per_object), D_(digits), C_(classes), answer_of_(std::move(answer_of)) {
    CheckRange(J_, 1, kMaxObjects, "objects per canvas");
    CheckRange(K_, 1, 1024, "glimpses per object");
    CheckRange(D_, 2, kMaxDigits, "digits per object");
    CheckEq(static_cast<int>(answer_of_.size()), Tuples(), "answers of the digit tuples");
    std::vector<int> seen(C_, 0);
    for (const int a : answer_of_) {
      CheckRange(a, 0, C_ - 1, "a digit tuple's answer");
      seen[a] = 1;
    }
    for (int c = 0; c < C_; ++c) Check(seen[c] == 1, "answer ", c, " is made by no digit tuple");
  }
  int objects() const { return J_; }
  int steps() const { return J_ * K_; }  // T
  int digits() const { return D_; }
  int classes() const { return C_; }
  // Object j's logits (N, D) in step_logits (T N, D).
  const T* Object(const T* step_logits, int N, int j) const {
    return step_logits + static_cast<std::ptrdiff_t>((j + 1) * K_ - 1) * N * D_;
  }

  // step_logits: (T N, D); Z: (N, C) answer log-probabilities.
  void Forward(const T* step_logits, int N, T* Z) const {
    const T* z[kMaxObjects];
    for (int j = 0; j < J_; ++j) z[j] = Object(step_logits, N, j);
    for (int n = 0; n < N; ++n) {
      Row row;
      Scores(z, n, row);
      T* out = Z + static_cast<std::ptrdiff_t>(n) * C_;
      LogSumExpByAnswer(row.S, out);
    }
  }

  // dZ: (N, C) gradient at Z (Z from Forward); writes dstep_logits (T N, D): each object's gradient
  // at its step, zero at the steps that name nothing.
  void Backward(const T* step_logits, const T* Z, const T* dZ, int N, T* dstep_logits) const {
    std::fill(dstep_logits, dstep_logits + static_cast<std::ptrdiff_t>(steps()) * N * D_, T(0));
    const T* z[kMaxObjects];
    T* dz[kMaxObjects];
    for (int j = 0; j < J_; ++j) {
      z[j] = Object(step_logits, N, j);
      dz[j] = dstep_logits + (z[j] - step_logits);
    }
    for (int n = 0; n < N; ++n) {
      Row row;
      Scores(z, n, row);
      const T* Zn = Z + static_cast<std::ptrdiff_t>(n) * C_;
      const T* dZn = dZ + static_cast<std::ptrdiff_t>(n) * C_;
      std::array<std::array<T, kMaxDigits>, kMaxObjects> dlp{};
      for (int d = 0; d < Tuples(); ++d) {
        const int a = answer_of_[d];
        const T g = dZn[a] * std::exp(row.S[d] - Zn[a]);
        for (int j = 0, rest = d; j < J_; ++j) {  // digit of object J-1-j
          dlp[J_ - 1 - j][rest % D_] += g;
          rest /= D_;
        }
      }
      for (int j = 0; j < J_; ++j) {
        T sum = 0;
        for (int k = 0; k < D_; ++k) sum += dlp[j][k];
        T* out = dz[j] + static_cast<std::ptrdiff_t>(n) * D_;
        for (int k = 0; k < D_; ++k) out[k] = dlp[j][k] - std::exp(row.lp[j][k]) * sum;
      }
    }
  }

 private:
  struct Row {
    std::array<std::array<T, kMaxDigits>, kMaxObjects> lp;  // log softmax of each object's logits
    std::array<T, kMaxTuples> S;                            // S_d
  };
  int Tuples() const { return J_ == 1 ? D_ : D_ * D_; }
  void Scores(const T* const* z, int n, Row& row) const {
    for (int j = 0; j < J_; ++j) {
      const T* zj = z[j] + static_cast<std::ptrdiff_t>(n) * D_;
      const T mx = *std::max_element(zj, zj + D_);
      T s = 0;
      for (int k = 0; k < D_; ++k) s += std::exp(zj[k] - mx);
      const T log_norm = mx + std::log(s);
      for (int k = 0; k < D_; ++k) row.lp[j][k] = zj[k] - log_norm;
    }
    for (int d = 0; d < Tuples(); ++d) row.S[d] = J_ == 1 ? row.lp[0][d] : row.lp[0][d / D_] + row.lp[1][d % D_];
  }
  // out (C): log sum_{d : a(d) = c} exp(S_d), stable (the largest term factored out).
  void LogSumExpByAnswer(const std::array<T, kMaxTuples>& S, T* out) const {
    std::array<T, kMaxTuples> mx;
    std::fill(mx.begin(), mx.begin() + C_, -std::numeric_limits<T>::infinity());
    for (int d = 0; d < Tuples(); ++d) mx[answer_of_[d]] = std::max(mx[answer_of_[d]], S[d]);
    std::fill(out, out + C_, T(0));
    for (int d = 0; d < Tuples(); ++d) out[answer_of_[d]] += std::exp(S[d] - mx[answer_of_[d]]);
    for (int c = 0; c < C_; ++c) out[c] = mx[c] + std::log(out[c]);
  }

  int J_, K_, D_, C_;
  std::vector<int> answer_of_;
};

}  // namespace glimpse
