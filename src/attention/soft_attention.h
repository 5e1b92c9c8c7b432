// Soft attention over an N x N grid of glimpse features (Show, Attend and Tell's soft attention,
// Xu et al. 2015), behind the Sensor interface.
//
// Features: f_k (d = g x g) is the g x g crop centred on grid cell k (centre x = (2 j + 1) / N - 1,
// y likewise, in the retina's location units; zero outside the image). Keys K_k = W_k f_k (a).
// Read parameters (B, a + 1) from the core state: a query q and a gate logit z. Scores:
//   additive:   e_k = v^T tanh(K_k + q)              (Bahdanau et al. 2015)
//   dot:        e_k = K_k . q
//   scaled-dot: e_k = K_k . q / sqrt(a)              (Vaswani et al. 2017)
// alpha = softmax(e) over the N^2 cells; glimpse = sigmoid(z) sum_k alpha_k f_k (the gating
// scalar beta of Show, Attend and Tell; with --soft-gate off, beta = 1). W_k (and v) are this
// sensor's own parameters, registered in the model's store.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "src/attention/attention_score.h"
#include "src/attention/sensor.h"
#include "src/core/blas.h"
#include "src/core/error.h"

namespace glimpse {

// Per prepared batch: features (B, K, d) and keys (B, K, a), which batch they are of; and scratch.
template <class T>
struct SoftAttentionCache : SensorCache {
  std::vector<T> feats, keys;
  std::vector<T> u, dkeys, dfeats;  // tanh(k + q) of one image; backward gradients
  const T* images = nullptr;
  int batch = 0, height = 0, width = 0;
};

template <class T>
class SoftAttention : public Sensor<T> {
 public:
  using Score = ScoreKind;
  using Cache = SoftAttentionCache<T>;

  SoftAttention(int grid, int patch, int att_dim, Score score, bool gate)
      : n_(grid), g_(patch), a_(att_dim), score_(score), gate_(gate) {
    CheckRange(grid, 1, 32, "soft attention grid (--grid)");
    CheckRange(patch, 1, 128, "soft attention feature patch (--patch)");
    CheckRange(att_dim, 1, 4096, "soft attention dimension");
  }
  std::string name() const override { return "soft"; }
  int param_size() const override { return a_ + 1; }
  int glimpse_size() const override { return g_ * g_; }
  int cells() const { return n_ * n_; }

  void RegisterParams(ParamStore<T>& store, const std::string& prefix) override {
    store_ = &store;
    wk_ = store.Register(prefix + ".Wk", {static_cast<std::size_t>(a_), static_cast<std::size_t>(g_ * g_)});
    if (score_ == Score::kAdditive) v_ = store.Register(prefix + ".v", {static_cast<std::size_t>(a_)});
  }
  void InitParams(Rng& rng) override {
    store_->InitUniform(wk_, static_cast<T>(1.0 / std::sqrt(g_ * g_)), rng);
    if (v_ >= 0) store_->InitUniform(v_, static_cast<T>(1.0 / std::sqrt(a_)), rng);
  }

  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<Cache>(); }

  void Prepare(const T* images, int batch, int H, int W, SensorCache* cache) const override {
    if (cache) Fill(images, batch, H, W, static_cast<Cache&>(*cache));
  }

  void Read(const T* images, int batch, int H, int W, const T* params, T* glimpse, SensorCache* cache) const override {
    std::unique_ptr<SensorCache> local;
    Cache& c = UseCache<Cache>(cache, local);
    Ensure(images, batch, H, W, c);
    std::vector<double> e(cells()), alpha(cells());
    for (int b = 0; b < batch; ++b) {
      const T* p = params + static_cast<std::ptrdiff_t>(b) * (a_ + 1);
      Attend(b, p, e, alpha, c);
      const double beta = gate_ ? 1 / (1 + std::exp(-static_cast<double>(p[a_]))) : 1.0;
      T* out = glimpse + static_cast<std::ptrdiff_t>(b) * g_ * g_;
      Context(b, alpha, beta, out, c);
    }
  }

  void Backward(const T* images, int batch, int H, int W, const T* params, const T* dglimpse, T* dparams, T* dimages,
                SensorCache* cache) const override {
    std::unique_ptr<SensorCache> local;
    Cache& c = UseCache<Cache>(cache, local);
    Ensure(images, batch, H, W, c);
    const int K = cells(), d = g_ * g_;
    std::vector<double> e(K), alpha(K), dalpha(K), de(K);
    std::vector<T> ctx(d);
    std::vector<T>& dkeys = c.dkeys;
    std::vector<T>& dfeats = c.dfeats;
    const std::vector<T>& feats = c.feats;
    dkeys.assign(static_cast<std::size_t>(batch) * K * a_, T(0));
    dfeats.assign(static_cast<std::size_t>(batch) * K * d, T(0));
    const T* Wk = store_->value(wk_);
    const T* v = v_ >= 0 ? store_->value(v_) : nullptr;
    T* dv = v_ >= 0 ? store_->grad(v_) : nullptr;
    for (int b = 0; b < batch; ++b) {
      const T* p = params + static_cast<std::ptrdiff_t>(b) * (a_ + 1);
      T* dp = dparams + static_cast<std::ptrdiff_t>(b) * (a_ + 1);
      std::fill(dp, dp + a_ + 1, T(0));
      const T* dg = dglimpse + static_cast<std::ptrdiff_t>(b) * d;
      Attend(b, p, e, alpha, c);
      const T* F = feats.data() + static_cast<std::size_t>(b) * K * d;
      Context(b, alpha, 1.0, ctx.data(), c);
      const double beta = gate_ ? 1 / (1 + std::exp(-static_cast<double>(p[a_]))) : 1.0;
      if (gate_) {
        double dbeta = 0;
        for (int i = 0; i < d; ++i) dbeta += static_cast<double>(dg[i]) * ctx[i];
        dp[a_] = static_cast<T>(dbeta * beta * (1 - beta));
      }
      // glimpse = beta sum_k alpha_k f_k.
      double dot = 0;
      for (int k = 0; k < K; ++k) {
        const T* f = F + static_cast<std::ptrdiff_t>(k) * d;
        T* df = dfeats.data() + (static_cast<std::size_t>(b) * K + k) * d;
        const T w = static_cast<T>(beta * alpha[k]);
        T s = 0;
        for (int i = 0; i < d; ++i) {
          s += dg[i] * f[i];
          df[i] += w * dg[i];
        }
        dalpha[k] = beta * s;
        dot += alpha[k] * dalpha[k];
      }
      for (int k = 0; k < K; ++k) de[k] = alpha[k] * (dalpha[k] - dot);  // through the softmax
      ScoresBackward(score_, c.keys.data() + static_cast<std::size_t>(b) * K * a_, K, p, v, a_, de.data(), c.u,
                     dkeys.data() + static_cast<std::size_t>(b) * K * a_, dp, dv);
    }
    // Keys K = F Wk^T: dWk += dK^T F; dF += dK Wk.
    Gemm<T>(true, false, a_, d, batch * K, T(1), dkeys.data(), a_, feats.data(), d, T(1), store_->grad(wk_), d);
    Gemm<T>(false, false, batch * K, d, a_, T(1), dkeys.data(), a_, Wk, d, T(1), dfeats.data(), d);
    if (dimages) {
      for (int b = 0; b < batch; ++b)
        for (int k = 0; k < K; ++k) {
          int x0, y0;
          Corner(k, H, W, x0, y0);
          const T* df = dfeats.data() + (static_cast<std::size_t>(b) * K + k) * d;
          T* di = dimages + static_cast<std::ptrdiff_t>(b) * H * W;
          for (int i = 0; i < g_; ++i)
            for (int j = 0; j < g_; ++j) {
              const int y = y0 + i, x = x0 + j;
              if (y >= 0 && y < H && x >= 0 && x < W) di[y * W + x] += df[i * g_ + j];
            }
        }
    }
  }

 private:
  // Top-left pixel of cell k's g x g crop (centred on the cell centre, as the retina does).
  void Corner(int k, int H, int W, int& x0, int& y0) const {
    const double cx = W / 2.0 + ((2.0 * (k % n_) + 1) / n_ - 1) * W / 2.0;
    const double cy = H / 2.0 + ((2.0 * (k / n_) + 1) / n_ - 1) * H / 2.0;
    x0 = static_cast<int>(std::floor(cx - g_ / 2.0 + 0.5));
    y0 = static_cast<int>(std::floor(cy - g_ / 2.0 + 0.5));
  }

  // Crops every cell's feature of the batch into c and projects all keys with one product.
  void Fill(const T* images, int batch, int H, int W, Cache& c) const {
    Check(store_ != nullptr, "soft attention used before RegisterParams");
    const int K = cells(), d = g_ * g_;
    c.feats.assign(static_cast<std::size_t>(batch) * K * d, T(0));
    for (int b = 0; b < batch; ++b)
      for (int k = 0; k < K; ++k) {
        int x0, y0;
        Corner(k, H, W, x0, y0);
        T* f = c.feats.data() + (static_cast<std::size_t>(b) * K + k) * d;
        const T* img = images + static_cast<std::ptrdiff_t>(b) * H * W;
        for (int i = 0; i < g_; ++i)
          for (int j = 0; j < g_; ++j) {
            const int y = y0 + i, x = x0 + j;
            if (y >= 0 && y < H && x >= 0 && x < W) f[i * g_ + j] = img[y * W + x];
          }
      }
    c.keys.resize(static_cast<std::size_t>(batch) * K * a_);
    Gemm<T>(false, true, batch * K, a_, d, T(1), c.feats.data(), d, store_->value(wk_), d, T(0), c.keys.data(), a_);
    c.images = images, c.batch = batch, c.height = H, c.width = W;
  }

  // Prepares c for these images unless it already holds them.
  void Ensure(const T* images, int batch, int H, int W, Cache& c) const {
    if (images != c.images || batch > c.batch || H != c.height || W != c.width) Fill(images, batch, H, W, c);
  }

  // Scores e and weights alpha of image b for read parameters p (leaves c.u for ScoresBackward).
  void Attend(int b, const T* q, std::vector<double>& e, std::vector<double>& alpha, Cache& c) const {
    const int K = cells();
    const T* v = v_ >= 0 ? store_->value(v_) : nullptr;
    Scores(score_, c.keys.data() + static_cast<std::size_t>(b) * K * a_, K, q, v, a_, e.data(), c.u);
    const double m = *std::max_element(e.begin(), e.end());
    double z = 0;
    for (int k = 0; k < K; ++k) z += (alpha[k] = std::exp(e[k] - m));
    for (int k = 0; k < K; ++k) alpha[k] /= z;
  }

  void Context(int b, const std::vector<double>& alpha, double beta, T* out, const Cache& c) const {
    const int K = cells(), d = g_ * g_;
    const T* F = c.feats.data() + static_cast<std::size_t>(b) * K * d;
    std::fill(out, out + d, T(0));
    for (int k = 0; k < K; ++k) {
      const T w = static_cast<T>(beta * alpha[k]);
      const T* f = F + static_cast<std::ptrdiff_t>(k) * d;
      for (int i = 0; i < d; ++i) out[i] += w * f[i];
    }
  }

  int n_, g_, a_;
  Score score_;
  bool gate_;
  ParamStore<T>* store_ = nullptr;
  ParamId wk_ = -1, v_ = -1;
};

}  // namespace glimpse
