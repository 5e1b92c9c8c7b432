#include "src/model/lstm_core.h"

#include "src/model/cores.h"

namespace glimpse {

template <class T>
CoreKind<T> LstmCoreKind() {
  return MakeCoreKind<T, LstmCore<T>>("lstm", "LSTM cell, Hochreiter and Schmidhuber 1997");
}

template CoreKind<float> LstmCoreKind();
template CoreKind<double> LstmCoreKind();

}  // namespace glimpse
