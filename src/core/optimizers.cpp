// The registered optimizers (optimizer.h): one line per kind in Optimizers().
#include "src/core/optimizer.h"

namespace glimpse {
namespace {

const KindOption<double> kMomentum{"momentum", "optimizer", "SGD momentum", 0.9};

OptimizerKind SgdKind() {
  OptimizerKind k;
  k.name = "sgd";
  k.help = "SGD with heavy-ball --momentum";
  k.options = {kMomentum.Row()};
  k.validate = [](const ExperimentConfig& c) { CheckRange(kMomentum.Get(c), 0.0, 0.999999, "option --momentum"); };
  k.make = [](const ExperimentConfig& c, std::size_t n) {
    return std::make_unique<Sgd<float>>(n, static_cast<float>(kMomentum.Get(c)));
  };
  return k;
}

OptimizerKind AdamKind() {
  OptimizerKind k;
  k.name = "adam";
  k.help = "Adam, beta = (0.9, 0.999)";
  k.make = [](const ExperimentConfig&, std::size_t n) { return std::make_unique<Adam<float>>(n); };
  return k;
}

}  // namespace

const Registry<OptimizerKind>& Optimizers() {
  static const Registry<OptimizerKind> registry("optimizer", {
      SgdKind(),
      AdamKind(),
  });
  return registry;
}

}  // namespace glimpse
