#include "src/attention/draw_read.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<double> kDrawSigma{
    "draw-sigma", "sensor",
    "draw: the filters' initial standard deviation in pixels (at the finest scale); 1 is DRAW's zero bias, 0 "
    "picks half the stride of the first read's finest grid",
    1.0, AtLeast(0)};

template <class T>
AttentionKind<T> DrawReadKind() {
  AttentionKind<T> k;
  k.name = "draw";
  k.help = "N x N Gaussian filterbank, N = --patch; --scales k > 1: k concentric filterbanks";
  k.options = {kDrawSigma.Row()};
  k.make = [](const Settings& own, const SensorShape& c) {
    const double s = kDrawSigma.Get(own);
    const double finest = DrawRead<T>::SpanningStride(c.patch, c.height, c.width) / std::ldexp(1.0, c.scales - 1);
    return std::make_unique<DrawRead<T>>(c.patch, s > 0 ? s : finest / 2, c.scales);
  };
  return k;
}

template AttentionKind<float> DrawReadKind();
template AttentionKind<double> DrawReadKind();

}  // namespace glimpse
