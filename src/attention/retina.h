// RAM's glimpse sensor (Mnih et al. 2014, section 4, "Sensor"): k square patches centred at the
// location l, the first g x g, each next twice as wide, each averaged down to g x g; pixels outside
// the image read as zero. Non-differentiable in l: RAM learns l with REINFORCE.
//
// Units: pixel (i, j) covers [j, j+1) x [i, i+1); location x in [-1, 1] maps to the centre
// W/2 + x * unit_pixels (likewise y with H). unit_pixels = 0 means H/2 (W/2): [-1, 1] spans the image.
// Output layout (B, k, g, g): scale-major, then row-major.
//
// Speed: Prepare builds a summed-area table (in double) of each image, after which every averaged
// cell of the coarser scales costs four lookups instead of f^2 pixel reads; the finest scale
// (f = 1) is copied directly.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "src/attention/sensor.h"
#include "src/attention/summed_area.h"
#include "src/core/error.h"

namespace glimpse {

// The retina's cache: the summed-area tables of the prepared batch.
template <class T>
using RetinaCache = SummedAreaCache<T>;

template <class T>
class Retina : public Sensor<T> {
 public:
  Retina(int patch, int scales, double unit_pixels = 0.0) : g_(patch), k_(scales), unit_(unit_pixels) {
    Check(patch >= 1, "retina patch size must be at least 1, found ", patch);
    Check(scales >= 1 && scales <= 8, "retina scales must be in [1, 8], found ", scales);
    Check(unit_pixels >= 0, "unit-pixels must be >= 0 (0 = half the canvas), found ", unit_pixels);
  }
  std::string name() const override { return "retina"; }
  int param_size() const override { return 2; }
  int glimpse_size() const override { return k_ * g_ * g_; }
  int glimpse_channels() const override { return k_; }
  int patch() const { return g_; }
  int scales() const { return k_; }

  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<RetinaCache<T>>(); }

  void Prepare(const T* images, int batch, int H, int W, SensorCache* cache) const override {
    if (k_ == 1 || cache == nullptr) return;  // one scale: no block sums to speed up
    BuildSummedAreaTables(images, batch, H, W, static_cast<RetinaCache<T>&>(*cache));
  }

  // Reads from the summed-area tables when cache was prepared for these images, else the pixels.
  void Read(const T* images, int batch, int H, int W, const T* loc, T* glimpse, SensorCache* cache) const override {
    const int D = glimpse_size();
    const RetinaCache<T>* c = static_cast<const RetinaCache<T>*>(cache);
    const bool sat = c && c->Holds(images, batch, H, W);
    for (int b = 0; b < batch; ++b)
      ReadAt(images, b, H, W, static_cast<double>(loc[2 * b]), static_cast<double>(loc[2 * b + 1]),
             glimpse + static_cast<std::ptrdiff_t>(b) * D, sat ? c : nullptr);
  }

  // The glimpse (D) of image b of `images` at location (x, y), from the summed-area tables when
  // cache (may be null) was prepared for `images` (more than b of them).
  void ReadAt(const T* images, int b, int H, int W, double x, double y, T* out, const SensorCache* cache) const {
    const RetinaCache<T>* c = static_cast<const RetinaCache<T>*>(cache);
    const bool sat = c && c->Holds(images, b + 1, H, W);
    const T* img = images + static_cast<std::ptrdiff_t>(b) * H * W;
    const double ux = unit_ > 0 ? unit_ : W / 2.0, uy = unit_ > 0 ? unit_ : H / 2.0;
    if (!std::isfinite(x) || !std::isfinite(y)) {  // a diverged location: NaN, for the trainer's loss check
      std::fill(out, out + glimpse_size(), std::numeric_limits<T>::quiet_NaN());
      return;
    }
    // Far outside the image every patch reads 0: clamped, the corner stays an int.
    const double reach = static_cast<double>(g_) * (1 << k_) + 1;
    const double cx = std::clamp(W / 2.0 + x * ux, -reach, W + reach),
                 cy = std::clamp(H / 2.0 + y * uy, -reach, H + reach);
    for (int s = 0; s < k_; ++s) {
      const int f = 1 << s, size = g_ * f;
      const int x0 = static_cast<int>(std::floor(cx - size / 2.0 + 0.5));
      const int y0 = static_cast<int>(std::floor(cy - size / 2.0 + 0.5));
      T* o = out + s * g_ * g_;
      if (sat && f > 1)
        ReadScaleSat(c->Table(b), H, W, x0, y0, f, o);
      else
        ReadScale(img, H, W, x0, y0, f, o);
    }
  }

 private:
  // out (g, g) = f x f block means of the size x size patch at (x0, y0), zero outside the image.
  void ReadScale(const T* img, int H, int W, int x0, int y0, int f, T* out) const {
    const T norm = T(1) / static_cast<T>(f * f);
    for (int i = 0; i < g_; ++i) {
      T* orow = out + i * g_;
      for (int j = 0; j < g_; ++j) orow[j] = T(0);
      for (int a = 0; a < f; ++a) {
        const int y = y0 + i * f + a;
        if (y < 0 || y >= H) continue;
        const T* row = img + static_cast<std::ptrdiff_t>(y) * W;
        for (int j = 0; j < g_; ++j) {
          const int xs = std::max(x0 + j * f, 0), xe = std::min(x0 + (j + 1) * f, W);
          T acc = T(0);
          for (int x = xs; x < xe; ++x) acc += row[x];
          orow[j] += acc;
        }
      }
      for (int j = 0; j < g_; ++j) orow[j] *= norm;
    }
  }

  // The same from the summed-area table S ((H+1) x (W+1)) of the image.
  void ReadScaleSat(const double* S, int H, int W, int x0, int y0, int f, T* out) const {
    const double norm = 1.0 / (f * f);
    for (int i = 0; i < g_; ++i) {
      const int ya = std::clamp(y0 + i * f, 0, H), yb = std::clamp(y0 + (i + 1) * f, 0, H);
      const double* Sa = S + static_cast<std::size_t>(ya) * (W + 1);
      const double* Sb = S + static_cast<std::size_t>(yb) * (W + 1);
      for (int j = 0; j < g_; ++j) {
        const int xa = std::clamp(x0 + j * f, 0, W), xb = std::clamp(x0 + (j + 1) * f, 0, W);
        out[i * g_ + j] = static_cast<T>((Sb[xb] - Sa[xb] - Sb[xa] + Sa[xa]) * norm);
      }
    }
  }

  int g_, k_;
  double unit_;
};

}  // namespace glimpse
