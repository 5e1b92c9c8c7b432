// Shared by the whole-model gradient checks of differentiable reads.
#pragma once

#include <string>

#include "src/core/params.h"
#include "src/core/rng.h"
#include "src/train/make_kinds.h"

namespace glimpse::test {

// Read networks start at zero weights (their initial read for every state): draws the weights so
// that h reaches the reads, and moves the biases off the initial read, whose samples sit exactly on
// pixel centres, where bilinear sampling has kinks that finite differences cannot straddle.
inline void MoveReadNetwork(ParamStore<double>& st, Rng& rng) {
  const ParamInfo& w = st.info(st.Find("location.fc.W"));
  for (std::size_t i = 0; i < w.size; ++i) st.values()[w.offset + i] = rng.Uniform(-0.3, 0.3);
  const ParamInfo& b = st.info(st.Find("location.fc.b"));
  const double offsets[6] = {0.0137, 0.0291, -0.0173, -0.0219, 0.0113, 0.0257};
  for (std::size_t i = 0; i < b.size; ++i) st.values()[b.offset + i] += offsets[i % 6];
}

// The small reads of the whole-model gradient checks, for any registered attention: 4 x 4 glimpses at
// 2 scales, a 2 x 2 grid, keys of size 4.
inline ExperimentConfig SmallReads(const std::string& attention) {
  ExperimentConfig cfg;
  cfg.attention = attention;
  cfg.patch = 4, cfg.scales = 2, cfg.grid = 2, cfg.attention_dim = 4;
  return cfg;
}

}  // namespace glimpse::test
