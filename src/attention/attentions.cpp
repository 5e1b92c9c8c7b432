// The registered attention mechanisms: one line per kind.
#include "src/attention/attentions.h"

namespace glimpse {

// The kinds, each defined beside its sensor.
template <class T>
AttentionKind<T> GaussianRetinaKind();  // retina.cpp
template <class T>
AttentionKind<T> CategoricalRetinaKind();  // retina.cpp
template <class T>
AttentionKind<T> SoftAttentionKind();  // soft_attention.cpp
template <class T>
AttentionKind<T> DrawReadKind();  // draw_read.cpp
template <class T>
AttentionKind<T> SpatialTransformerKind();  // spatial_transformer.cpp
template <class T>
AttentionKind<T> PathwiseRetinaKind();  // pathwise_retina.cpp
template <class T>
AttentionKind<T> GumbelGridKind();  // gumbel_grid.cpp
template <class T>
AttentionKind<T> RandomRetinaKind();  // retina.cpp (control)
template <class T>
AttentionKind<T> CentreRetinaKind();  // retina.cpp (control)
template <class T>
AttentionKind<T> WholeCanvasKind();  // whole_canvas.cpp (control)
template <class T>
AttentionKind<T> FullCanvasCnnKind();  // full_canvas_cnn.cpp (control)

template <class T>
const Registry<AttentionKind<T>>& Attentions() {
  static const Registry<AttentionKind<T>> registry("attention", {
                                                                    GaussianRetinaKind<T>(),
                                                                    CategoricalRetinaKind<T>(),
                                                                    SoftAttentionKind<T>(),
                                                                    DrawReadKind<T>(),
                                                                    SpatialTransformerKind<T>(),
                                                                    PathwiseRetinaKind<T>(),
                                                                    GumbelGridKind<T>(),
                                                                    RandomRetinaKind<T>(),
                                                                    CentreRetinaKind<T>(),
                                                                    WholeCanvasKind<T>(),
                                                                    FullCanvasCnnKind<T>(),
                                                                });
  return registry;
}

template const Registry<AttentionKind<float>>& Attentions();
template const Registry<AttentionKind<double>>& Attentions();

}  // namespace glimpse
