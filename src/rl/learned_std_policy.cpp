#include "src/rl/learned_std_policy.h"

#include "src/rl/gaussian_policy.h"
#include "src/rl/policies.h"

namespace glimpse {

template <class T>
PolicyKind<T> LearnedStdPolicyKind() {
  PolicyKind<T> k;
  k.name = "learned-std";
  k.help =
      "Gaussian with a std learned from the state, starting at --std and kept within a decade of it "
      "(--attention gaussian --policy learned-std)";
  k.also_reads = {kPolicyStd.name};
  k.make = [](const Settings& s, int) { return std::make_unique<LearnedStdPolicy<T>>(kPolicyStd.Get(s)); };
  return k;
}

template PolicyKind<float> LearnedStdPolicyKind();
template PolicyKind<double> LearnedStdPolicyKind();

}  // namespace glimpse
