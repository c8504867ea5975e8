#include <cuda_fp16.h>
#include <cstdint>

// index_add_ along dim 0 with half-precision atomics (sm_70+ for __half,
// sm_60+ for __half2).
__global__ void index_add_rows_half(__half *__restrict__ self, const int64_t *__restrict__ index,
                                    const __half *__restrict__ source, int64_t rows, int64_t cols, __half alpha) {
  int64_t r = blockIdx.x;
  if (r >= rows) return;
  int64_t dst = index[r];
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    atomicAdd(&self[dst * cols + c], __hmul(alpha, source[r * cols + c]));
  }
}

__global__ void index_add_rows_half2(__half2 *__restrict__ self, const int64_t *__restrict__ index,
                                     const __half2 *__restrict__ source, int64_t rows, int64_t cols2) {
  int64_t r = blockIdx.x;
  if (r >= rows) return;
  int64_t dst = index[r];
  for (int64_t c = threadIdx.x; c < cols2; c += blockDim.x) atomicAdd(&self[dst * cols2 + c], source[r * cols2 + c]);
}
