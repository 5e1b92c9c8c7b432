#include "src/core/blas.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace glimpse {
namespace {

bool g_accounting = false;
std::map<std::tuple<bool, bool, int, int, int>, GemmShape> g_shapes;  // the totals are their sums
std::mutex g_stats_mu;  // data-parallel shards call Gemm from several threads

double Now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Runs `call` and, when accounting is on, adds its time to its shape's entry.
template <class F>
void Accounted(bool ta, bool tb, int m, int n, int k, F&& call) {
  if (!g_accounting) return call();
  const double t0 = Now();
  call();
  const double dt = Now() - t0;
  std::lock_guard<std::mutex> lock(g_stats_mu);
  GemmShape& s = g_shapes.try_emplace(std::make_tuple(ta, tb, m, n, k), GemmShape{ta, tb, m, n, k}).first->second;
  ++s.calls;
  s.seconds += dt;
}

}  // namespace

template <>
void Gemm<float>(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
                 float beta, float* c, int ldc) {
  Accounted(ta, tb, m, n, k, [&] {
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda,
                b, ldb, beta, c, ldc);
  });
}

template <>
void Gemm<double>(bool ta, bool tb, int m, int n, int k, double alpha, const double* a, int lda, const double* b,
                  int ldb, double beta, double* c, int ldc) {
  Accounted(ta, tb, m, n, k, [&] {
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda,
                b, ldb, beta, c, ldc);
  });
}

void SetBlasThreads(int threads) { openblas_set_num_threads(threads); }
int GetBlasThreads() { return openblas_get_num_threads(); }
std::string BlasBuild() {
  std::string config = openblas_get_config(), core = openblas_get_corename();
  while (!config.empty() && config.back() == ' ') config.pop_back();
  return config + "; core " + core;
}

std::string BlasKernelNote(const std::string& core, bool avx2, bool avx512, bool pinned) {
  // OpenBLAS's x86 kernels that use no AVX: its fallbacks for a CPU it does not know.
  static const char* const kPreAvx[] = {"Katmai", "Coppermine", "Northwood",     "Prescott",  "Banias",
                                        "Core2",  "Penryn",     "Dunnington",    "Nehalem",   "Atom",
                                        "Athlon", "Opteron",    "Opteron(SSE3)", "Barcelona", "Nano"};
  if (pinned || !avx2 || std::find(std::begin(kPreAvx), std::end(kPreAvx), core) == std::end(kPreAvx)) return "";
  const std::string fit = avx512 ? "SkylakeX" : "Haswell";
  return "OpenBLAS runs its " + core + " kernel (no AVX) on a CPU with " + (avx512 ? "AVX-512" : "AVX2") +
         ": it does not know this CPU, and its matrix products run several times slower than they could. "
         "OPENBLAS_CORETYPE=" +
         fit + " selects the kernel for these vectors (docs/performance.md).";
}

std::string BlasKernelNote() {
  bool avx2 = false, avx512 = false;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  avx2 = __builtin_cpu_supports("avx2");
  avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
  const char* pinned = std::getenv("OPENBLAS_CORETYPE");
  return BlasKernelNote(openblas_get_corename(), avx2, avx512, pinned != nullptr && *pinned != '\0');
}

void SetGemmAccounting(bool on) {
  g_accounting = on;
  if (on) g_shapes.clear();
}

GemmStats GetGemmStats() {
  std::lock_guard<std::mutex> lock(g_stats_mu);
  GemmStats s;
  for (const auto& kv : g_shapes) {
    const GemmShape& g = kv.second;
    s.seconds += g.seconds;
    s.flops += 2.0 * g.m * g.n * g.k * g.calls;
    s.calls += g.calls;
    s.shapes.push_back(g);
  }
  std::sort(s.shapes.begin(), s.shapes.end(),
            [](const GemmShape& a, const GemmShape& b) { return a.seconds > b.seconds; });
  return s;
}

double MeasureSgemmPeak(int n, int reps) {
  const auto nn = static_cast<std::size_t>(n) * n;
  std::vector<float> a(nn, 0.5f), b(nn, 0.25f), c(nn, 0.f);
  auto product = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n);
  };
  product();  // warm-up: pages, thread start-up
  const double t0 = Now();
  for (int r = 0; r < reps; ++r) product();
  return 2.0 * n * n * n * reps / (Now() - t0) / 1e9;
}

}  // namespace glimpse
