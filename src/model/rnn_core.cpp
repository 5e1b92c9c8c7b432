#include "src/model/rnn_core.h"

#include "src/model/cores.h"

namespace glimpse {

template <class T>
CoreKind<T> RnnCoreKind() {
  CoreKind<T> k;
  k.name = "rnn";
  k.help = "h_t = relu(W_x g_t + W_h h_{t-1} + b), as in RAM";
  k.make = [](ParamStore<T>& store, const std::string& name, int input, int hidden) {
    return std::make_unique<RnnCore<T>>(store, name, input, hidden);
  };
  return k;
}

template CoreKind<float> RnnCoreKind();
template CoreKind<double> RnnCoreKind();

}  // namespace glimpse
