#include "src/train/make_kinds.h"

#include <cmath>
#include <map>

#include "src/attention/whole_canvas.h"
#include "src/core/error.h"
#include "src/rl/policies.h"

namespace glimpse {

Settings SettingsOf(const KindInfo& k, const ExperimentConfig& c) {
  std::map<std::string, std::string> own;
  const auto take = [&](const std::string& name) {
    const auto it = c.kind_options.find(name);
    if (it != c.kind_options.end()) own[name] = it->second;
  };
  for (const OptionRow& row : k.options) take(row.name);
  for (const std::string& name : k.also_reads) take(name);
  return Settings(std::move(own));
}

SharedFacts SharedFactsOf(const ExperimentConfig& c) {
  SharedFacts f;
  f.lr = c.lr, f.samples = c.samples, f.step_loss = c.step_loss, f.patch = c.patch;
  return f;
}

SensorShape SensorShapeOf(const ExperimentConfig& c, int height, int width) {
  SensorShape s;
  s.patch = c.patch, s.scales = c.scales, s.grid = c.grid, s.unit_pixels = c.unit_pixels;
  s.attention_dim = c.attention_dim, s.score = c.score, s.height = height, s.width = width;
  return s;
}

void ValidateKind(const KindInfo& k, const ExperimentConfig& c) {
  if (k.validate) k.validate(SettingsOf(k, c), SharedFactsOf(c));
}

template <class T>
std::unique_ptr<Sensor<T>> MakeSensor(const AttentionKind<T>& k, const ExperimentConfig& c, int height, int width) {
  return k.make(SettingsOf(k, c), SensorShapeOf(c, height, width));
}

template <class T>
std::unique_ptr<LocationPolicy<T>> MakePolicy(const ExperimentConfig& c) {
  const AttentionKind<T>& attention = Attentions<T>().Get(c.attention);
  Check(attention.hard(), "--attention ", c.attention, " reads differentiably: it has no location policy");
  const PolicyKind<T>& policy = Policies<T>().Get(PolicyOf(attention, c));
  return policy.make(SettingsOf(policy, c), c.grid);
}

template <class T>
std::unique_ptr<GlimpseEncoder<T>> MakeEncoder(const ExperimentConfig& c, int channels, int side, int hidden) {
  const GlimpseEncoderKind<T>& k = GlimpseEncoders<T>().Get(c.glimpse_net);
  return k.make(SettingsOf(k, c), channels, side, hidden);
}

template <class T>
std::unique_ptr<AttentionModel<T>> MakeAttentionModel(const ModelSpec& spec, const ExperimentConfig& c, int height,
                                                      int width) {
  const AttentionKind<T>& kind = Attentions<T>().Get(c.attention);
  std::unique_ptr<LocationPolicy<T>> policy;
  if (kind.hard()) policy = MakePolicy<T>(c);
  std::unique_ptr<Sensor<T>> context_view;
  if (spec.context > 0) context_view = std::make_unique<WholeCanvas<T>>(spec.context, 1, height, width);
  std::unique_ptr<Sensor<T>> sensor = MakeSensor(kind, c, height, width);
  // The glimpse as C channels of S x S (every registered sensor's layout, Sensor::glimpse_channels).
  const int D = sensor->glimpse_size(), C = sensor->glimpse_channels();
  const int S = static_cast<int>(std::lround(std::sqrt(static_cast<double>(D) / C)));
  Check(C * S * S == D, "option --glimpse-net: the glimpse of --attention ", c.attention, " (", D, " values) is not ",
        C, " square channels");
  auto encoder = MakeEncoder<T>(c, C, S, spec.glimpse_hidden);
  return std::make_unique<AttentionModel<T>>(spec, std::move(sensor), std::move(policy), std::move(context_view),
                                             std::move(encoder));
}

std::unique_ptr<Optimizer<float>> MakeOptimizer(const ExperimentConfig& c, std::size_t n) {
  const OptimizerKind& k = Optimizers().Get(c.optimizer);
  return k.make(SettingsOf(k, c), n);
}

ReturnsFn MakeReturns(const ExperimentConfig& c) {
  const RewardKind& k = Rewards().Get(c.reward);
  return k.make(SettingsOf(k, c));
}

template std::unique_ptr<Sensor<float>> MakeSensor(const AttentionKind<float>&, const ExperimentConfig&, int, int);
template std::unique_ptr<Sensor<double>> MakeSensor(const AttentionKind<double>&, const ExperimentConfig&, int, int);
template std::unique_ptr<LocationPolicy<float>> MakePolicy(const ExperimentConfig&);
template std::unique_ptr<LocationPolicy<double>> MakePolicy(const ExperimentConfig&);
template std::unique_ptr<GlimpseEncoder<float>> MakeEncoder(const ExperimentConfig&, int, int, int);
template std::unique_ptr<GlimpseEncoder<double>> MakeEncoder(const ExperimentConfig&, int, int, int);
template std::unique_ptr<AttentionModel<float>> MakeAttentionModel(const ModelSpec&, const ExperimentConfig&, int, int);
template std::unique_ptr<AttentionModel<double>> MakeAttentionModel(const ModelSpec&, const ExperimentConfig&, int,
                                                                    int);

}  // namespace glimpse
