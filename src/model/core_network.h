// RAM's core network over a whole episode: h_t = f(g_t, h_{t-1}), t = 1..T, h_0 = 0 (and c_0 = 0),
// or an h_0 the caller writes after Prepare (DRAM's context network; given_h0), c_0 staying 0.
//
// All per-step tensors live in a CoreCache as (T+1) or T blocks of N rows, so Backward can form the
// weight gradients of every step in one large matrix product; only dh_{t-1} = dpre_t Wh is
// sequential.
#pragma once

#include <memory>
#include <string>

#include "src/core/params.h"

namespace glimpse {

template <class T>
struct CoreCache {
  int steps = 0, rows = 0, hidden = 0;
  // Set by the caller after Prepare when it has written h_0 (block 0 of h): step 1 then reads h_0,
  // and the backward pass leaves dh_0 in block 0 of dH and gives the recurrent weights step 1's
  // share. Prepare clears it (h_0 = 0: those products are skipped).
  bool given_h0 = false;
  Mat<T> h;       // ((T+1) N, H): block 0 is h_0 = 0
  Mat<T> c;       // LSTM: ((T+1) N, H), block 0 is c_0 = 0
  Mat<T> gates;   // LSTM: (T N, 4H) activated gates of steps 1..T
  Mat<T> tanh_c;  // LSTM: (T N, H)
  Mat<T> dpre;    // (T N, H or 4H): gradient at the pre-activations (Backward scratch)
  Mat<T> dc;      // LSTM: ((T+1) N, H) Backward scratch
  T* h_at(int t) { return h.data() + static_cast<Index>(t) * rows * hidden; }
  const T* h_at(int t) const { return h.data() + static_cast<Index>(t) * rows * hidden; }
};

template <class T>
class CoreNetwork {
 public:
  virtual ~CoreNetwork() = default;
  virtual void Init(Rng& rng) = 0;
  virtual int hidden() const = 0;
  // Sizes the cache for T steps of N rows (allocates only when the shape changes) and zeroes h_0.
  virtual void Prepare(int steps, int rows, CoreCache<T>& cache) const = 0;
  // h_t from x_t (N, I) and h_{t-1} in the cache, for t in 1..T.
  virtual void Step(int t, const T* x_t, CoreCache<T>& cache) const = 0;
  // X (T N, I): the inputs given to Step. dH ((T+1) N, H): gradient arriving at each h_t from
  // outside the core; it is consumed (overwritten). Accumulates parameter gradients and writes
  // dX (T N, I) if not null.
  void Backward(const T* X, T* dH, CoreCache<T>& cache, T* dX) const {
    for (int t = cache.steps; t >= 1; --t) BackwardStep(t, dH, cache);
    BackwardParams(X, cache, dX);
  }

  // The same in parts, for callers that add gradient to h_{t-1} from step t's input (differentiable
  // reads): BackwardStep(t) turns the complete dh_t into the step's pre-activation gradient and adds
  // its share to dh_{t-1}; BackwardInputStep(t) then gives dx_t (N, I); after t = 1,
  // BackwardParams forms the weight gradients of all steps at once (and all dX if not null).
  virtual void BackwardStep(int t, T* dH, CoreCache<T>& cache) const = 0;
  virtual void BackwardInputStep(int t, const CoreCache<T>& cache, T* dx_t) const = 0;
  virtual void BackwardParams(const T* X, CoreCache<T>& cache, T* dX) const = 0;
};

// The shared part of the cores built on one recurrent cell (rnn_core.h, lstm_core.h).
template <class T, class Cell>
class CellCore : public CoreNetwork<T> {
 public:
  CellCore(ParamStore<T>& store, const std::string& name, int input, int hidden) : cell_(store, name, input, hidden) {}
  void Init(Rng& rng) override { cell_.Init(rng); }
  int hidden() const override { return cell_.hidden(); }

 protected:
  Cell cell_;
};

}  // namespace glimpse
