// The registered optimizers (optimizer.h): one line per kind in Optimizers().
#include "src/core/optimizer.h"

namespace glimpse {
namespace {

const KindOption<double> kMomentum{"momentum", "optimizer", "SGD momentum", 0.9, Between(0, 0.999999)};
const KindOption<double> kWeightDecay{"weight-decay", "optimizer",
                                      "adam: decoupled weight decay (AdamW): each step also moves every parameter "
                                      "by -lr x this x its value (0 = off)",
                                      0.0, AtLeast(0)};

OptimizerKind SgdKind() {
  OptimizerKind k;
  k.name = "sgd";
  k.help = "SGD with heavy-ball --momentum";
  k.options = {kMomentum.Row()};
  k.make = [](const Settings& s, std::size_t n) {
    return std::make_unique<Sgd<float>>(n, static_cast<float>(kMomentum.Get(s)));
  };
  return k;
}

OptimizerKind AdamKind() {
  OptimizerKind k;
  k.name = "adam";
  k.help = "Adam, beta = (0.9, 0.999); AdamW with --weight-decay";
  k.options = {kWeightDecay.Row()};
  k.validate = [](const Settings& s, const SharedFacts& f) {
    const double wd = kWeightDecay.Get(s);
    Check(wd * f.lr < 1, "option --weight-decay: expected lr x weight-decay < 1 (0 = off), found ", wd, " with --lr ",
          f.lr);
  };
  k.make = [](const Settings& s, std::size_t n) {
    return std::make_unique<Adam<float>>(n, 0.9f, 0.999f, 1e-8f, static_cast<float>(kWeightDecay.Get(s)));
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
