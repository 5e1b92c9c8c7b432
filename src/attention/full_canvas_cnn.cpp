// The full-image CNN control: every glimpse is the whole canvas at full resolution, so the glimpse
// network's image path (--glimpse-net; conv: two convolutions, then a dense layer) is a plain CNN over
// the canvas. With --glimpses 1 the model is a CNN classifier with no attention at all; more glimpses
// only show it the same canvas again. It is the "what does attention cost" floor of a comparison
// (the spatial transformer paper's CNN baselines on cluttered MNIST are its published relatives).
#include "src/attention/attentions.h"
#include "src/attention/whole_canvas.h"

namespace glimpse {

template <class T>
AttentionKind<T> FullCanvasCnnKind() {
  AttentionKind<T> k;
  k.name = "cnn";
  k.help =
      "control: every glimpse is the whole canvas at full resolution, read by --glimpse-net (conv: a CNN; "
      "--glimpses 1: no attention at all)";
  k.policy = "centre";  // the location is unused: nothing to learn
  k.make = [](const Settings&, const SensorShape& c) {
    Check(c.height == c.width, "--attention cnn reads square canvases; this one is ", c.height, " x ", c.width);
    return std::make_unique<WholeCanvas<T>>(c.height, 1, c.height, c.width);  // one canvas pixel per glimpse pixel
  };
  return k;
}

template AttentionKind<float> FullCanvasCnnKind();
template AttentionKind<double> FullCanvasCnnKind();

}  // namespace glimpse
