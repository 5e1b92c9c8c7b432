// The registered optimizers (optimizer.h): one line per kind in Optimizers().
#include "src/core/optimizer.h"

namespace glimpse {
namespace {

const KindOption<double> kMomentum{"momentum", "optimizer", "SGD momentum", 0.9};
const KindOption<double> kWeightDecay{"weight-decay", "optimizer",
                                      "adam: decoupled weight decay (AdamW): each step also moves every parameter "
                                      "by -lr x this x its value (0 = off)",
                                      0.0};

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
  k.help = "Adam, beta = (0.9, 0.999); AdamW with --weight-decay";
  k.options = {kWeightDecay.Row()};
  k.validate = [](const ExperimentConfig& c) {
    const double wd = kWeightDecay.Get(c);
    Check(wd >= 0 && wd * c.lr < 1, "option --weight-decay: expected >= 0 with lr x weight-decay < 1 (0 = off), found ",
          wd);
  };
  k.make = [](const ExperimentConfig& c, std::size_t n) {
    return std::make_unique<Adam<float>>(n, 0.9f, 0.999f, 1e-8f, static_cast<float>(kWeightDecay.Get(c)));
  };
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
