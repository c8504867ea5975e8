// strategy: shared-memory tiling, 32x8 blocks stage a (8+2)x(32+2) input tile with halo in shared memory, weights held in registers
#include <cuda_runtime.h>

#define BX 32
#define BY 8

__global__ void conv2d_smem_kernel(const float *in, const float *k, float *out, int h, int w) {
    __shared__ float tile[BY + 2][BX + 2];
    int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
    int t = threadIdx.y * BX + threadIdx.x;
    for (int e = t; e < (BY + 2) * (BX + 2); e += BX * BY) {
        int ty = e / (BX + 2), tx = e % (BX + 2);
        int yy = y0 + ty, xx = x0 + tx;
        tile[ty][tx] = (yy >= 0 && yy < h && xx >= 0 && xx < w) ? in[(size_t)yy * w + xx] : 0.0f;
    }
    float kr[9];
#pragma unroll
    for (int i = 0; i < 9; i++) kr[i] = __ldg(k + i);
    __syncthreads();
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
#pragma unroll
    for (int dy = 0; dy < 3; dy++)
#pragma unroll
        for (int dx = 0; dx < 3; dx++) acc += kr[dy * 3 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[(size_t)y * w + x] = acc;
}

extern "C" void conv2d_3x3(const float *in, const float *k, float *out, int h, int w) {
    dim3 block(BX, BY);
    dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
    conv2d_smem_kernel<<<grid, block>>>(in, k, out, h, w);
}
