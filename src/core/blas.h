// Matrix products through BLAS (OpenBLAS). Row-major: C (m, n) = alpha * op(A) op(B) + beta * C,
// op(A) (m, k), op(B) (k, n). This header does not include <cblas.h>, which conflicts with
// xtensor-blas's declarations (docs/architecture.md, "The stack"); blas.cpp does.
#pragma once

#include <string>
#include <vector>

namespace glimpse {

template <class T>
void Gemm(bool trans_a, bool trans_b, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta,
          T* c, int ldc);

// Number of threads OpenBLAS uses for one call. glimpse runs its own code on one thread and lets
// OpenBLAS use `threads`, so the two never oversubscribe the cores.
void SetBlasThreads(int threads);
int GetBlasThreads();
// OpenBLAS's build and the kernel it chose for this CPU ("OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY
// SkylakeX MAX_THREADS=64; core SkylakeX"), stored with each leg's provenance: another kernel can round
// differently.
std::string BlasBuild();

// A note for the user when OpenBLAS runs a kernel narrower than the CPU's vectors, else "". An
// OpenBLAS older than the CPU does not know its model (0.3.21 on Intel's family 6 model 207) and
// falls back to a pre-AVX kernel (Prescott, SSE3), several times slower than the CPU's own vectors
// allow. The note names OPENBLAS_CORETYPE's value for the CPU's widest
// vectors (SkylakeX for AVX-512, Haswell for AVX2). Nothing is said when OPENBLAS_CORETYPE is set
// (`pinned`): a machine that pins a kernel has its reasons (docs/performance.md).
std::string BlasKernelNote(const std::string& core, bool avx2, bool avx512, bool pinned);
std::string BlasKernelNote();  // this process's kernel, CPU and environment

// Accounting of matrix products, for `glimpse bench --profile`: while enabled, every Gemm call adds
// its wall time and its 2 m n k floating-point operations. Off by default (then Gemm costs nothing
// extra). Calls from several threads (data-parallel shards) add up: seconds is then the sum of the
// threads' times inside BLAS. Switch it on and off only while no products run.
struct GemmShape {  // one product shape: op(A) (m, k) times op(B) (k, n)
  bool trans_a = false, trans_b = false;
  int m = 0, n = 0, k = 0;
  long long calls = 0;
  double seconds = 0;
};
struct GemmStats {
  double seconds = 0;  // time inside BLAS, summed over calling threads
  double flops = 0;    // 2 m n k summed over calls
  long long calls = 0;
  std::vector<GemmShape> shapes;  // per shape, the most time first
};
void SetGemmAccounting(bool on);  // turning it on also resets the totals
GemmStats GetGemmStats();

// Measured sgemm rate (GFLOP/s) of a large square product (n x n by n x n, float) at the current
// BLAS thread count: the "BLAS peak" that bench compares the model's products with.
double MeasureSgemmPeak(int n = 1024, int reps = 6);

}  // namespace glimpse
