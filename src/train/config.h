// ExperimentConfig: everything that defines a run, as one struct.
//
// The option table (ConfigOptions) names every field once: the CLI builds its Program_options from
// it, the run file stores every field under its option name (DESIGN.md section 8), and --resume
// reads them back through the same table. Adding an option is one field and one table row.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace glimpse {

struct ExperimentConfig {
  // task
  std::string env = "mnist28";    // mnist28 | translated60 | cluttered60 | cluttered100
  std::string dataset = "mnist";  // mnist | fashion
  std::string data_dir;           // empty: the data set's default folder
  std::int64_t train_images = 0;  // images per epoch; 0 = the whole training split
  std::uint64_t seed = 1;
  // sensor
  std::string attention = "gaussian";  // gaussian | categorical | draw | stn
  std::string stn_params = "affine";   // stn: affine | scale (scale + translation)
  double draw_sigma = 1;               // draw: initial filter std, pixels (0 = half the stride)
  std::string score = "additive";      // soft: additive | dot | scaled-dot
  int attention_dim = 64;              // soft: query and key size
  bool soft_gate = true;               // soft: multiply the context by sigmoid(gate)
  int grid = 4;                        // categorical: N x N candidate glimpse centres
  int glimpses = 6;
  int patch = 8;
  int scales = 1;
  double unit_pixels = 0;  // pixels per unit of location; 0 = half the canvas
  // model
  std::string core = "rnn";  // rnn | lstm
  int hidden = 256;          // core state size
  int glimpse_hidden = 128;  // h_g and h_l sizes (RAM: 128)
  // policy and estimator
  double std = 0.1;                 // Gaussian location policy standard deviation
  std::string baseline = "learned";  // none | learned | average | loo
  int samples = 1;                  // Monte Carlo samples of each image per step
  double entropy = 0.0;             // entropy bonus beta
  bool reward_norm = false;         // normalise rewards over the batch
  double semi_sampling = 0.0;       // probability that the expected location replaces the sample
  double rl_weight = 1.0;           // weight of the REINFORCE term in the hybrid loss
  bool rl_into_core = false;        // REINFORCE also trains the core and glimpse networks
  // optimizer
  std::string optimizer = "adam";  // sgd | adam
  double lr = 1e-3;
  double momentum = 0.9;
  std::string schedule = "constant";  // constant | linear
  double clip = 0;                    // global gradient-norm clipping threshold (0 = off)
  int batch = 128;
  int epochs = 100;
  // system
  int threads = 0;  // 0 = all cores
  std::string parallel = "data";  // data (image tasks: a model replica per thread) | blas
  int log_every = 100;
  int eval_every = 1;       // epochs between validation passes
  int val_images = 10000;   // validation images per pass
  int trajectories = 16;    // test images whose glimpses are logged
  int diag_every = 0;       // steps between gradient-variance diagnostics (0 = off)
  int diag_draws = 16;      // REINFORCE draws per diagnostic
  std::string on_nan = "stop";  // stop | rollback
  int max_rollbacks = 3;
};

struct OptionSpec {
  std::string name;   // command-line / config-file name, e.g. "glimpses"
  std::string group;  // task, sensor, model, policy, optimizer, system
  std::string help;
  bool is_flag = false;  // a switch: --name alone means true
  std::function<std::string(const ExperimentConfig&)> get;
  std::function<void(ExperimentConfig&, const std::string&)> set;  // throws Error on a bad value
};

const std::vector<OptionSpec>& ConfigOptions();

// Every option by name, as strings (what a run file stores).
std::map<std::string, std::string> ToKeyValues(const ExperimentConfig& c);
// Sets the options present in kv (unknown names throw Error).
void ApplyKeyValues(ExperimentConfig& c, const std::map<std::string, std::string>& kv);

// Throws Error naming the option and the allowed range for the first impossible value.
void Validate(const ExperimentConfig& c);

}  // namespace glimpse

namespace glimpse {
// The data folder of a config: --data-dir if given, else the data set's default folder.
std::string ResolveDataDir(const ExperimentConfig& c);
}  // namespace glimpse
