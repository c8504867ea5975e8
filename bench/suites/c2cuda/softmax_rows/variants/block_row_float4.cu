// strategy: vectorized loads, one 256-thread block per row reading float4 (scalar path when the row is not 16-byte aligned, scalar tail), online max/sum per thread, warp shuffles then shared memory across warps
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__device__ __forceinline__ void online_add(float &m, float &s, float v) {
    if (v > m) { s = s * expf(m - v) + 1.0f; m = v; }
    else s += expf(v - m);
}

__device__ __forceinline__ void online_merge(float &m, float &s, float mo, float so) {
    float mn = fmaxf(m, mo);
    float a = (m == -INFINITY) ? 0.0f : s * expf(m - mn);
    float b = (mo == -INFINITY) ? 0.0f : so * expf(mo - mn);
    s = a + b;
    m = mn;
}

__global__ void __launch_bounds__(THREADS) softmax_f4_kernel(const float *__restrict__ x, float *__restrict__ y, int rows, int cols) {
    __shared__ float wm[WARPS], wsum[WARPS];
    const float *xr = x + (size_t)blockIdx.x * cols;
    float *yr = y + (size_t)blockIdx.x * cols;
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    bool vec = (((uintptr_t)xr | (uintptr_t)yr) & 15) == 0;
    int nvec = vec ? cols / 4 : 0;
    float m = -INFINITY, s = 0.0f;
    const float4 *x4 = reinterpret_cast<const float4 *>(xr);
    for (int v = t; v < nvec; v += THREADS) {
        float4 q = x4[v];
        online_add(m, s, q.x); online_add(m, s, q.y); online_add(m, s, q.z); online_add(m, s, q.w);
    }
    for (int c = 4 * nvec + t; c < cols; c += THREADS) online_add(m, s, xr[c]);
#pragma unroll
    for (int off = 16; off > 0; off /= 2) {
        float mo = __shfl_xor_sync(0xffffffffu, m, off);
        float so = __shfl_xor_sync(0xffffffffu, s, off);
        online_merge(m, s, mo, so);
    }
    if (lane == 0) { wm[warp] = m; wsum[warp] = s; }
    __syncthreads();
    m = wm[0]; s = wsum[0];
    for (int w = 1; w < WARPS; w++) online_merge(m, s, wm[w], wsum[w]);
    float inv = 1.0f / s;
    float4 *y4 = reinterpret_cast<float4 *>(yr);
    for (int v = t; v < nvec; v += THREADS) {
        float4 q = x4[v];
        y4[v] = make_float4(expf(q.x - m) * inv, expf(q.y - m) * inv, expf(q.z - m) * inv, expf(q.w - m) * inv);
    }
    for (int c = 4 * nvec + t; c < cols; c += THREADS) yr[c] = expf(xr[c] - m) * inv;
}

extern "C" void softmax_rows(const float *x, float *y, int rows, int cols) {
    if (rows > 0) softmax_f4_kernel<<<rows, THREADS>>>(x, y, rows, cols);
}
