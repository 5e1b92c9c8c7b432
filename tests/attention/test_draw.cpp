#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>

#include "src/attention/draw_read.h"
#include "src/core/rng.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("DRAW read with a tiny sigma and stride 1 is a crop", "[attention][draw]") {
  const int H = 12, W = 12, N = 4;
  std::vector<double> im(H * W);
  for (int i = 0; i < H * W; ++i) im[i] = i;
  const DrawRead<double> draw(N);
  // Columns 5..8 and rows 3..6: centres gx = 6.5, gy = 4.5; delta = 1; gamma = 1.
  const double p[5] = {6.5 / 6.5 - 1, 4.5 / 6.5 - 1, std::log(1e-3), std::log(3.0 / 11.0), 0.0};
  std::vector<double> g(N * N);
  draw.Read(im.data(), 1, H, W, p, g.data(), nullptr);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) CHECK(g[i * N + j] == Approx((3 + i) * W + (5 + j)).margin(1e-9));
  // gamma scales the glimpse.
  const double p2[5] = {p[0], p[1], p[2], p[3], std::log(0.5)};
  draw.Read(im.data(), 1, H, W, p2, g.data(), nullptr);
  CHECK(g[0] == Approx(0.5 * (3 * W + 5)));
}

TEST_CASE("DRAW read gradients match finite differences (parameters and image - one and three scales)",
          "[attention][draw][gradcheck]") {
  for (const int K : {1, 3}) {
    INFO(K << " scales");
    const int B = 2, H = 9, W = 11, N = 3;
    const DrawRead<double> draw(N, 1.0, K);
    Rng rng(12, "test");
    std::vector<double> im(B * H * W), params(B * 5), w(B * K * N * N), g(B * K * N * N);
    FillRandom(im.data(), im.size(), rng);
    FillRandom(w.data(), w.size(), rng);
    const double p0[10] = {0.1,  -0.2, std::log(2.0), std::log(0.6), std::log(1.3),
                           -0.3, 0.25, std::log(0.8), std::log(1.1), std::log(0.7)};
    std::copy(p0, p0 + 10, params.begin());
    auto loss = [&] {
      draw.Read(im.data(), B, H, W, params.data(), g.data(), nullptr);
      return Dot(w.data(), g.data(), g.size());
    };
    std::vector<double> dparams(B * 5), dimages(B * H * W, 0.0);
    draw.Backward(im.data(), B, H, W, params.data(), w.data(), dparams.data(), dimages.data(), nullptr);
    std::string where;
    CHECK(MaxGradError(loss, params.data(), dparams.data(), params.size(), 1e-5, &where) < 1e-6);
    INFO(where);
    // The read is linear in the image, so a large step has no truncation error and less round-off.
    CHECK(MaxGradError(loss, im.data(), dimages.data(), im.size(), 0.1, &where) < 1e-6);
  }
}

TEST_CASE("DRAW's scale m is the one-scale read with 2^m the stride and 4^m the variance", "[attention][draw]") {
  const int H = 30, W = 26, N = 5, K = 3;
  std::vector<double> im(H * W);
  Rng rng(3, "test");
  for (double& v : im) v = rng.Uniform();
  const DrawRead<double> multi(N, 1.0, K), single(N);
  const double p[5] = {0.1, -0.15, std::log(1.7), std::log(0.3), std::log(1.2)};
  std::vector<double> g(K * N * N), one(N * N);
  multi.Read(im.data(), 1, H, W, p, g.data(), nullptr);
  for (int m = 0; m < K; ++m) {
    const double pm[5] = {p[0], p[1], p[2] + 2 * m * std::log(2.0), p[3] + m * std::log(2.0), p[4]};
    single.Read(im.data(), 1, H, W, pm, one.data(), nullptr);
    for (int i = 0; i < N * N; ++i) CHECK(g[m * N * N + i] == Approx(one[i]).margin(1e-12));
  }
  // It starts with the coarsest scale spanning the canvas: log delta~ = -(K - 1) log 2.
  CHECK(multi.InitialParams()[3] == Approx(-2 * std::log(2.0)));
  CHECK(single.InitialParams()[3] == 0.0);
}

TEST_CASE("DRAW's initial sigma decides whether the first read sees a stroke between filter centres",
          "[attention][draw]") {
  // 100 x 100 canvas, N = 12: the spanning stride is 9 px and the centres nearest the middle are at
  // x = 46 and 55. A 2-pixel vertical stroke at columns 50-51 falls between them.
  const int H = 100, W = 100, N = 12;
  CHECK(DrawRead<double>::SpanningStride(N, H, W) == Approx(9.0));
  std::vector<double> im(H * W, 0.0);
  for (int y = 0; y < H; ++y) im[y * W + 50] = im[y * W + 51] = 1;
  auto peak = [&](double sigma) {
    const DrawRead<double> draw(N, sigma);
    const std::vector<double> p = draw.InitialParams();
    CHECK(p[2] == Approx(2 * std::log(sigma)));  // log sigma^2
    std::vector<double> g(N * N);
    draw.Read(im.data(), 1, H, W, p.data(), g.data(), nullptr);
    return *std::max_element(g.begin(), g.end());
  };
  CHECK(peak(1.0) < 1e-3);  // DRAW's zero bias: point samples that miss the stroke
  CHECK(peak(4.5) > 0.05);  // half the stride: every column reaches some filter
}

TEST_CASE("DRAW read parameters far outside their ranges give finite reads and zero gradients there",
          "[attention][draw]") {
  const int H = 20, W = 20, N = 4;
  std::vector<float> im(H * W);
  for (int i = 0; i < H * W; ++i) im[i] = static_cast<float>(i % 7) / 7;
  const DrawRead<float> draw(N);
  // One read per row: tiny and huge variance, huge and tiny stride, huge gamma, centre far away.
  const std::vector<std::array<float, 5>> reads = {{0.1f, 0.2f, -300, 0, 0}, {0.1f, 0.2f, 300, 0, 0},
                                                   {0, 0, 0, 50, 0},         {0, 0, 0, -50, 0},
                                                   {0, 0, 0, 0, 200},        {40, -40, 0, 0, 0}};
  const int B = static_cast<int>(reads.size());
  std::vector<float> images(static_cast<std::size_t>(B) * H * W), params;
  for (int b = 0; b < B; ++b) {
    std::copy(im.begin(), im.end(), images.begin() + static_cast<std::ptrdiff_t>(b) * H * W);
    params.insert(params.end(), reads[b].begin(), reads[b].end());
  }
  std::vector<float> g(static_cast<std::size_t>(B) * N * N), dg(g.size(), 1.0f), dparams(params.size());
  std::vector<float> dimages(images.size(), 0.0f);
  draw.Read(images.data(), B, H, W, params.data(), g.data(), nullptr);
  draw.Backward(images.data(), B, H, W, params.data(), dg.data(), dparams.data(), dimages.data(), nullptr);
  for (float v : g) CHECK(std::isfinite(v));
  for (float v : dimages) CHECK(std::isfinite(v));
  for (float v : dparams) CHECK(std::isfinite(v));
  // Each clamped parameter (row, index) has no gradient; the last row has two.
  const int clamped[7][2] = {{0, 2}, {1, 2}, {2, 3}, {3, 3}, {4, 4}, {5, 0}, {5, 1}};
  for (const auto& c : clamped) CHECK(dparams[5 * c[0] + c[1]] == 0.0f);
  // Beyond a bound the read is the read at the bound (here a variance just inside it).
  std::vector<float> a(N * N), b2(N * N);
  const float p_in[5] = {0, 0, std::log(1e-4f) + 1e-3f, 0, 0}, p_out[5] = {0, 0, -300, 0, 0};
  draw.Read(im.data(), 1, H, W, p_in, a.data(), nullptr);
  draw.Read(im.data(), 1, H, W, p_out, b2.data(), nullptr);
  for (int i = 0; i < N * N; ++i) CHECK(a[i] == Approx(b2[i]).margin(1e-4));
}
