// A control, not attention: every glimpse is the whole canvas, area-averaged down to s x s pixels,
// s = round(g sqrt(k)) for --patch g and --scales k, so that it has about as many inputs (s^2) as
// the retina's glimpse (k g^2). It ignores the location it is given; the "whole" attention kind
// pairs it with the centre policy, so no location is learned. What a model makes of one coarse
// view of everything is the floor that attention has to beat on a cluttered canvas.
//
// Units: output pixel (i, j) is the mean of the canvas over [j W/s, (j+1) W/s) x [i H/s, (i+1) H/s),
// partial source pixels weighted by their covered fraction (an exact box filter). Output (B, s, s).
// Not differentiable in the location (there is none to learn).
#pragma once

#include <cmath>
#include <vector>

#include "src/attention/sensor.h"
#include "src/core/error.h"

namespace glimpse {

// One row of area-averaging weights: source pixels first .. first + w.size() - 1.
struct BoxWeights {
  int first = 0;
  std::vector<double> w;
};

// The weights that average n source pixels into s output pixels (s <= n or s > n alike).
inline std::vector<BoxWeights> BoxFilter(int n, int s) {
  std::vector<BoxWeights> rows(s);
  const double step = static_cast<double>(n) / s;
  for (int i = 0; i < s; ++i) {
    const double a = i * step, b = (i + 1) * step;
    rows[i].first = static_cast<int>(std::floor(a));
    for (int y = rows[i].first; y < n && y < b; ++y)
      rows[i].w.push_back((std::min(b, y + 1.0) - std::max(a, static_cast<double>(y))) / step);
  }
  return rows;
}

// Scratch of one Read: one image averaged along its rows, (s, W).
template <class T>
struct WholeCanvasCache : SensorCache {
  std::vector<double> rows;
};

template <class T>
class WholeCanvas : public Sensor<T> {
 public:
  // height x width: the canvas this sensor reads (Read checks it).
  WholeCanvas(int patch, int scales, int height, int width)
      : s_(static_cast<int>(std::lround(patch * std::sqrt(static_cast<double>(scales))))), H_(height), W_(width) {
    Check(patch >= 1 && scales >= 1, "whole-canvas sensor: patch and scales must be at least 1");
    Check(s_ <= height && s_ <= width, "whole-canvas sensor: a ", s_, " x ", s_, " view is larger than the ", height,
          " x ", width, " canvas; use a smaller --patch");
    wy_ = BoxFilter(H_, s_);
    wx_ = BoxFilter(W_, s_);
  }
  std::string name() const override { return "whole canvas"; }
  int param_size() const override { return 2; }
  int glimpse_size() const override { return s_ * s_; }
  int side() const { return s_; }
  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<WholeCanvasCache<T>>(); }

  void Read(const T* images, int batch, int height, int width, const T* /*params*/, T* glimpse,
            SensorCache* cache) const override {
    Check(height == H_ && width == W_, "whole-canvas sensor made for ", H_, " x ", W_, " reads a ", height, " x ",
          width, " canvas");
    std::unique_ptr<SensorCache> local;
    std::vector<double>& rows = UseCache<WholeCanvasCache<T>>(cache, local).rows;
    rows.resize(static_cast<std::size_t>(s_) * W_);
    for (int b = 0; b < batch; ++b) {
      const T* img = images + static_cast<std::ptrdiff_t>(b) * H_ * W_;
      std::fill(rows.begin(), rows.end(), 0.0);
      for (int i = 0; i < s_; ++i)
        for (std::size_t k = 0; k < wy_[i].w.size(); ++k) {
          const T* src = img + static_cast<std::ptrdiff_t>(wy_[i].first + k) * W_;
          double* dst = rows.data() + static_cast<std::size_t>(i) * W_;
          for (int x = 0; x < W_; ++x) dst[x] += wy_[i].w[k] * src[x];
        }
      T* out = glimpse + static_cast<std::ptrdiff_t>(b) * s_ * s_;
      for (int i = 0; i < s_; ++i)
        for (int j = 0; j < s_; ++j) {
          double v = 0;
          const double* src = rows.data() + static_cast<std::size_t>(i) * W_ + wx_[j].first;
          for (std::size_t k = 0; k < wx_[j].w.size(); ++k) v += wx_[j].w[k] * src[k];
          out[i * s_ + j] = static_cast<T>(v);
        }
    }
  }

 private:
  int s_, H_, W_;
  std::vector<BoxWeights> wy_, wx_;
};

}  // namespace glimpse
