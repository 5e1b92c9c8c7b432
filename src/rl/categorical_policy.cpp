#include "src/rl/categorical_policy.h"

#include "src/rl/policies.h"

namespace glimpse {

template <class T>
PolicyKind<T> CategoricalPolicyKind() {
  PolicyKind<T> k;
  k.name = "categorical";
  k.help = "Show, Attend and Tell's hard attention: softmax over the --grid N x N cell centres";
  k.make = [](const ExperimentConfig& c) { return std::make_unique<CategoricalPolicy<T>>(c.grid); };
  return k;
}

template PolicyKind<float> CategoricalPolicyKind();
template PolicyKind<double> CategoricalPolicyKind();

}  // namespace glimpse
