#include "src/model/conv_encoder.h"

namespace glimpse {

const KindOption<int> kConvFilters{"conv-filters", "model",
                                   "conv glimpse network: filters of its first layer (the second has twice as many)",
                                   16, Between(1, 1024)};

template <class T>
GlimpseEncoderKind<T> ConvEncoderKind() {
  GlimpseEncoderKind<T> k;
  k.name = "conv";
  k.help =
      "two 3 x 3 convolutions (the second of stride 2) and a fully connected layer on the glimpse's "
      "scales as channels, --conv-filters";
  k.options = {kConvFilters.Row()};
  k.make = [](const Settings& s, int channels, int side, int hidden) {
    return std::make_unique<ConvEncoder<T>>(channels, side, ConvEncoder<T>::TwoLayers(kConvFilters.Get(s)),
                                            ConvEncoder<T>::Draw::kDefault, hidden);
  };
  return k;
}

template GlimpseEncoderKind<float> ConvEncoderKind();
template GlimpseEncoderKind<double> ConvEncoderKind();

}  // namespace glimpse
