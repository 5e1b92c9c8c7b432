#include "src/model/rnn_core.h"

#include "src/model/cores.h"

namespace glimpse {

template <class T>
CoreKind<T> RnnCoreKind() {
  return MakeCoreKind<T, RnnCore<T>>("rnn", "h_t = relu(W_x g_t + W_h h_{t-1} + b), as in RAM");
}

template CoreKind<float> RnnCoreKind();
template CoreKind<double> RnnCoreKind();

}  // namespace glimpse
