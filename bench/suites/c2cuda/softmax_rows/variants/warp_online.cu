// strategy: warp-level primitives with an online normaliser: one pass keeps a running max and rescaled sum per lane, merged with shuffles, then one write pass (two reads of x instead of three)
#include <cuda_runtime.h>
#include <math.h>

__global__ void softmax_online_kernel(const float *__restrict__ x, float *__restrict__ y, int rows, int cols) {
    long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (r >= rows) return;
    const float *xr = x + (size_t)r * cols;
    float *yr = y + (size_t)r * cols;
    float m = -INFINITY, s = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        float v = xr[c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;  // expf(-inf) = 0 on the first element
            m = v;
        } else {
            s += expf(v - m);
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off /= 2) {
        float mo = __shfl_xor_sync(0xffffffffu, m, off);
        float so = __shfl_xor_sync(0xffffffffu, s, off);
        float mn = fmaxf(m, mo);
        // Lanes that saw no element have m = -inf and s = 0; guard the
        // -inf - -inf = NaN case.
        float a = (m == -INFINITY) ? 0.0f : s * expf(m - mn);
        float b = (mo == -INFINITY) ? 0.0f : so * expf(mo - mn);
        s = a + b;
        m = mn;
    }
    float inv = 1.0f / s;
    for (int c = lane; c < cols; c += 32) yr[c] = expf(xr[c] - m) * inv;
}

extern "C" void softmax_rows(const float *x, float *y, int rows, int cols) {
    long long threads = (long long)rows * 32;
    softmax_online_kernel<<<(unsigned)((threads + 127) / 128), 128>>>(x, y, rows, cols);
}
