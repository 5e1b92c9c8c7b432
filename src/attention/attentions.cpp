// The registered attention mechanisms: one line per kind.
#include "src/attention/attentions.h"

namespace glimpse {

template <class T>
const Registry<AttentionKind<T>>& Attentions() {
  static const Registry<AttentionKind<T>> registry("attention", {
      GaussianRetinaKind<T>(),
      CategoricalRetinaKind<T>(),
      SoftAttentionKind<T>(),
      DrawReadKind<T>(),
      SpatialTransformerKind<T>(),
  });
  return registry;
}

template const Registry<AttentionKind<float>>& Attentions();
template const Registry<AttentionKind<double>>& Attentions();

}  // namespace glimpse
