// RAM's retina under the two hard location policies (src/rl/policies.h).
#include "src/attention/retina.h"

#include "src/attention/attentions.h"

namespace glimpse {
namespace {

template <class T>
AttentionKind<T> RetinaKind(const char* name, const char* help) {
  AttentionKind<T> k;
  k.name = name;
  k.help = help;
  k.policy = name;
  k.make = [](const ExperimentConfig& c, int, int) {
    return std::make_unique<Retina<T>>(c.patch, c.scales, c.unit_pixels);
  };
  return k;
}

}  // namespace

template <class T>
AttentionKind<T> GaussianRetinaKind() {
  return RetinaKind<T>("gaussian", "RAM: retina + Gaussian location policy");
}
template <class T>
AttentionKind<T> CategoricalRetinaKind() {
  return RetinaKind<T>("categorical", "retina at one of N x N grid centres, Show-Attend-Tell hard");
}

template AttentionKind<float> GaussianRetinaKind();
template AttentionKind<double> GaussianRetinaKind();
template AttentionKind<float> CategoricalRetinaKind();
template AttentionKind<double> CategoricalRetinaKind();

}  // namespace glimpse
