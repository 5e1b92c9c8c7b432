#include "src/attention/spatial_transformer.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<std::string> kStnParams{
    "stn-params", "sensor", "stn: affine (6 parameters) | scale (scale + translation, 3)",
    "affine",     {},       {"affine", "scale"}};
const KindOption<std::string> kStnSampler{
    "stn-sampler",
    "sensor",
    "stn: box (anti-aliased: the mean over the grid step's footprint) | bilinear (the paper's)",
    "box",
    {},
    {"box", "bilinear"}};
const KindOption<std::string> kStnStart{
    "stn-start",
    "sensor",
    "stn: initial read: whole (the coarsest scale covers the canvas) | identity (the finest does)",
    "whole",
    {},
    {"whole", "identity"}};

template <class T>
AttentionKind<T> SpatialTransformerKind() {
  using Stn = SpatialTransformer<T>;
  AttentionKind<T> k;
  k.name = "stn";
  k.help = "spatial transformer, g = --patch, --scales";
  k.options = {kStnParams.Row(), kStnSampler.Row(), kStnStart.Row()};
  k.validate = [](const Settings&, const SharedFacts& f) {
    Check(f.patch >= 2, "option --patch: stn needs at least 2");
  };
  k.make = [](const Settings& own, const SensorShape& c) {
    return std::make_unique<Stn>(c.patch, c.scales,
                                 kStnParams.Get(own) == "scale" ? Stn::Mode::kScaleTranslation : Stn::Mode::kAffine,
                                 kStnSampler.Get(own) == "box" ? Stn::Sampler::kBox : Stn::Sampler::kBilinear,
                                 kStnStart.Get(own) == "whole" ? Stn::Start::kWhole : Stn::Start::kIdentity);
  };
  return k;
}

template AttentionKind<float> SpatialTransformerKind();
template AttentionKind<double> SpatialTransformerKind();

}  // namespace glimpse
