#include "src/attention/draw_read.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<double> kDrawSigma{
    "draw-sigma", "sensor",
    "draw: the filters' initial standard deviation in pixels; 1 is DRAW's zero bias, 0 picks half the stride "
    "of the first read's grid (a blurred view of the whole canvas)",
    1.0};

template <class T>
AttentionKind<T> DrawReadKind() {
  AttentionKind<T> k;
  k.name = "draw";
  k.help = "N x N Gaussian filterbank, N = --patch";
  k.options = {kDrawSigma.Row()};
  k.validate = [](const ExperimentConfig& c) {
    Check(kDrawSigma.Get(c) >= 0, "option --draw-sigma: expected >= 0 (0 = half the stride), found ", kDrawSigma.Get(c));
  };
  k.make = [](const ExperimentConfig& c, int height, int width) {
    const double s = kDrawSigma.Get(c);
    return std::make_unique<DrawRead<T>>(c.patch, s > 0 ? s : DrawRead<T>::SpanningStride(c.patch, height, width) / 2);
  };
  return k;
}

template AttentionKind<float> DrawReadKind();
template AttentionKind<double> DrawReadKind();

}  // namespace glimpse
