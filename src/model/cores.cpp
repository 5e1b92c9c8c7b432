// The registered cores: one line per kind.
#include "src/model/cores.h"

namespace glimpse {

// The kinds, each defined beside its core.
template <class T>
CoreKind<T> RnnCoreKind();  // rnn_core.cpp
template <class T>
CoreKind<T> LstmCoreKind();  // lstm_core.cpp

template <class T>
const Registry<CoreKind<T>>& Cores() {
  static const Registry<CoreKind<T>> registry("core", {
                                                          RnnCoreKind<T>(),
                                                          LstmCoreKind<T>(),
                                                      });
  return registry;
}

template const Registry<CoreKind<float>>& Cores();
template const Registry<CoreKind<double>>& Cores();

}  // namespace glimpse
