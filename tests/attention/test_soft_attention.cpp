#include <catch2/catch.hpp>

#include "src/attention/soft_attention.h"
#include "tests/gradcheck.h"

using namespace glimpse;
using namespace glimpse::test;

TEST_CASE("Soft attention: gradients for every score, gated or not", "[attention][soft][gradcheck]") {
  using S = SoftAttention<double>;
  const int B = 2, H = 10, W = 9;
  for (auto score : {S::Score::kAdditive, S::Score::kDot, S::Score::kScaledDot}) {
    for (bool gate : {true, false}) {
      INFO(int(score) << " gate " << gate);
      ParamStore<double> store;
      S soft(3, 4, 5, score, gate);
      soft.RegisterParams(store, "sensor");
      store.Allocate();
      Rng rng(31, "test");
      soft.InitParams(rng);
      std::vector<double> im(B * H * W), params(B * soft.param_size()), w(B * soft.glimpse_size()), out(w.size()),
          dparams(params.size()), dimages(im.size(), 0.0);
      FillRandom(im.data(), im.size(), rng);
      FillRandom(params.data(), params.size(), rng);
      FillRandom(w.data(), w.size(), rng);
      auto loss = [&] {
        soft.Prepare(im.data(), B, H, W, nullptr);  // keys depend on Wk and the image
        soft.Read(im.data(), B, H, W, params.data(), out.data(), nullptr);
        return Dot(w.data(), out.data(), out.size());
      };
      loss();
      store.ZeroGrad();
      soft.Backward(im.data(), B, H, W, params.data(), w.data(), dparams.data(), dimages.data(), nullptr);
      std::string where;
      CHECK(MaxGradError(loss, params.data(), dparams.data(), params.size(), 1e-5, &where) < 1e-6);
      INFO(where);
      CHECK(MaxGradError(loss, im.data(), dimages.data(), im.size(), 1e-5, &where) < 1e-6);
      INFO(where);
      CHECK(MaxGradError(loss, store.values().data(), store.grads().data(), store.size(), 1e-5, &where) < 1e-6);
    }
  }
}

TEST_CASE("Soft attention with one dominant score reads that cell's crop", "[attention][soft]") {
  ParamStore<double> store;
  SoftAttention<double> soft(2, 2, 1, SoftAttention<double>::Score::kDot, false);
  soft.RegisterParams(store, "sensor");
  store.Allocate();
  // Wk = [1, 0, 0, 0]: the key of a cell is its crop's top-left pixel.
  store.values()[0] = 1;
  std::vector<double> im(16, 0.0);
  for (int i = 0; i < 16; ++i) im[i] = i;
  const double q[2] = {100.0, 0.0};  // a huge query: softmax picks the largest key, cell 3
  std::vector<double> g(4);
  soft.Read(im.data(), 1, 4, 4, q, g.data(), nullptr);
  // Cell 3 (bottom-right) is centred at (3, 3): its 2 x 2 crop is rows/cols 2..3.
  CHECK(g[0] == Approx(10).margin(1e-9));
  CHECK(g[3] == Approx(15).margin(1e-9));
}
