// The registered location policies: one line per kind.
#include "src/rl/policies.h"

namespace glimpse {

// The kinds, each defined beside its policy.
template <class T>
PolicyKind<T> GaussianPolicyKind();  // gaussian_policy.cpp
template <class T>
PolicyKind<T> CategoricalPolicyKind();  // categorical_policy.cpp
template <class T>
PolicyKind<T> LearnedStdPolicyKind();  // learned_std_policy.cpp
template <class T>
PolicyKind<T> UniformPolicyKind();  // uniform_policy.cpp (control)
template <class T>
PolicyKind<T> CentrePolicyKind();  // centre_policy.cpp (control)

template <class T>
const Registry<PolicyKind<T>>& Policies() {
  static const Registry<PolicyKind<T>> registry("policy", {
                                                              GaussianPolicyKind<T>(),
                                                              CategoricalPolicyKind<T>(),
                                                              LearnedStdPolicyKind<T>(),
                                                              UniformPolicyKind<T>(),
                                                              CentrePolicyKind<T>(),
                                                          });
  return registry;
}

template const Registry<PolicyKind<float>>& Policies();
template const Registry<PolicyKind<double>>& Policies();

}  // namespace glimpse
