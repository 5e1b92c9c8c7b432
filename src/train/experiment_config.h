// ExperimentConfig: everything that defines a run, as one value.
//
// The option table (ConfigOptions, src/train/config.h) names every option once: the CLI builds its
// Program_options from it, the run file stores every option under its name, and --resume reads them
// back through the same table. Options read by several kinds are fields here, with their rows in
// the general table; an option that only one registered kind reads is a KindOption declared in that
// kind's own file (src/core/settings.h), its value kept in kind_options (so a new kind adds no field
// here). Kinds never see this value: src/train/make_kinds.h gives each its own Settings.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "src/core/settings.h"

namespace glimpse {

struct ExperimentConfig {
  // task
  std::string env = "mnist28";    // a registered task (envs/tasks.h)
  std::string dataset = "mnist";  // mnist | fashion
  std::string data_dir;           // empty: the data set's default folder
  std::int64_t train_images = 0;  // images per epoch; 0 = the whole training split
  int train_shift = 0;  // training images moved by up to this many pixels in x and y (envs/train_shift.h); 0 = off
  std::uint64_t seed = 1;
  std::string agent;  // a registered agent (src/train/agent.h); empty: the task's own
  // sensor
  std::string attention = "gaussian";  // a registered attention (src/attention/attentions.h)
  std::string score = "additive";      // soft, strip5: additive | dot | scaled-dot
  int attention_dim = 64;              // soft, strip5: query and key size
  int grid = 4;                        // categorical, soft: N x N candidate glimpse centres
  int glimpses = 6;
  int patch = 8;
  int scales = 1;
  double unit_pixels = 0;  // pixels per unit of location; 0 = half the canvas
  std::string policy;      // a registered location policy (src/rl/policies.h); empty: the attention's own
  // model
  std::string core = "rnn";        // a registered core (src/model/cores.h)
  int hidden = 256;                // core state size
  int glimpse_hidden = 128;        // h_g and h_l sizes (RAM: 128)
  std::string glimpse_net = "fc";  // the glimpse network's image path (src/model/glimpse_encoder.h)
  int context = 0;                 // DRAM's context network: side of its view of the whole canvas (0 = none)
  double context_fade = 0;         // fraction of training over which the context's h_0 fades to 0 (0 = never)
  std::string init_from;           // a run file whose validation-selected parameters start this run (curriculum)
  // policy and estimator
  std::string baseline = "learned";  // a registered baseline (src/rl/baselines.h)
  int samples = 1;                   // Monte Carlo samples of each image per step
  double entropy = 0.0;              // entropy bonus beta
  bool reward_norm = false;          // normalise rewards over the batch
  double semi_sampling = 0.0;        // probability that the expected location replaces the sample
  double rl_weight = 1.0;            // weight of the REINFORCE term in the hybrid loss
  std::string reward = "terminal";   // a registered reward (src/rl/reward.h)
  double step_loss = 0.0;            // weight of the auxiliary classification after glimpses 1..T-1
  bool rl_into_core = false;         // REINFORCE also trains the core and glimpse networks
  // optimizer
  std::string optimizer = "adam";  // a registered optimizer (src/core/optimizer.h)
  double lr = 1e-3;
  std::string schedule = "constant";  // a registered schedule (src/core/schedule.h)
  double clip = 0;                    // global gradient-norm clipping threshold (0 = off)
  double average = 0;                 // decay of the evaluated parameter average (src/core/weight_average.h; 0 = off)
  int batch = 128;
  int epochs = 100;
  // system
  int threads = 0;                  // 0 = all cores
  std::string parallel = "data";    // data (image tasks: a model replica per thread) | blas
  std::string denormals = "flush";  // flush | keep subnormal floats (src/core/denormals.h)
  int log_every = 100;
  int eval_every = 1;           // epochs between validation passes
  int test_every = 1;           // validation passes between test passes during training; 0 = none
  double stop_at = 0;           // % validation error: stop after the first evaluation at or below it (0 = off)
  int val_images = 10000;       // validation images per pass
  int trajectories = 16;        // test images whose glimpses are logged
  int diag_every = 0;           // steps between gradient-variance diagnostics (0 = off)
  int diag_draws = 16;          // REINFORCE draws per diagnostic
  bool grad_norms = false;      // also log each module's gradient norm (/train/grad_norm_MODULE)
  std::string run_id;           // an identifier stored with the run (scripts/sweep: ID-sSEED)
  std::string on_nan = "stop";  // stop | rollback
  int max_rollbacks = 3;
  // Values of the options owned by one kind (KindOption), by option name; absent: the default.
  std::map<std::string, std::string> kind_options;
};

struct OptionSpec {
  std::string name;   // command-line / config-file name, e.g. "glimpses"
  std::string group;  // task, sensor, model, policy, optimizer, system
  std::string help;
  bool is_flag = false;  // a switch: --name alone means true
  std::function<std::string(const ExperimentConfig&)> get;
  std::function<void(ExperimentConfig&, const std::string&)> set;  // throws Error on a bad value
};

// Rows for fields of each type (Num: integral or floating field), parsed with a message naming
// the option on a bad value.
template <class T>
OptionSpec Num(const char* name, const char* group, const char* help, T ExperimentConfig::*f);
OptionSpec Flag(const char* name, const char* group, const char* help, bool ExperimentConfig::*f);
OptionSpec Str(const char* name, const char* group, const char* help, std::string ExperimentConfig::*f);

}  // namespace glimpse
