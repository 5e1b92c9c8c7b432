#include "src/core/blas.h"

#include <cblas.h>

namespace glimpse {

template <>
void Gemm<float>(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n,
              k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <>
void Gemm<double>(bool ta, bool tb, int m, int n, int k, double alpha, const double* a, int lda,
                  const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n,
              k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void SetBlasThreads(int threads) { openblas_set_num_threads(threads); }
int GetBlasThreads() { return openblas_get_num_threads(); }

}  // namespace glimpse
