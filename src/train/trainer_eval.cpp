// Trainer: evaluation (validation and test passes, M sampled episodes, the parameter average), and
// what the end of an epoch does with it (the /eval row, the examples, /best, the epoch line).
#include <algorithm>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

#include "src/core/machine.h"
#include "src/store/checkpoint.h"
#include "src/train/trainer.h"

namespace glimpse {
namespace {

// Swaps the values of two equal-sized buffers for its lifetime (the parameter average evaluated in the
// training parameters' place), and back when it ends; no allocation.
class SwappedIn {
 public:
  SwappedIn(Vec<float>& a, Vec<float>& b) : a_(a), b_(b) { Swap(); }
  ~SwappedIn() { Swap(); }
  SwappedIn(const SwappedIn&) = delete;
  SwappedIn& operator=(const SwappedIn&) = delete;

 private:
  void Swap() { std::swap_ranges(a_.begin(), a_.end(), b_.begin()); }
  Vec<float>& a_;
  Vec<float>& b_;
};

}  // namespace

std::string Trainer::DescribeEval(int samples) const {
  const LocationPolicy<float>* p = agent_->policy().policy;
  if (!p) return "deterministic reads";
  if (samples > 1) return "class probabilities averaged over the sampled episodes (seeded)";
  return p->has_mean() ? p->greedy_name() : "one seeded sample: the policy has no mean";
}

EvalResult Trainer::Evaluate(Split split, int samples, int max_images) {
  CheckRange(samples, 1, 1024, "evaluation samples");
  Check(samples == 1 || agent_->policy().policy != nullptr, "--attention ", cfg_.attention,
        " reads deterministically: M sampled episodes would all be the same; evaluate with one sample");
  EvalResult res;
  res.samples = samples;
  res.images = std::min(max_images, task_->size(split));
  const int B = cfg_.batch, M = samples;
  Rng eval_rng(cfg_.seed, "eval");  // a fresh stream per evaluation: evaluating never changes training
  std::vector<std::int64_t> idx(static_cast<std::size_t>(B) * M);
  std::vector<double> avg;
  std::map<std::string, std::pair<double, double>> counts;
  int wrong = 0;
  res.labels.reserve(res.images), res.answers.reserve(res.images);
  for (int start = 0; start < res.images; start += B) {
    const int n = std::min(B, res.images - start);
    for (int i = 0; i < n; ++i)
      for (int m = 0; m < M; ++m) idx[i * M + m] = start + i;
    Render(eval_batch_, split, idx.data(), n * M, 0);
    const StepContext ctx{M == 1 ? LocationMode::kMean : LocationMode::kSample, &eval_rng, 0.0, inputs_};
    const Mat<float>& logits = agent_->Forward(eval_batch_, ctx).trace->logits;  // (n M, C)
    const int C = static_cast<int>(logits.shape(1));
    avg.resize(C);
    for (int i = 0; i < n; ++i) {
      std::fill(avg.begin(), avg.end(), 0.0);
      for (int m = 0; m < M; ++m)  // average the class probabilities of the M episodes
        AddProbabilities(logits.data() + static_cast<std::ptrdiff_t>(i * M + m) * C, C, avg.data());
      const int guess = static_cast<int>(std::max_element(avg.begin(), avg.end()) - avg.begin());
      wrong += guess != eval_batch_.labels[i * M];
      res.labels.push_back(eval_batch_.labels[i * M]), res.answers.push_back(guess);
      int named[2];  // a two-digit answer's digits: the per-digit error beside the whole answer's
      const int k = task_->Decode(guess, named);
      if (k > 0) {
        const SampleInfo& info = eval_batch_.info[static_cast<std::size_t>(i) * M];
        auto& [digit_wrong, digits] = counts["digit_error"];
        for (int o = 0; o < k; ++o) digit_wrong += named[o] != info.labels[o], digits += 1;
        if (k == 2) {  // the unordered pair: both digits named, in either order (a set's score)
          auto& [pair_wrong, pairs] = counts["unordered_error"];
          const int a = info.labels[0], b = info.labels[1];
          pair_wrong += !((named[0] == a && named[1] == b) || (named[0] == b && named[1] == a)), pairs += 1;
        }
      }
    }
    agent_->CountMetrics(eval_batch_, M, counts);
  }
  res.error = static_cast<double>(wrong) / res.images;
  for (const auto& [name, hc] : counts) res.extra[name] = hc.second > 0 ? hc.first / hc.second : 0.0;
  return res;
}

EvalResult Trainer::EvaluateAverage(Split split, int samples, int max_images) {
  Check(average_ != nullptr, "this run keeps no parameter average (--average 0)");
  const SwappedIn averaged(agent_->store().values(), average_->values());
  return Evaluate(split, samples, max_images);
}

void Trainer::EndEpoch() {
  const bool eval_now = epoch_ % cfg_.eval_every == 0 || epoch_ == cfg_.epochs;
  if (eval_now) {
    const double t0 = SteadySeconds();
    SetProgressAt(step_);  // the schedules' value after the updates done, as glimpse eval sets it (LoadWeights)
    // With --average the training parameters are evaluated first (the *_raw columns); the average then
    // takes their place for the evaluation that selects, the examples and /best, and gives it back.
    // Validation (cfg_.val_images) then the whole test split, M = 1, with the parameters in the store now;
    // the test split only every --test-every evaluations and at the last epoch (never with 0: NaN).
    const std::int64_t evaluation = epoch_ / cfg_.eval_every;
    const bool test_now = cfg_.test_every > 0 && (evaluation % cfg_.test_every == 0 || epoch_ == cfg_.epochs);
    const auto val_and_test = [this, test_now] {
      EvalResult val = Evaluate(Split::kVal, 1, cfg_.val_images), test;
      if (test_now) {
        const double t_test = SteadySeconds();
        test = Evaluate(Split::kTest, 1, task_->size(Split::kTest));
        test_s_ += SteadySeconds() - t_test;
      } else {  // every column still gets its row
        test.error = std::numeric_limits<double>::quiet_NaN();
        for (const auto& [name, value] : val.extra) test.extra[name] = std::numeric_limits<double>::quiet_NaN();
      }
      return std::pair{val, test};
    };
    std::pair<EvalResult, EvalResult> raw;
    if (average_) raw = val_and_test();
    const auto& [val_raw, test_raw] = raw;
    std::optional<SwappedIn> averaged;
    if (average_) averaged.emplace(agent_->store().values(), average_->values());
    const auto [val, test] = val_and_test();
    last_val_error_ = val.error;
    eval_s_ += SteadySeconds() - t0;
    if (logger_->recording()) {
      // images, train_s and eval_s: what the run had cost when this evaluation was made (time to accuracy).
      std::vector<std::pair<std::string, double>> row = {{"step", static_cast<double>(step_)},
                                                         {"epoch", static_cast<double>(epoch_)},
                                                         {"val_error", val.error},
                                                         {"test_error", test.error},
                                                         {"rss_mb", ResidentMb()},
                                                         {"images", static_cast<double>(images_seen_)},
                                                         {"train_s", wall_s_},
                                                         {"eval_s", eval_s_},
                                                         {"test_s", test_s_}};
      if (average_) row.insert(row.end(), {{"val_error_raw", val_raw.error}, {"test_error_raw", test_raw.error}});
      for (const auto& [name, value] : test.extra) row.emplace_back("test_" + name, value);
      logger_->Series("/eval", row);
      agent_->LogExamples(*task_, *logger_, epoch_);
    }
    if (file_ && val.error < best_val_error_) {  // chosen on validation error only
      best_val_error_ = val.error;
      SaveBestNow();
      if (test_now)  // the selected evaluation's test answers: paired comparisons need no parameters
        SaveBestTestAnswers(*file_, epoch_, test.labels, test.answers);
      else
        MarkBestTestAnswersStale(*file_);
    }
    averaged.reset();  // the training parameters are back
    // A test error is "-" where the test split was not evaluated, "hidden" where the messages leave it out.
    auto test_cell = [&](double error) {
      return !test_now    ? std::string("-")
             : show_test_ ? Format(std::fixed, std::setprecision(2), 100 * error, "%")
                          : std::string("hidden");
    };
    std::ostringstream line;
    line << "epoch " << epoch_ << "/" << cfg_.epochs << " done | val_error " << std::fixed << std::setprecision(2)
         << 100 * val.error << "% test_error " << test_cell(test.error) << " (" << DescribeEval(1)
         << (average_ ? ", parameter average" : "") << ")";
    if (average_)
      line << " | training parameters: val_error " << 100 * val_raw.error << "% test_error "
           << test_cell(test_raw.error);
    for (const auto& [name, value] : test.extra) line << " test_" << name << " " << test_cell(value);
    line << " | train " << Duration(wall_s_) << ", eval " << Duration(SteadySeconds() - t0) << " | rss "
         << std::setprecision(0) << ResidentMb() << " MB";
    const double per_epoch = wall_s_ / std::max<std::int64_t>(1, epoch_);
    line << " | ETA " << Duration(per_epoch * (cfg_.epochs - epoch_));
    progress_->Line(line.str());
  }
  if (file_) {
    SaveCheckpointNow();
    Sync(true);
  }
}

}  // namespace glimpse
