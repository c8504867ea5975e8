// strategy: naive, one thread per output reading its window and the taps straight from global memory
#include <cuda_runtime.h>

__global__ void conv1d_naive_kernel(const float *x, const float *w, float *y, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int half = k / 2;
    float acc = 0.0f;
    for (int j = 0; j < k; j++) {
        int src = i + j - half;
        if (src >= 0 && src < n) acc += w[j] * x[src];
    }
    y[i] = acc;
}

extern "C" void conv1d(const float *x, const float *w, float *y, int n, int k) {
    conv1d_naive_kernel<<<(n + 255) / 256, 256>>>(x, w, y, n, k);
}
