// strategy: naive: one thread per output, coalesced idx/dst, random src reads, 256-thread blocks
#include <cuda_runtime.h>

__global__ void gather_naive(const float *src, const int *idx, float *dst, int m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < m)
		dst[i] = src[idx[i]];
}

extern "C" void gather(const float *src, const int *idx, float *dst, int n, int m)
{
	(void)n;
	int threads = 256;
	int blocks = (m + threads - 1) / threads;
	if (blocks > 0)
		gather_naive<<<blocks, threads>>>(src, idx, dst, m);
}
