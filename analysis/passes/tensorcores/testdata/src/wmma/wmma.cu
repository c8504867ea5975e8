#include <mma.h>
using namespace nvcuda;

__global__ void gemm(const half* A, const half* B, float* C, int K) { // want kernel=gemm tensor_cores:"16" tensor_core_loads:"33"
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + k, K);
    wmma::load_matrix_sync(b, B + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}

__global__ void ptx(float* d, const unsigned* a, const unsigned* b) { // want kernel=ptx tensor_cores:"4" tensor_core_loads:"0"
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  for (int i = 0; i < 4; i++) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  d[threadIdx.x] = c0 + c1 + c2 + c3;
}
