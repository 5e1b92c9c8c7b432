// Trainer: gradient-variance diagnostics of the location policy's estimator.
#include <cmath>

#include "src/train/trainer.h"

namespace glimpse {

Trainer::Diagnostic Trainer::MeasureGradientVariance(int draws) {
  CheckRange(draws, 2, 1 << 20, "diagnostic draws (--diag-draws)");
  const int B = std::min(cfg_.batch, task_->size(Split::kTrain));
  std::vector<std::int64_t> probe(B);
  for (int i = 0; i < B; ++i) probe[i] = i;
  auto& store = agent_->store();
  std::vector<const ParamInfo*> tensors;  // the tensors that receive the REINFORCE gradient
  for (const ParamId id : agent_->policy().params) tensors.push_back(&store.info(id));
  Check(!tensors.empty(), "gradient-variance diagnostics need draws to vary over: a hard-attention policy or a ",
        "noisy read (--attention ", cfg_.attention, " reads deterministically); use --diag-every 0");
  std::size_t count = 0;
  for (const ParamInfo* p : tensors) count += p->size;
  std::vector<double> mean(count, 0.0), sq(count, 0.0);
  Rng rng(cfg_.seed, "diag");
  Diagnostic d;
  for (int k = 0; k < draws; ++k) {
    BaselineState probe_state = baseline_state_;  // a copy: probe batches never move the run's baseline
    d.entropy += ComputeGradients(probe.data(), B, 0, rng, probe_state).entropy / draws;
    std::size_t i = 0;
    for (const ParamInfo* p : tensors)
      for (std::size_t j = 0; j < p->size; ++j, ++i) {
        const double g = store.grads()[p->offset + j];
        mean[i] += g, sq[i] += g * g;
      }
  }
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
  if (logger_->recording())
    logger_->Series("/diagnostics", {{"step", static_cast<double>(step_)},
                                     {"grad_var", d.grad_var},
                                     {"grad_snr", d.grad_snr},
                                     {"entropy", d.entropy}});
}

}  // namespace glimpse
