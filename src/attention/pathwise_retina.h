// The pathwise retina (issue 24): RAM's multi-scale retina made differentiable in its location, so a
// reparameterised Gaussian location, l = mu + std eps, learns by backpropagation with no REINFORCE
// at all: the control that asks whether hard attention needs reinforcement learning.
//
// It is the spatial transformer's box sampler (spatial_transformer.h) with the transform fixed to the
// retina's: scale m reads a g x g grid at a step of 2^m pixels, each sample the mean of the image
// over its 2^m x 2^m box, centred where the retina centres its patch, W/2 + x unit_pixels (pixel
// (i, j) covering [j, j+1) x [i, i+1)). At whole-pixel locations it reads what the retina reads;
// between them it interpolates bilinearly, which makes the glimpse differentiable in (x, y).
// Read parameters (B, 2): p, the read network's linear output (starting at 0, the centre), read at
// the location l = tanh(p), which keeps every glimpse on the canvas as RAM's tanh mean does (without
// it the locations drifted off the canvas, where the glimpse is zero and has no gradient: 74.96%
// error on cluttered60, the reads at |l| up to 14). The model adds std eps to p when it samples
// (read_noise), so l = tanh(mu + std eps), and reads at tanh(mu) when it evaluates.
#pragma once

#include <cmath>
#include <vector>

#include "src/attention/spatial_transformer.h"

namespace glimpse {

template <class T>
class PathwiseRetina : public SpatialTransformer<T> {
  using Stn = SpatialTransformer<T>;

 public:
  // g x g patches at k scales on an H x W canvas; unit_pixels as the retina's (0: half the canvas).
  PathwiseRetina(int g, int scales, int height, int width, double unit_pixels, double noise_std)
      : Stn(g, scales, Stn::Mode::kTranslation, Stn::Sampler::kBox, Stn::Start::kWhole,
            FixedFor(g, height, width, unit_pixels)),
        noise_(noise_std) {
    Check(noise_std >= 0, "pathwise retina: expected a noise std >= 0, found ", noise_std);
  }
  std::string name() const override { return "pathwise"; }
  ReadNoise read_noise() const override { return {ReadNoise::Kind::kGaussian, noise_}; }

  std::unique_ptr<SensorCache> MakeCache() const override { return std::make_unique<Cache>(); }
  void Read(const T* images, int batch, int H, int W, const T* params, T* glimpse, SensorCache* cache) const override {
    std::unique_ptr<SensorCache> local;
    Cache& c = UseCache<Cache>(cache, local);
    Stn::Read(images, batch, H, W, Locations(params, batch, c), glimpse, cache ? cache : &c);
  }
  // d p = d l (1 - l^2).
  void Backward(const T* images, int batch, int H, int W, const T* params, const T* dglimpse, T* dparams, T* dimages,
                SensorCache* cache) const override {
    std::unique_ptr<SensorCache> local;
    Cache& c = UseCache<Cache>(cache, local);
    const T* l = Locations(params, batch, c);
    Stn::Backward(images, batch, H, W, l, dglimpse, dparams, dimages, cache ? cache : &c);
    for (int i = 0; i < 2 * batch; ++i) dparams[i] *= T(1) - l[i] * l[i];
  }

 private:
  // The summed-area tables (the box sampler's) and the locations l = tanh(p) of the last call.
  struct Cache : SummedAreaCache<T> {
    std::vector<T> loc;  // (B, 2)
  };
  static const T* Locations(const T* params, int batch, Cache& c) {
    c.loc.resize(static_cast<std::size_t>(2) * batch);
    for (int i = 0; i < 2 * batch; ++i) c.loc[i] = std::tanh(params[i]);
    return c.loc.data();
  }
  // A = diag((g-1)/(W-1), (g-1)/(H-1)) makes the finest grid's step one pixel; t = 2 u / (W - 1) x
  // puts the box centre at W/2 + u x.
  static typename Stn::Fixed FixedFor(int g, int H, int W, double unit) {
    Check(H >= 2 && W >= 2, "pathwise retina: expected a canvas of at least 2 x 2, found ", H, " x ", W);
    const double ux = unit > 0 ? unit : W / 2.0, uy = unit > 0 ? unit : H / 2.0;
    typename Stn::Fixed f;
    f.sx = (g - 1.0) / (W - 1), f.sy = (g - 1.0) / (H - 1);
    f.ux = 2 * ux / (W - 1), f.uy = 2 * uy / (H - 1);
    return f;
  }
  double noise_;
};

}  // namespace glimpse
