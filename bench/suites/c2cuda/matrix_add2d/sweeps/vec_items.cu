// strategy: vectorized loads + register blocking - the matrix as one flat array, VEC-float vector loads, ITEMS vectors per thread (block-strided, or a contiguous run per thread when CONTIG), BLOCK threads
// sweep: BLOCK = 64, 128, 256, 512, 1024
// sweep: ITEMS = 1, 2, 4, 8
// sweep: VEC = 1, 2, 4
// sweep: CONTIG = 0, 1
// sweep-require: CONTIG * ITEMS != 1
#include <cuda_runtime.h>

// VEC consecutive floats moved as one load or store (ld.global.v2/v4).
struct __align__(4 * VEC) vecf {
  float v[VEC];
};

// Rows are contiguous, so C = A + B is an elementwise add over rows * cols floats.
__global__ void __launch_bounds__(BLOCK) add2d_flat_vec(const float *__restrict__ A, const float *__restrict__ B,
                                                        float *__restrict__ C, long long total) {
  long long nvec = total / VEC;
  const vecf *a4 = reinterpret_cast<const vecf *>(A);
  const vecf *b4 = reinterpret_cast<const vecf *>(B);
  vecf *c4 = reinterpret_cast<vecf *>(C);
#pragma unroll
  for (int it = 0; it < ITEMS; it++) {
    long long j = CONTIG ? ((long long)blockIdx.x * BLOCK + threadIdx.x) * ITEMS + it
                         : (long long)blockIdx.x * BLOCK * ITEMS + (long long)it * BLOCK + threadIdx.x;
    if (j < nvec) {
      vecf a = a4[j], b = b4[j];
#pragma unroll
      for (int k = 0; k < VEC; k++) a.v[k] += b.v[k];
      c4[j] = a;
    }
  }
  long long tail = nvec * VEC + threadIdx.x;
  if (blockIdx.x == 0 && tail < total) C[tail] = A[tail] + B[tail];
}

extern "C" void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  long long total = (long long)rows * cols;
  long long per = (long long)BLOCK * ITEMS;
  long long blocks = (total / VEC + per - 1) / per;
  if (blocks < 1) blocks = 1;
  add2d_flat_vec<<<(unsigned)blocks, BLOCK>>>(A, B, C, total);
}
