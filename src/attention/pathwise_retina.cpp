#include "src/attention/pathwise_retina.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<double> kReadStd{"read-std", "sensor",
                                  "pathwise: std of the Gaussian noise on the read location when training "
                                  "(the reparameterised policy's std, in units of location)",
                                  0.1, AtLeast(0)};

template <class T>
AttentionKind<T> PathwiseRetinaKind() {
  AttentionKind<T> k;
  k.name = "pathwise";
  k.help =
      "retina differentiable in its location: l = mu + --read-std eps, trained by backpropagation "
      "(no REINFORCE)";
  k.options = {kReadStd.Row()};
  k.validate = [](const Settings&, const SharedFacts& f) {
    Check(f.patch >= 2, "option --patch: pathwise needs at least 2");
  };
  k.make = [](const Settings& own, const SensorShape& c) {
    return std::make_unique<PathwiseRetina<T>>(c.patch, c.scales, c.height, c.width, c.unit_pixels, kReadStd.Get(own));
  };
  return k;
}

template AttentionKind<float> PathwiseRetinaKind();
template AttentionKind<double> PathwiseRetinaKind();

}  // namespace glimpse
