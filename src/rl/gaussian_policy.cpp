#include "src/rl/gaussian_policy.h"

#include "src/rl/policies.h"

namespace glimpse {

// The option only the Gaussian policy reads.
const KindOption<double> kPolicyStd{"std", "policy", "standard deviation of the Gaussian location policy", 0.1};

template <class T>
PolicyKind<T> GaussianPolicyKind() {
  PolicyKind<T> k;
  k.name = "gaussian";
  k.help = "RAM: l ~ N(tanh(W h), std^2 I) with a fixed --std";
  k.options = {kPolicyStd.Row()};
  k.validate = [](const ExperimentConfig& c) {
    Check(kPolicyStd.Get(c) > 0 && kPolicyStd.Get(c) <= 10, "option --std: expected a standard deviation in (0, 10] ",
          "(locations span [-1, 1]), found ", kPolicyStd.Get(c));
  };
  k.make = [](const ExperimentConfig& c) { return std::make_unique<GaussianPolicy<T>>(kPolicyStd.Get(c)); };
  return k;
}

template PolicyKind<float> GaussianPolicyKind();
template PolicyKind<double> GaussianPolicyKind();

}  // namespace glimpse
