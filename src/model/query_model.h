// A query-conditioned item-attention model for the strip5 task (issue 11): "is there a q, and in
// which slot?" over S = 5 item slots.
//
//   x_i   = pixels of slot i (784)                           i = 0..S-1, per strip
//   f_i   = relu(W_2 relu(W_1 x_i + b_1) + b_2)   (F)        slot network, shared by the slots
//   k_i   = W_k f_i                               (a)        keys
//   v_i   = [f_i ; onehot(i)]                     (F + S)    values: content and position
//   q     = E[query]                              (a)        query embedding
//   e_i   = score(k_i, q)                                    additive | dot | scaled-dot
//   alpha = softmax(e)                            (S)
//   soft: c = sum_i alpha_i v_i                              (Show, Attend and Tell, soft)
//   hard: c = v_j, j ~ Categorical(alpha)                    (hard: REINFORCE; evaluation: argmax)
//   logits = W_o relu(W_h [c ; q] + b_h) + b_o    (S + 1)    answer network: slot 0..4 or absent
//   b     = W_b q + c_b                                      baseline network (q detached)
//
// The estimator-facing part of the forward pass lives in a Rollout with one step and N rows
// (head = alpha, choice = j, dpre = dLoss/de, baseline), so the REINFORCE estimators of src/rl
// (baselines none | learned | average | loo, reward normalisation, entropy) train the hard choice
// unchanged: a CategoricalPolicy over a 5 x 1 grid is exactly softmax(e) over the slots.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/attention/attention_score.h"
#include "src/core/params.h"
#include "src/model/attention_model.h"
#include "src/model/rollout.h"
#include "src/nn/activations.h"
#include "src/nn/linear.h"
#include "src/rl/categorical_policy.h"

namespace glimpse {

// The strip's geometry, as the model reads it: kQuerySlots slots of kQuerySlotSide x kQuerySlotSide
// pixels side by side, and an answer per slot plus "absent". (strip5's task, envs/strip5.h, has the
// same numbers; src/train/query_agent.cpp asserts that they agree.)
constexpr int kQuerySlots = 5;
constexpr int kQuerySlotSide = 28;
constexpr int kQueryAnswers = kQuerySlots + 1;

struct QuerySpec {
  int slot_hidden = 256;  // W_1 outputs (--hidden)
  int features = 128;     // F (--glimpse-hidden); also the answer network's hidden size
  int att = 64;           // a: key and query size (--attention-dim)
  ScoreKind score = ScoreKind::kAdditive;
  bool hard = false;  // categorical choice of one slot (else soft attention)
};

template <class T>
struct QueryRollout {
  static constexpr int S = kQuerySlots;
  int rows = 0;
  std::vector<std::int32_t> query;  // (N)
  Mat<T> x, h1, f, keys;            // (N S, 784), (N S, slot_hidden), (N S, F), (N S, a)
  Mat<T> q;                         // (N, a)
  Mat<T> z, a1;                     // (N, F + S + a), (N, F) answer network input and hidden
  Rollout<T> r;                     // head = alpha (N, S), choice, dpre = dL/de, logits, baseline
  // backward scratch
  Mat<T> dz, da1, df, dh1, dkeys, dq;
};

template <class T>
class QueryModel {
 public:
  static constexpr int S = kQuerySlots;
  static constexpr int kPixels = kQuerySlotSide * kQuerySlotSide;

  explicit QueryModel(const QuerySpec& spec)
      : spec_(spec),
        policy_(spec.hard ? std::make_unique<CategoricalPolicy<T>>(S, 1) : nullptr),
        fc1_(store_, "slot.fc1", kPixels, spec.slot_hidden),
        fc2_(store_, "slot.fc2", spec.slot_hidden, spec.features),
        key_(store_, "attention.Wk", spec.features, spec.att, /*bias=*/false),
        answer1_(store_, "answer.fc1", spec.features + S + spec.att, spec.features),
        answer2_(store_, "answer.fc2", spec.features, kQueryAnswers),
        baseline_(store_, "baseline.fc", spec.att, 1) {
    CheckRange(spec.slot_hidden, 1, 1 << 16, "slot network size (--hidden)");
    CheckRange(spec.features, 1, 1 << 16, "slot features (--glimpse-hidden)");
    CheckRange(spec.att, 1, 4096, "query and key size (--attention-dim)");
    embed_ = store_.Register("query.E", {10, static_cast<std::size_t>(spec.att)});
    if (spec.score == ScoreKind::kAdditive) v_ = store_.Register("attention.v", {static_cast<std::size_t>(spec.att)});
    store_.Allocate();
  }

  // The tensors the REINFORCE gradient reaches with hard attention: the query embedding, the key
  // projection and (additive scores) v; none with soft attention.
  std::vector<ParamId> PolicyParams() const {
    if (!policy_) return {};
    std::vector<ParamId> ids = {embed_};
    for (ParamId id : key_.params()) ids.push_back(id);
    if (v_ >= 0) ids.push_back(v_);
    return ids;
  }

  void Init(Rng& rng) {
    fc1_.Init(rng);
    fc2_.Init(rng);
    key_.Init(rng);
    store_.InitUniform(embed_, T(1), rng);
    if (v_ >= 0) store_.InitUniform(v_, static_cast<T>(1 / std::sqrt(static_cast<double>(spec_.att))), rng);
    answer1_.Init(rng);
    answer2_.Init(rng);
    baseline_.Init(rng);
  }

  // strips (N, 28, 140), queries (N). kSample draws the hard choice with rng; kMean takes the argmax
  // of alpha; kGiven keeps qr.r.choice (gradient checks). Soft attention ignores the mode.
  void Forward(const T* strips, const std::int32_t* queries, int rows, QueryRollout<T>& qr, LocationMode mode,
               Rng* rng) const {
    Prepare(rows, qr);
    const int F = spec_.features, A = spec_.att, NS = rows * S, W = kQuerySlotSide * S;
    Rollout<T>& r = qr.r;
    for (int n = 0; n < rows; ++n) {  // gather each slot's pixels into a row
      CheckRange(queries[n], 0, 9, "query digit");
      qr.query[n] = queries[n];
      for (int i = 0; i < S; ++i)
        for (int y = 0; y < kQuerySlotSide; ++y)
          std::copy_n(strips + (static_cast<Index>(n) * kQuerySlotSide + y) * W + i * kQuerySlotSide, kQuerySlotSide,
                      qr.x.data() + static_cast<Index>(n * S + i) * kPixels + y * kQuerySlotSide);
    }
    fc1_.Forward(qr.x.data(), NS, qr.h1.data());
    ReluForward(qr.h1.data(), qr.h1.size(), qr.h1.data());
    fc2_.Forward(qr.h1.data(), NS, qr.f.data());
    ReluForward(qr.f.data(), qr.f.size(), qr.f.data());
    key_.Forward(qr.f.data(), NS, qr.keys.data());
    const T* E = store_.value(embed_);
    const T* v = v_ >= 0 ? store_.value(v_) : nullptr;
    for (int n = 0; n < rows; ++n) {
      T* q = qr.q.data() + static_cast<Index>(n) * A;
      std::copy_n(E + static_cast<Index>(queries[n]) * A, A, q);
      double e[S], m = -1e300, sum = 0;
      for (int i = 0; i < S; ++i) {
        e[i] = ScoreForward(spec_.score, qr.keys.data() + static_cast<Index>(n * S + i) * A, q, v, A);
        m = std::max(m, e[i]);
      }
      for (int i = 0; i < S; ++i) sum += (e[i] = std::exp(e[i] - m));
      T* alpha = r.head.data() + static_cast<Index>(n) * S;
      for (int i = 0; i < S; ++i) alpha[i] = static_cast<T>(e[i] / sum);
    }
    if (policy_ && mode == LocationMode::kSample) {
      Check(rng != nullptr, "sampling the slot choice needs a random generator");
      policy_->Sample(r.head.data(), rows, *rng, r.noise, r.loc.data(), r.choice.data());
    } else if (!policy_ || mode == LocationMode::kMean) {
      for (int n = 0; n < rows; ++n) {
        const T* alpha = r.head.data() + static_cast<Index>(n) * S;
        r.choice[n] = static_cast<std::int32_t>(std::max_element(alpha, alpha + S) - alpha);
      }
    }
    // The answer network's input z = [c ; q].
    const int Z = F + S + A;
    for (int n = 0; n < rows; ++n) {
      T* z = qr.z.data() + static_cast<Index>(n) * Z;
      const T* alpha = r.head.data() + static_cast<Index>(n) * S;
      std::fill(z, z + F + S, T(0));
      for (int i = 0; i < S; ++i) {
        const T w = policy_ ? (i == r.choice[n] ? T(1) : T(0)) : alpha[i];
        if (w == T(0)) continue;
        const T* f = qr.f.data() + static_cast<Index>(n * S + i) * F;
        for (int j = 0; j < F; ++j) z[j] += w * f[j];
        z[F + i] = w;
      }
      std::copy_n(qr.q.data() + static_cast<Index>(n) * A, A, z + F + S);
    }
    answer1_.Forward(qr.z.data(), rows, qr.a1.data());
    ReluForward(qr.a1.data(), qr.a1.size(), qr.a1.data());
    answer2_.Forward(qr.a1.data(), rows, r.logits.data());
    for (int n = 0; n < rows; ++n) {
      const T* l = r.logits.data() + static_cast<Index>(n) * kQueryAnswers;
      r.actions[n] = static_cast<std::int32_t>(std::max_element(l, l + kQueryAnswers) - l);
    }
    baseline_.Forward(qr.q.data(), rows, r.baseline.data());
  }

  // Back-propagates r.dlogits, r.dpre (REINFORCE at the scores, hard only) and r.dbaseline, set by
  // an Estimator, into the gradients (accumulating; call store().ZeroGrad() first).
  void Backward(QueryRollout<T>& qr) {
    const int N = qr.rows, F = spec_.features, A = spec_.att, NS = N * S, Z = F + S + A;
    Rollout<T>& r = qr.r;
    answer2_.Backward(qr.a1.data(), r.dlogits.data(), N, qr.da1.data());
    ReluBackward(qr.a1.data(), qr.da1.data(), qr.da1.size(), qr.da1.data());
    answer1_.Backward(qr.z.data(), qr.da1.data(), N, qr.dz.data());
    std::fill(qr.df.begin(), qr.df.end(), T(0));
    std::fill(qr.dkeys.begin(), qr.dkeys.end(), T(0));
    const T* v = v_ >= 0 ? store_.value(v_) : nullptr;
    T* dv = v_ >= 0 ? store_.grad(v_) : nullptr;
    T* dE = store_.grad(embed_);
    for (int n = 0; n < N; ++n) {
      const T* dz = qr.dz.data() + static_cast<Index>(n) * Z;
      const T* alpha = r.head.data() + static_cast<Index>(n) * S;
      T* dq = qr.dq.data() + static_cast<Index>(n) * A;
      std::copy_n(dz + F + S, A, dq);  // the answer network reads q directly
      double de[S];
      for (int i = 0; i < S; ++i) de[i] = r.dpre.data()[static_cast<Index>(n) * S + i];
      if (policy_) {  // c = v_j: the content gradient goes to the chosen slot only
        T* df = qr.df.data() + static_cast<Index>(n * S + r.choice[n]) * F;
        for (int j = 0; j < F; ++j) df[j] += dz[j];
      } else {  // c = sum_i alpha_i v_i: through the weights and the softmax
        double dalpha[S], dot = 0;
        for (int i = 0; i < S; ++i) {
          const T* f = qr.f.data() + static_cast<Index>(n * S + i) * F;
          T* df = qr.df.data() + static_cast<Index>(n * S + i) * F;
          double s = dz[F + i];
          for (int j = 0; j < F; ++j) {
            s += static_cast<double>(dz[j]) * f[j];
            df[j] += alpha[i] * dz[j];
          }
          dalpha[i] = s;
          dot += alpha[i] * s;
        }
        for (int i = 0; i < S; ++i) de[i] += alpha[i] * (dalpha[i] - dot);
      }
      const T* q = qr.q.data() + static_cast<Index>(n) * A;
      for (int i = 0; i < S; ++i) {
        const Index k = static_cast<Index>(n * S + i) * A;
        ScoreBackward(spec_.score, qr.keys.data() + k, q, v, A, de[i], qr.dkeys.data() + k, dq, dv);
      }
      T* dEq = dE + static_cast<Index>(qr.query[n]) * A;
      for (int j = 0; j < A; ++j) dEq[j] += dq[j];
    }
    key_.Backward(qr.f.data(), qr.dkeys.data(), NS, qr.df.data(), /*accumulate_dx=*/true);
    ReluBackward(qr.f.data(), qr.df.data(), qr.df.size(), qr.df.data());
    fc2_.Backward(qr.h1.data(), qr.df.data(), NS, qr.dh1.data());
    ReluBackward(qr.h1.data(), qr.dh1.data(), qr.dh1.size(), qr.dh1.data());
    fc1_.BackwardParams(qr.x.data(), qr.dh1.data(), NS);
    if (policy_) baseline_.BackwardParams(qr.q.data(), r.dbaseline.data(), N);
  }

  ParamStore<T>& store() { return store_; }
  const ParamStore<T>& store() const { return store_; }
  const QuerySpec& spec() const { return spec_; }
  const LocationPolicy<T>* policy() const { return policy_.get(); }  // null: soft attention

 private:
  // Sizes every buffer for `rows` (allocates only when the batch size changes).
  void Prepare(int rows, QueryRollout<T>& qr) const {
    CheckRange(rows, 1, 1 << 20, "query model batch");
    const auto N = static_cast<std::size_t>(rows), NS = N * S, F = static_cast<std::size_t>(spec_.features),
               A = static_cast<std::size_t>(spec_.att), Z = F + S + A, C = static_cast<std::size_t>(kQueryAnswers);
    qr.rows = rows;
    qr.query.resize(N);
    EnsureShape(qr.x, NS, static_cast<std::size_t>(kPixels));
    EnsureShape(qr.h1, NS, static_cast<std::size_t>(spec_.slot_hidden));
    EnsureShape(qr.dh1, NS, static_cast<std::size_t>(spec_.slot_hidden));
    EnsureShape(qr.f, NS, F);
    EnsureShape(qr.df, NS, F);
    EnsureShape(qr.keys, NS, A);
    EnsureShape(qr.dkeys, NS, A);
    EnsureShape(qr.q, N, A);
    EnsureShape(qr.dq, N, A);
    EnsureShape(qr.z, N, Z);
    EnsureShape(qr.dz, N, Z);
    EnsureShape(qr.a1, N, F);
    EnsureShape(qr.da1, N, F);
    Rollout<T>& r = qr.r;
    r.steps = 1;
    r.rows = rows;
    EnsureShape(r.head, N, static_cast<std::size_t>(S));
    EnsureShape(r.dpre, N, static_cast<std::size_t>(S));
    EnsureShape(r.loc, N, 2);
    r.choice.resize(N);
    EnsureShape(r.baseline, N, 1);
    EnsureShape(r.dbaseline, N, 1);
    EnsureShape(r.logits, N, C);
    EnsureShape(r.probs, N, C);
    EnsureShape(r.dlogits, N, C);
    r.actions.resize(N);
  }

  QuerySpec spec_;
  ParamStore<T> store_;
  std::unique_ptr<CategoricalPolicy<T>> policy_;
  Linear<T> fc1_, fc2_, key_, answer1_, answer2_, baseline_;
  ParamId embed_ = -1, v_ = -1;
};

}  // namespace glimpse
