// Trainer: saving and restoring its whole state through the run file's checkpoint.
#include <iostream>
#include <limits>

#include "envs/dataset.h"
#include "src/store/checkpoint.h"
#include "src/store/run_attributes.h"
#include "src/train/config.h"
#include "src/train/trainer.h"

namespace glimpse {
namespace {
// The checkpoint's name for the --average buffer, stored beside the optimizer's own state.
constexpr const char* kAverageBuffer = "average";
}  // namespace

Checkpoint Trainer::ParamsNow() const {
  Checkpoint c;
  c.step = step_;
  c.epoch = epoch_;
  const auto& store = agent_->store();
  c.params.assign(store.values().begin(), store.values().end());
  c.table = store.info();
  return c;
}

void Trainer::SaveCheckpointNow() {
  Checkpoint c = ParamsNow();
  for (const auto& [name, buf] : opt_->StateBuffers()) c.optimizer[name].assign(buf->begin(), buf->end());
  if (average_) c.optimizer[kAverageBuffer].assign(average_->values().begin(), average_->values().end());
  c.optimizer_steps = opt_->steps;
  c.rngs["data"] = data_rng_.GetState();
  c.rngs["policy"] = policy_rng_.GetState();
  for (const char* g : {"/train", "/eval", "/diagnostics"})
    c.lengths[g] = static_cast<std::int64_t>(file_->SeriesLength(g));
  c.lengths["/trajectories"] = static_cast<std::int64_t>(ExamplesLogged());  // examples logged (any group)
  c.scalars["wall_s"] = wall_s_;
  c.scalars["eval_s"] = eval_s_;
  c.scalars["test_s"] = test_s_;
  c.scalars["images_seen"] = static_cast<double>(images_seen_);
  c.scalars["last_val_error"] = last_val_error_;
  if (best_val_error_ < std::numeric_limits<double>::infinity()) c.scalars["best_val_error"] = best_val_error_;
  for (const auto& [name, value] : baseline_state_) c.scalars[name] = value;  // the baseline's state
  c.scalars["lr_scale"] = lr_scale_;
  c.scalars["rollbacks"] = rollbacks_;
  SaveCheckpoint(*file_, c);
}

void Trainer::RestoreParams(const Checkpoint& c, const std::string& path) {
  auto& store = agent_->store();
  Check(c.table.size() == store.info().size() && c.params.size() == store.size(), "the checkpoint in '", path, "' has ",
        c.params.size(), " parameters in ", c.table.size(), " tensors; the model built from its configuration has ",
        store.size(), " in ", store.info().size());
  for (std::size_t i = 0; i < c.table.size(); ++i)
    Check(c.table[i].name == store.info()[i].name && c.table[i].shape == store.info()[i].shape, "checkpoint tensor '",
          c.table[i].name, "' does not match the model's '", store.info()[i].name, "'");
  std::copy(c.params.begin(), c.params.end(), store.values().begin());
}

void Trainer::CheckSameData(const RunFile& file) const {
  const auto root = file.Attributes("/");
  const auto stored = root.find("data_fingerprint");  // absent in runs of an older glimpse
  if (stored == root.end()) return;
  const std::string here = DataFingerprint(data_);
  Check(stored->second == here, "'", file.path(), "' was trained on digits with fingerprint ", stored->second,
        ", but '", ResolveDataDir(cfg_), "' holds other digits or labels (", here,
        "); pass the data folder it was trained with (--data-dir)");
}

std::int64_t Trainer::LoadWeights(const RunFile& file, bool best) {
  CheckSameData(file);
  const Checkpoint c = best ? LoadBestCheckpoint(file) : LoadCheckpoint(file);
  RestoreParams(c, file.path());
  SetProgressAt(c.step);  // a schedule in the forward pass (--context-fade) at that checkpoint's value
  return c.epoch;
}

void Trainer::SaveBestNow() { SaveBestCheckpoint(*file_, ParamsNow(), best_val_error_); }

void Trainer::InitFrom(const std::string& path) {
  const RunFile source(path, RunFile::Mode::kReadOnly);
  const bool best = HasBestCheckpoint(source);
  const Checkpoint c = best ? LoadBestCheckpoint(source) : LoadCheckpoint(source);
  const auto& store = agent_->store();
  Check(c.params.size() == store.size() && c.table.size() == store.info().size(), "option --init-from: '", path,
        "' holds a model of ", c.params.size(), " parameters in ", c.table.size(), " tensors, this run's has ",
        store.size(), " in ", store.info().size(), ": the two runs need the same model options");
  RestoreParams(c, path);
  if (average_) average_->Reset(store.values().data());  // the average starts from them too
  progress_->Line(
      Format("parameters from '", path, "' (", best ? "validation-selected" : "last", ", epoch ", c.epoch, ")"));
  logger_->Attribute(kInitFromParams,
                     (best ? "best " : "last ") + DigestOf(c.params.data(), c.params.size() * sizeof(float)));
}

void Trainer::LoadCheckpointNow() {
  CheckSameData(*file_);
  const Checkpoint c = LoadCheckpoint(*file_);
  RestoreParams(c, file_->path());
  for (const auto& [name, buf] : opt_->StateBuffers()) {
    Check(c.optimizer.count(name) == 1 && c.optimizer.at(name).size() == buf->size(), "the checkpoint lacks ",
          "optimizer state '", name, "' (was the run trained with another --optimizer?)");
    std::copy(c.optimizer.at(name).begin(), c.optimizer.at(name).end(), buf->begin());
  }
  if (average_) {
    Check(c.optimizer.count(kAverageBuffer) == 1 && c.optimizer.at(kAverageBuffer).size() == average_->values().size(),
          "the checkpoint in '", file_->path(), "' holds no parameter average (optimizer state '", kAverageBuffer,
          "'): was the run trained without --average?");
    std::copy(c.optimizer.at(kAverageBuffer).begin(), c.optimizer.at(kAverageBuffer).end(), average_->values().begin());
  }
  opt_->steps = c.optimizer_steps;
  data_rng_.SetState(c.rngs.at("data"));
  policy_rng_.SetState(c.rngs.at("policy"));
  step_ = c.step;
  epoch_ = c.epoch;
  wall_s_ = c.scalars.count("wall_s") ? c.scalars.at("wall_s") : 0;
  eval_s_ = c.scalars.count("eval_s") ? c.scalars.at("eval_s") : 0;
  test_s_ = c.scalars.count("test_s") ? c.scalars.at("test_s") : 0;
  images_seen_ = c.scalars.count("images_seen") ? static_cast<std::int64_t>(c.scalars.at("images_seen")) : 0;
  last_val_error_ = c.scalars.count("last_val_error") ? c.scalars.at("last_val_error") : -1;
  best_val_error_ =
      c.scalars.count("best_val_error") ? c.scalars.at("best_val_error") : std::numeric_limits<double>::infinity();
  baseline_state_ = estimator_->StartState();  // each of its names as the checkpoint has it
  for (auto& [name, value] : baseline_state_)
    if (c.scalars.count(name)) value = c.scalars.at(name);
  lr_scale_ = c.scalars.count("lr_scale") ? c.scalars.at("lr_scale") : 1.0;
  rollbacks_ = c.scalars.count("rollbacks") ? static_cast<int>(c.scalars.at("rollbacks")) : 0;
  // Rows written after the checkpoint belong to the lost part of the run: drop them.
  TruncateSeries(c.lengths);
}

void Trainer::TruncateSeries(const std::map<std::string, std::int64_t>& lengths) {
  auto length = [&](const char* g) { return static_cast<std::size_t>(lengths.count(g) ? lengths.at(g) : 0); };
  for (const char* g : {"/train", "/eval", "/diagnostics"}) file_->TruncateSeries(g, length(g));
  file_->TruncateGroupBlocks(agent_->examples_group(), length("/trajectories"));
}

std::size_t Trainer::ExamplesLogged() const {
  const std::string epochs = agent_->examples_group() + "/epoch";
  return file_ && file_->Exists(epochs) ? file_->ReadArray<std::int64_t>(epochs).size() : 0;
}

}  // namespace glimpse
