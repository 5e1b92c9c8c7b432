// RAM's retina under the two hard location policies (src/rl/policies.h), and under the two control
// policies (uniform, centre) that learn nothing: the controls of a comparison.
#include "src/attention/retina.h"

#include "src/attention/attentions.h"

namespace glimpse {
namespace {

// The retina looking where the registered location policy `policy` says.
template <class T>
AttentionKind<T> RetinaKind(const char* name, const char* help, const char* policy) {
  AttentionKind<T> k;
  k.name = name;
  k.help = help;
  k.policy = policy;
  k.any_policy = true;
  k.make = [](const Settings&, const SensorShape& c) {
    return std::make_unique<Retina<T>>(c.patch, c.scales, c.unit_pixels);
  };
  return k;
}

}  // namespace

template <class T>
AttentionKind<T> GaussianRetinaKind() {
  return RetinaKind<T>("gaussian", "RAM: retina + Gaussian location policy", "gaussian");
}
template <class T>
AttentionKind<T> CategoricalRetinaKind() {
  return RetinaKind<T>("categorical", "retina at one of N x N grid centres, Show-Attend-Tell hard", "categorical");
}
template <class T>
AttentionKind<T> RandomRetinaKind() {
  return RetinaKind<T>("random", "control: the retina at uniformly random places (no learned policy)", "uniform");
}
template <class T>
AttentionKind<T> CentreRetinaKind() {
  return RetinaKind<T>("centre", "control: the retina always at the canvas centre", "centre");
}

template AttentionKind<float> GaussianRetinaKind();
template AttentionKind<double> GaussianRetinaKind();
template AttentionKind<float> CategoricalRetinaKind();
template AttentionKind<double> CategoricalRetinaKind();
template AttentionKind<float> RandomRetinaKind();
template AttentionKind<double> RandomRetinaKind();
template AttentionKind<float> CentreRetinaKind();
template AttentionKind<double> CentreRetinaKind();

}  // namespace glimpse
