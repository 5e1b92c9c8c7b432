#include "src/attention/soft_attention.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<bool> kSoftGate{"soft-gate", "sensor", "soft: gate the context with a sigmoid of the core state",
                                 true};

template <class T>
AttentionKind<T> SoftAttentionKind() {
  AttentionKind<T> k;
  k.name = "soft";
  k.help = "soft attention over the N x N grid, Show-Attend-Tell soft";
  k.options = {kSoftGate.Row()};
  k.make = [](const Settings& own, const SensorShape& c) {
    return std::make_unique<SoftAttention<T>>(c.grid, c.patch, c.attention_dim, ParseScore(c.score),
                                              kSoftGate.Get(own));
  };
  return k;
}

template AttentionKind<float> SoftAttentionKind();
template AttentionKind<double> SoftAttentionKind();

}  // namespace glimpse
