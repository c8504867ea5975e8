// strategy: grid-stride loop with 4 independent gathers in flight per thread (ILP hides random-access latency), grid sized to the SM count
#include <cuda_runtime.h>

__global__ void gather_ilp(const float *__restrict__ src, const int *__restrict__ idx, float *__restrict__ dst, int m)
{
	int stride = gridDim.x * blockDim.x;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + 3 * stride < m; i += 4 * stride) {
		int k0 = __ldg(&idx[i]), k1 = __ldg(&idx[i + stride]);
		int k2 = __ldg(&idx[i + 2 * stride]), k3 = __ldg(&idx[i + 3 * stride]);
		float v0 = __ldg(&src[k0]), v1 = __ldg(&src[k1]), v2 = __ldg(&src[k2]), v3 = __ldg(&src[k3]);
		dst[i] = v0;
		dst[i + stride] = v1;
		dst[i + 2 * stride] = v2;
		dst[i + 3 * stride] = v3;
	}
	for (; i < m; i += stride)
		dst[i] = __ldg(&src[__ldg(&idx[i])]);
}

extern "C" void gather(const float *src, const int *idx, float *dst, int n, int m)
{
	(void)n;
	int threads = 256;
	int blocks = (m + threads - 1) / threads;
	if (blocks > 132 * 8)
		blocks = 132 * 8;
	if (blocks > 0)
		gather_ilp<<<blocks, threads>>>(src, idx, dst, m);
}
