#include "src/rl/centre_policy.h"

#include "src/rl/policies.h"

namespace glimpse {

template <class T>
PolicyKind<T> CentrePolicyKind() {
  PolicyKind<T> k;
  k.name = "centre";
  k.help = "control: l = (0, 0) always; no gradient";
  k.make = [](const Settings&, int) { return std::make_unique<CentrePolicy<T>>(); };
  return k;
}

template PolicyKind<float> CentrePolicyKind();
template PolicyKind<double> CentrePolicyKind();

}  // namespace glimpse
