// Trainer: gradient-variance diagnostics of the location policy's estimator.
#include <cmath>

#include "src/train/trainer.h"

namespace glimpse {

Trainer::Diagnostic Trainer::MeasureGradientVariance(int draws) {
  const int B = std::min(cfg_.batch, task_->size(Split::kTrain)), M = cfg_.samples, N = B * M;
  for (int i = 0; i < B; ++i)
    for (int m = 0; m < M; ++m) batch_idx_[i * M + m] = i;
  train_ep_->Reset(Split::kTrain, batch_idx_.data(), N, 0);
  auto& store = model_->store();
  const ParamInfo& w = store.info(store.Find("location.fc.W"));
  const ParamInfo& b = store.info(store.Find("location.fc.b"));
  const std::size_t first = w.offset, count = w.size + b.size;  // registered together: contiguous
  std::vector<double> mean(count, 0.0), sq(count, 0.0);
  Rng rng(cfg_.seed, "diag");
  const double average = estimator_->average();  // the moving average must not see probe batches
  Diagnostic d;
  for (int k = 0; k < draws; ++k) {
    model_->Forward(train_ep_->images(), N, task_->height(), task_->width(), rollout_, LocationMode::kSample,
                    &rng, cfg_.semi_sampling);
    train_ep_->Classify(rollout_.actions.data(), reward_.data());
    estimator_->set_average(average);
    d.entropy += estimator_->Compute(rollout_, train_ep_->labels(), reward_.data()).entropy / draws;
    store.ZeroGrad();
    model_->Backward(rollout_);
    const float* g = store.grads().data() + first;
    for (std::size_t i = 0; i < count; ++i) mean[i] += g[i], sq[i] += static_cast<double>(g[i]) * g[i];
  }
  estimator_->set_average(average);
  store.ZeroGrad();
  double var_sum = 0, mean_sq = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double m = mean[i] / draws;
    var_sum += std::max(0.0, (sq[i] - draws * m * m) / (draws - 1));
    mean_sq += m * m;
  }
  d.grad_var = var_sum / static_cast<double>(count);
  d.grad_snr = var_sum > 0 ? std::sqrt(mean_sq / var_sum) : 0.0;
  return d;
}

void Trainer::Diagnose() {
  const Diagnostic d = MeasureGradientVariance(cfg_.diag_draws);
  if (file_)
    file_->Append("/diagnostics", {{"step", static_cast<double>(step_)}, {"grad_var", d.grad_var},
                                   {"grad_snr", d.grad_snr}, {"entropy", d.entropy}});
}

}  // namespace glimpse
