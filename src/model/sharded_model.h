// Data parallelism for the attention model: S replicas of one AttentionModel, each running a
// contiguous slice of the batch's rows on its own thread (one BLAS thread each), behind the same
// Forward / Backward as the model itself.
//
//   Forward:  replica 0's parameters are copied to the others; the location draws of the whole
//             batch are made first, in the single-model order (AttentionModel::DrawNoise), and each
//             shard takes its rows; each shard's episodes run on its replica; the results the loss
//             reads (head, loc, choice, read, baseline, logits, actions) are gathered into one
//             full-batch Rollout, so every Estimator sees exactly the batch it would without shards.
//   Backward: the loss's signals (dlogits, dpre, dbaseline) are scattered back to the shards, each
//             replica back-propagates its rows into its own gradients, and replica 0 adds the
//             others' (in shard order, so a run is reproducible for a given shard count).
//
// The result equals the single model's up to float rounding: the draws are identical, and only the
// order in which the weight gradients of the rows are summed differs. With one replica it is the
// single model, call for call. The optimizer steps replica 0's store (store()).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "src/core/worker_pool.h"
#include "src/model/attention_model.h"

namespace glimpse {

template <class T>
class ShardedModel {
 public:
  // replicas: S >= 1 models of one spec; replica 0's parameters are the model's. pool: at least
  // S - 1 workers, shared with the caller (which may use it between calls, e.g. to render a batch).
  ShardedModel(std::vector<std::unique_ptr<AttentionModel<T>>> replicas, WorkerPool& pool);

  // As AttentionModel::Forward, into the full-batch rollout r (only the fields listed above, plus
  // probs, dlogits, dpre and dbaseline sized for the loss; the per-step caches stay in the shards
  // when S > 1).
  void Forward(const T* images, int rows, int height, int width, Rollout<T>& r, LocationMode mode, Rng* rng,
               double semi_sampling = 0.0);
  // As AttentionModel::Backward: accumulates into store()'s gradients from r's signals.
  void Backward(Rollout<T>& r);

  int shards() const { return static_cast<int>(replicas_.size()); }
  AttentionModel<T>& model() { return *replicas_[0]; }
  const AttentionModel<T>& model() const { return *replicas_[0]; }
  ParamStore<T>& store() { return replicas_[0]->store(); }
  const ParamStore<T>& store() const { return replicas_[0]->store(); }
  void set_sensor_timer(double* seconds) { replicas_[0]->set_sensor_timer(seconds); }
  void SetInputs(const StepInputs& inputs) {
    for (auto& m : replicas_) m->SetInputs(inputs);
  }

 private:
  void SizeFull(int rows, Rollout<T>& r) const;

  std::vector<std::unique_ptr<AttentionModel<T>>> replicas_;
  std::vector<Rollout<T>> parts_;
  WorkerPool& pool_;
};

}  // namespace glimpse
