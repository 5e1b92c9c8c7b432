// The rules every reader of run files applies, written once: glimpse summarize, the trainer's
// checkpoints and the Python package (glimpse.runs calls them through glimpse._core), so C++ and
// Python select, group and resume alike (docs/run_file.md).
#pragma once

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "src/store/run_attributes.h"

namespace glimpse {

// Options that do not make a configuration: the seed, and how a run was run (the thread count and
// the subnormal mode change the rounding, not the experiment). Runs whose other options all agree
// differ "only in seed" and are pooled as seeds of one configuration.
inline const std::vector<std::string>& NonConfigurationOptions() {
  static const std::vector<std::string> names = {"seed",      "run-id",     "threads", "parallel",   "data-dir",
                                                 "log-every", "test-every", "stop-at", "grad-norms", "denormals"};
  return names;
}

// Root attributes that describe the file, not the run's options (docs/run_file.md).
inline const std::vector<std::string>& RunMetadataAttributes() {
  static const std::vector<std::string> names = {
      "glimpse_version", "source_commit", "created_utc",      "parameters",        "slim",           "stopped_reason",
      "trained_by",      "epochs_done",   "data_fingerprint", kTrainMflopPerImage, kStoppedAtTarget, kInitFromParams};
  return names;
}

// The value of each option that run files written before it existed lack: the one that reproduces how
// such a file was made, today's default but for --denormals (keep: no earlier build flushed). Readers
// fill these in before they compare configurations (summarize, glimpse.runs) or resume, so the seeds of
// one row trained by builds before and after an option was added pool as one configuration. An option
// that a committed run file lacks must be here, with its default unless it changed the behaviour of
// the files before it (tests/train/test_absent_options.cpp checks both).
inline const std::map<std::string, std::string>& AbsentOptionValues() {
  static const std::map<std::string, std::string> values = {{"agent", ""},
                                                            {"attention-dim", "64"},
                                                            {"average", "0"},
                                                            {"clip", "0"},
                                                            {"context", "0"},
                                                            {"context-fade", "0"},
                                                            {"conv-filters", "16"},
                                                            {"denormals", "keep"},
                                                            {"diag-draws", "16"},
                                                            {"diag-every", "0"},
                                                            {"discount", "1"},
                                                            {"draw-sigma", "1"},
                                                            {"entropy", "0"},
                                                            {"glimpse-net", "fc"},
                                                            {"grid", "4"},
                                                            {"gumbel-tau", "1"},
                                                            {"gumbel-tau-end", "0.5"},
                                                            {"init-from", ""},
                                                            {"max-rollbacks", "3"},
                                                            {"on-nan", "stop"},
                                                            {"policy", ""},
                                                            {"read-std", "0.1"},
                                                            {"reward", "terminal"},
                                                            {"reward-norm", "false"},
                                                            {"rl-into-core", "false"},
                                                            {"score", "additive"},
                                                            {"semi-sampling", "0"},
                                                            {"soft-gate", "true"},
                                                            {"step-loss", "0"},
                                                            {"stn-params", "affine"},
                                                            {"stn-sampler", "box"},
                                                            {"stn-start", "whole"},
                                                            {"strided-filters", "16"},
                                                            {"strided-layers", "4"},
                                                            {"train-shift", "0"},
                                                            {"weight-decay", "0"}};
  return values;
}

// Whether a root attribute (or resolved option) NAME belongs to the configuration key: not a
// non-configuration option, not metadata, not a resume's record (rollback_*).
inline bool IsConfigurationOption(const std::string& name) {
  for (const auto* list : {&NonConfigurationOptions(), &RunMetadataAttributes()})
    for (const std::string& n : *list)
      if (n == name) return false;
  return name.rfind("rollback_", 0) != 0;
}

// The value option NAME gives the configuration key of a run with seed SEED: VALUE as written, but
// an --init-from source that names the run's own seed (a per-seed curriculum, which an experiment
// writes `--init-from results/STAGE/runs/KIND-s{seed}.h5` and scripts/sweep expands) reads each
// "-s<SEED>" not followed by a digit as "-s{seed}": the seeds of one curriculum row, each started
// from its own seed's source, pool as one configuration; a source of another seed stays apart.
inline std::string ConfigurationValue(const std::string& name, const std::string& value, const std::string& seed) {
  if (name != "init-from" || seed.empty()) return value;
  const std::string own = "-s" + seed;
  std::string out;
  for (std::size_t i = 0; i < value.size();) {
    const std::size_t end = i + own.size();
    if (value.compare(i, own.size(), own) == 0 &&
        (end == value.size() || !std::isdigit(static_cast<unsigned char>(value[end])))) {
      out += "-s{seed}";
      i = end;
    } else {
      out += value[i++];
    }
  }
  return out;
}

// The configuration key of a run whose options (resolved, by name, as strings) are OPTIONS: each
// configuration option (IsConfigurationOption) with its ConfigurationValue under the run's own seed.
// Two runs are seeds of one configuration when their entries are equal (summarize, glimpse.runs).
inline std::map<std::string, std::string> ConfigurationEntries(const std::map<std::string, std::string>& options) {
  const auto seed = options.find("seed");
  std::map<std::string, std::string> key;
  for (const auto& [name, value] : options)
    if (IsConfigurationOption(name))
      key[name] = ConfigurationValue(name, value, seed == options.end() ? "" : seed->second);
  return key;
}

// The evaluation a run is selected by: the first one with the lowest finite validation error (the
// trainer's /best is saved at each evaluation that strictly lowers it: the same one). Its test error is
// reported, never used to choose. `val.size()` when no evaluation has a finite validation error.
inline std::size_t SelectedEvaluation(const std::vector<double>& val) {
  std::size_t best = val.size();
  for (std::size_t i = 0; i < val.size(); ++i)
    if (std::isfinite(val[i]) && (best == val.size() || val[i] < val[best])) best = i;
  return best;
}

// A checkpoint slot as a reader finds it: its group name, whether its "complete" attribute is "1",
// and its step (-1 without one).
struct CheckpointSlot {
  std::string name;
  bool complete = false;
  std::int64_t step = -1;
};

// The slot a resume or an evaluation loads: the complete one with the most steps (the first such in
// `slots`' order); "" when none is complete.
inline std::string ChosenCheckpointSlot(const std::vector<CheckpointSlot>& slots) {
  std::string best;
  std::int64_t best_step = -1;
  for (const CheckpointSlot& s : slots)
    if (s.complete && s.step >= 0 && s.step > best_step) best = s.name, best_step = s.step;
  return best;
}

}  // namespace glimpse
