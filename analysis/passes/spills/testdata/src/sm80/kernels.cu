// Kernels compiled with `nvcc -Xptxas -v` to capture real ptxas reports
// (see gen.sh). They cover: a mangled C++ kernel, an extern "C" kernel,
// static shared memory with a barrier, a template kernel, a namespaced
// kernel, a kernel with a spilling local array, and a device function.
#include <cuda_runtime.h>

__global__ void k2(float *x) { x[threadIdx.x] *= 2.0f; } // want kernel=k2 spill_bytes:"0" local_bytes:"0"

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void transpose(float *out, const float *in, int n) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}

template <typename T, int N>
__global__ void scale(T *x, T a) {
    for (int i = 0; i < N; i++) x[threadIdx.x * N + i] *= a;
}
template __global__ void scale<float, 4>(float *, float);
template __global__ void scale<double, 2>(double *, double);

namespace ops {
__global__ void relu(float *x, int n) { // want kernel=relu spill_bytes:"0"
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fmaxf(x[i], 0.0f);
}
}  // namespace ops

__device__ __noinline__ float poly(float x, int k) {
    float acc = 0.0f;
    for (int i = 0; i < k; i++) acc = acc * x + 1.0f;
    return acc;
}

__global__ void __launch_bounds__(256) local_array(float *out, const int *idx, int n) { // want kernel=local_array spill_bytes:"0" local_bytes:"256" `ptxas puts 256 bytes per thread of local_array in local memory \(sm_80\)`
    float buf[64];
    for (int i = 0; i < 64; i++) buf[i] = out[i * n + threadIdx.x];
    out[threadIdx.x] = poly(buf[idx[threadIdx.x] & 63], n);
}

__global__ void __maxrregcount_test(float *out, const float *in) { // want kernel=__maxrregcount_test spill_bytes:"80" local_bytes:"48" `ptxas spills registers in __maxrregcount_test for sm_80: 40 bytes of spill stores and 40 bytes of spill loads per thread \(24 registers\)`
    float r[48];
#pragma unroll
    for (int i = 0; i < 48; i++) r[i] = in[i * 1024 + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int i = 0; i < 48; i++) s += r[i] * r[(i * 7) % 48];
    out[threadIdx.x] = s;
}
