#include "src/rl/gaussian_policy.h"

#include "src/rl/policies.h"

namespace glimpse {

// The option only the Gaussian policy reads.
const KindOption<double> kPolicyStd{"std", "policy",
                                    "standard deviation of the Gaussian location policy (locations span [-1, 1])", 0.1,
                                    AboveUpTo(0, 10)};

template <class T>
PolicyKind<T> GaussianPolicyKind() {
  PolicyKind<T> k;
  k.name = "gaussian";
  k.help = "RAM: l ~ N(tanh(W h), std^2 I) with a fixed --std";
  k.options = {kPolicyStd.Row()};
  k.make = [](const Settings& s, int) { return std::make_unique<GaussianPolicy<T>>(kPolicyStd.Get(s)); };
  return k;
}

template PolicyKind<float> GaussianPolicyKind();
template PolicyKind<double> GaussianPolicyKind();

}  // namespace glimpse
