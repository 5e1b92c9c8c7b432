// RAM's ReLU RNN core over T steps (see core_network.h).
#pragma once

#include "src/model/core_network.h"
#include "src/nn/rnn_cell.h"

namespace glimpse {

template <class T>
class RnnCore : public CellCore<T, RnnCell<T>> {
 public:
  using CellCore<T, RnnCell<T>>::CellCore;
  using CellCore<T, RnnCell<T>>::hidden;

  void Prepare(int steps, int rows, CoreCache<T>& c) const override {
    const auto H = static_cast<std::size_t>(hidden()), N = static_cast<std::size_t>(rows);
    c.steps = steps, c.rows = rows, c.hidden = hidden();
    EnsureShape(c.h, (steps + 1) * N, H);
    EnsureShape(c.dpre, steps * N, H);
    std::fill(c.h.data(), c.h.data() + N * H, T(0));
    c.given_h0 = false;
  }

  void Step(int t, const T* x_t, CoreCache<T>& c) const override {
    const bool recur = t > 1 || c.given_h0;  // h_0 = 0: skip Wh
    this->cell_.Forward(x_t, recur ? c.h_at(t - 1) : nullptr, c.rows, c.h_at(t));
  }

  void BackwardStep(int t, T* dH, CoreCache<T>& c) const override {
    // dpre_t = dh_t * [h_t > 0]; dh_{t-1} += dpre_t Wh.
    const int N = c.rows;
    const std::size_t block = static_cast<std::size_t>(N) * hidden();
    T* dpre = c.dpre.data() + (t - 1) * block;
    ReluBackward(c.h_at(t), dH + t * block, block, dpre);
    if (t > 1 || c.given_h0)
      this->cell_.recurrent_layer().BackwardInput(dpre, N, dH + (t - 1) * block, /*accumulate=*/true);
  }

  void BackwardInputStep(int t, const CoreCache<T>& c, T* dx_t) const override {
    const std::size_t block = static_cast<std::size_t>(c.rows) * hidden();
    this->cell_.input_layer().BackwardInput(c.dpre.data() + (t - 1) * block, c.rows, dx_t);
  }

  void BackwardParams(const T* X, CoreCache<T>& c, T* dX) const override {
    // Batched over all steps: Wh grad from steps 2..T (1..T with a given h_0), input weights, bias
    // and dX from 1..T.
    const int N = c.rows, TT = c.steps, first = c.given_h0 ? 1 : 2;
    const std::size_t block = static_cast<std::size_t>(N) * hidden();
    if (TT >= first)
      this->cell_.recurrent_layer().BackwardParams(c.h_at(first - 1), c.dpre.data() + (first - 1) * block,
                                                   (TT - first + 1) * N);
    this->cell_.input_layer().Backward(X, c.dpre.data(), TT * N, dX);
  }
};

}  // namespace glimpse
