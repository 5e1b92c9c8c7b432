// Conv2d (src/nn/conv2d.h): the im2col product against a direct convolution, and its gradients
// against finite differences, in both input layouts, with stride and padding.
#include <catch2/catch.hpp>
#include <string>

#include "src/nn/conv2d.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

namespace {

using Layout = Conv2d<double>::Layout;

// A 5 x 6 input (not square, so a swapped index shows), 3 channels, 4 filters.
constexpr int kB = 3, kC = 3, kH = 5, kW = 6, kF = 4;

struct Case {
  int kernel, stride, pad;
  Layout layout;
};

const Case kCases[] = {
    {3, 1, 1, Layout::kChannelsFirst}, {3, 2, 1, Layout::kChannelsFirst}, {3, 2, 1, Layout::kChannelsLast},
    {2, 1, 0, Layout::kChannelsLast},  {1, 1, 0, Layout::kChannelsFirst}, {3, 2, 2, Layout::kChannelsFirst},
    {5, 1, 2, Layout::kChannelsLast},  // kernel rows cut by the padding on both sides
};

// y[b, oy, ox, f] = b_f + sum_{ky, kx, c} W[f, ky, kx, c] x[b, c, oy s - p + ky, ox s - p + kx] (0 outside).
std::vector<double> DirectConv(const std::vector<double>& x, const double* W, const double* bias, const Case& k, int oh,
                               int ow) {
  std::vector<double> y(static_cast<std::size_t>(kB) * oh * ow * kF);
  for (int b = 0; b < kB; ++b)
    for (int oy = 0; oy < oh; ++oy)
      for (int ox = 0; ox < ow; ++ox)
        for (int f = 0; f < kF; ++f) {
          double s = bias[f];
          for (int ky = 0; ky < k.kernel; ++ky)
            for (int kx = 0; kx < k.kernel; ++kx)
              for (int c = 0; c < kC; ++c) {
                const int i = oy * k.stride - k.pad + ky, j = ox * k.stride - k.pad + kx;
                if (i < 0 || i >= kH || j < 0 || j >= kW) continue;
                const std::size_t at = k.layout == Layout::kChannelsFirst
                                           ? ((static_cast<std::size_t>(b) * kC + c) * kH + i) * kW + j
                                           : ((static_cast<std::size_t>(b) * kH + i) * kW + j) * kC + c;
                s += W[((f * k.kernel + ky) * k.kernel + kx) * kC + c] * x[at];
              }
          y[((static_cast<std::size_t>(b) * oh + oy) * ow + ox) * kF + f] = s;
        }
  return y;
}

std::string Describe(const Case& k) {
  return "kernel " + std::to_string(k.kernel) + " stride " + std::to_string(k.stride) + " pad " +
         std::to_string(k.pad) + " channels " + (k.layout == Layout::kChannelsFirst ? "first" : "last");
}

// A layer of case k in its own store, drawn from rng.
struct Layer {
  ParamStore<double> store;
  Conv2d<double> conv;
  Layer(const Case& k, Rng& rng) : conv(store, "conv", kC, kH, kW, kF, k.kernel, k.stride, k.pad, k.layout) {
    store.Allocate();
    conv.Init(rng);
  }
};

}  // namespace

TEST_CASE("Conv2d forward equals a direct convolution", "[nn][conv]") {
  for (const Case& k : kCases) {
    INFO(Describe(k));
    Rng rng(3, "test");
    Layer layer(k, rng);
    const Conv2d<double>& conv = layer.conv;
    ParamStore<double>& store = layer.store;
    CHECK(conv.out_height() == (kH + 2 * k.pad - k.kernel) / k.stride + 1);
    CHECK(conv.out_width() == (kW + 2 * k.pad - k.kernel) / k.stride + 1);
    std::vector<double> x(kB * conv.in_size()), y(kB * conv.out_size()), col(conv.col_size(kB));
    FillRandom(x.data(), x.size(), rng);
    conv.Forward(x.data(), kB, y.data(), col.data());
    const auto want =
        DirectConv(x, store.value(conv.weight()), store.value(conv.bias()), k, conv.out_height(), conv.out_width());
    REQUIRE(want.size() == y.size());
    for (std::size_t i = 0; i < y.size(); ++i) CHECK(y[i] == Approx(want[i]).margin(1e-12));
  }
}

TEST_CASE("Conv2d gradients match finite differences", "[nn][conv][gradcheck]") {
  for (const Case& k : kCases) {
    INFO(Describe(k));
    Rng rng(4, "test");
    Layer layer(k, rng);
    const Conv2d<double>& conv = layer.conv;
    ParamStore<double>& store = layer.store;
    std::vector<double> x(kB * conv.in_size()), y(kB * conv.out_size()), w(y.size()), dx(x.size(), 7.0),
        col(conv.col_size(kB));
    FillRandom(x.data(), x.size(), rng);
    FillRandom(w.data(), w.size(), rng);
    auto loss = [&] {
      conv.Forward(x.data(), kB, y.data(), col.data());
      return Dot(w.data(), y.data(), y.size());
    };
    loss();
    store.ZeroGrad();
    conv.Backward(x.data(), w.data(), kB, dx.data(), col.data());  // dx is overwritten (it held 7s)
    // The loss is linear in x and in the parameters, so central differences are exact up to
    // round-off (~1e-10 absolute here); derivatives below 1e-4 are compared absolutely.
    std::string where;
    const double ex = MaxGradError(loss, x.data(), dx.data(), x.size(), 1e-5, &where, 1e-4);
    INFO("dx: " << where);
    CHECK(ex < 1e-6);
    const std::vector<double> analytic(store.grads().begin(), store.grads().end());
    const double ep = MaxGradError(loss, store.values().data(), analytic.data(), store.size(), 1e-5, &where, 1e-4);
    INFO("parameters: " << where);
    CHECK(ep < 1e-6);
    // Backward accumulates into the parameter gradients and may leave dx alone.
    conv.Backward(x.data(), w.data(), kB, nullptr, col.data());
    for (std::size_t i = 0; i < analytic.size(); ++i) CHECK(store.grads()[i] == Approx(2 * analytic[i]));
  }
}

TEST_CASE("Conv2d refuses a kernel larger than its padded input", "[nn][conv]") {
  ParamStore<double> store;
  CHECK_THROWS_WITH(Conv2d<double>(store, "conv", 1, 2, 2, 1, 5, 1, 0, Layout::kChannelsFirst),
                    Catch::Contains("does not fit"));
}
