// strategy: register blocking, each thread keeps v[j] in a register and writes its column for 32 rows whose u values are staged in shared memory
#include <cuda_runtime.h>

#define ROWS 32

__global__ void outer_rb_kernel(const float *u, const float *v, float *A, int M, int N) {
    __shared__ float us[ROWS];
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i0 = blockIdx.y * ROWS;
    if (threadIdx.x < ROWS) us[threadIdx.x] = (i0 + threadIdx.x < M) ? u[i0 + threadIdx.x] : 0.0f;
    __syncthreads();
    if (j >= N) return;
    float vj = v[j];
    int nr = min(ROWS, M - i0);
    float *p = A + (size_t)i0 * N + j;
    for (int r = 0; r < nr; r++) p[(size_t)r * N] = us[r] * vj;
}

extern "C" void outer_product(const float *u, const float *v, float *A, int M, int N) {
    // blockDim.x must be at least ROWS to stage u; 256 columns per block.
    dim3 grid((N + 255) / 256, (M + ROWS - 1) / ROWS);
    outer_rb_kernel<<<grid, 256>>>(u, v, A, M, N);
}
