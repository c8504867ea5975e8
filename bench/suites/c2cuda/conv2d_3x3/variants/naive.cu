// strategy: naive, one thread per pixel in 16x16 blocks, neighbours and weights read from global memory with bounds checks
#include <cuda_runtime.h>

__global__ void conv2d_naive_kernel(const float *in, const float *k, float *out, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (int dx = -1; dx <= 1; dx++) {
            int xx = x + dx;
            if (xx < 0 || xx >= w) continue;
            acc += k[(dy + 1) * 3 + dx + 1] * in[(size_t)yy * w + xx];
        }
    }
    out[(size_t)y * w + x] = acc;
}

extern "C" void conv2d_3x3(const float *in, const float *k, float *out, int h, int w) {
    dim3 block(16, 16);
    dim3 grid((w + 15) / 16, (h + 15) / 16);
    conv2d_naive_kernel<<<grid, block>>>(in, k, out, h, w);
}
