#include "src/train/config.h"

#include <algorithm>

#include "envs/tasks.h"
#include "src/attention/attentions.h"
#include "src/core/error.h"
#include "src/core/optimizer.h"
#include "src/core/schedule.h"
#include "src/core/usable_cores.h"
#include "src/model/cores.h"
#include "src/model/glimpse_encoder.h"
#include "src/rl/baseline.h"
#include "src/rl/policies.h"
#include "src/rl/reward.h"
#include "src/train/agent.h"
#include "src/train/make_kinds.h"

namespace glimpse {
namespace {

void OneOf(const std::string& option, const std::string& v, const std::vector<std::string>& allowed) {
  for (const auto& a : allowed)
    if (v == a) return;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
  Fail("option --", option, ": expected ", list, ", found '", v, "'");
}

// The selector row of an axis: its help lists the registered kinds.
template <class Kind>
OptionSpec Selector(const Registry<Kind>& r, const char* group, const std::string& what,
                    std::string ExperimentConfig::*f) {
  OptionSpec row = Str("", group, "", f);
  row.name = r.option();
  row.help = what + ": " + r.Help();
  return row;
}

// Calls f(registry) for the registry of every axis (the kinds that may own option rows), in the order
// of their rows in ConfigOptions.
template <class F>
void ForEachAxis(F&& f) {
  f(Tasks());
  f(Agents());
  f(Attentions<float>());
  f(Policies<float>());
  f(Cores<float>());
  f(GlimpseEncoders<float>());
  f(Baselines());
  f(Rewards());
  f(Optimizers());
  f(Schedules());
}

// The table row of an option a kind owns: its value lives in kind_options, as the row's canonical text.
OptionSpec KindRow(const OptionRow& row) {
  return {row.name,
          row.group,
          row.help,
          row.is_flag,
          [row](const ExperimentConfig& c) {
            const auto it = c.kind_options.find(row.name);
            return it == c.kind_options.end() ? row.fallback : it->second;
          },
          [row](ExperimentConfig& c, const std::string& s) { c.kind_options[row.name] = row.canonical(s); }};
}

// Appends the rows owned by each kind of a registry.
template <class Kind>
void AddKindRows(const Registry<Kind>& r, std::vector<OptionSpec>& rows) {
  for (const Kind& k : r)
    for (const OptionRow& o : k.options) rows.push_back(KindRow(o));
}

// The row kind k owns for the option `name`, or null.
const OptionRow* RowOf(const KindInfo& k, const std::string& name) {
  for (const OptionRow& o : k.options)
    if (o.name == name) return &o;
  return nullptr;
}

std::vector<OptionSpec> MakeOptions() {
  using C = ExperimentConfig;
  std::vector<OptionSpec> specs = {
      Selector(Tasks(), "task", "task", &C::env),
      Str("dataset", "task", "digits: mnist|fashion", &C::dataset),
      Str("data-dir", "task", "folder with the four IDX files (empty: data/mnist, or Debian's fashion-mnist)",
          &C::data_dir),
      Num("train-images", "task", "training images per epoch (0 = all 50,000)", &C::train_images),
      Num("train-shift", "task",
          "image tasks: each training image moved by a random offset of up to N pixels in x and y, drawn per "
          "image and epoch (what leaves the canvas is lost, what enters is black); validation and test images "
          "are not moved (0 = off)",
          &C::train_shift),
      Num("seed", "task", "seed of every random stream (init, data, policy, eval)", &C::seed),
      Selector(Agents(), "model", "agent that answers the task (empty: the task's own, image or query)", &C::agent),
      Selector(Attentions<float>(), "sensor",
               "attention (strip5: soft | categorical item attention over the five slots)", &C::attention),
      Str("score", "sensor", "soft, strip5: attention score additive | dot | scaled-dot", &C::score),
      Num("attention-dim", "sensor", "soft, strip5: size of the query and the keys", &C::attention_dim),
      Num("grid", "sensor", "categorical, soft: N for the N x N grid of glimpse centres", &C::grid),
      Num("glimpses", "sensor", "glimpses per image (T)", &C::glimpses),
      Num("patch", "sensor", "retina patch size g (g x g pixels at the finest scale)", &C::patch),
      Num("scales", "sensor", "scales k, each twice as wide as the last: the retina, the controls, stn and draw",
          &C::scales),
      Num("unit-pixels", "sensor", "pixels per unit of location (0 = half the canvas)", &C::unit_pixels),
      Selector(
          Policies<float>(), "sensor",
          "location policy of a retina attention (--attention gaussian, categorical, random or centre), in place of "
          "its own (empty: the attention's own)",
          &C::policy),
      Selector(Cores<float>(), "model", "core network", &C::core),
      Num("hidden", "model", "core state size (strip5: the slot network's hidden layer)", &C::hidden),
      Num("glimpse-hidden", "model",
          "glimpse network's h_g and h_l sizes (strip5: slot features and the answer network's hidden layer)",
          &C::glimpse_hidden),
      Selector(GlimpseEncoders<float>(), "model", "glimpse network's image path h_g = f(glimpse)", &C::glimpse_net),
      Num("context", "model",
          "DRAM's context network (Ba et al. 2015): h_0 = tanh(W v + b), v the whole canvas box-filtered to "
          "N x N pixels, so the first location or read depends on the image (0 = off: h_0 = 0)",
          &C::context),
      Num("context-fade", "model",
          "with --context: the fraction of training over which the context's h_0 fades linearly to 0 (h_0 = s "
          "tanh(W v + b), s = 1 - progress / F), after which the model is RAM's again, e.g. 0.5 (0 = never)",
          &C::context_fade),
      Str("init-from", "model",
          "a run file whose validation-selected parameters (its last, if it has no best) start this run "
          "instead of a random draw, e.g. a curriculum from cluttered60 to cluttered100; the models must "
          "have the same parameter tables (empty: random)",
          &C::init_from),
      Selector(Baselines(), "policy", "REINFORCE baseline", &C::baseline),
      Num("samples", "policy", "Monte Carlo samples (episodes) of each image per step", &C::samples),
      Num("entropy", "policy", "entropy bonus beta", &C::entropy),
      Flag("reward-norm", "policy", "normalise rewards over the batch (mean 0, std 1)", &C::reward_norm),
      Num("semi-sampling", "policy", "probability that the expected location replaces the sample", &C::semi_sampling),
      Num("rl-weight", "policy", "weight of the REINFORCE term in the hybrid loss", &C::rl_weight),
      Selector(Rewards(), "policy", "reward of an episode", &C::reward),
      Num("step-loss", "model",
          "weight of an auxiliary classification after every glimpse but the last (the mean "
          "cross-entropy over glimpses 1..T-1; 0 = off: classify after the last only)",
          &C::step_loss),
      Flag("rl-into-core", "policy",
           "send the REINFORCE gradient through the location network into the core and glimpse "
           "networks (the paper's hybrid loss); off: the location network's input is detached",
           &C::rl_into_core),
      Selector(Optimizers(), "optimizer", "optimizer", &C::optimizer),
      Num("lr", "optimizer", "learning rate", &C::lr),
      Selector(Schedules(), "optimizer", "learning-rate schedule", &C::schedule),
      Num("clip", "optimizer", "clip the global gradient norm to this value (0 = off)", &C::clip),
      Num("average", "optimizer",
          "evaluate, select and keep an exponential moving average of the parameters with this decay per "
          "update, e.g. 0.999 (a horizon of about 1,000 updates); the training parameters are evaluated "
          "beside it as val_error_raw and test_error_raw (0 = off)",
          &C::average),
      Num("batch", "optimizer", "images per minibatch (B)", &C::batch),
      Num("epochs", "optimizer", "training epochs", &C::epochs),
      Num("threads", "system",
          "threads to use (0 = the cores this process may use: its CPU affinity and cgroup quota); see --parallel",
          &C::threads),
      Str("parallel", "system",
          "how the threads share the work: data (image tasks: one model replica per thread, each "
          "on its share of the batch's rows with one BLAS thread; same draws, gradients equal up "
          "to float rounding) | blas (one model; the matrix products use all the threads)",
          &C::parallel),
      Str("denormals", "system",
          "subnormal floats (below 1.2e-38): flush (to zero, x86 FTZ/DAZ; late in training several times "
          "faster) | keep (as IEEE 754 says; every run made before this option existed kept them, and a run "
          "file without the option resumes and evaluates with keep). May change on --resume; each leg "
          "records its mode",
          &C::denormals),
      Num("log-every", "system", "steps between progress lines and /train records", &C::log_every),
      Num("eval-every", "system", "epochs between validation passes", &C::eval_every),
      Num("test-every", "system",
          "validation passes between test passes during training (1: every one; 0: none, so a screen chooses "
          "on validation alone: /eval/test_error is NaN and the final line gives the validation error)",
          &C::test_every),
      Num("stop-at", "system",
          "time to accuracy: stop after the first evaluation whose validation error is at or below this "
          "percentage (0 = off; the run is then finished, its stopped_reason says so)",
          &C::stop_at),
      Num("val-images", "system", "validation images per pass (at most 10,000)", &C::val_images),
      Num("trajectories", "system", "test images whose glimpses are logged each evaluation", &C::trajectories),
      Num("diag-every", "system", "steps between gradient-variance diagnostics on a fixed probe batch (0 = off)",
          &C::diag_every),
      Num("diag-draws", "system", "REINFORCE draws per gradient-variance diagnostic", &C::diag_draws),
      Flag("grad-norms", "system",
           "also log each module's gradient norm before clipping, /train/grad_norm_MODULE (the first part of "
           "the parameters' names: glimpse, core, location (the policy or the read's parameters), action (the "
           "classifier), baseline, ...), mean over each logging interval",
           &C::grad_norms),
      Str("on-nan", "system",
          "on a NaN/inf loss or gradient: stop (keep the last checkpoint) | rollback (reload the last "
          "checkpoint, halve the learning rate, go on)",
          &C::on_nan),
      Num("max-rollbacks", "system", "rollbacks allowed before the run stops", &C::max_rollbacks),
      Str("run-id", "system",
          "an identifier stored with the run, e.g. its sweep id with its seed (scripts/sweep sets ID-sSEED)",
          &C::run_id),
  };
  ForEachAxis([&specs](const auto& kinds) { AddKindRows(kinds, specs); });
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      Check(specs[i].name != specs[j].name, "option --", specs[i].name, " is declared twice");
  return specs;
}

}  // namespace

const std::vector<OptionSpec>& ConfigOptions() {
  static const std::vector<OptionSpec> specs = MakeOptions();
  return specs;
}

const std::vector<std::string>& ConfigGroups() {
  static const std::vector<std::string> groups = {"task", "sensor", "model", "policy", "optimizer", "system"};
  return groups;
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
  const TaskKind& task = Tasks().Get(c.env);
  const AttentionKind<float>& attention = Attentions<float>().Get(c.attention);
  OneOf("dataset", c.dataset, {"mnist", "fashion"});
  OneOf("score", c.score, {"additive", "dot", "scaled-dot"});
  CheckRange(c.attention_dim, 1, 4096, "option --attention-dim");
  Check(attention.hard() || c.samples == 1, "option --samples: --attention ", c.attention,
        " reads deterministically, so more than one sample per image repeats the same episode; use 1");
  Check(!c.rl_into_core || attention.hard(), "option --rl-into-core: only the hard image attentions have a ",
        "REINFORCE signal to send into the core; --attention ", c.attention, " already trains it by backpropagation");
  CheckRange(c.grid, 1, 64, "option --grid");
  const CoreKind<float>& core = Cores<float>().Get(c.core);  // unknown names first, before the ranges
  const GlimpseEncoderKind<float>& glimpse_net = GlimpseEncoders<float>().Get(c.glimpse_net);
  const BaselineKind& baseline = Baselines().Get(c.baseline);
  const RewardKind& reward = Rewards().Get(c.reward);
  const AgentKind& agent = Agents().Get(AgentOf(task, c));
  const OptimizerKind& optimizer = Optimizers().Get(c.optimizer);
  const ScheduleKind& schedule = Schedules().Get(c.schedule);
  Check(c.train_images >= 0, "option --train-images: expected >= 0 (0 = all), found ", c.train_images);
  ValidateTrainShift(c);
  CheckRange(c.glimpses, 1, 64, "option --glimpses");
  const int canvas = std::min(task.height, task.width);
  Check(c.patch >= 1 && c.patch <= canvas, "option --patch: expected 1 to ", canvas, " (the canvas of ", c.env,
        "), found ", c.patch);
  CheckRange(c.scales, 1, 8, "option --scales");
  Check(c.unit_pixels >= 0, "option --unit-pixels: expected >= 0, found ", c.unit_pixels);
  CheckRange(c.hidden, 1, 4096, "option --hidden");  // 4096: an LSTM core of 4 x 4096 x 8192 floats (0.5 GB)
  CheckRange(c.glimpse_hidden, 1, 4096, "option --glimpse-hidden");
  Check(c.context >= 0 && c.context <= canvas, "option --context: expected 0 (off) to ", canvas, " (the canvas of ",
        c.env, "), found ", c.context);
  Check(c.context_fade >= 0 && c.context_fade <= 1, "option --context-fade: expected 0 (off) to 1, found ",
        c.context_fade);
  Check(c.context_fade == 0 || c.context > 0, "option --context-fade ", c.context_fade,
        " fades the context network's h_0: it needs --context N > 0");
  CheckRange(c.samples, 1, 1024, "option --samples");
  Check(c.rl_weight >= 0 && c.rl_weight <= 1e6, "option --rl-weight: expected 0 to 1e6, found ", c.rl_weight);
  CheckRange(c.semi_sampling, 0.0, 1.0, "option --semi-sampling (a probability)");
  CheckRange(c.entropy, 0.0, 10.0, "option --entropy (the entropy bonus's weight)");
  Check(c.step_loss >= 0, "option --step-loss: expected >= 0 (0 = off), found ", c.step_loss);
  Check(!reward.per_step || attention.hard(), "option --reward ", c.reward, ": --attention ", c.attention,
        " has no location policy for a reward to train");
  Check(c.lr > 0, "option --lr: expected a positive learning rate, found ", c.lr);
  CheckRange(c.batch, 1, 1 << 16, "option --batch");
  CheckRange(c.epochs, 1, 1 << 20, "option --epochs");
  CheckRange(c.threads, 0, 256, "option --threads");
  OneOf("parallel", c.parallel, {"data", "blas"});
  OneOf("denormals", c.denormals, {"flush", "keep"});
  CheckRange(c.log_every, 1, 1 << 30, "option --log-every");
  CheckRange(c.eval_every, 1, 1 << 20, "option --eval-every");
  CheckRange(c.test_every, 0, 1 << 20, "option --test-every");
  Check(c.stop_at >= 0 && c.stop_at < 100, "option --stop-at: expected a percentage in [0, 100) (0 = off), found ",
        c.stop_at);
  CheckRange(c.val_images, 1, 10000, "option --val-images");
  CheckRange(c.trajectories, 0, 10000, "option --trajectories");
  CheckRange(c.diag_every, 0, 1 << 30, "option --diag-every");
  CheckRange(c.diag_draws, 2, 4096, "option --diag-draws");
  OneOf("on-nan", c.on_nan, {"stop", "rollback"});
  CheckRange(c.max_rollbacks, 0, 1000, "option --max-rollbacks");
  Check(c.clip >= 0, "option --clip: expected >= 0 (0 = off), found ", c.clip);
  Check(c.average >= 0 && c.average < 1, "option --average: expected 0 (off) or a decay in (0, 1), found ", c.average);
  // Every kind option's value is in its row's range or choices (a value set in kind_options directly,
  // not through the row, is checked here too).
  for (const auto& entry : c.kind_options) {
    const std::string& name = entry.first;  // a named variable, not a structured binding: lambdas capture it
    const OptionRow* row = nullptr;
    ForEachAxis([&](const auto& kinds) {
      for (const auto& k : kinds)
        if (!row) row = RowOf(k, name);
    });
    if (row) row->canonical(entry.second);
  }
  // Each selected kind checks what it needs.
  ValidateKind(task, c);
  Check(task.query == agent.query, "option --agent ", AgentOf(task, c), ": --env ", c.env,
        task.query ? " asks about a query digit, which only --agent query reads" : " has no query for it to read");
  ValidateKind(agent, c);
  if (agent.validate_config) agent.validate_config(c);
  ValidateKind(attention, c);
  Check(c.policy.empty() || attention.any_policy, "option --policy: --attention ", c.attention,
        " has no retina that a policy could move; --policy goes with --attention gaussian, categorical, random or "
        "centre");
  if (attention.hard()) {
    const PolicyKind<float>& policy = Policies<float>().Get(PolicyOf(attention, c));
    ValidateKind(policy, c);
    Check(c.samples == 1 || MakePolicy<float>(c)->noise_size() > 0, "option --samples: --attention ", c.attention,
          " always looks at the same places, so more than one sample per image repeats the same episode; use 1");
  }
  ValidateKind(core, c);
  ValidateKind(glimpse_net, c);
  ValidateKind(baseline, c);
  if (attention.hard())  // a baseline that needs the greedy episode needs a policy that has one
    Check(!baseline.make(c.samples)->greedy() || MakePolicy<float>(c)->has_mean(), "option --baseline ", c.baseline,
          ": the greedy episode takes the policy's mean location, and --attention ", c.attention, "'s policy has none");
  ValidateKind(reward, c);
  ValidateKind(optimizer, c);
  ValidateKind(schedule, c);
}

namespace {

// Whether kind k reads the option `name`: a row it owns, or one it reads from another kind.
bool Reads(const KindInfo& k, const std::string& name) {
  if (RowOf(k, name)) return true;
  return std::find(k.also_reads.begin(), k.also_reads.end(), name) != k.also_reads.end();
}

// "--optimizer adam" for each kind of `kinds` that reads the option `name`.
template <class R>
void AddReaders(const R& kinds, const std::string& name, std::vector<std::string>& readers) {
  for (const auto& k : kinds)
    if (Reads(k, name)) readers.push_back("--" + kinds.option() + " " + k.name);
}

}  // namespace

std::vector<std::string> UnreadKindOptions(const ExperimentConfig& c) {
  const TaskKind& task = Tasks().Get(c.env);
  const AttentionKind<float>& attention = Attentions<float>().Get(c.attention);
  std::vector<const KindInfo*> selected = {&task,
                                           &Agents().Get(AgentOf(task, c)),
                                           &attention,
                                           &Cores<float>().Get(c.core),
                                           &GlimpseEncoders<float>().Get(c.glimpse_net),
                                           &Baselines().Get(c.baseline),
                                           &Rewards().Get(c.reward),
                                           &Optimizers().Get(c.optimizer),
                                           &Schedules().Get(c.schedule)};
  if (attention.hard()) selected.push_back(&Policies<float>().Get(PolicyOf(attention, c)));
  std::vector<std::string> unread;
  for (const auto& option : c.kind_options) {
    const std::string& name = option.first;
    const std::string& value = option.second;
    if (std::any_of(selected.begin(), selected.end(), [&name](const KindInfo* k) { return Reads(*k, name); })) continue;
    std::vector<std::string> readers;
    ForEachAxis([&](const auto& kinds) { AddReaders(kinds, name, readers); });
    std::string who;
    for (const std::string& o : readers) who += (who.empty() ? "" : ", ") + o;
    unread.push_back("--" + name + " " + value + " is not read by this run's kinds (only by " +
                     (who.empty() ? "no kind" : who) + "): it is stored in the run file and ignored");
  }
  return unread;
}

void ValidateTrainShift(const ExperimentConfig& c) {
  const TaskKind& task = Tasks().Get(c.env);
  const int canvas = std::min(task.height, task.width);
  Check(c.train_shift >= 0 && c.train_shift < canvas, "option --train-shift: expected 0 (off) to ", canvas - 1,
        " pixels for ", c.env, "'s canvas, found ", c.train_shift);
  Check(c.train_shift == 0 || !task.query, "option --train-shift: ", c.env,
        " is not an image task (moving its canvas would break what it asks); use 0");
}

std::string ResolveDataDir(const ExperimentConfig& c) {
  return c.data_dir.empty() ? DefaultDataDir(c.dataset) : c.data_dir;
}

int ResolvedThreads(const ExperimentConfig& c) { return c.threads > 0 ? c.threads : UsableCores(); }

}  // namespace glimpse
