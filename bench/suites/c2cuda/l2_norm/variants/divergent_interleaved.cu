// strategy: deliberately poor, divergent: one element per thread and an interleaved shared-memory tree (tid % (2*s) == 0), so active threads are scattered across warps; modulo arithmetic in the loop
#include <cuda_runtime.h>

#define THREADS 256

__global__ void partial_divergent(const float *x, float *part, int n)
{
	__shared__ float s[THREADS];
	int i = blockIdx.x * THREADS + threadIdx.x;
	float v = i < n ? x[i] : 0.0f;
	s[threadIdx.x] = v * v;
	__syncthreads();
	for (int k = 1; k < THREADS; k *= 2) {
		if (threadIdx.x % (2 * k) == 0)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		part[blockIdx.x] = s[0];
}

// One block of 1024 threads sums the m partial sums and writes the root.
__global__ void finish(const float *part, int m, float *result)
{
	__shared__ float s[1024];
	float v = 0.0f;
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		v += part[i];
	s[threadIdx.x] = v;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		result[0] = sqrtf(s[0]);
}

extern "C" void l2_norm(const float *x, float *result, int n)
{
	if (n <= 0)
		return;
	int blocks = (n + THREADS - 1) / THREADS;
	float *part = 0;
	if (cudaMalloc(&part, (size_t)blocks * sizeof(float)) != cudaSuccess)
		return;
	partial_divergent<<<blocks, THREADS>>>(x, part, n);
	finish<<<1, 1024>>>(part, blocks, result);
	cudaFree(part);
}
