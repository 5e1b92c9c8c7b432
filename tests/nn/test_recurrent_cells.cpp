// Gradient checks of the recurrent cells unrolled over several steps (backprop through time).
#include <catch2/catch.hpp>

#include "src/nn/lstm_cell.h"
#include "src/nn/rnn_cell.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {
constexpr int kB = 3, kI = 4, kH = 5, kT = 4;
}

TEST_CASE("RnnCell gradients through time match finite differences", "[nn][rnn][gradcheck]") {
  ParamStore<double> store;
  RnnCell<double> cell(store, "core", kI, kH);
  store.Allocate();
  Rng rng(6, "test");
  cell.Init(rng);
  // Inputs x_t and loss weights w_t for every step; loss = sum_t w_t . h_t.
  std::vector<double> x(kT * kB * kI), w(kT * kB * kH), h(kT * kB * kH);
  FillRandom(x.data(), x.size(), rng);
  FillRandom(w.data(), w.size(), rng);
  auto xt = [&](int t) { return x.data() + t * kB * kI; };
  auto ht = [&](int t) { return h.data() + t * kB * kH; };
  auto loss = [&] {
    for (int t = 0; t < kT; ++t) cell.Forward(xt(t), t ? ht(t - 1) : nullptr, kB, ht(t));
    return Dot(w.data(), h.data(), h.size());
  };
  loss();
  store.ZeroGrad();
  std::vector<double> dx(x.size()), dh(kB * kH, 0.0), dh_prev(kB * kH);
  for (int t = kT - 1; t >= 0; --t) {
    for (int i = 0; i < kB * kH; ++i) dh[i] += w[t * kB * kH + i];
    cell.Backward(xt(t), t ? ht(t - 1) : nullptr, ht(t), dh.data(), kB, dx.data() + t * kB * kI, dh_prev.data());
    dh = dh_prev;
  }
  std::string where;
  CHECK(MaxGradError(loss, x.data(), dx.data(), x.size(), 1e-5, &where) < 1e-6);
  INFO(where);
  CHECK(MaxGradError(loss, store.values().data(), store.grads().data(), store.size(), 1e-6, &where) < 1e-6);
}

TEST_CASE("LstmCell gradients through time match finite differences", "[nn][lstm][gradcheck]") {
  ParamStore<double> store;
  LstmCell<double> cell(store, "core", kI, kH);
  store.Allocate();
  Rng rng(7, "test");
  cell.Init(rng);
  std::vector<double> x(kT * kB * kI), w(kT * kB * kH), h0(kB * kH), c0(kB * kH);
  FillRandom(x.data(), x.size(), rng);
  FillRandom(w.data(), w.size(), rng);
  FillRandom(h0.data(), h0.size(), rng);
  FillRandom(c0.data(), c0.size(), rng);
  std::vector<LstmCache<double>> caches(kT);
  for (auto& c : caches) c.Resize(kB, kH);
  auto xt = [&](int t) { return x.data() + t * kB * kI; };
  // Starts from a non-zero (h0, c0) so that the gradient into the initial state is checked too.
  auto hprev = [&](int t) { return t ? caches[t - 1].h.data() : h0.data(); };
  auto cprev = [&](int t) { return t ? caches[t - 1].c.data() : c0.data(); };
  auto loss = [&] {
    double l = 0;
    for (int t = 0; t < kT; ++t) {
      cell.Forward(xt(t), hprev(t), cprev(t), kB, caches[t]);
      l += Dot(w.data() + t * kB * kH, caches[t].h.data(), kB * kH);
    }
    return l;
  };
  loss();
  store.ZeroGrad();
  std::vector<double> dx(x.size()), dh(kB * kH, 0.0), dc(kB * kH, 0.0), dh_prev(kB * kH), dc_prev(kB * kH);
  for (int t = kT - 1; t >= 0; --t) {
    for (int i = 0; i < kB * kH; ++i) dh[i] += w[t * kB * kH + i];
    cell.Backward(xt(t), hprev(t), cprev(t), caches[t], dh.data(), dc.data(), kB, dx.data() + t * kB * kI,
                  dh_prev.data(), dc_prev.data());
    dh = dh_prev;
    dc = dc_prev;
  }
  std::string where;
  CHECK(MaxGradError(loss, x.data(), dx.data(), x.size(), 1e-5, &where) < 1e-6);
  INFO(where);
  CHECK(MaxGradError(loss, store.values().data(), store.grads().data(), store.size(), 1e-6, &where) < 1e-6);
  CHECK(MaxGradError(loss, h0.data(), dh.data(), h0.size()) < 1e-6);
  CHECK(MaxGradError(loss, c0.data(), dc.data(), c0.size()) < 1e-6);
}

TEST_CASE("LstmCell with a null initial state equals a zero initial state", "[nn][lstm]") {
  ParamStore<double> store;
  LstmCell<double> cell(store, "core", kI, kH);
  store.Allocate();
  Rng rng(8, "test");
  cell.Init(rng);
  std::vector<double> x(kB * kI), zeros(kB * kH, 0.0);
  FillRandom(x.data(), x.size(), rng);
  LstmCache<double> a, b;
  a.Resize(kB, kH);
  b.Resize(kB, kH);
  cell.Forward(x.data(), nullptr, nullptr, kB, a);
  cell.Forward(x.data(), zeros.data(), zeros.data(), kB, b);
  CHECK(xt::allclose(a.h, b.h));
  CHECK(xt::allclose(a.c, b.c));
}
