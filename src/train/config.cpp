#include "src/train/config.h"

#include <sstream>

#include "envs/image_task.h"
#include "src/core/error.h"

namespace glimpse {
namespace {

template <class T>
T ParseNumber(const std::string& name, const std::string& s) {
  std::istringstream is(s);
  T v{};
  is >> v;
  if (is.fail() || !is.eof())
    Fail("option --", name, ": expected a ", std::is_integral<T>::value ? "whole number" : "number",
         ", found '", s, "'");
  return v;
}

// The shortest text that reads back as the same value (0.1, not 0.10000000000000001).
template <class T>
std::string ToString(const T& v) {
  for (int precision = 6;; ++precision) {
    std::ostringstream os;
    os.precision(precision);
    os << v;
    std::istringstream is(os.str());
    T back{};
    is >> back;
    if (back == v || precision >= 17) return os.str();
  }
}

// Table rows for each field type.
template <class T>
OptionSpec Num(const char* name, const char* group, const char* help, T ExperimentConfig::*f) {
  return {name, group, help, false,
          [f](const ExperimentConfig& c) { return ToString(c.*f); },
          [f, name](ExperimentConfig& c, const std::string& s) { c.*f = ParseNumber<T>(name, s); }};
}
OptionSpec Flag(const char* name, const char* group, const char* help, bool ExperimentConfig::*f) {
  return {name, group, help, true, [f](const ExperimentConfig& c) { return std::string(c.*f ? "true" : "false"); },
          [f, name](ExperimentConfig& c, const std::string& s) {
            if (s == "true" || s == "1" || s == "yes") c.*f = true;
            else if (s == "false" || s == "0" || s == "no") c.*f = false;
            else Fail("option --", name, ": expected true or false, found '", s, "'");
          }};
}
OptionSpec Str(const char* name, const char* group, const char* help,
               std::string ExperimentConfig::*f) {
  return {name, group, help, false, [f](const ExperimentConfig& c) { return c.*f; },
          [f](ExperimentConfig& c, const std::string& s) { c.*f = s; }};
}

void OneOf(const std::string& option, const std::string& v, const std::vector<std::string>& allowed) {
  for (const auto& a : allowed)
    if (v == a) return;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
  Fail("option --", option, ": expected ", list, ", found '", v, "'");
}

}  // namespace

const std::vector<OptionSpec>& ConfigOptions() {
  using C = ExperimentConfig;
  static const std::vector<OptionSpec> specs = {
      Str("env", "task",
          "task: mnist28|translated60|cluttered60|cluttered100 (RAM image tasks) | strip5 (find the "
          "query digit among five slots; --attention soft|categorical)",
          &C::env),
      Str("dataset", "task", "digits: mnist|fashion", &C::dataset),
      Str("data-dir", "task",
          "folder with the four IDX files (empty: data/mnist, or Debian's fashion-mnist)", &C::data_dir),
      Num("train-images", "task", "training images per epoch (0 = all 50,000)", &C::train_images),
      Num("seed", "task", "seed of every random stream (init, data, policy, eval)", &C::seed),
      Str("attention", "sensor",
          "attention: gaussian (RAM: retina + Gaussian policy) | categorical (retina at one of N x N "
          "grid centres, Show-Attend-Tell hard) | soft (soft attention over the N x N grid, "
          "Show-Attend-Tell soft) | draw (N x N Gaussian filterbank, N = --patch) | "
          "stn (spatial transformer, g = --patch, --scales). strip5: soft | categorical item "
          "attention over the five slots",
          &C::attention),
      Str("stn-params", "sensor", "stn: affine (6 parameters) | scale (scale + translation, 3)",
          &C::stn_params),
      Num("draw-sigma", "sensor",
          "draw: the filters' initial standard deviation in pixels; 1 is DRAW's zero bias, 0 picks "
          "half the stride of the first read's grid (a blurred view of the whole canvas)",
          &C::draw_sigma),
      Str("score", "sensor", "soft: attention score additive | dot | scaled-dot", &C::score),
      Num("attention-dim", "sensor", "soft, strip5: size of the query and the keys", &C::attention_dim),
      Flag("soft-gate", "sensor", "soft: gate the context with a sigmoid of the core state", &C::soft_gate),
      Num("grid", "sensor", "categorical: N for the N x N grid of glimpse centres", &C::grid),
      Num("glimpses", "sensor", "glimpses per image (T)", &C::glimpses),
      Num("patch", "sensor", "retina patch size g (g x g pixels at the finest scale)", &C::patch),
      Num("scales", "sensor", "retina scales k (each twice as wide as the last)", &C::scales),
      Num("unit-pixels", "sensor", "pixels per unit of location (0 = half the canvas)", &C::unit_pixels),
      Str("core", "model", "core network: rnn (ReLU, as in RAM) | lstm", &C::core),
      Num("hidden", "model", "core state size (strip5: the slot network's hidden layer)", &C::hidden),
      Num("glimpse-hidden", "model",
          "glimpse network's h_g and h_l sizes (strip5: slot features and the answer network's hidden layer)",
          &C::glimpse_hidden),
      Num("std", "policy", "standard deviation of the Gaussian location policy", &C::std),
      Str("baseline", "policy",
          "REINFORCE baseline: none | learned (RAM) | average (moving average) | loo (leave-one-out "
          "over --samples)",
          &C::baseline),
      Num("samples", "policy", "Monte Carlo samples (episodes) of each image per step", &C::samples),
      Num("entropy", "policy", "entropy bonus beta", &C::entropy),
      Flag("reward-norm", "policy", "normalise rewards over the batch (mean 0, std 1)", &C::reward_norm),
      Num("semi-sampling", "policy", "probability that the expected location replaces the sample",
          &C::semi_sampling),
      Num("rl-weight", "policy", "weight of the REINFORCE term in the hybrid loss", &C::rl_weight),
      Flag("rl-into-core", "policy",
           "send the REINFORCE gradient through the location network into the core and glimpse "
           "networks (the paper's hybrid loss); off: the location network's input is detached",
           &C::rl_into_core),
      Str("optimizer", "optimizer", "sgd|adam", &C::optimizer),
      Num("lr", "optimizer", "learning rate", &C::lr),
      Num("momentum", "optimizer", "SGD momentum", &C::momentum),
      Str("schedule", "optimizer", "learning-rate schedule: constant|linear (decay to 0)", &C::schedule),
      Num("clip", "optimizer", "clip the global gradient norm to this value (0 = off)", &C::clip),
      Num("batch", "optimizer", "images per minibatch (B)", &C::batch),
      Num("epochs", "optimizer", "training epochs", &C::epochs),
      Num("threads", "system", "threads to use (0 = all cores); see --parallel", &C::threads),
      Str("parallel", "system",
          "how the threads share the work: data (image tasks: one model replica per thread, each "
          "on its share of the batch's rows with one BLAS thread; same draws, gradients equal up "
          "to float rounding) | blas (one model; the matrix products use all the threads)",
          &C::parallel),
      Num("log-every", "system", "steps between progress lines and /train records", &C::log_every),
      Num("eval-every", "system", "epochs between validation passes", &C::eval_every),
      Num("val-images", "system", "validation images per pass (at most 10,000)", &C::val_images),
      Num("trajectories", "system", "test images whose glimpses are logged each evaluation",
          &C::trajectories),
      Num("diag-every", "system",
          "steps between gradient-variance diagnostics on a fixed probe batch (0 = off)", &C::diag_every),
      Num("diag-draws", "system", "REINFORCE draws per gradient-variance diagnostic", &C::diag_draws),
      Str("on-nan", "system",
          "on a NaN/inf loss or gradient: stop (keep the last checkpoint) | rollback (reload the last "
          "checkpoint, halve the learning rate, go on)",
          &C::on_nan),
      Num("max-rollbacks", "system", "rollbacks allowed before the run stops", &C::max_rollbacks),
  };
  return specs;
}

std::map<std::string, std::string> ToKeyValues(const ExperimentConfig& c) {
  std::map<std::string, std::string> kv;
  for (const auto& s : ConfigOptions()) kv[s.name] = s.get(c);
  return kv;
}

void ApplyKeyValues(ExperimentConfig& c, const std::map<std::string, std::string>& kv) {
  for (const auto& [k, v] : kv) {
    bool found = false;
    for (const auto& s : ConfigOptions())
      if (s.name == k) {
        s.set(c, v);
        found = true;
      }
    Check(found, "unknown option '", k, "'");
  }
}

void Validate(const ExperimentConfig& c) {
  OneOf("env", c.env, {"mnist28", "translated60", "cluttered60", "cluttered100", "strip5"});
  const bool strip = c.env == "strip5";
  Check(!strip || c.attention == "soft" || c.attention == "categorical", "option --attention: strip5 takes ",
        "soft (item-wise soft attention) or categorical (a REINFORCE choice of one slot), found '", c.attention, "'");
  OneOf("dataset", c.dataset, {"mnist", "fashion"});
  OneOf("attention", c.attention, {"gaussian", "categorical", "soft", "draw", "stn"});
  OneOf("score", c.score, {"additive", "dot", "scaled-dot"});
  CheckRange(c.attention_dim, 1, 4096, "option --attention-dim");
  OneOf("stn-params", c.stn_params, {"affine", "scale"});
  Check(c.draw_sigma >= 0, "option --draw-sigma: expected >= 0 (0 = half the stride), found ", c.draw_sigma);
  const bool differentiable = c.attention == "draw" || c.attention == "stn" || c.attention == "soft";
  Check(!differentiable || c.samples == 1, "option --samples: --attention ", c.attention,
        " reads deterministically, so more than one sample per image repeats the same episode; use 1");
  Check(!c.rl_into_core || !(differentiable || strip), "option --rl-into-core: only the hard image ",
        "attentions (gaussian, categorical) have a REINFORCE signal to send into the core; --attention ",
        c.attention, " on ", c.env, " already trains it by backpropagation or has no core");
  Check(!(differentiable && c.attention == "stn") || c.patch >= 2, "option --patch: stn needs at least 2");
  CheckRange(c.grid, 1, 64, "option --grid");
  OneOf("core", c.core, {"rnn", "lstm"});
  OneOf("baseline", c.baseline, {"none", "learned", "average", "loo"});
  Check(c.baseline != "loo" || c.samples >= 2, "option --baseline loo needs --samples of at least 2 ",
        "(the baseline of each sample is the mean reward of the others), found --samples ", c.samples);
  Check(c.entropy >= 0, "option --entropy: expected >= 0, found ", c.entropy);
  CheckRange(c.semi_sampling, 0.0, 1.0, "option --semi-sampling");
  OneOf("optimizer", c.optimizer, {"sgd", "adam"});
  OneOf("schedule", c.schedule, {"constant", "linear"});
  Check(c.train_images >= 0, "option --train-images: expected >= 0 (0 = all), found ", c.train_images);
  CheckRange(c.glimpses, 1, 64, "option --glimpses");
  const int canvas = strip ? 28 : TaskByName(c.env).canvas;
  Check(c.patch >= 1 && c.patch <= canvas, "option --patch: expected 1 to ", canvas,
        " (the canvas of ", c.env, "), found ", c.patch);
  CheckRange(c.scales, 1, 8, "option --scales");
  Check(c.unit_pixels >= 0, "option --unit-pixels: expected >= 0, found ", c.unit_pixels);
  CheckRange(c.hidden, 1, 65536, "option --hidden");
  CheckRange(c.glimpse_hidden, 1, 65536, "option --glimpse-hidden");
  Check(c.std > 0, "option --std: expected a positive standard deviation, found ", c.std);
  CheckRange(c.samples, 1, 1024, "option --samples");
  Check(c.rl_weight >= 0, "option --rl-weight: expected >= 0, found ", c.rl_weight);
  Check(c.lr > 0, "option --lr: expected a positive learning rate, found ", c.lr);
  CheckRange(c.momentum, 0.0, 0.999999, "option --momentum");
  CheckRange(c.batch, 1, 1 << 16, "option --batch");
  CheckRange(c.epochs, 1, 1 << 20, "option --epochs");
  CheckRange(c.threads, 0, 1024, "option --threads");
  OneOf("parallel", c.parallel, {"data", "blas"});
  CheckRange(c.log_every, 1, 1 << 30, "option --log-every");
  CheckRange(c.eval_every, 1, 1 << 20, "option --eval-every");
  CheckRange(c.val_images, 1, 10000, "option --val-images");
  CheckRange(c.trajectories, 0, 10000, "option --trajectories");
  CheckRange(c.diag_every, 0, 1 << 30, "option --diag-every");
  CheckRange(c.diag_draws, 2, 4096, "option --diag-draws");
  OneOf("on-nan", c.on_nan, {"stop", "rollback"});
  CheckRange(c.max_rollbacks, 0, 1000, "option --max-rollbacks");
  Check(c.clip >= 0, "option --clip: expected >= 0 (0 = off), found ", c.clip);
}

}  // namespace glimpse

namespace glimpse {
std::string ResolveDataDir(const ExperimentConfig& c) {
  return c.data_dir.empty() ? DefaultDataDir(c.dataset) : c.data_dir;
}
}  // namespace glimpse
