#include "src/model/fc_encoder.h"

namespace glimpse {

template <class T>
GlimpseEncoderKind<T> FcEncoderKind() {
  GlimpseEncoderKind<T> k;
  k.name = "fc";
  k.help = "RAM's: h_g = relu(W x + b) on the glimpse as one vector";
  k.make = [](const Settings&, int channels, int side, int hidden) {
    return std::make_unique<FcEncoder<T>>(channels * side * side, hidden);
  };
  return k;
}

template GlimpseEncoderKind<float> FcEncoderKind();
template GlimpseEncoderKind<double> FcEncoderKind();

}  // namespace glimpse
