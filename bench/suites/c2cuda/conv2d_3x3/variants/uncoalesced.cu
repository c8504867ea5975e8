// strategy: deliberately poor, uncoalesced: threadIdx.x runs down the image rows, so a warp touches 32 rows w floats apart on every load and store
#include <cuda_runtime.h>

__global__ void conv2d_uncoalesced_kernel(const float *in, const float *k, float *out, int h, int w) {
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    int x = blockIdx.y * blockDim.y + threadIdx.y;
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
    dim3 block(32, 8);
    dim3 grid((h + 31) / 32, (w + 7) / 8);
    conv2d_uncoalesced_kernel<<<grid, block>>>(in, k, out, h, w);
}
