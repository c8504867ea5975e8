#include <cuda_runtime.h>
#include <cfloat>

// Brute-force k nearest neighbours (small k), insertion into a sorted
// per-thread list held in registers/local memory.
template <int K>
__global__ void knn(const float *__restrict__ ref, int nref, const float *__restrict__ query, int nquery, int dim,
                    float *__restrict__ out_dist, int *__restrict__ out_idx) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= nquery) return;
  float best_d[K];
  int best_i[K];
#pragma unroll
  for (int i = 0; i < K; ++i) {
    best_d[i] = FLT_MAX;
    best_i[i] = -1;
  }
  for (int r = 0; r < nref; ++r) {
    float d = 0.f;
    for (int j = 0; j < dim; ++j) {
      float t = query[j * nquery + q] - ref[j * nref + r];
      d += t * t;
    }
    if (d < best_d[K - 1]) {
      int pos = K - 1;
      while (pos > 0 && best_d[pos - 1] > d) {
        best_d[pos] = best_d[pos - 1];
        best_i[pos] = best_i[pos - 1];
        --pos;
      }
      best_d[pos] = d;
      best_i[pos] = r;
    }
  }
#pragma unroll
  for (int i = 0; i < K; ++i) {
    out_dist[i * nquery + q] = sqrtf(best_d[i]);
    out_idx[i * nquery + q] = best_i[i];
  }
}

void run_knn(const float *ref, int nref, const float *query, int nquery, int dim, float *d, int *idx) {
  knn<8><<<(nquery + 127) / 128, 128>>>(ref, nref, query, nquery, dim, d, idx);
}
