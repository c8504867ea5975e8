// strategy: deliberately poor, uncoalesced: each thread computes a contiguous chunk of 64 outputs, so the lanes of a warp touch addresses 256 bytes apart
#include <cuda_runtime.h>

#define CHUNK 64

__global__ void conv1d_chunk_kernel(const float *x, const float *w, float *y, int n, int k) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long start = t * CHUNK;
    if (start >= n) return;
    int half = k / 2;
    int end = (int)min((long long)n, start + CHUNK);
    for (int i = (int)start; i < end; i++) {
        float acc = 0.0f;
        for (int j = 0; j < k; j++) {
            int src = i + j - half;
            if (src >= 0 && src < n) acc += w[j] * x[src];
        }
        y[i] = acc;
    }
}

extern "C" void conv1d(const float *x, const float *w, float *y, int n, int k) {
    long long threads = ((long long)n + CHUNK - 1) / CHUNK;
    conv1d_chunk_kernel<<<(unsigned)((threads + 127) / 128), 128>>>(x, w, y, n, k);
}
