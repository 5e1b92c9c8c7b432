#include "src/attention/gumbel_grid.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<double> kGumbelTau{"gumbel-tau", "sensor", "gumbel: the relaxation's temperature at the start", 1.0,
                                    Positive()};
const KindOption<double> kGumbelTauEnd{"gumbel-tau-end", "sensor",
                                       "gumbel: its temperature at the end of training (geometric in between)", 0.5,
                                       Positive()};

template <class T>
AttentionKind<T> GumbelGridKind() {
  AttentionKind<T> k;
  k.name = "gumbel";
  k.help =
      "the retina at one of N x N grid centres (--grid), a Gumbel-max sample, trained by the Gumbel-softmax "
      "straight-through gradient (no REINFORCE)";
  k.options = {kGumbelTau.Row(), kGumbelTauEnd.Row()};
  k.straight_through = true;
  k.make = [](const Settings& own, const SensorShape& c) {
    return std::make_unique<GumbelGrid<T>>(c.grid, c.patch, c.scales, c.unit_pixels, kGumbelTau.Get(own),
                                           kGumbelTauEnd.Get(own));
  };
  return k;
}

template AttentionKind<float> GumbelGridKind();
template AttentionKind<double> GumbelGridKind();

}  // namespace glimpse
