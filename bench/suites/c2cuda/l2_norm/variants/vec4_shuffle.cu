// strategy: vectorized loads: grid-stride float4 loads with two independent accumulators, scalar tail for n not divisible by 4, warp-shuffle block reduction, one-block final pass
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS (132 * 4)

__device__ __forceinline__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

__global__ void partial_vec4(const float *__restrict__ x, float *part, int n)
{
	__shared__ float ws[THREADS / 32];
	const float4 *x4 = reinterpret_cast<const float4 *>(x);
	int nq = n / 4;
	int tid = blockIdx.x * THREADS + threadIdx.x;
	int stride = gridDim.x * THREADS;
	float v0 = 0.0f, v1 = 0.0f;
	for (int q = tid; q < nq; q += stride) {
		float4 a = __ldg(&x4[q]);
		v0 += a.x * a.x + a.y * a.y;
		v1 += a.z * a.z + a.w * a.w;
	}
	for (int i = nq * 4 + tid; i < n; i += stride) {
		float a = __ldg(&x[i]);
		v0 += a * a;
	}
	float v = warp_sum(v0 + v1);
	if ((threadIdx.x & 31) == 0)
		ws[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < THREADS / 32 ? ws[threadIdx.x] : 0.0f;
		v = warp_sum(v);
		if (threadIdx.x == 0)
			part[blockIdx.x] = v;
	}
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
	float *part = 0;
	if (cudaMalloc(&part, BLOCKS * sizeof(float)) != cudaSuccess)
		return;
	partial_vec4<<<BLOCKS, THREADS>>>(x, part, n);
	finish<<<1, 1024>>>(part, BLOCKS, result);
	cudaFree(part);
}
