// strategy: vectorized stores, each thread writes 4 adjacent columns as one float4 when the row is 16-byte aligned, scalar stores otherwise and for the tail
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void outer_f4_kernel(const float *__restrict__ u, const float *__restrict__ v, float *__restrict__ A, int M, int N) {
    int j = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    int i = blockIdx.y;
    if (j >= N) return;
    float ui = __ldg(u + i);
    float *row = A + (size_t)i * N;
    if (j + 3 < N && (((uintptr_t)(row + j) | (uintptr_t)(v + j)) & 15) == 0) {
        float4 q = __ldg(reinterpret_cast<const float4 *>(v + j));
        *reinterpret_cast<float4 *>(row + j) = make_float4(ui * q.x, ui * q.y, ui * q.z, ui * q.w);
    } else {
        for (int k = j; k < j + 4 && k < N; k++) row[k] = ui * __ldg(v + k);
    }
}

extern "C" void outer_product(const float *u, const float *v, float *A, int M, int N) {
    // One grid row per matrix row: M must stay within gridDim.y's 65535;
    // larger M is split into several launches.
    int threads = 256;
    unsigned gx = (unsigned)(((long long)N + 4LL * threads - 1) / (4LL * threads));
    for (int i0 = 0; i0 < M; i0 += 65535) {
        int rows = min(65535, M - i0);
        dim3 grid(gx, rows);
        outer_f4_kernel<<<grid, threads>>>(u + i0, v, A + (size_t)i0 * N, rows, N);
    }
}
