#include <cuda_runtime.h>
#define TILE 32  // tile edge; a trailing comment must not hide the value
constexpr int kBlock = 256;

__shared__ float file_scope_buf[64];

__device__ __forceinline__ float sq(float x) { return x * x; }

__host__ __device__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void __launch_bounds__(kBlock, 2) scale(float *__restrict__ x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = sq(a) * x[i];
}

__global__ void transpose(float *out, const float *in, int n) {
    __shared__ float tile[TILE][TILE + 1];
    __shared__ double partial[kBlock / 32];
    extern __shared__ char dyn[];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[0] = tile[threadIdx.x][threadIdx.y] + partial[0] + dyn[0];
}

template <typename T, int N>
__global__ void axpy(T *y, const T *x, T a) {
    __shared__ T buf[N];
    buf[threadIdx.x] = x[threadIdx.x];
    y[threadIdx.x] += a * buf[threadIdx.x];
}

namespace ops {
__global__ void relu(float *x, int n) { if (threadIdx.x < n) x[threadIdx.x] = fmaxf(x[threadIdx.x], 0.f); }
}

extern "C" __global__ void saxpy_c(int n, float a, const float *x, float *y) {}

__global__ void __maxnreg__(64) capped(float *x) {}

__global__ void proto_only(float *x);

void launch(float *d, int n, cudaStream_t s) {
    dim3 grid((n + kBlock - 1) / kBlock), block(kBlock);
    scale<<<grid, block>>>(d, 2.0f, n);
    transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE), 128, s>>>(d, d, n);
    axpy<float, 128><<<n / 128, 128>>>(d, d, 1.0f);
    ops::relu<<<1, 32>>>(d, n);
    unknown_kernel<<<1, 1>>>(d);
    void *args[] = {&d, &n};
    cudaLaunchKernel((void *)ops::relu, dim3(2), dim3(64), args, 256, s);
    sq(1.0f);
}
