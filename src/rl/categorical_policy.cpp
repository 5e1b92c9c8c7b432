#include "src/rl/categorical_policy.h"

#include "src/rl/policies.h"

namespace glimpse {

template <class T>
PolicyKind<T> CategoricalPolicyKind() {
  PolicyKind<T> k;
  k.name = "categorical";
  k.help = "Show, Attend and Tell's hard attention: softmax over the --grid N x N cell centres";
  k.make = [](const Settings&, int grid) { return std::make_unique<CategoricalPolicy<T>>(grid); };
  return k;
}

template PolicyKind<float> CategoricalPolicyKind();
template PolicyKind<double> CategoricalPolicyKind();

}  // namespace glimpse
