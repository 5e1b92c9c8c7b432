// The registered location policies: one line per kind.
#include "src/rl/policies.h"

namespace glimpse {

template <class T>
const Registry<PolicyKind<T>>& Policies() {
  static const Registry<PolicyKind<T>> registry("policy", {
      GaussianPolicyKind<T>(),
      CategoricalPolicyKind<T>(),
  });
  return registry;
}

template const Registry<PolicyKind<float>>& Policies();
template const Registry<PolicyKind<double>>& Policies();

}  // namespace glimpse
