#include "src/model/conv_encoder.h"

namespace glimpse {

const KindOption<int> kConvFilters{
    "conv-filters", "model", "conv glimpse network: filters of its first layer (the second has twice as many)", 16};

template <class T>
GlimpseEncoderKind<T> ConvEncoderKind() {
  GlimpseEncoderKind<T> k;
  k.name = "conv";
  k.help =
      "two 3 x 3 convolutions (the second of stride 2) and a fully connected layer on the glimpse's "
      "scales as channels, --conv-filters";
  k.options = {kConvFilters.Row()};
  k.validate = [](const ExperimentConfig& c) {
    const int f = kConvFilters.Get(c);
    Check(f >= 1 && f <= 1024, "option --conv-filters: expected 1 to 1024, found ", f);
  };
  k.make = [](const ExperimentConfig& c, int channels, int side, int hidden) {
    return std::make_unique<ConvEncoder<T>>(channels, side, kConvFilters.Get(c), hidden);
  };
  return k;
}

template GlimpseEncoderKind<float> ConvEncoderKind();
template GlimpseEncoderKind<double> ConvEncoderKind();

}  // namespace glimpse
