// Dense rewards (issue 24): each glimpse is rewarded by the reduction of the classifier's
// cross-entropy it brought, r_t = CE_{t-1} - CE_t (CE_0 = log C), and step t's return is the
// discounted sum G_t = r_t + gamma G_{t+1} (reward.h). Needs the classifier after every glimpse.
#include <cmath>

#include "src/rl/reward.h"

namespace glimpse {

const KindOption<double> kDiscount{"discount", "policy",
                                   "--reward dense: discount gamma of later glimpses' rewards (1: the sum; 0: "
                                   "each glimpse's own reduction only)",
                                   1.0, Between(0, 1)};

RewardKind DenseRewardKind() {
  RewardKind k;
  k.name = "dense";
  k.help = "the cross-entropy reduction after each glimpse, summed with --discount (needs --step-loss > 0)";
  k.per_step = true;
  k.options = {kDiscount.Row()};
  k.validate = [](const Settings&, const SharedFacts& f) {
    Check(f.step_loss > 0, "option --reward dense rewards each glimpse by the classifier after it, which is trained ",
          "only with an auxiliary loss at every step: give --step-loss, e.g. 1");
  };
  k.make = [](const Settings& s) -> ReturnsFn {
    const double gamma = kDiscount.Get(s);
    return [gamma](const Outcome& o, std::vector<double>& G) {
      const double chance = std::log(static_cast<double>(o.classes));
      const std::size_t N = static_cast<std::size_t>(o.rows), TT = static_cast<std::size_t>(o.steps);
      const std::vector<double>& ce = *o.step_ce;
      G.resize(N * TT);
      for (std::size_t n = 0; n < N; ++n) {
        double next = 0;  // G_{t+1}
        for (std::size_t t = TT; t >= 1; --t) {
          const double before = t == 1 ? chance : ce[(t - 2) * N + n];
          next = G[(t - 1) * N + n] = before - ce[(t - 1) * N + n] + gamma * next;
        }
      }
    };
  };
  return k;
}

}  // namespace glimpse
