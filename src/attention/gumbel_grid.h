// Gumbel-softmax straight-through over a grid of retina glimpses (issue 24; Jang et al. 2017,
// Maddison et al. 2017, with Bengio et al. 2013's straight-through): the categorical grid policy's
// choice of cell, trained by backpropagation instead of REINFORCE.
//
// Read parameters (B, K), K = N x N: the cell logits a, to which the model adds Gumbel noise g when it
// samples (read_noise; none at evaluation), so the read sees p = a + g.
//   forward:  k* = argmax_k p_k, the retina's glimpse at cell k*'s centre (the hard sample: the same
//             cell the categorical policy would draw with these logits, Gumbel-max)
//   backward: as if the glimpse were sum_k y_k x_k with y = softmax(p / tau): dp_j = (1 / tau) y_j
//             (dy_j - sum_k y_k dy_k), dy_k = <dglimpse, x_k>, x_k the glimpse at cell k
// Biased by design (the forward is piecewise constant in a; the backward differentiates a
// relaxation of it); tests/attention/test_gumbel_grid.cpp measures the bias on a small problem.
// Cell k = (row r, column c), r = k / N, c = k % N, is centred at (-1 + (2 c + 1) / N, -1 + (2 r + 1) / N),
// the categorical policy's grid (src/rl/categorical_policy.h).
// Temperature: tau = tau0 (tau1 / tau0)^progress over training (SetInputs), the sensor's only state.
#pragma once

#include <cmath>
#include <vector>

#include "src/attention/retina.h"

namespace glimpse {

template <class T>
class GumbelGrid : public Sensor<T> {
 public:
  GumbelGrid(int grid, int patch, int scales, double unit_pixels, double tau_start, double tau_end)
      : n_(grid), retina_(patch, scales, unit_pixels), tau0_(tau_start), tau1_(tau_end), tau_(tau_start) {
    CheckRange(grid, 1, 64, "Gumbel grid side (--grid)");
    Check(tau_start > 0 && tau_end > 0, "Gumbel temperatures must be positive, found ", tau_start, " and ", tau_end);
  }
  std::string name() const override { return "gumbel"; }
  int param_size() const override { return n_ * n_; }
  int glimpse_size() const override { return retina_.glimpse_size(); }
  int glimpse_channels() const override { return retina_.glimpse_channels(); }
  ReadNoise read_noise() const override { return {ReadNoise::Kind::kGumbel, 1.0}; }
  std::vector<T> InitialParams() const override { return std::vector<T>(n_ * n_, T(0)); }  // uniform
  void SetInputs(const StepInputs& in) override {
    tau_ = tau0_ * std::pow(tau1_ / tau0_, std::clamp(in.progress, 0.0, 1.0));
  }
  double temperature() const { return tau_; }
  double CellX(int k) const { return -1.0 + (2.0 * (k % n_) + 1.0) / n_; }
  double CellY(int k) const { return -1.0 + (2.0 * (k / n_) + 1.0) / n_; }

  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<Cache>(); }
  void Prepare(const T* images, int batch, int H, int W, SensorCache* cache) const override {
    if (cache) retina_.Prepare(images, batch, H, W, cache);
  }
  void Read(const T* images, int batch, int H, int W, const T* params, T* glimpse, SensorCache* cache) const override {
    const int K = param_size(), D = glimpse_size();
    for (int b = 0; b < batch; ++b) {
      const T* p = params + static_cast<std::ptrdiff_t>(b) * K;
      const int k = static_cast<int>(std::max_element(p, p + K) - p);
      retina_.ReadAt(images, b, H, W, CellX(k), CellY(k), glimpse + static_cast<std::ptrdiff_t>(b) * D, cache);
    }
  }
  // The straight-through gradient (above). The images get none (they are not learned).
  void Backward(const T* images, int batch, int H, int W, const T* params, const T* dglimpse, T* dparams,
                T* /*dimages*/, SensorCache* cache) const override {
    const int K = param_size(), D = glimpse_size();
    std::unique_ptr<SensorCache> local;
    Cache& c = UseCache<Cache>(cache, local);
    c.crop.resize(D);
    c.y.resize(K), c.dy.resize(K);
    for (int b = 0; b < batch; ++b) {
      const T* p = params + static_cast<std::ptrdiff_t>(b) * K;
      const T* dg = dglimpse + static_cast<std::ptrdiff_t>(b) * D;
      const double mx = *std::max_element(p, p + K);
      double sum = 0;
      for (int k = 0; k < K; ++k) sum += (c.y[k] = std::exp((p[k] - mx) / tau_));
      double ydy = 0;
      for (int k = 0; k < K; ++k) {
        c.y[k] /= sum;
        retina_.ReadAt(images, b, H, W, CellX(k), CellY(k), c.crop.data(), cache);
        double d = 0;
        for (int i = 0; i < D; ++i) d += static_cast<double>(dg[i]) * c.crop[i];
        c.dy[k] = d;
        ydy += c.y[k] * d;
      }
      T* dp = dparams + static_cast<std::ptrdiff_t>(b) * K;
      for (int k = 0; k < K; ++k) dp[k] = static_cast<T>(c.y[k] * (c.dy[k] - ydy) / tau_);
    }
  }

 private:
  // The retina's summed-area tables and the backward pass's scratch.
  struct Cache : RetinaCache<T> {
    std::vector<T> crop;        // (D) one cell's glimpse
    std::vector<double> y, dy;  // (K) relaxed weights and their gradient
  };
  int n_;
  Retina<T> retina_;
  double tau0_, tau1_, tau_;
};

}  // namespace glimpse
