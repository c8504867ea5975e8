// strategy: shared-memory tree reduction with sequential addressing (no divergence within active warps), two elements per thread added during the load, block partials then a one-block final pass
#include <cuda_runtime.h>

#define THREADS 256

__global__ void partial_sequential(const float *x, float *part, int n)
{
	__shared__ float s[THREADS];
	long long i = (long long)blockIdx.x * THREADS * 2 + threadIdx.x;
	float a = i < n ? x[i] : 0.0f;
	float b = i + THREADS < n ? x[i + THREADS] : 0.0f;
	s[threadIdx.x] = a * a + b * b;
	__syncthreads();
	for (int k = THREADS / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
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
	int blocks = (int)(((long long)n + 2 * THREADS - 1) / (2 * THREADS));
	float *part = 0;
	if (cudaMalloc(&part, (size_t)blocks * sizeof(float)) != cudaSuccess)
		return;
	partial_sequential<<<blocks, THREADS>>>(x, part, n);
	finish<<<1, 1024>>>(part, blocks, result);
	cudaFree(part);
}
