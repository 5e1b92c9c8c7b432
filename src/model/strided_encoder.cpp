// The conv image path (conv_encoder.h) as the full-canvas CNN control's deeper, cheaper stack.
#include "src/model/conv_encoder.h"

namespace glimpse {

const KindOption<int> kStridedFilters{"strided-filters", "model",
                                      "strided glimpse network: filters of its first layer (doubling up to 4 times)",
                                      16, Between(1, 1024)};
const KindOption<int> kStridedLayers{"strided-layers", "model",
                                     "strided glimpse network: 3 x 3 convolutions of stride 2", 4, Between(1, 8)};

template <class T>
GlimpseEncoderKind<T> StridedEncoderKind() {
  GlimpseEncoderKind<T> k;
  k.name = "strided";
  k.help =
      "--strided-layers 3 x 3 convolutions of stride 2 (filters F, 2F, 4F, 4F, ...: --strided-filters F) and a "
      "fully connected layer; the full-canvas CNN control's deeper, cheaper network";
  k.options = {kStridedFilters.Row(), kStridedLayers.Row()};
  k.make = [](const Settings& s, int channels, int side, int hidden) {
    using E = ConvEncoder<T>;
    return std::make_unique<E>(channels, side, E::Strided(kStridedFilters.Get(s), kStridedLayers.Get(s)), E::Draw::kHe,
                               hidden);
  };
  return k;
}

template GlimpseEncoderKind<float> StridedEncoderKind();
template GlimpseEncoderKind<double> StridedEncoderKind();

}  // namespace glimpse
