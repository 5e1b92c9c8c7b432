#include "src/rl/uniform_policy.h"

#include "src/rl/policies.h"

namespace glimpse {

template <class T>
PolicyKind<T> UniformPolicyKind() {
  PolicyKind<T> k;
  k.name = "uniform";
  k.help = "control: l ~ U([-1, 1]^2) whatever the state; no gradient";
  k.make = [](const Settings&, int) { return std::make_unique<UniformPolicy<T>>(); };
  return k;
}

template PolicyKind<float> UniformPolicyKind();
template PolicyKind<double> UniformPolicyKind();

}  // namespace glimpse
