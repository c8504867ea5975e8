// strategy: warp-level primitives, each lane holds one input per 32-wide window segment and neighbours' inputs arrive through __shfl_sync, taps read via the read-only cache
#include <cuda_runtime.h>

__global__ void conv1d_shfl_kernel(const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y, int n, int k) {
    int lane = threadIdx.x % 32;
    // Each warp computes 32 consecutive outputs; ws is warp-uniform so the
    // early exit keeps whole warps together.
    long long ws0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32 * 32;
    if (ws0 >= n) return;
    int i = (int)ws0 + lane;
    int half = k / 2;
    float acc = 0.0f;
    // Window of the warp: inputs ws0-half .. ws0+31+k-1-half, walked in
    // 32-element segments; seg holds the current segment and next the one after.
    int lo = (int)ws0 - half;
    int src = lo + lane;
    float cur = (src >= 0 && src < n) ? __ldg(x + src) : 0.0f;
    for (int j0 = 0; j0 < k; j0 += 32) {
        int s2 = lo + j0 + 32 + lane;
        float nxt = (s2 >= 0 && s2 < n) ? __ldg(x + s2) : 0.0f;
        int jn = min(32, k - j0);
        for (int d = 0; d < jn; d++) {
            // Input at relative position lane + d of this segment pair.
            int p = lane + d;
            float a = __shfl_sync(0xffffffffu, cur, p & 31);
            float b = __shfl_sync(0xffffffffu, nxt, p & 31);
            float v = p < 32 ? a : b;
            acc += __ldg(w + j0 + d) * v;
        }
        cur = nxt;
    }
    if (i < n) y[i] = acc;
}

extern "C" void conv1d(const float *x, const float *w, float *y, int n, int k) {
    long long threads = ((long long)n + 31) / 32 * 32;
    conv1d_shfl_kernel<<<(unsigned)((threads + 255) / 256), 256>>>(x, w, y, n, k);
}
