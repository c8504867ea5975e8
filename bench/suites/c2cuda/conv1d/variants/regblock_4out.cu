// strategy: register blocking, shared-memory window per block and 4 adjacent outputs per thread kept in registers, each loaded input reused by 4 accumulators
#include <cuda_runtime.h>

#define THREADS 128
#define OUT_PER_THREAD 4
#define TILE (THREADS * OUT_PER_THREAD)
#define WCH 128

__global__ void __launch_bounds__(THREADS) conv1d_rb_kernel(const float *x, const float *w, float *y, int n, int k) {
    __shared__ float xs[TILE + WCH - 1];
    __shared__ float ws[WCH];
    int half = k / 2;
    int base = blockIdx.x * TILE;
    int o = threadIdx.x * OUT_PER_THREAD;  // first output of this thread, relative to base
    float acc0 = 0.f, acc1 = 0.f, acc2 = 0.f, acc3 = 0.f;
    for (int j0 = 0; j0 < k; j0 += WCH) {
        int wc = min(WCH, k - j0);
        int lo = base + j0 - half;
        for (int t = threadIdx.x; t < TILE + wc - 1; t += THREADS) {
            int src = lo + t;
            xs[t] = (src >= 0 && src < n) ? x[src] : 0.0f;
        }
        for (int t = threadIdx.x; t < wc; t += THREADS) ws[t] = w[j0 + t];
        __syncthreads();
        // Sliding window: x0..x3 hold xs[o+j .. o+j+3].
        float x0 = xs[o], x1 = xs[o + 1], x2 = xs[o + 2];
        for (int j = 0; j < wc; j++) {
            float x3 = xs[o + j + 3];
            float wj = ws[j];
            acc0 += wj * x0; acc1 += wj * x1; acc2 += wj * x2; acc3 += wj * x3;
            x0 = x1; x1 = x2; x2 = x3;
        }
        __syncthreads();
    }
    int i = base + o;
    if (i < n) y[i] = acc0;
    if (i + 1 < n) y[i + 1] = acc1;
    if (i + 2 < n) y[i + 2] = acc2;
    if (i + 3 < n) y[i + 3] = acc3;
}

extern "C" void conv1d(const float *x, const float *w, float *y, int n, int k) {
    conv1d_rb_kernel<<<(n + TILE - 1) / TILE, THREADS>>>(x, w, y, n, k);
}
