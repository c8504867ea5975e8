#include <cuda_fp16.h>
#include <cstdint>

// m16n8k16 HMMA through inline PTX, with ldmatrix to feed the fragments.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void *smem_ptr) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void *smem_ptr) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(addr));
}

__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2],
                                             const float (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__global__ void one_mma_tile(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half sA[16 * 16];
  __shared__ __align__(16) half sB[16 * 8];
  int lane = threadIdx.x;
  for (int i = lane; i < 16 * 16; i += 32) sA[i] = A[i];
  for (int i = lane; i < 16 * 8; i += 32) sB[i] = B[i];
  __syncthreads();

  uint32_t a[4], b[2];
  float c[4] = {0.f, 0.f, 0.f, 0.f}, d[4];
  ldmatrix_x4(a, &sA[(lane % 16) * 16 + (lane / 16) * 8]);
  ldmatrix_x2_trans(b, &sB[(lane % 16) * 8]);
  mma_m16n8k16(d, a, b, c);

  int row = lane / 4, col = (lane % 4) * 2;
  D[row * 8 + col] = d[0];
  D[row * 8 + col + 1] = d[1];
  D[(row + 8) * 8 + col] = d[2];
  D[(row + 8) * 8 + col + 1] = d[3];
}
