#include "src/attention/spatial_transformer.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<std::string> kStnParams{"stn-params", "sensor",
                                         "stn: affine (6 parameters) | scale (scale + translation, 3)", "affine"};

template <class T>
AttentionKind<T> SpatialTransformerKind() {
  using Mode = typename SpatialTransformer<T>::Mode;
  AttentionKind<T> k;
  k.name = "stn";
  k.help = "spatial transformer, g = --patch, --scales";
  k.options = {kStnParams.Row()};
  k.validate = [](const ExperimentConfig& c) {
    const std::string p = kStnParams.Get(c);
    Check(p == "affine" || p == "scale", "option --stn-params: expected affine|scale, found '", p, "'");
    Check(c.patch >= 2, "option --patch: stn needs at least 2");
  };
  k.make = [](const ExperimentConfig& c, int, int) {
    return std::make_unique<SpatialTransformer<T>>(
        c.patch, c.scales, kStnParams.Get(c) == "scale" ? Mode::kScaleTranslation : Mode::kAffine);
  };
  return k;
}

template AttentionKind<float> SpatialTransformerKind();
template AttentionKind<double> SpatialTransformerKind();

}  // namespace glimpse
