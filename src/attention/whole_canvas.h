// A control, not attention: every glimpse is the whole canvas, area-averaged down to s x s pixels,
// s = round(g sqrt(k)) for --patch g and --scales k, so that it has about as many inputs (s^2) as
// the retina's glimpse (k g^2). It ignores the location it is given; the "whole" attention kind
// pairs it with the centre policy, so no location is learned. What a model makes of one coarse
// view of everything is the floor that attention has to beat on a cluttered canvas.
//
// Units: output pixel (i, j) is the mean of the canvas over [j W/s, (j+1) W/s) x [i H/s, (i+1) H/s),
// partial source pixels weighted by their covered fraction (an exact box filter), read from the
// canvas's summed-area table (summed_area.h, BoxMean). Output (B, s, s). Not differentiable in the
// location (there is none to learn).
#pragma once

#include <cmath>
#include <memory>

#include "src/attention/sensor.h"
#include "src/attention/summed_area.h"
#include "src/core/error.h"

namespace glimpse {

template <class T>
class WholeCanvas : public Sensor<T> {
 public:
  // height x width: the canvas this sensor reads (Read checks it).
  WholeCanvas(int patch, int scales, int height, int width)
      : s_(static_cast<int>(std::lround(patch * std::sqrt(static_cast<double>(scales))))), H_(height), W_(width) {
    Check(patch >= 1 && scales >= 1, "whole-canvas sensor: patch and scales must be at least 1");
    Check(s_ <= height && s_ <= width, "whole-canvas sensor: a ", s_, " x ", s_, " view is larger than the ", height,
          " x ", width, " canvas; use a smaller --patch");
  }
  std::string name() const override { return "whole canvas"; }
  int param_size() const override { return 2; }
  int glimpse_size() const override { return s_ * s_; }
  int side() const { return s_; }
  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<SummedAreaCache<T>>(); }
  void Prepare(const T* images, int batch, int H, int W, SensorCache* cache) const override {
    if (cache) BuildSummedAreaTables(images, batch, H, W, static_cast<SummedAreaCache<T>&>(*cache));
  }

  void Read(const T* images, int batch, int height, int width, const T* /*params*/, T* glimpse,
            SensorCache* cache) const override {
    Check(height == H_ && width == W_, "whole-canvas sensor made for ", H_, " x ", W_, " reads a ", height, " x ",
          width, " canvas");
    std::unique_ptr<SensorCache> local;
    const SummedAreaCache<T>& tables = TablesFor(images, batch, H_, W_, cache, local);
    const double cw = static_cast<double>(W_) / s_, ch = static_cast<double>(H_) / s_;  // one cell, pixels
    for (int b = 0; b < batch; ++b) {
      const double* S = tables.Table(b);
      T* out = glimpse + static_cast<std::ptrdiff_t>(b) * s_ * s_;
      for (int i = 0; i < s_; ++i)
        for (int j = 0; j < s_; ++j)
          out[i * s_ + j] = static_cast<T>(BoxMean(S, H_, W_, (j + 0.5) * cw, (i + 0.5) * ch, cw, ch, nullptr));
    }
  }

 private:
  int s_, H_, W_;
};

}  // namespace glimpse
