#include "src/model/sharded_model.h"

#include <algorithm>

namespace glimpse {
namespace {

// Copies `count` items of `width` from rows [from_row, ...) of step t in a (T, rows_from, width)
// layout to rows [to_row, ...) of step t in a (T, rows_to, width) layout, for every step.
template <class V>
void CopyRows(const V* from, int rows_from, int from_row, V* to, int rows_to, int to_row, int count, int width,
              int steps) {
  for (int t = 0; t < steps; ++t) {
    const V* src = from + (static_cast<Index>(t) * rows_from + from_row) * width;
    std::copy(src, src + static_cast<Index>(count) * width, to + (static_cast<Index>(t) * rows_to + to_row) * width);
  }
}

}  // namespace

template <class T>
ShardedModel<T>::ShardedModel(std::vector<std::unique_ptr<AttentionModel<T>>> replicas, WorkerPool& pool)
    : replicas_(std::move(replicas)), parts_(replicas_.size()), pool_(pool) {
  Check(!replicas_.empty(), "a sharded model needs at least one replica");
  Check(pool_.workers() + 1 >= shards(), "a sharded model of ", shards(), " replicas needs a pool of at least ",
        shards() - 1, " workers, found ", pool_.workers());
  for (const auto& m : replicas_) CheckEq(m->store().size(), store().size(), "parameters of each replica");
}

template <class T>
void ShardedModel<T>::SizeFull(int rows, Rollout<T>& r) const {
  const AttentionModel<T>& m = model();
  const auto TN = static_cast<std::size_t>(m.spec().steps) * rows, N = static_cast<std::size_t>(rows);
  const auto K = static_cast<std::size_t>(m.policy() ? m.policy()->head_size() : m.sensor().param_size());
  const auto P = static_cast<std::size_t>(m.sensor().param_size()), C = static_cast<std::size_t>(m.spec().classes);
  r.steps = m.spec().steps;
  r.rows = rows;
  EnsureShape(r.head, TN, K);
  EnsureShape(r.loc, TN, P);
  r.choice.resize(TN);
  EnsureShape(r.read, TN, P);
  EnsureShape(r.baseline, TN, 1);
  EnsureShape(r.logits, N, C);
  EnsureShape(r.probs, N, C);
  r.actions.resize(N);
  EnsureShape(r.dlogits, N, C);
  EnsureShape(r.step_logits, m.spec().step_logits ? TN : 0, C);
  EnsureShape(r.dstep_logits, m.spec().step_logits ? TN : 0, C);
  EnsureShape(r.dpre, TN, K);
  EnsureShape(r.dbaseline, TN, 1);
}

template <class T>
void ShardedModel<T>::Forward(const T* images, int rows, int height, int width, Rollout<T>& r, LocationMode mode,
                              Rng* rng, double semi_sampling) {
  const int S = SharesFor(rows, shards());
  if (S == 1) return model().Forward(images, rows, height, width, r, mode, rng, semi_sampling);
  Check(mode != LocationMode::kGiven, "given locations are for the single model (gradient checks)");
  mode = model().Resolve(mode);
  Check(mode != LocationMode::kSample || rng != nullptr, "sampling locations needs an Rng");
  if (mode == LocationMode::kSample) model().DrawNoise(rows, *rng, semi_sampling, r);
  SizeFull(rows, r);
  r.images = images, r.height = height, r.width = width;
  const int TT = r.steps, K = static_cast<int>(r.head.shape(1)), P = static_cast<int>(r.loc.shape(1));
  const int C = static_cast<int>(r.logits.shape(1));
  const int Z = model().noise_size();
  pool_.Run(S, [&](int s) {
    const int n0 = ShareBegin(s, rows, S), ns = ShareBegin(s + 1, rows, S) - n0;
    Rollout<T>& p = parts_[s];
    if (s > 0) {  // this replica takes replica 0's current parameters
      const auto& values = store().values();
      std::copy(values.begin(), values.end(), replicas_[s]->store().values().begin());
    }
    if (mode == LocationMode::kSample) {  // this shard's rows of the batch's draws
      p.noise.resize(static_cast<std::size_t>(TT) * ns * Z);
      p.expected.resize(static_cast<std::size_t>(TT) * ns);
      CopyRows(r.noise.data(), rows, n0, p.noise.data(), ns, 0, ns, Z, TT);
      CopyRows(r.expected.data(), rows, n0, p.expected.data(), ns, 0, ns, 1, TT);
    }
    replicas_[s]->ForwardDrawn(images + static_cast<Index>(n0) * height * width, ns, height, width, p, mode);
    CopyRows(p.head.data(), ns, 0, r.head.data(), rows, n0, ns, K, TT);
    CopyRows(p.loc.data(), ns, 0, r.loc.data(), rows, n0, ns, P, TT);
    CopyRows(p.read.data(), ns, 0, r.read.data(), rows, n0, ns, P, TT);
    CopyRows(p.choice.data(), ns, 0, r.choice.data(), rows, n0, ns, 1, TT);
    CopyRows(p.baseline.data(), ns, 0, r.baseline.data(), rows, n0, ns, 1, TT);
    CopyRows(p.logits.data(), ns, 0, r.logits.data(), rows, n0, ns, C, 1);
    if (model().spec().step_logits) CopyRows(p.step_logits.data(), ns, 0, r.step_logits.data(), rows, n0, ns, C, TT);
    CopyRows(p.actions.data(), ns, 0, r.actions.data(), rows, n0, ns, 1, 1);
  });
}

template <class T>
void ShardedModel<T>::Backward(Rollout<T>& r) {
  const int rows = r.rows, S = SharesFor(rows, shards());
  if (S == 1) return model().Backward(r);
  const int TT = r.steps, K = static_cast<int>(r.dpre.shape(1)), C = static_cast<int>(r.dlogits.shape(1));
  pool_.Run(S, [&](int s) {
    const int n0 = ShareBegin(s, rows, S), ns = ShareBegin(s + 1, rows, S) - n0;
    Rollout<T>& p = parts_[s];
    CheckEq(p.rows, ns, "rows of a shard (Backward must follow this model's Forward)");
    CopyRows(r.dlogits.data(), rows, n0, p.dlogits.data(), ns, 0, ns, C, 1);
    if (model().spec().step_logits) CopyRows(r.dstep_logits.data(), rows, n0, p.dstep_logits.data(), ns, 0, ns, C, TT);
    CopyRows(r.dpre.data(), rows, n0, p.dpre.data(), ns, 0, ns, K, TT);
    CopyRows(r.dbaseline.data(), rows, n0, p.dbaseline.data(), ns, 0, ns, 1, TT);
    if (s > 0) replicas_[s]->store().ZeroGrad();  // replica 0 accumulates, as the single model does
    replicas_[s]->Backward(p);
  });
  // Replica 0's gradients += the others', in shard order; each thread sums a slice of the parameters.
  T* g = store().grads().data();
  const std::size_t size = store().size();
  pool_.Run(S, [&](int s) {
    const std::size_t lo = size * s / S, hi = size * (s + 1) / S;
    for (int o = 1; o < S; ++o) {
      const T* go = replicas_[o]->store().grads().data();
      for (std::size_t i = lo; i < hi; ++i) g[i] += go[i];
    }
  });
}

template class ShardedModel<float>;
template class ShardedModel<double>;

}  // namespace glimpse
