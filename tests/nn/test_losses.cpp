#include <catch2/catch.hpp>

#include "src/nn/mse.h"
#include "src/nn/softmax_xent.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Softmax cross-entropy value on a known case", "[nn][loss]") {
  const double z[3] = {0, 0, std::log(2.0)};  // softmax = [1/4, 1/4, 1/2]
  const std::int32_t y[1] = {2};
  double p[3];
  const double loss = SoftmaxCrossEntropyForward(z, y, 1, 3, p);
  CHECK(loss == Approx(std::log(2.0)));
  CHECK(p[0] == Approx(0.25));
  CHECK(p[2] == Approx(0.5));
}

TEST_CASE("Softmax cross-entropy is stable for large logits", "[nn][loss]") {
  const double z[2] = {1000, 0};
  const std::int32_t y[1] = {1};
  double p[2];
  CHECK(SoftmaxCrossEntropyForward(z, y, 1, 2, p) == Approx(1000));
  CHECK(std::isfinite(p[1]));
}

TEST_CASE("Softmax cross-entropy gradient matches finite differences", "[nn][loss][gradcheck]") {
  const int B = 4, C = 10;
  Rng rng(4, "test");
  std::vector<double> z(B * C), p(B * C), dz(B * C);
  FillRandom(z.data(), z.size(), rng, 3.0);
  const std::int32_t y[B] = {3, 0, 9, 3};
  auto loss = [&] { return SoftmaxCrossEntropyForward(z.data(), y, B, C, p.data()); };
  loss();
  SoftmaxCrossEntropyBackward(p.data(), y, B, C, 1.0, dz.data());
  CHECK(MaxGradError(loss, z.data(), dz.data(), z.size()) < 1e-6);
}

TEST_CASE("Softmax cross-entropy rejects a label out of range", "[nn][loss]") {
  const double z[2] = {0, 0};
  const std::int32_t y[1] = {2};
  double p[2];
  CHECK_THROWS_WITH(SoftmaxCrossEntropyForward(z, y, 1, 2, p), Catch::Contains("expected [0, 2), found 2"));
}

TEST_CASE("MSE value and gradient", "[nn][loss][gradcheck]") {
  const std::size_t n = 12;
  Rng rng(5, "test");
  std::vector<double> a(n), t(n), d(n);
  FillRandom(a.data(), n, rng);
  FillRandom(t.data(), n, rng);
  auto loss = [&] { return MseForward(a.data(), t.data(), n); };
  double expect = 0;
  for (std::size_t i = 0; i < n; ++i) expect += (a[i] - t[i]) * (a[i] - t[i]) / n;
  CHECK(loss() == Approx(expect));
  MseBackward(a.data(), t.data(), n, 1.0, d.data());
  CHECK(MaxGradError(loss, a.data(), d.data(), n) < 1e-6);
}
