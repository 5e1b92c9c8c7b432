// The registered hard-attention location policies (location_policy.h): a hard attention kind
// (src/attention/attentions.h) names the policy that chooses where its retina looks.
#pragma once

#include <functional>
#include <memory>

#include "src/core/registry.h"
#include "src/rl/location_policy.h"

namespace glimpse {

template <class T>
struct PolicyKind : KindInfo {
  std::function<std::unique_ptr<LocationPolicy<T>>(const Settings&, int grid)> make;  // grid: --grid
};

// Every registered policy: one declaration and one line each in policies.cpp.
// T: float (training) or double (checks).
template <class T>
const Registry<PolicyKind<T>>& Policies();

}  // namespace glimpse
