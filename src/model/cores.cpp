// The registered cores: one line per kind.
#include "src/model/cores.h"

namespace glimpse {

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
