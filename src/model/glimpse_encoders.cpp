// The registered image paths of the glimpse network (--glimpse-net): one line per kind.
#include "src/model/glimpse_encoder.h"

namespace glimpse {

// The kinds, each defined beside its encoder.
template <class T>
GlimpseEncoderKind<T> FcEncoderKind();  // fc_encoder.cpp
template <class T>
GlimpseEncoderKind<T> ConvEncoderKind();  // conv_encoder.cpp
template <class T>
GlimpseEncoderKind<T> StridedEncoderKind();  // strided_encoder.cpp

template <class T>
const Registry<GlimpseEncoderKind<T>>& GlimpseEncoders() {
  static const Registry<GlimpseEncoderKind<T>> registry("glimpse-net", {
                                                                           FcEncoderKind<T>(),
                                                                           ConvEncoderKind<T>(),
                                                                           StridedEncoderKind<T>(),
                                                                       });
  return registry;
}

template const Registry<GlimpseEncoderKind<float>>& GlimpseEncoders();
template const Registry<GlimpseEncoderKind<double>>& GlimpseEncoders();

}  // namespace glimpse
