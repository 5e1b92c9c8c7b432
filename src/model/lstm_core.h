// LSTM core over T steps (see core_network.h); h_0 = 0 or given, c_0 = 0.
#pragma once

#include "src/model/core_network.h"
#include "src/nn/lstm_cell.h"

namespace glimpse {

template <class T>
class LstmCore : public CellCore<T, LstmCell<T>> {
 public:
  using CellCore<T, LstmCell<T>>::CellCore;
  using CellCore<T, LstmCell<T>>::hidden;

  void Prepare(int steps, int rows, CoreCache<T>& c) const override {
    const auto H = static_cast<std::size_t>(hidden()), N = static_cast<std::size_t>(rows);
    c.steps = steps, c.rows = rows, c.hidden = hidden();
    EnsureShape(c.h, (steps + 1) * N, H);
    EnsureShape(c.c, (steps + 1) * N, H);
    EnsureShape(c.gates, steps * N, 4 * H);
    EnsureShape(c.tanh_c, steps * N, H);
    EnsureShape(c.dpre, steps * N, 4 * H);
    EnsureShape(c.dc, (steps + 1) * N, H);
    std::fill(c.h.data(), c.h.data() + N * H, T(0));
    std::fill(c.c.data(), c.c.data() + N * H, T(0));
    c.given_h0 = false;
  }

  void Step(int t, const T* x_t, CoreCache<T>& c) const override {
    const std::size_t block = static_cast<std::size_t>(c.rows) * hidden();
    const bool first = t == 1;  // c_0 = 0, and h_0 = 0 unless given: skip the recurrent product
    this->cell_.StepForward(
        x_t, first && !c.given_h0 ? nullptr : c.h_at(t - 1), first ? nullptr : c.c.data() + (t - 1) * block, c.rows,
        c.gates.data() + 4 * (t - 1) * block, c.c.data() + t * block, c.tanh_c.data() + (t - 1) * block, c.h_at(t));
  }

  void BackwardStep(int t, T* dH, CoreCache<T>& c) const override {
    // Gate gradients, dc_{t-1}, and dh_{t-1} += dz_t Wh.
    const int N = c.rows, TT = c.steps;
    const std::size_t block = static_cast<std::size_t>(N) * hidden();
    T* dz = c.dpre.data() + 4 * (t - 1) * block;
    this->cell_.GateBackward(c.gates.data() + 4 * (t - 1) * block, c.tanh_c.data() + (t - 1) * block,
                             t > 1 ? c.c.data() + (t - 1) * block : nullptr, dH + t * block,
                             t < TT ? c.dc.data() + t * block : nullptr, N, dz,
                             t > 1 ? c.dc.data() + (t - 1) * block : nullptr);
    if (t > 1 || c.given_h0)
      this->cell_.recurrent_layer().BackwardInput(dz, N, dH + (t - 1) * block, /*accumulate=*/true);
  }

  void BackwardInputStep(int t, const CoreCache<T>& c, T* dx_t) const override {
    const std::size_t block = static_cast<std::size_t>(c.rows) * hidden();
    this->cell_.input_layer().BackwardInput(c.dpre.data() + 4 * (t - 1) * block, c.rows, dx_t);
  }

  void BackwardParams(const T* X, CoreCache<T>& c, T* dX) const override {
    const int N = c.rows, TT = c.steps, first = c.given_h0 ? 1 : 2;  // as in the RNN core
    const std::size_t block = static_cast<std::size_t>(N) * hidden();
    if (TT >= first)
      this->cell_.recurrent_layer().BackwardParams(c.h_at(first - 1), c.dpre.data() + 4 * (first - 1) * block,
                                                   (TT - first + 1) * N);
    this->cell_.input_layer().Backward(X, c.dpre.data(), TT * N, dX);
  }
};

}  // namespace glimpse
