#include <catch2/catch.hpp>
#include <set>
#include <xtensor-blas/xlinalg.hpp>

#include "src/core/blas.h"
#include "src/core/optimizer.h"
#include "src/core/schedule.h"

using namespace glimpse;

TEST_CASE("Rng streams are reproducible", "[core][rng]") {
  Rng a(42, "policy"), b(42, "policy");
  for (int i = 0; i < 100; ++i) REQUIRE(a.Next() == b.Next());
  Rng c(42, "policy");
  c.Normal();
  auto s = c.GetState();
  const double n1 = c.Normal(), u1 = c.Uniform();
  c.SetState(s);
  CHECK(c.Normal() == n1);  // the spare Box-Muller deviate is part of the state
  CHECK(c.Uniform() == u1);
}

TEST_CASE("Rng streams and seeds are independent", "[core][rng]") {
  Rng a(42, "policy"), b(42, "data"), c(43, "policy");
  int same_ab = 0, same_ac = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.Next(), y = b.Next(), z = c.Next();
    same_ab += x == y;
    same_ac += x == z;
  }
  CHECK(same_ab == 0);
  CHECK(same_ac == 0);
  // Streams are uncorrelated: the sample correlation of 20000 uniforms is within ~4 sigma of 0.
  Rng u(1, "init"), v(1, "eval");
  const int n = 20000;
  double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < n; ++i) {
    const double x = u.Uniform(), y = v.Uniform();
    sx += x, sy += y, sxy += x * y, sxx += x * x, syy += y * y;
  }
  const double cov = sxy / n - sx / n * sy / n;
  const double corr = cov / std::sqrt((sxx / n - sx * sx / n / n) * (syy / n - sy * sy / n / n));
  CHECK(std::abs(corr) < 4.0 / std::sqrt(n));
}

TEST_CASE("Rng distributions have the right moments", "[core][rng]") {
  Rng r(7, "test");
  const int n = 200000;
  double s = 0, ss = 0, su = 0;
  std::vector<int> counts(7, 0);
  for (int i = 0; i < n; ++i) {
    const double z = r.Normal();
    s += z;
    ss += z * z;
    su += r.Uniform();
    counts[r.UniformInt(7)]++;
  }
  CHECK(std::abs(s / n) < 0.01);
  CHECK(std::abs(ss / n - 1) < 0.02);
  CHECK(std::abs(su / n - 0.5) < 0.005);
  for (int c : counts) CHECK(std::abs(c - n / 7.0) < 5 * std::sqrt(n / 7.0));
}

TEST_CASE("Gemm agrees with xtensor-blas for every transpose", "[core][blas]") {
  Rng r(3, "test");
  xt::xtensor<double, 2> a({4, 3}), b({3, 5});
  for (auto& v : a) v = r.Uniform(-1, 1);
  for (auto& v : b) v = r.Uniform(-1, 1);
  const xt::xtensor<double, 2> ref = xt::linalg::dot(a, b);
  xt::xtensor<double, 2> c({4, 5});
  Gemm<double>(false, false, 4, 5, 3, 1.0, a.data(), 3, b.data(), 5, 0.0, c.data(), 5);
  CHECK(xt::allclose(c, ref));
  const xt::xtensor<double, 2> at = xt::transpose(a), bt = xt::transpose(b);
  Gemm<double>(true, true, 4, 5, 3, 1.0, at.data(), 4, bt.data(), 3, 0.0, c.data(), 5);
  CHECK(xt::allclose(c, ref));
  xt::xtensor<float, 2> af = xt::cast<float>(a), btf = xt::cast<float>(bt), cf({4, 5});
  Gemm<float>(false, true, 4, 5, 3, 1.0f, af.data(), 3, btf.data(), 3, 0.0f, cf.data(), 5);
  CHECK(xt::allclose(xt::cast<double>(cf), ref, 1e-5, 1e-5));
}

TEST_CASE("Gemm accounting counts products and 2 m n k operations only while on", "[core][blas]") {
  std::vector<float> a(4 * 3, 1.0f), b(3 * 5, 2.0f), c(4 * 5, 0.0f);
  auto product = [&] { Gemm<float>(false, false, 4, 5, 3, 1.0f, a.data(), 3, b.data(), 5, 0.0f, c.data(), 5); };
  SetGemmAccounting(true);
  product();
  product();
  GemmStats s = GetGemmStats();
  CHECK(s.calls == 2);
  CHECK(s.flops == 2 * 2.0 * 4 * 5 * 3);
  CHECK(s.seconds >= 0);
  CHECK(c[0] == 6.0f);  // the product itself is unchanged: 3 x 1 x 2
  Gemm<float>(true, false, 3, 5, 4, 1.0f, a.data(), 3, b.data(), 5, 0.0f, c.data(), 5);  // another shape
  s = GetGemmStats();
  REQUIRE(s.shapes.size() == 2);
  long long shape_calls = 0;
  for (const GemmShape& g : s.shapes) {
    shape_calls += g.calls;
    if (g.m == 4)
      CHECK((g.n == 5 && g.k == 3 && g.calls == 2 && !g.trans_a && !g.trans_b));
    else
      CHECK((g.m == 3 && g.n == 5 && g.k == 4 && g.calls == 1 && g.trans_a && !g.trans_b));
  }
  CHECK(shape_calls == s.calls);
  CHECK(s.shapes[0].seconds >= s.shapes[1].seconds);  // the most time first
  SetGemmAccounting(false);
  product();
  CHECK(GetGemmStats().calls == 3);  // off: not counted
  SetGemmAccounting(true);           // on again: totals restart
  CHECK(GetGemmStats().calls == 0);
  CHECK(GetGemmStats().shapes.empty());
  SetGemmAccounting(false);
  CHECK(MeasureSgemmPeak(64, 2) > 0);
}

TEST_CASE("ParamStore lays tensors out contiguously with named views", "[core][params]") {
  ParamStore<float> s;
  const ParamId a = s.Register("a.W", {2, 3});
  const ParamId b = s.Register("a.b", {3});
  CHECK_THROWS_WITH(s.Register("a.W", {1}), Catch::Contains("duplicate parameter name"));
  s.Allocate();
  CHECK(s.size() == 9);
  CHECK(s.value(b) - s.value(a) == 6);
  CHECK(s.grad(b) - s.grad(a) == 6);
  CHECK(s.Find("a.b") == b);
  CHECK_THROWS(s.Register("late", {1}));
  s.grads()[4] = 3.0f;
  s.ZeroGrad();
  CHECK(s.grads()[4] == 0.0f);
}

TEST_CASE("SGD with momentum matches hand-computed steps", "[core][optimizer]") {
  ParamStore<double> s;
  s.Register("p", {2});
  s.Allocate();
  s.values() = {1.0, -2.0};
  Sgd<double> opt(2, 0.9);
  s.grads() = {0.5, 1.0};
  opt.Step(s, 0.1);  // v = g; p -= 0.1 v
  CHECK(s.values()[0] == Approx(0.95));
  CHECK(s.values()[1] == Approx(-2.1));
  s.grads() = {0.5, 1.0};
  opt.Step(s, 0.1);  // v = 0.9 g + g = 1.9 g
  CHECK(s.values()[0] == Approx(0.95 - 0.1 * 0.95));
  CHECK(s.values()[1] == Approx(-2.1 - 0.1 * 1.9));
  CHECK(opt.steps == 2);
}

TEST_CASE("Adam matches hand-computed steps", "[core][optimizer]") {
  ParamStore<double> s;
  s.Register("p", {1});
  s.Allocate();
  s.values() = {1.0};
  Adam<double> opt(1);
  s.grads() = {2.0};
  opt.Step(s, 0.01);  // m_hat = g, v_hat = g^2: step = lr * g / (|g| + eps) = lr
  CHECK(s.values()[0] == Approx(1.0 - 0.01).epsilon(1e-9));
  s.grads() = {-1.0};
  opt.Step(s, 0.01);
  const double m = 0.9 * 0.1 * 2.0 + 0.1 * -1.0, v = 0.999 * 0.001 * 4.0 + 0.001 * 1.0;
  const double mh = m / (1 - 0.81), vh = v / (1 - 0.999 * 0.999);
  CHECK(s.values()[0] == Approx(0.99 - 0.01 * mh / (std::sqrt(vh) + 1e-8)).epsilon(1e-9));
  CHECK(opt.StateBuffers().size() == 2);
}

TEST_CASE("Adam with weight decay (AdamW) matches hand-computed steps", "[core][optimizer]") {
  ParamStore<double> s;
  s.Register("p", {2});
  s.Allocate();
  s.values() = {1.0, -3.0};
  Adam<double> opt(2, 0.9, 0.999, 1e-8, 0.5);
  s.grads() = {2.0, 0.0};
  opt.Step(s, 0.01);  // p -= lr (wd p + g / |g|); a zero gradient leaves only the decay
  CHECK(s.values()[0] == Approx(1.0 - 0.01 * (0.5 * 1.0 + 1.0)).epsilon(1e-9));
  CHECK(s.values()[1] == Approx(-3.0 * (1 - 0.01 * 0.5)).epsilon(1e-9));
  for (int i = 0; i < 9; ++i) {
    s.grads() = {0.0, 0.0};
    opt.Step(s, 0.01);
  }
  CHECK(s.values()[1] == Approx(-3.0 * std::pow(1 - 0.01 * 0.5, 10)).epsilon(1e-9));
  // wd = 0 is plain Adam, bit for bit.
  ParamStore<float> a, b;
  for (auto* st : {&a, &b}) {
    st->Register("p", {3});
    st->Allocate();
    st->values() = {0.3f, -1.7f, 2.5f};
  }
  Adam<float> plain(3), zero(3, 0.9f, 0.999f, 1e-8f, 0.0f);
  for (int i = 0; i < 5; ++i) {
    a.grads() = {0.1f * i, -0.2f, 1.5f};
    b.grads() = a.grads();
    plain.Step(a, 0.001f);
    zero.Step(b, 0.001f);
  }
  for (std::size_t i = 0; i < 3; ++i) CHECK(a.values()[i] == b.values()[i]);
}

TEST_CASE("Adam's --weight-decay refuses negative and sign-flipping values", "[core][optimizer]") {
  const OptimizerKind& adam = Optimizers().Get("adam");
  SharedFacts facts;
  facts.lr = 0.001;
  CHECK_NOTHROW(adam.validate(Settings(std::map<std::string, std::string>{{"weight-decay", "0.05"}}), facts));
  REQUIRE(adam.options.size() == 1);  // the range is the row's, checked where the value is given
  CHECK_THROWS_WITH(adam.options[0].canonical("-0.1"),
                    Catch::Contains("option --weight-decay: expected a number >= 0"));
  // lr x wd = 2: the decay would flip the parameters' signs (a rule across axes: the kind's own)
  CHECK_THROWS_WITH(adam.validate(Settings(std::map<std::string, std::string>{{"weight-decay", "2000"}}), facts),
                    Catch::Contains("lr x weight-decay < 1"));
}

TEST_CASE("Learning-rate schedules", "[core][schedule]") {
  const auto& constant = Schedules().Get("constant").rate;
  const auto& linear = Schedules().Get("linear").rate;
  CHECK(constant(0.1, 50, 100) == 0.1);
  CHECK(linear(0.1, 0, 100) == Approx(0.1));
  CHECK(linear(0.1, 50, 100) == Approx(0.05));
  CHECK(linear(0.1, 100, 100) == 0.0);
  // Hand-computed: cosine is lr (1 + cos(pi f)) / 2 at f = step / total.
  const auto& cosine = Schedules().Get("cosine").rate;
  CHECK(cosine(0.1, 0, 100) == Approx(0.1));
  CHECK(cosine(0.1, 25, 100) == Approx(0.1 * (1 + std::sqrt(0.5)) / 2));
  CHECK(cosine(0.1, 50, 100) == Approx(0.05));
  CHECK(cosine(0.1, 100, 100) == Approx(0.0).margin(1e-15));
  // warmup-linear: 0 -> lr over 5% of the steps, then linear to 0.
  const auto& warm = Schedules().Get("warmup-linear").rate;
  CHECK(warm(0.1, 0, 1000) == 0.0);
  CHECK(warm(0.1, 25, 1000) == Approx(0.05));
  CHECK(warm(0.1, 50, 1000) == Approx(0.1));
  CHECK(warm(0.1, 525, 1000) == Approx(0.05));
  CHECK(warm(0.1, 1000, 1000) == Approx(0.0).margin(1e-15));
  // onecycle, PyTorch's OneCycleLR defaults (pct_start 0.3, div_factor 25, final_div_factor 1e4, cosine):
  // lr/25 at the start, the midpoint at 15%, lr at 30%, the midpoint of lr and lr/250000 at 65%.
  const auto& one = Schedules().Get("onecycle").rate;
  CHECK(one(1.0, 0, 1000) == Approx(0.04));
  CHECK(one(1.0, 150, 1000) == Approx((0.04 + 1.0) / 2));
  CHECK(one(1.0, 300, 1000) == Approx(1.0));
  CHECK(one(1.0, 650, 1000) == Approx((1.0 + 4e-6) / 2));
  CHECK(one(1.0, 1000, 1000) == Approx(4e-6));
  CHECK_THROWS_WITH(
      Schedules().Get("step"),
      Catch::Contains("option --schedule: expected constant|linear|cosine|warmup-linear|onecycle, found 'step'"));
  CHECK_THROWS_WITH(Optimizers().Get("rmsprop"),
                    Catch::Contains("option --optimizer: expected sgd|adam, found 'rmsprop'"));
}
