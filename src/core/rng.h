// Seeded random number generator with independent streams per purpose (docs/architecture.md).
//
// Rng(seed, "init"), Rng(seed, "data"), Rng(seed, "policy"), Rng(seed, "eval") are independent
// generators: changing how many draws one purpose makes never shifts another's. The generator is
// xoshiro256** (Blackman & Vigna 2018), seeded through splitmix64; all distributions are implemented
// here rather than by <random>, so a run is bit-identical across standard libraries. The whole state
// is a few integers, saved in checkpoints.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace glimpse {

class Rng {
 public:
  // Serialisable state: xoshiro words, plus the spare normal deviate of Box-Muller.
  struct State {
    std::array<std::uint64_t, 4> s{};
    std::uint64_t has_spare = 0;
    double spare = 0.0;
  };

  Rng(std::uint64_t seed, const std::string& stream);

  // Uniform 64-bit word.
  std::uint64_t Next();
  // Uniform in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  // Uniform integer in [0, n), unbiased (Lemire's multiply-and-reject). n > 0.
  std::uint64_t UniformInt(std::uint64_t n);
  // Standard normal deviate (Box-Muller, polar form).
  double Normal();
  // True with probability p.
  bool Bernoulli(double p) { return Uniform() < p; }

  State GetState() const { return state_; }
  void SetState(const State& s) { state_ = s; }

 private:
  State state_;
};

// FNV-1a hash of a stream name; exposed for tests.
std::uint64_t HashStreamName(const std::string& name);

}  // namespace glimpse
