// Spatial transformer read (Jaderberg et al. 2015): a g x g glimpse sampled on a grid mapped by an
// affine transform of the core state's choosing.
//
// Output pixel (i, j) has normalised target coordinates x_t = -1 + 2 j / (g - 1), y_t likewise;
// its source is (x_s, y_s) = A (x_t, y_t) + t in normalised image coordinates ([-1, 1] spans the
// image, the corner pixels' centres at -1 and 1), zero outside the image.
// Read parameters: affine (B, 6) = (a11, a12, tx, a21, a22, ty), or scale-translation (B, 3) =
// (s, tx, ty) for A = s I, or translation (B, 2) = (x, y) for A = diag(sx, sy) fixed and t = (ux x,
// uy y) (the pathwise retina, pathwise_retina.h). With k scales, scale m samples with A 2^m (a region
// twice as wide each).
//
// Two samplers (Sampler):
// - kBilinear, the paper's: the bilinear interpolation of the four pixels around the source point.
//   When the grid is coarser than the image (a 12 x 12 grid over a 60 x 60 canvas samples every
//   5 pixels), it point-samples and misses most 2-pixel strokes.
// - kBox (default), anti-aliased: the mean of the image over an axis-aligned box centred on the
//   source point, as wide as the grid's step there (the bounding box of the step vectors
//   A (2 / (g - 1), 0) and A (0, 2 / (g - 1)) in pixels), and never narrower than one pixel, where
//   it is bilinear interpolation between pixel centres (the identity at g = image size reads the
//   image exactly; a 12 x 12 identity read of 60 x 60 is its 5.4-pixel block means). Computed from the image's
//   summed-area table (summed_area.h): four interpolated lookups per sample, whatever the box's size; differentiable in
//   the position and the width, so the transform's gradient sees every stroke under the glimpse.
//
// The read network starts at A = s0 I, t = 0 (InitialParams): s0 = 1 reads the whole canvas at the
// finest scale (the identity); s0 = 2^-(k-1) (kWhole start) makes the coarsest scale the whole
// canvas and the finest a zoom of 2^(k-1) on its centre, like the retina at the centre.
#pragma once

#include <cmath>

#include "src/attention/sensor.h"
#include "src/attention/summed_area.h"
#include "src/core/error.h"

namespace glimpse {

template <class T>
class SpatialTransformer : public Sensor<T> {
 public:
  enum class Mode { kAffine, kScaleTranslation, kTranslation };
  // kTranslation's fixed transform: A = diag(sx, sy), t = (ux x, uy y) for read parameters (x, y).
  struct Fixed {
    double sx = 1, sy = 1, ux = 1, uy = 1;
  };
  enum class Sampler { kBox, kBilinear };
  enum class Start { kIdentity, kWhole };

  SpatialTransformer(int g, int scales, Mode mode, Sampler sampler = Sampler::kBox, Start start = Start::kWhole,
                     Fixed fixed = {})
      : g_(g), k_(scales), mode_(mode), sampler_(sampler), start_(start), fixed_(fixed) {
    CheckRange(g, 2, 256, "spatial transformer glimpse size (--patch)");
    CheckRange(scales, 1, 8, "spatial transformer scales (--scales)");
  }
  std::string name() const override { return "stn"; }
  int param_size() const override { return mode_ == Mode::kAffine ? 6 : mode_ == Mode::kTranslation ? 2 : 3; }
  int glimpse_size() const override { return k_ * g_ * g_; }
  int glimpse_channels() const override { return k_; }

  std::vector<T> InitialParams() const override {
    if (mode_ == Mode::kTranslation) return {0, 0};  // the centre
    const T s = start_ == Start::kIdentity ? T(1) : static_cast<T>(std::ldexp(1.0, 1 - k_));
    return mode_ == Mode::kAffine ? std::vector<T>{s, 0, 0, 0, s, 0} : std::vector<T>{s, 0, 0};
  }
  // The identity transform in this sensor's parametrisation.
  std::vector<T> Identity() const {
    return mode_ == Mode::kAffine ? std::vector<T>{1, 0, 0, 0, 1, 0} : std::vector<T>{1, 0, 0};
  }

  std::unique_ptr<SensorCache> MakeCache() const override {
    return sampler_ == Sampler::kBox ? std::make_unique<SummedAreaCache<T>>() : nullptr;
  }
  void Prepare(const T* images, int batch, int H, int W, SensorCache* cache) const override {
    if (sampler_ == Sampler::kBox && cache)
      BuildSummedAreaTables(images, batch, H, W, static_cast<SummedAreaCache<T>&>(*cache));
  }

  void Read(const T* images, int batch, int H, int W, const T* params, T* glimpse, SensorCache* cache) const override {
    Run(images, batch, H, W, params, glimpse, nullptr, nullptr, nullptr, cache);
  }

  void Backward(const T* images, int batch, int H, int W, const T* params, const T* dglimpse, T* dparams, T* dimages,
                SensorCache* cache) const override {
    Run(images, batch, H, W, params, nullptr, dglimpse, dparams, dimages, cache);
  }

 private:
  // Forward (glimpse != null) or backward (dglimpse != null) over the batch.
  void Run(const T* images, int batch, int H, int W, const T* params, T* glimpse, const T* dglimpse, T* dparams,
           T* dimages, SensorCache* cache) const {
    std::unique_ptr<SensorCache> local;
    const SummedAreaCache<T>* tables =
        sampler_ == Sampler::kBox ? &TablesFor(images, batch, H, W, cache, local) : nullptr;
    const int P = param_size(), D = glimpse_size();
    const double step = 2.0 / (g_ - 1);  // the target grid's step in normalised coordinates
    for (int b = 0; b < batch; ++b) {
      const T* p = params + static_cast<std::ptrdiff_t>(b) * P;
      double a11, a12, tx, a21, a22, ty;
      if (mode_ == Mode::kAffine) {
        a11 = p[0], a12 = p[1], tx = p[2], a21 = p[3], a22 = p[4], ty = p[5];
      } else if (mode_ == Mode::kTranslation) {
        a11 = fixed_.sx, a22 = fixed_.sy, a12 = a21 = 0, tx = fixed_.ux * p[0], ty = fixed_.uy * p[1];
      } else {
        a11 = a22 = p[0], a12 = a21 = 0, tx = p[1], ty = p[2];
      }
      // A diverged read (NaN, inf or absurd parameters) reads NaN, for the trainer's loss check; below
      // 1e100 every sample position is finite, and the samplers clamp it to the image's surroundings.
      if (!(std::abs(a11) + std::abs(a12) + std::abs(tx) + std::abs(a21) + std::abs(a22) + std::abs(ty) <= 1e100)) {
        const T nan = std::numeric_limits<T>::quiet_NaN();
        if (glimpse) std::fill_n(glimpse + static_cast<std::ptrdiff_t>(b) * D, D, nan);
        if (dparams) std::fill_n(dparams + static_cast<std::ptrdiff_t>(b) * P, P, nan);
        continue;
      }
      const T* img = images + static_cast<std::ptrdiff_t>(b) * H * W;
      T* dimg = dimages ? dimages + static_cast<std::ptrdiff_t>(b) * H * W : nullptr;
      const double* S = tables ? tables->Table(b) : nullptr;
      double d[6] = {0, 0, 0, 0, 0, 0};  // d a11, a12, tx, a21, a22, ty
      for (int m = 0; m < k_; ++m) {
        const double zoom = std::ldexp(1.0, m);
        // The box sampler's footprint in pixels: w = max(1, wr), wr = cx (|a11| + |a12|).
        const double cx = zoom * step * (W - 1) / 2, cy = zoom * step * (H - 1) / 2;
        const double wr = cx * (std::abs(a11) + std::abs(a12)), hr = cy * (std::abs(a21) + std::abs(a22));
        const double w = std::max(1.0, wr), h = std::max(1.0, hr);
        double dw = 0, dh = 0;  // d loss / d w, d h over this scale
        for (int i = 0; i < g_; ++i) {
          const double yt = -1 + step * i;
          for (int j = 0; j < g_; ++j) {
            const double xt = -1 + step * j;
            const double xn = zoom * (a11 * xt + a12 * yt) + tx, yn = zoom * (a21 * xt + a22 * yt) + ty;
            const double xp = (xn + 1) * (W - 1) / 2, yp = (yn + 1) * (H - 1) / 2;  // pixel-centre coords
            const std::ptrdiff_t o = static_cast<std::ptrdiff_t>(b) * D + (m * g_ + i) * g_ + j;
            double dxp = 0, dyp = 0;
            if (S) {
              if (glimpse) {
                glimpse[o] = static_cast<T>(BoxMean(S, H, W, xp + 0.5, yp + 0.5, w, h, nullptr));
                continue;
              }
              const double dv = dglimpse[o];
              double g4[4];
              BoxMean(S, H, W, xp + 0.5, yp + 0.5, w, h, g4);
              dxp = dv * g4[0], dyp = dv * g4[1], dw += dv * g4[2], dh += dv * g4[3];
              if (dimg) AddBoxImageGrad(H, W, xp + 0.5, yp + 0.5, w, h, dv, dimg);
            } else {
              // Far outside the image every sample is 0: clamped, the index stays an int.
              const double xc = std::clamp(xp, -2.0, W + 1.0), yc = std::clamp(yp, -2.0, H + 1.0);
              const int x0 = static_cast<int>(std::floor(xc)), y0 = static_cast<int>(std::floor(yc));
              const double fx = xc - x0, fy = yc - y0;
              auto pix = [&](int y, int x) -> double {
                return (y >= 0 && y < H && x >= 0 && x < W) ? img[y * W + x] : 0.0;
              };
              const double v00 = pix(y0, x0), v01 = pix(y0, x0 + 1), v10 = pix(y0 + 1, x0), v11 = pix(y0 + 1, x0 + 1);
              if (glimpse) {
                glimpse[o] = static_cast<T>((1 - fy) * ((1 - fx) * v00 + fx * v01) + fy * ((1 - fx) * v10 + fx * v11));
                continue;
              }
              const double dv = dglimpse[o];
              dxp = dv * ((1 - fy) * (v01 - v00) + fy * (v11 - v10));
              dyp = dv * ((1 - fx) * (v10 - v00) + fx * (v11 - v01));
              if (dimg) {
                auto add = [&](int y, int x, double wt) {
                  if (y >= 0 && y < H && x >= 0 && x < W) dimg[y * W + x] += static_cast<T>(dv * wt);
                };
                add(y0, x0, (1 - fy) * (1 - fx)), add(y0, x0 + 1, (1 - fy) * fx);
                add(y0 + 1, x0, fy * (1 - fx)), add(y0 + 1, x0 + 1, fy * fx);
              }
            }
            dxp *= (W - 1) / 2.0, dyp *= (H - 1) / 2.0;  // to normalised coordinates
            d[0] += dxp * zoom * xt, d[1] += dxp * zoom * yt, d[2] += dxp;
            d[3] += dyp * zoom * xt, d[4] += dyp * zoom * yt, d[5] += dyp;
          }
        }
        if (S && dglimpse) {  // the footprint's dependence on A
          const double dwr = wr > 1 ? dw * cx : 0.0, dhr = hr > 1 ? dh * cy : 0.0;
          d[0] += dwr * Sign(a11), d[1] += dwr * Sign(a12), d[3] += dhr * Sign(a21), d[4] += dhr * Sign(a22);
        }
      }
      if (dparams) {
        T* dp = dparams + static_cast<std::ptrdiff_t>(b) * P;
        if (mode_ == Mode::kAffine) {
          for (int q = 0; q < 6; ++q) dp[q] = static_cast<T>(d[q]);
        } else if (mode_ == Mode::kTranslation) {
          dp[0] = static_cast<T>(fixed_.ux * d[2]), dp[1] = static_cast<T>(fixed_.uy * d[5]);
        } else {
          dp[0] = static_cast<T>(d[0] + d[4]), dp[1] = static_cast<T>(d[2]), dp[2] = static_cast<T>(d[5]);
        }
      }
    }
  }

  static double Sign(double v) { return (v > 0) - (v < 0); }

  // dimg += dv * d BoxMean / d image: each pixel's covered fraction of the box.
  static void AddBoxImageGrad(int H, int W, double x, double y, double w, double h, double dv, T* dimg) {
    if (!std::isfinite(x + y + w + h)) return;  // a diverged read has no image gradient to give
    const double x1 = x - w / 2, x2 = x + w / 2, y1 = y - h / 2, y2 = y + h / 2, scale = dv / (w * h);
    for (int py = static_cast<int>(std::clamp(std::floor(y1), 0.0, 1.0 * H)); py < H && py < y2; ++py) {
      const double oy = std::min(y2, py + 1.0) - std::max(y1, static_cast<double>(py));
      if (oy <= 0) continue;
      for (int px = static_cast<int>(std::clamp(std::floor(x1), 0.0, 1.0 * W)); px < W && px < x2; ++px) {
        const double ox = std::min(x2, px + 1.0) - std::max(x1, static_cast<double>(px));
        if (ox > 0) dimg[py * W + px] += static_cast<T>(scale * oy * ox);
      }
    }
  }

  int g_, k_;
  Mode mode_;
  Sampler sampler_;
  Start start_;
  Fixed fixed_;
};

}  // namespace glimpse
