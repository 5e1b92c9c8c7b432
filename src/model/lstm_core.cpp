#include "src/model/lstm_core.h"

#include "src/model/cores.h"

namespace glimpse {

template <class T>
CoreKind<T> LstmCoreKind() {
  CoreKind<T> k;
  k.name = "lstm";
  k.help = "an LSTM cell (Hochreiter and Schmidhuber 1997)";
  k.make = [](ParamStore<T>& store, const std::string& name, int input, int hidden) {
    return std::make_unique<LstmCore<T>>(store, name, input, hidden);
  };
  return k;
}

template CoreKind<float> LstmCoreKind();
template CoreKind<double> LstmCoreKind();

}  // namespace glimpse
