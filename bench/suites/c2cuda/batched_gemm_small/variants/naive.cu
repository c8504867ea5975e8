// strategy: naive, one thread per output element over the flattened batch, operands read straight from global memory
#include <cuda_runtime.h>

__global__ void bgemm_naive_kernel(const float *A, const float *B, float *C, int batch, int n) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long nn = (long long)n * n;
    if (idx >= nn * batch) return;
    long long b = idx / nn;
    int e = (int)(idx % nn);
    int i = e / n, j = e % n;
    const float *a = A + b * nn, *bm = B + b * nn;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += a[i * n + k] * bm[k * n + j];
    C[idx] = acc;
}

extern "C" void batched_gemm_small(const float *A, const float *B, float *C, int batch, int n) {
    long long total = (long long)batch * n * n;
    if (total == 0) return;
    bgemm_naive_kernel<<<(unsigned)((total + 255) / 256), 256>>>(A, B, C, batch, n);
}
