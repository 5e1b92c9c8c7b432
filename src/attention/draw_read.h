// DRAW's read (Gregor et al. 2015, section 3.2): an N x N grid of Gaussian filters over the image.
//
// Read parameters (B, 5), emitted by a linear layer of the core state: (gx~, gy~, log sigma^2,
// log delta~, log gamma). With A = width, B = height:
//   gx = (A + 1) / 2 (gx~ + 1),  gy = (B + 1) / 2 (gy~ + 1)           grid centre, pixels
//   delta = (max(A, B) - 1) / (N - 1) exp(log delta~)                  stride, pixels
//   mu_x,i = gx + (i - N/2 - 0.5) delta,  mu_y,j likewise             filter centres, i = 1..N
//   Fx[i, a] = exp(-(a - mu_x,i)^2 / (2 sigma^2)) / Z_i               rows normalised to sum 1
//   glimpse (N, N) = gamma Fy x Fx^T                                   two matrix products (BLAS)
// Pixel a is at coordinate a (0-based) here. Differentiable in the parameters and in the image.
//
// Scales (an extension, not in the paper): with k = --scales > 1 the read is k concentric
// filterbanks, scale m with stride delta 2^m and variance sigma^2 4^m (the same centre and gamma), and
// the glimpse (k, N, N) is scale-major like the retina's. The read then starts with its coarsest scale
// spanning the canvas (log delta~ = -(k-1) log 2) and its finest 2^(k-1) times finer, so a 12 x 12
// read of a 100 x 100 canvas at 3 scales sees the centre at a 2-pixel stride and the whole canvas at 8.
//
// The read network's outputs are unbounded, so Decode clamps each parameter to a range that keeps
// every exp and division finite (a clamped parameter gets gradient 0, as for any clamp): gx~, gy~ in
// [-3, 3] (the grid centre at most one canvas outside an edge), sigma^2 in [1e-4, (2 max(A, B))^2],
// log delta~ in [-8, 3], log gamma in [-8, 8]. Unbounded, sigma^2 -> 0 gives 0 * inf in the filter
// gradient and large log gamma overflows float (a cluttered100 run stopped with a NaN gradient).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "src/attention/sensor.h"
#include "src/core/blas.h"
#include "src/core/error.h"

namespace glimpse {

template <class T>
class DrawRead : public Sensor<T> {
 public:
  // initial_sigma: the filters' standard deviation (pixels) the read network starts from. 1 is
  // DRAW's zero bias; on a large canvas it point-samples (stride 9 px on 100x100 with N = 12), and
  // a blur of about half the stride lets the first reads see every stroke.
  explicit DrawRead(int n, double initial_sigma = 1, int scales = 1)
      : n_(n), k_(scales), initial_sigma_(initial_sigma) {
    CheckRange(n, 1, 256, "DRAW read size N (--patch)");
    CheckRange(scales, 1, 8, "DRAW read scales (--scales)");
    Check(initial_sigma > 0, "DRAW initial sigma: expected > 0, found ", initial_sigma);
  }
  // The stride (pixels) of a read with log delta~ = 0: the grid spans the canvas.
  static double SpanningStride(int n, int H, int W) { return (std::max(H, W) - 1.0) / std::max(1, n - 1); }
  std::string name() const override { return "draw"; }
  int param_size() const override { return 5; }
  int glimpse_size() const override { return k_ * n_ * n_; }
  int glimpse_channels() const override { return k_; }
  int scales() const { return k_; }
  // Centred, variance initial_sigma^2 (the finest scale's), the coarsest scale's stride spanning the
  // image, gamma 1.
  std::vector<T> InitialParams() const override {
    return {0, 0, static_cast<T>(2 * std::log(initial_sigma_)), static_cast<T>(-(k_ - 1) * std::log(2.0)), 0};
  }

  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<Scratch>(); }

  void Read(const T* images, int batch, int H, int W, const T* params, T* glimpse, SensorCache* cache) const override {
    std::unique_ptr<SensorCache> local;
    Scratch& s = UseCache<Scratch>(cache, local);
    s.Size(n_, H, W);
    for (int b = 0; b < batch; ++b) {
      const Geometry g = Decode(params + 5 * b, H, W);
      const T* x = images + static_cast<std::ptrdiff_t>(b) * H * W;
      for (int m = 0; m < k_; ++m) {
        const double delta = std::ldexp(g.delta, m), var = std::ldexp(g.var, 2 * m);
        Filters(g.gx, delta, var, W, s.fx.data(), nullptr, s.gauss);
        Filters(g.gy, delta, var, H, s.fy.data(), nullptr, s.gauss);
        // U (H, N) = x Fx^T; glimpse (N, N) = gamma Fy U.
        Gemm<T>(false, true, H, n_, W, T(1), x, W, s.fx.data(), W, T(0), s.u.data(), n_);
        Gemm<T>(false, false, n_, n_, H, static_cast<T>(g.gamma), s.fy.data(), H, s.u.data(), n_, T(0),
                glimpse + (static_cast<std::ptrdiff_t>(b) * k_ + m) * n_ * n_, n_);
      }
    }
  }

  void Backward(const T* images, int batch, int H, int W, const T* params, const T* dglimpse, T* dparams, T* dimages,
                SensorCache* cache) const override {
    std::unique_ptr<SensorCache> local;
    Scratch& s = UseCache<Scratch>(cache, local);
    s.Size(n_, H, W);
    std::vector<T>&dfx = s.dfx, &dfy = s.dfy, &du = s.du, &ex = s.ex, &ey = s.ey, &g = s.g;
    for (int b = 0; b < batch; ++b) {
      const Geometry geo = Decode(params + 5 * b, H, W);
      const T* x = images + static_cast<std::ptrdiff_t>(b) * H * W;
      const T gamma = static_cast<T>(geo.gamma);
      double dgx = 0, dgy = 0, ddelta = 0, dvar = 0, dgamma = 0;
      for (int m = 0; m < k_; ++m) {  // scale m: stride delta 2^m, variance var 4^m
        const double delta = std::ldexp(geo.delta, m), var = std::ldexp(geo.var, 2 * m);
        Filters(geo.gx, delta, var, W, s.fx.data(), ex.data(), s.gauss);
        Filters(geo.gy, delta, var, H, s.fy.data(), ey.data(), s.gauss);
        const T* dg = dglimpse + (static_cast<std::ptrdiff_t>(b) * k_ + m) * n_ * n_;
        Gemm<T>(false, true, H, n_, W, T(1), x, W, s.fx.data(), W, T(0), s.u.data(), n_);            // U = x Fx^T
        Gemm<T>(false, false, n_, n_, H, T(1), s.fy.data(), H, s.u.data(), n_, T(0), g.data(), n_);  // Fy U
        for (int i = 0; i < n_ * n_; ++i) dgamma += static_cast<double>(dg[i]) * g[i];
        // dFy (N, H) = gamma dG U^T; dU (H, N) = gamma Fy^T dG; dFx (N, W) = dU^T x; dx = dU Fx.
        Gemm<T>(false, true, n_, H, n_, gamma, dg, n_, s.u.data(), n_, T(0), dfy.data(), H);
        Gemm<T>(true, false, H, n_, n_, gamma, s.fy.data(), H, dg, n_, T(0), du.data(), n_);
        Gemm<T>(true, false, n_, W, H, T(1), du.data(), n_, x, W, T(0), dfx.data(), W);
        if (dimages)
          Gemm<T>(false, false, H, W, n_, T(1), du.data(), n_, s.fx.data(), W, T(1),
                  dimages + static_cast<std::ptrdiff_t>(b) * H * W, W);
        // Through the normalised Gaussians to (centre, this scale's stride and variance).
        double dd = 0, dv = 0;
        FilterBackward(s.fx.data(), ex.data(), dfx.data(), geo.gx, delta, var, W, dgx, dd, dv);
        FilterBackward(s.fy.data(), ey.data(), dfy.data(), geo.gy, delta, var, H, dgy, dd, dv);
        ddelta += std::ldexp(dd, m), dvar += std::ldexp(dv, 2 * m);
      }
      T* dp = dparams + 5 * b;
      dp[0] = static_cast<T>(dgx * (W + 1) / 2.0);
      dp[1] = static_cast<T>(dgy * (H + 1) / 2.0);
      dp[2] = static_cast<T>(dvar * geo.var);
      dp[3] = static_cast<T>(ddelta * geo.delta);
      dp[4] = static_cast<T>(dgamma * geo.gamma);
      for (int k = 0; k < 5; ++k)
        if (geo.clamped[k]) dp[k] = T(0);
    }
  }

 private:
  struct Geometry {
    double gx, gy, var, delta, gamma;
    bool clamped[5];  // parameter k was outside its range: its gradient is 0
  };
  // The read's working buffers (its SensorCache): filters, products and their gradients, sized for
  // one image; nothing is carried from one batch to the next.
  struct Scratch : SensorCache {
    std::vector<T> fx, fy, u;                // Fx (N, W), Fy (N, H), U (H, N)
    std::vector<T> dfx, dfy, du, ex, ey, g;  // Backward: dFx, dFy, dU, unnormalised filters, Fy U
    std::vector<double> gauss;               // one filter row
    void Size(int n, int H, int W) {         // allocates only when the canvas grows
      const auto N = static_cast<std::size_t>(n);
      for (auto* v : {&fx, &dfx, &ex}) v->resize(N * W);
      for (auto* v : {&fy, &dfy, &ey}) v->resize(N * H);
      for (auto* v : {&u, &du}) v->resize(static_cast<std::size_t>(H) * N);
      g.resize(N * N);
    }
  };

  // The five parameters of one read, clamped to their ranges (header comment), in pixels.
  Geometry Decode(const T* p, int H, int W) const {
    const double big = 2.0 * std::max(H, W);
    const double low[5] = {-3, -3, std::log(1e-4), -8, -8};
    const double high[5] = {3, 3, 2 * std::log(big), 3, 8};
    double q[5];
    Geometry g;
    for (int k = 0; k < 5; ++k) {
      const double v = static_cast<double>(p[k]);
      q[k] = std::clamp(v, low[k], high[k]);
      g.clamped[k] = v != q[k];  // NaN: the read stays NaN, for the trainer's loss check
    }
    g.gx = (W + 1) / 2.0 * (q[0] + 1);
    g.gy = (H + 1) / 2.0 * (q[1] + 1);
    g.var = std::exp(q[2]);
    g.delta = SpanningStride(n_, H, W) * std::exp(q[3]);
    g.gamma = std::exp(q[4]);
    return g;
  }

  double Offset(int i) const { return (i + 1) - n_ / 2.0 - 0.5; }  // i is 0-based here

  // F (N, L) rows of normalised Gaussians over L pixels; e (N, L), if given, the unnormalised ones;
  // g: scratch for one row.
  // Three exps per row instead of L: from the pixel nearest the centre outwards, consecutive values
  // differ by a ratio that itself changes by the constant factor exp(-1/var):
  //   g(a + 1) = g(a) r(a),  r(a) = exp(-(2 (a - mu) + 1) / (2 var)),  r(a + 1) = r(a) exp(-1/var)
  // (and mirrored downwards). Every ratio is at most 1, so nothing overflows. Values below kTiny
  // (relative to the peak, and absolutely after normalisation) become exactly 0: in float they would
  // be denormals, which made every product with the filters many times slower.
  void Filters(double centre, double delta, double var, int L, T* F, T* e, std::vector<double>& g) const {
    const double q = std::exp(-1 / var);
    constexpr double kTiny = std::is_same_v<T, float> ? 1e-30 : 1e-280;
    g.resize(static_cast<std::size_t>(L));
    for (int i = 0; i < n_; ++i) {
      const double mu = centre + Offset(i) * delta;
      if (!std::isfinite(mu) || !std::isfinite(var)) {    // a diverged read (NaN parameters): a NaN row,
        T* row = F + static_cast<std::ptrdiff_t>(i) * L;  // so the read is NaN for the trainer's loss check
        std::fill(row, row + L, std::numeric_limits<T>::quiet_NaN());
        if (e)
          std::fill(e + static_cast<std::ptrdiff_t>(i) * L, e + static_cast<std::ptrdiff_t>(i + 1) * L,
                    std::numeric_limits<T>::quiet_NaN());
        continue;
      }
      const int a0 = static_cast<int>(std::clamp(std::round(mu), 0.0, L - 1.0));
      std::fill(g.begin(), g.end(), 0.0);
      g[a0] = std::exp(-(a0 - mu) * (a0 - mu) / (2 * var));
      double v = g[a0], r = std::exp(-(2 * (a0 - mu) + 1) / (2 * var));
      const double stop = g[a0] * kTiny;
      for (int a = a0 + 1; a < L && v > stop; ++a, r *= q) g[a] = (v *= r);
      v = g[a0], r = std::exp((2 * (a0 - mu) - 1) / (2 * var));
      for (int a = a0 - 1; a >= 0 && v > stop; --a, r *= q) g[a] = (v *= r);
      double z = 0;
      for (int a = 0; a < L; ++a) z += g[a];
      z = std::max(z, 1e-12);
      T* row = F + static_cast<std::ptrdiff_t>(i) * L;
      T* erow = e ? e + static_cast<std::ptrdiff_t>(i) * L : nullptr;
      for (int a = 0; a < L; ++a) {
        if (erow) erow[a] = g[a] < kTiny ? T(0) : static_cast<T>(g[a]);
        row[a] = g[a] / z < kTiny ? T(0) : static_cast<T>(g[a] / z);
      }
    }
  }

  // From dF (N, L) to d centre, d delta, d var (accumulated).
  void FilterBackward(const T* F, const T* e, const T* dF, double centre, double delta, double var, int L,
                      double& dcentre, double& ddelta, double& dvar) const {
    for (int i = 0; i < n_; ++i) {
      const double mu = centre + Offset(i) * delta;
      const T* f = F + static_cast<std::ptrdiff_t>(i) * L;
      const T* df = dF + static_cast<std::ptrdiff_t>(i) * L;
      const T* ei = e + static_cast<std::ptrdiff_t>(i) * L;
      double z = 0, dot = 0;
      for (int a = 0; a < L; ++a) z += ei[a], dot += static_cast<double>(df[a]) * f[a];
      z = std::max(z, 1e-12);
      double dmu = 0;
      for (int a = 0; a < L; ++a) {
        const double de = (df[a] - dot) / z;  // through the normalisation F = e / Z
        const double d = a - mu;
        dmu += de * ei[a] * d / var;
        dvar += de * ei[a] * d * d / (2 * var * var);
      }
      dcentre += dmu;
      ddelta += dmu * Offset(i);
    }
  }

  int n_, k_;
  double initial_sigma_;
};

}  // namespace glimpse
