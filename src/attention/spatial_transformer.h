// Spatial transformer read (Jaderberg et al. 2015): a g x g glimpse bilinearly sampled on a grid
// mapped by an affine transform of the core state's choosing.
//
// Output pixel (i, j) has normalised target coordinates x_t = -1 + 2 j / (g - 1), y_t likewise;
// its source is (x_s, y_s) = A (x_t, y_t) + t in normalised image coordinates ([-1, 1] spans the
// image, the corner pixels' centres at -1 and 1), sampled bilinearly, zero outside the image.
// Read parameters: affine (B, 6) = (a11, a12, tx, a21, a22, ty), or scale-translation (B, 3) =
// (s, tx, ty) for A = s I. With k scales, scale m samples with A 2^m (a region twice as wide each).
// Identity parameters (A = I, t = 0) read the whole image resampled to g x g.
#pragma once

#include <cmath>

#include "src/attention/sensor.h"
#include "src/core/error.h"

namespace glimpse {

template <class T>
class SpatialTransformer : public Sensor<T> {
 public:
  enum class Mode { kAffine, kScaleTranslation };

  SpatialTransformer(int g, int scales, Mode mode) : g_(g), k_(scales), mode_(mode) {
    CheckRange(g, 2, 256, "spatial transformer glimpse size (--patch)");
    CheckRange(scales, 1, 8, "spatial transformer scales (--scales)");
  }
  std::string name() const override { return "stn"; }
  int param_size() const override { return mode_ == Mode::kAffine ? 6 : 3; }
  int glimpse_size() const override { return k_ * g_ * g_; }

  std::vector<T> InitialParams() const override { return Identity(); }
  // The identity transform in this sensor's parametrisation (the read network's initial bias).
  std::vector<T> Identity() const {
    return mode_ == Mode::kAffine ? std::vector<T>{1, 0, 0, 0, 1, 0} : std::vector<T>{1, 0, 0};
  }

  void Read(const T* images, int batch, int H, int W, const T* params, T* glimpse, SensorCache*) const override {
    Run(images, batch, H, W, params, glimpse, nullptr, nullptr, nullptr);
  }

  void Backward(const T* images, int batch, int H, int W, const T* params, const T* dglimpse,
                T* dparams, T* dimages, SensorCache*) const override {
    Run(images, batch, H, W, params, nullptr, dglimpse, dparams, dimages);
  }

 private:
  // Forward (glimpse != null) or backward (dglimpse != null) over the batch.
  void Run(const T* images, int batch, int H, int W, const T* params, T* glimpse, const T* dglimpse,
           T* dparams, T* dimages) const {
    const int P = param_size(), D = glimpse_size();
    for (int b = 0; b < batch; ++b) {
      const T* p = params + static_cast<std::ptrdiff_t>(b) * P;
      double a11, a12, tx, a21, a22, ty;
      if (mode_ == Mode::kAffine) {
        a11 = p[0], a12 = p[1], tx = p[2], a21 = p[3], a22 = p[4], ty = p[5];
      } else {
        a11 = a22 = p[0], a12 = a21 = 0, tx = p[1], ty = p[2];
      }
      const T* img = images + static_cast<std::ptrdiff_t>(b) * H * W;
      T* dimg = dimages ? dimages + static_cast<std::ptrdiff_t>(b) * H * W : nullptr;
      double d[6] = {0, 0, 0, 0, 0, 0};  // d a11, a12, tx, a21, a22, ty
      auto pix = [&](int y, int x) -> double { return (y >= 0 && y < H && x >= 0 && x < W) ? img[y * W + x] : 0.0; };
      for (int m = 0; m < k_; ++m) {
        const double zoom = std::ldexp(1.0, m);
        for (int i = 0; i < g_; ++i) {
          const double yt = -1 + 2.0 * i / (g_ - 1);
          for (int j = 0; j < g_; ++j) {
            const double xt = -1 + 2.0 * j / (g_ - 1);
            const double xn = zoom * (a11 * xt + a12 * yt) + tx, yn = zoom * (a21 * xt + a22 * yt) + ty;
            const double xp = (xn + 1) * (W - 1) / 2, yp = (yn + 1) * (H - 1) / 2;
            const int x0 = static_cast<int>(std::floor(xp)), y0 = static_cast<int>(std::floor(yp));
            const double fx = xp - x0, fy = yp - y0;
            const double v00 = pix(y0, x0), v01 = pix(y0, x0 + 1), v10 = pix(y0 + 1, x0), v11 = pix(y0 + 1, x0 + 1);
            const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(b) * D + (m * g_ + i) * g_ + j;
            if (glimpse) {
              glimpse[o] = static_cast<T>((1 - fy) * ((1 - fx) * v00 + fx * v01) + fy * ((1 - fx) * v10 + fx * v11));
              continue;
            }
            const double dv = dglimpse[o];
            const double dxp = dv * ((1 - fy) * (v01 - v00) + fy * (v11 - v10)) * (W - 1) / 2;
            const double dyp = dv * ((1 - fx) * (v10 - v00) + fx * (v11 - v01)) * (H - 1) / 2;
            d[0] += dxp * zoom * xt, d[1] += dxp * zoom * yt, d[2] += dxp;
            d[3] += dyp * zoom * xt, d[4] += dyp * zoom * yt, d[5] += dyp;
            if (dimg) {
              auto add = [&](int y, int x, double w) {
                if (y >= 0 && y < H && x >= 0 && x < W) dimg[y * W + x] += static_cast<T>(dv * w);
              };
              add(y0, x0, (1 - fy) * (1 - fx)), add(y0, x0 + 1, (1 - fy) * fx);
              add(y0 + 1, x0, fy * (1 - fx)), add(y0 + 1, x0 + 1, fy * fx);
            }
          }
        }
      }
      if (dparams) {
        T* dp = dparams + static_cast<std::ptrdiff_t>(b) * P;
        if (mode_ == Mode::kAffine) {
          for (int q = 0; q < 6; ++q) dp[q] = static_cast<T>(d[q]);
        } else {
          dp[0] = static_cast<T>(d[0] + d[4]), dp[1] = static_cast<T>(d[2]), dp[2] = static_cast<T>(d[5]);
        }
      }
    }
  }

  int g_, k_;
  Mode mode_;
};

}  // namespace glimpse
