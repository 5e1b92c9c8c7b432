// The registered kinds a configuration selects, each made from its own settings: SettingsOf gives a
// kind the values of the options it owns (and those it reads from another kind, KindInfo::also_reads),
// and the shared options reach it as small values (SensorShape, SharedFacts, --grid). This is the one
// place where the configuration meets the kinds (docs/architecture.md, "Settings per kind").
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "src/attention/attentions.h"
#include "src/core/optimizer.h"
#include "src/model/attention_model.h"
#include "src/model/glimpse_encoder.h"
#include "src/rl/location_policy.h"
#include "src/rl/reward.h"
#include "src/train/experiment_config.h"

namespace glimpse {

// The values in c of the options kind k owns or reads.
Settings SettingsOf(const KindInfo& k, const ExperimentConfig& c);
SharedFacts SharedFactsOf(const ExperimentConfig& c);
SensorShape SensorShapeOf(const ExperimentConfig& c, int height, int width);
// Runs kind k's own rules (KindInfo::validate) on its settings in c.
void ValidateKind(const KindInfo& k, const ExperimentConfig& c);

// The location policy that a configuration's hard attention k runs: --policy, or k's own.
template <class T>
const std::string& PolicyOf(const AttentionKind<T>& k, const ExperimentConfig& c) {
  return c.policy.empty() ? k.policy : c.policy;
}

// The sensor of attention kind k for an H x W canvas, with c's settings.
template <class T>
std::unique_ptr<Sensor<T>> MakeSensor(const AttentionKind<T>& k, const ExperimentConfig& c, int height, int width);
// The location policy of c's hard attention (Error for a differentiable one).
template <class T>
std::unique_ptr<LocationPolicy<T>> MakePolicy(const ExperimentConfig& c);
// The glimpse network of c (--glimpse-net) for a glimpse of `channels` channels of side x side pixels.
template <class T>
std::unique_ptr<GlimpseEncoder<T>> MakeEncoder(const ExperimentConfig& c, int channels, int side, int hidden);
// The model of c's attention (its sensor for an H x W canvas and, for hard attention, its location
// policy), with c's glimpse network.
template <class T>
std::unique_ptr<AttentionModel<T>> MakeAttentionModel(const ModelSpec& spec, const ExperimentConfig& c, int height,
                                                      int width);
std::unique_ptr<Optimizer<float>> MakeOptimizer(const ExperimentConfig& c, std::size_t n);
ReturnsFn MakeReturns(const ExperimentConfig& c);

}  // namespace glimpse
