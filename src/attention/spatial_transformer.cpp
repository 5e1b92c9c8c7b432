#include "src/attention/spatial_transformer.h"

#include "src/attention/attentions.h"

namespace glimpse {

const KindOption<std::string> kStnParams{"stn-params", "sensor",
                                         "stn: affine (6 parameters) | scale (scale + translation, 3)", "affine"};
const KindOption<std::string> kStnSampler{
    "stn-sampler", "sensor",
    "stn: box (anti-aliased: the mean over the grid step's footprint) | bilinear (the paper's)", "box"};
const KindOption<std::string> kStnStart{
    "stn-start", "sensor",
    "stn: initial read: whole (the coarsest scale covers the canvas) | identity (the finest does)", "whole"};

template <class T>
AttentionKind<T> SpatialTransformerKind() {
  using Stn = SpatialTransformer<T>;
  AttentionKind<T> k;
  k.name = "stn";
  k.help = "spatial transformer, g = --patch, --scales";
  k.options = {kStnParams.Row(), kStnSampler.Row(), kStnStart.Row()};
  k.validate = [](const ExperimentConfig& c) {
    const std::string p = kStnParams.Get(c);
    Check(p == "affine" || p == "scale", "option --stn-params: expected affine|scale, found '", p, "'");
    const std::string sampler = kStnSampler.Get(c), start = kStnStart.Get(c);
    Check(sampler == "box" || sampler == "bilinear", "option --stn-sampler: expected box|bilinear, found '", sampler,
          "'");
    Check(start == "whole" || start == "identity", "option --stn-start: expected whole|identity, found '", start, "'");
    Check(c.patch >= 2, "option --patch: stn needs at least 2");
  };
  k.make = [](const ExperimentConfig& c, int, int) {
    return std::make_unique<Stn>(c.patch, c.scales,
                                 kStnParams.Get(c) == "scale" ? Stn::Mode::kScaleTranslation : Stn::Mode::kAffine,
                                 kStnSampler.Get(c) == "box" ? Stn::Sampler::kBox : Stn::Sampler::kBilinear,
                                 kStnStart.Get(c) == "whole" ? Stn::Start::kWhole : Stn::Start::kIdentity);
  };
  return k;
}

template AttentionKind<float> SpatialTransformerKind();
template AttentionKind<double> SpatialTransformerKind();

}  // namespace glimpse
