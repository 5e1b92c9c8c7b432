#include "src/core/rng.h"

namespace glimpse {
namespace {

std::uint64_t SplitMix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

inline std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t HashStreamName(const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Rng::Rng(std::uint64_t seed, const std::string& stream) {
  std::uint64_t x = seed;
  std::uint64_t mix = SplitMix64(x) ^ HashStreamName(stream);
  for (auto& w : state_.s) w = SplitMix64(mix);
}

std::uint64_t Rng::Next() {
  auto& s = state_.s;
  const std::uint64_t result = Rotl(s[1] * 5, 7) * 9;
  const std::uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = Rotl(s[3], 45);
  return result;
}

std::uint64_t Rng::UniformInt(std::uint64_t n) {
  // Lemire 2019, "Fast random integer generation in an interval".
  __uint128_t m = static_cast<__uint128_t>(Next()) * n;
  std::uint64_t low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<__uint128_t>(Next()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

double Rng::Normal() {
  if (state_.has_spare) {
    state_.has_spare = 0;
    return state_.spare;
  }
  double u, v, r2;
  do {
    u = 2.0 * Uniform() - 1.0;
    v = 2.0 * Uniform() - 1.0;
    r2 = u * u + v * v;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  state_.spare = v * f;
  state_.has_spare = 1;
  return u * f;
}

}  // namespace glimpse
