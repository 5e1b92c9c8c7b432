#include "src/attention/whole_canvas.h"

#include "src/attention/attentions.h"

namespace glimpse {

template <class T>
AttentionKind<T> WholeCanvasKind() {
  AttentionKind<T> k;
  k.name = "whole";
  k.help = "control: every glimpse is the whole canvas averaged to round(g sqrt(k)) pixels a side";
  k.policy = "centre";  // the location is unused: nothing to learn
  k.make = [](const Settings&, const SensorShape& c) {
    return std::make_unique<WholeCanvas<T>>(c.patch, c.scales, c.height, c.width);
  };
  return k;
}

template AttentionKind<float> WholeCanvasKind();
template AttentionKind<double> WholeCanvasKind();

}  // namespace glimpse
