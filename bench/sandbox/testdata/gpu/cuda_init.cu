// Initialises CUDA the way the benchmark driver does, runs one kernel and
// checks its result: the smallest program that tells whether CUDA works
// under a given sandbox configuration.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twice(int *v) { v[threadIdx.x] = 2 * threadIdx.x; }

static int check(cudaError_t e, const char *what) {
    if (e != cudaSuccess) {
        printf("CUDA FAILED at %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
        return 1;
    }
    return 0;
}

int main() {
    int *d = nullptr, h[32] = {0};
    if (check(cudaFree(0), "initialisation") || check(cudaMalloc(&d, sizeof h), "cudaMalloc")) return 1;
    twice<<<1, 32>>>(d);
    if (check(cudaGetLastError(), "launch") || check(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), "copy back")) return 1;
    for (int i = 0; i < 32; i++)
        if (h[i] != 2 * i) {
            printf("CUDA FAILED: wrong value %d at %d\n", h[i], i);
            return 1;
        }
    cudaFree(d);
    printf("CUDA OK\n");
    return 0;
}
