// Summed-area tables (Crow 1984): S[Y][X] = sum of the pixels in rows < Y and columns < X, one
// (H+1) x (W+1) table per image, in double. A box sum over whole pixels is then four lookups, and,
// reading the image as constant over each pixel's cell [x, x+1) x [y, y+1), the integral
//   F(x, y) = int_0^y int_0^x I
// at any real (x, y) is the bilinear interpolation of S between its integer corners, so a box
// average over any real rectangle is four such interpolations (the spatial transformer's
// anti-aliased sampler, the whole-canvas view). The retina, the spatial transformer and the
// whole-canvas sensor build them in Prepare.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "src/attention/sensor.h"

namespace glimpse {

// The tables of a prepared batch, and which batch they belong to.
template <class T>
struct SummedAreaCache : SensorCache {
  std::vector<double> sat;  // (batch, H+1, W+1)
  const T* images = nullptr;
  int batch = 0, height = 0, width = 0;
  // True when the tables were built from exactly these images (the first `batch` of them).
  bool Holds(const T* im, int b, int H, int W) const { return im == images && b <= batch && H == height && W == width; }
  const double* Table(int b) const { return sat.data() + static_cast<std::size_t>(b) * (height + 1) * (width + 1); }
};

// Fills c with the tables of images (batch, H, W).
template <class T>
void BuildSummedAreaTables(const T* images, int batch, int H, int W, SummedAreaCache<T>& c) {
  const std::size_t stride = static_cast<std::size_t>(H + 1) * (W + 1);
  c.sat.resize(static_cast<std::size_t>(batch) * stride);
  for (int b = 0; b < batch; ++b) {
    const T* img = images + static_cast<std::ptrdiff_t>(b) * H * W;
    double* S = c.sat.data() + b * stride;
    std::fill(S, S + W + 1, 0.0);
    for (int y = 0; y < H; ++y) {
      double row = 0;
      double* Sy = S + static_cast<std::size_t>(y + 1) * (W + 1);
      const double* Sp = Sy - (W + 1);
      Sy[0] = 0;
      for (int x = 0; x < W; ++x) {
        row += img[y * W + x];
        Sy[x + 1] = Sp[x + 1] + row;
      }
    }
  }
  c.images = images, c.batch = batch, c.height = H, c.width = W;
}

// The tables of images (batch, H, W): cache's when it was prepared for exactly these images, else
// built into `local` (a sensor's Read and Backward must also work unprepared).
template <class T>
const SummedAreaCache<T>& TablesFor(const T* images, int batch, int H, int W, SensorCache* cache,
                                    std::unique_ptr<SensorCache>& local) {
  const auto* c = static_cast<const SummedAreaCache<T>*>(cache);
  if (c && c->Holds(images, batch, H, W)) return *c;
  local = std::make_unique<SummedAreaCache<T>>();
  auto& built = static_cast<SummedAreaCache<T>&>(*local);
  BuildSummedAreaTables(images, batch, H, W, built);
  return built;
}

// F(x, y) and its partial derivatives from the table S of an H x W image; (x, y) outside
// [0, W] x [0, H] is clamped to it (zero outside the image adds nothing), with zero derivative there.
// x and y are not NaN (the callers read NaN for a diverged read before they get here).
struct Integral {
  double F, Fx, Fy;
};
inline Integral IntegralAt(const double* S, int H, int W, double x, double y) {
  const bool inx = x > 0 && x<W, iny = y> 0 && y < H;
  x = std::clamp(x, 0.0, static_cast<double>(W));
  y = std::clamp(y, 0.0, static_cast<double>(H));
  const int X0 = std::min(static_cast<int>(x), W - 1), Y0 = std::min(static_cast<int>(y), H - 1);
  const double fx = x - X0, fy = y - Y0;
  const double* r0 = S + static_cast<std::size_t>(Y0) * (W + 1);
  const double* r1 = r0 + (W + 1);
  const double s00 = r0[X0], s01 = r0[X0 + 1], s10 = r1[X0], s11 = r1[X0 + 1];
  return {(1 - fy) * ((1 - fx) * s00 + fx * s01) + fy * ((1 - fx) * s10 + fx * s11),
          inx ? (1 - fy) * (s01 - s00) + fy * (s11 - s10) : 0.0, iny ? (1 - fx) * (s10 - s00) + fx * (s11 - s01) : 0.0};
}

// The mean of the image over [x - w/2, x + w/2] x [y - h/2, y + h/2] (continuous cell coordinates,
// zero outside the image), from its table S; with grad (4), also its derivatives in x, y, w, h.
inline double BoxMean(const double* S, int H, int W, double x, double y, double w, double h, double* grad) {
  const double x1 = x - w / 2, x2 = x + w / 2, y1 = y - h / 2, y2 = y + h / 2, area = w * h;
  const Integral f22 = IntegralAt(S, H, W, x2, y2), f12 = IntegralAt(S, H, W, x1, y2);
  const Integral f21 = IntegralAt(S, H, W, x2, y1), f11 = IntegralAt(S, H, W, x1, y1);
  const double v = (f22.F - f12.F - f21.F + f11.F) / area;
  if (grad) {
    grad[0] = (f22.Fx - f12.Fx - f21.Fx + f11.Fx) / area;
    grad[1] = (f22.Fy - f12.Fy - f21.Fy + f11.Fy) / area;
    grad[2] = 0.5 * (f22.Fx + f12.Fx - f21.Fx - f11.Fx) / area - v / w;
    grad[3] = 0.5 * (f22.Fy - f12.Fy + f21.Fy - f11.Fy) / area - v / h;
  }
  return v;
}

}  // namespace glimpse
