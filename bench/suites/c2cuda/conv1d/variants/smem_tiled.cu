// strategy: shared-memory tiling, each 256-thread block stages its input window plus halo and a chunk of taps in shared memory (taps processed in chunks of 256, so any k works)
#include <cuda_runtime.h>

#define TILE 256
#define WCH 256

__global__ void conv1d_smem_kernel(const float *x, const float *w, float *y, int n, int k) {
    __shared__ float xs[TILE + WCH - 1];
    __shared__ float ws[WCH];
    int half = k / 2;
    int base = blockIdx.x * TILE;
    int i = base + threadIdx.x;
    float acc = 0.0f;
    for (int j0 = 0; j0 < k; j0 += WCH) {
        int wc = min(WCH, k - j0);
        // Window for taps j0..j0+wc-1 of outputs base..base+TILE-1.
        int lo = base + j0 - half;
        for (int t = threadIdx.x; t < TILE + wc - 1; t += TILE) {
            int src = lo + t;
            xs[t] = (src >= 0 && src < n) ? x[src] : 0.0f;
        }
        for (int t = threadIdx.x; t < wc; t += TILE) ws[t] = w[j0 + t];
        __syncthreads();
        for (int j = 0; j < wc; j++) acc += ws[j] * xs[threadIdx.x + j];
        __syncthreads();
    }
    if (i < n) y[i] = acc;
}

extern "C" void conv1d(const float *x, const float *w, float *y, int n, int k) {
    conv1d_smem_kernel<<<(n + TILE - 1) / TILE, TILE>>>(x, w, y, n, k);
}
