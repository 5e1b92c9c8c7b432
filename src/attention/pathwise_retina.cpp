#include "src/attention/pathwise_retina.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<double> kReadStd{"read-std", "sensor",
                                  "pathwise: std of the Gaussian noise on the read location when training "
                                  "(the reparameterised policy's std, in units of location)",
                                  0.1};

template <class T>
AttentionKind<T> PathwiseRetinaKind() {
  AttentionKind<T> k;
  k.name = "pathwise";
  k.help =
      "retina differentiable in its location: l = mu + --read-std eps, trained by backpropagation "
      "(no REINFORCE)";
  k.options = {kReadStd.Row()};
  k.validate = [](const ExperimentConfig& c) {
    Check(kReadStd.Get(c) >= 0, "option --read-std: expected >= 0, found ", kReadStd.Get(c));
    Check(c.patch >= 2, "option --patch: pathwise needs at least 2");
  };
  k.make = [](const ExperimentConfig& c, int height, int width) {
    return std::make_unique<PathwiseRetina<T>>(c.patch, c.scales, height, width, c.unit_pixels, kReadStd.Get(c));
  };
  return k;
}

template AttentionKind<float> PathwiseRetinaKind();
template AttentionKind<double> PathwiseRetinaKind();

}  // namespace glimpse
