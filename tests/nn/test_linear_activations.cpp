#include <catch2/catch.hpp>

#include "src/nn/activations.h"
#include "src/nn/linear.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Linear forward equals x W^T + b", "[nn][linear]") {
  ParamStore<double> store;
  Linear<double> fc(store, "fc", 3, 2);
  store.Allocate();
  double* W = store.value(fc.weight());
  double* b = store.value(fc.bias());
  for (int i = 0; i < 6; ++i) W[i] = i + 1;  // W = [[1,2,3],[4,5,6]]
  b[0] = 0.5;
  b[1] = -1;
  const double x[6] = {1, 0, -1, 2, 1, 0};  // two rows
  double y[4];
  fc.Forward(x, 2, y);
  CHECK(y[0] == Approx(1 - 3 + 0.5));
  CHECK(y[1] == Approx(4 - 6 - 1));
  CHECK(y[2] == Approx(2 + 2 + 0.5));
  CHECK(y[3] == Approx(8 + 5 - 1));
}

TEST_CASE("Linear gradients match finite differences", "[nn][linear][gradcheck]") {
  const int B = 5, I = 7, O = 4;
  ParamStore<double> store;
  Linear<double> fc(store, "fc", I, O);
  store.Allocate();
  Rng rng(1, "test");
  fc.Init(rng);
  std::vector<double> x(B * I), y(B * O), w(B * O), dx(B * I);
  FillRandom(x.data(), x.size(), rng);
  FillRandom(w.data(), w.size(), rng);
  auto loss = [&] {
    fc.Forward(x.data(), B, y.data());
    return Dot(w.data(), y.data(), y.size());
  };
  store.ZeroGrad();
  loss();
  fc.Backward(x.data(), w.data(), B, dx.data());
  std::string where;
  CHECK(MaxGradError(loss, x.data(), dx.data(), x.size(), 1e-5, &where) < 1e-6);
  INFO(where);
  CHECK(MaxGradError(loss, store.values().data(), store.grads().data(), store.size(), 1e-6, &where) < 1e-6);
}

TEST_CASE("Linear Backward accumulates parameter gradients and optionally dx", "[nn][linear]") {
  ParamStore<double> store;
  Linear<double> fc(store, "fc", 2, 2);
  store.Allocate();
  Rng rng(2, "test");
  fc.Init(rng);
  const double x[2] = {1, 2}, dy[2] = {0.5, -1};
  double dx[2] = {10, 20};
  fc.Backward(x, dy, 1, dx, /*accumulate_dx=*/true);
  const std::vector<double> once(store.grads().begin(), store.grads().end());
  fc.Backward(x, dy, 1, nullptr);
  for (std::size_t i = 0; i < once.size(); ++i) CHECK(store.grads()[i] == Approx(2 * once[i]));
  const double* W = store.value(fc.weight());
  CHECK(dx[0] == Approx(10 + 0.5 * W[0] - 1 * W[2]));
  CHECK(dx[1] == Approx(20 + 0.5 * W[1] - 1 * W[3]));
}

TEST_CASE("Activation gradients match finite differences", "[nn][activations][gradcheck]") {
  const std::size_t n = 50;
  Rng rng(3, "test");
  std::vector<double> x(n), y(n), w(n), dx(n);
  FillRandom(x.data(), n, rng, 3.0, 1e-3);
  FillRandom(w.data(), n, rng);
  using Fwd = void (*)(const double*, std::size_t, double*);
  using Bwd = void (*)(const double*, const double*, std::size_t, double*, bool);
  const std::vector<std::tuple<std::string, Fwd, Bwd>> acts = {
      {"relu", ReluForward<double>, ReluBackward<double>},
      {"tanh", TanhForward<double>, TanhBackward<double>},
      {"sigmoid", SigmoidForward<double>, SigmoidBackward<double>}};
  for (const auto& [name, fwd, bwd] : acts) {
    INFO(name);
    auto loss = [&, fwd = fwd] {
      fwd(x.data(), n, y.data());
      return Dot(w.data(), y.data(), n);
    };
    loss();
    bwd(y.data(), w.data(), n, dx.data(), false);
    CHECK(MaxGradError(loss, x.data(), dx.data(), n) < 1e-6);
    // accumulate adds to what is there
    std::vector<double> acc(n, 1.0);
    bwd(y.data(), w.data(), n, acc.data(), true);
    for (std::size_t i = 0; i < n; ++i) CHECK(acc[i] == Approx(1.0 + dx[i]));
  }
}

TEST_CASE("ReLU, tanh and sigmoid values", "[nn][activations]") {
  const double x[3] = {-2, 0.5, 0};
  double y[3];
  ReluForward(x, 3, y);
  CHECK(y[0] == 0);
  CHECK(y[1] == 0.5);
  TanhForward(x, 3, y);
  CHECK(y[1] == Approx(std::tanh(0.5)));
  SigmoidForward(x, 3, y);
  CHECK(y[2] == Approx(0.5));
  CHECK(y[0] == Approx(1 / (1 + std::exp(2.0))));
}
