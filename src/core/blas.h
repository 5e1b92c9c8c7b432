// Matrix products through BLAS (OpenBLAS). Row-major: C (m, n) = alpha * op(A) op(B) + beta * C,
// op(A) (m, k), op(B) (k, n). This header does not include <cblas.h>, which conflicts with
// xtensor-blas's declarations (DESIGN.md section 5); blas.cpp does.
#pragma once

namespace glimpse {

template <class T>
void Gemm(bool trans_a, bool trans_b, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc);

// Number of threads OpenBLAS uses for one call. glimpse runs its own code on one thread and lets
// OpenBLAS use `threads`, so the two never oversubscribe the cores.
void SetBlasThreads(int threads);
int GetBlasThreads();

}  // namespace glimpse
