// Multinoulli (categorical) hard attention over an N x N grid of glimpse centres, as in Show, Attend
// and Tell's hard attention (Xu et al. 2015): pi = softmax(pre) over the K = N^2 cells; the location
// is the centre of the drawn cell, cell (i, j) at x = (2 j + 1) / N - 1, y = (2 i + 1) / N - 1.
// A cols x rows grid generalises it (the query model's choice of one of five slots is 5 x 1).
//   log pi(k) = log softmax(pre)_k;  d log pi(k) / d pre = onehot(k) - pi
//   H = -sum_k pi_k log pi_k;        dH / d pre_j = -pi_j (log pi_j + H)
#pragma once

#include <algorithm>
#include <cmath>

#include "src/core/error.h"
#include "src/rl/location_policy.h"

namespace glimpse {

template <class T>
class CategoricalPolicy : public LocationPolicy<T> {
 public:
  explicit CategoricalPolicy(int grid) : CategoricalPolicy(grid, grid) {}
  CategoricalPolicy(int cols, int rows) : cols_(cols), rows_(rows) {
    CheckRange(cols, 1, 64, "categorical policy grid (--grid)");
    CheckRange(rows, 1, 64, "categorical policy grid rows");
  }
  std::string name() const override { return "categorical"; }
  int head_size() const override { return cols_ * rows_; }
  T CellX(int k) const { return static_cast<T>((2.0 * (k % cols_) + 1.0) / cols_ - 1.0); }
  T CellY(int k) const { return static_cast<T>((2.0 * (k / cols_) + 1.0) / rows_ - 1.0); }

  void Activate(const T* pre, int rows, T* head) const override {
    const int K = head_size();
    for (int r = 0; r < rows; ++r) {
      const T* z = pre + static_cast<std::ptrdiff_t>(r) * K;
      T* p = head + static_cast<std::ptrdiff_t>(r) * K;
      const T m = *std::max_element(z, z + K);
      T s = 0;
      for (int k = 0; k < K; ++k) s += (p[k] = std::exp(z[k] - m));
      for (int k = 0; k < K; ++k) p[k] /= s;
    }
  }
  void Mean(const T* head, int rows, T* loc) const override {
    const int K = head_size();
    for (int r = 0; r < rows; ++r) {
      const T* p = head + static_cast<std::ptrdiff_t>(r) * K;
      T x = 0, y = 0;
      for (int k = 0; k < K; ++k) x += p[k] * CellX(k), y += p[k] * CellY(k);
      loc[2 * r] = x;
      loc[2 * r + 1] = y;
    }
  }
  // The most probable cell's centre (the first of equals): a place the policy goes, unlike Mean.
  void Greedy(const T* head, int rows, T* loc) const override {
    const int K = head_size();
    for (int r = 0; r < rows; ++r) {
      const T* p = head + static_cast<std::ptrdiff_t>(r) * K;
      const int k = static_cast<int>(std::max_element(p, p + K) - p);
      loc[2 * r] = CellX(k);
      loc[2 * r + 1] = CellY(k);
    }
  }
  std::string greedy_name() const override { return "most probable cell"; }
  // Noise: one uniform deviate u per row; the draw is the first cell whose cumulative probability
  // exceeds u (inverse CDF).
  int noise_size() const override { return 1; }
  void DrawNoise(int rows, Rng& rng, double* noise) const override {
    for (int r = 0; r < rows; ++r) noise[r] = rng.Uniform();
  }
  void Place(const T* head, int rows, const double* noise, T* loc, std::int32_t* choice) const override {
    const int K = head_size();
    for (int r = 0; r < rows; ++r) {
      const T* p = head + static_cast<std::ptrdiff_t>(r) * K;
      const double u = noise[r];
      double acc = 0;
      int k = K - 1;
      for (int j = 0; j < K; ++j) {
        acc += p[j];
        if (u < acc) {
          k = j;
          break;
        }
      }
      choice[r] = k;
      loc[2 * r] = CellX(k);
      loc[2 * r + 1] = CellY(k);
    }
  }
  double LogProb(const T* p, const T*, std::int32_t k) const override {
    return std::log(std::max(static_cast<double>(p[k]), 1e-300));
  }
  void AddScore(const T* p, const T*, std::int32_t k, T coef, T* dpre) const override {
    const int K = head_size();
    for (int j = 0; j < K; ++j) dpre[j] -= coef * p[j];
    dpre[k] += coef;
  }
  double Entropy(const T* p) const override {
    double h = 0;
    for (int k = 0; k < head_size(); ++k)
      if (p[k] > 0) h -= p[k] * std::log(static_cast<double>(p[k]));
    return h;
  }
  void AddEntropyGrad(const T* p, T coef, T* dpre) const override {
    const T H = static_cast<T>(Entropy(p));
    for (int j = 0; j < head_size(); ++j)
      if (p[j] > 0) dpre[j] -= coef * p[j] * (std::log(p[j]) + H);
  }

 private:
  int cols_, rows_;
};

}  // namespace glimpse
