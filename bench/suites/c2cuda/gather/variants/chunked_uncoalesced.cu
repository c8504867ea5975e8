// strategy: deliberately poor, uncoalesced: each thread handles a contiguous chunk of 32 outputs, so a warp's idx loads and dst stores are 128 bytes apart
#include <cuda_runtime.h>

#define CHUNK 32

__global__ void gather_chunked(const float *src, const int *idx, float *dst, int m)
{
	long long begin = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
	long long end = begin + CHUNK < m ? begin + CHUNK : m;
	for (long long i = begin; i < end; i++)
		dst[i] = src[idx[i]];
}

extern "C" void gather(const float *src, const int *idx, float *dst, int n, int m)
{
	(void)n;
	int threads = 128;
	int chunks = (m + CHUNK - 1) / CHUNK;
	int blocks = (chunks + threads - 1) / threads;
	if (blocks > 0)
		gather_chunked<<<blocks, threads>>>(src, idx, dst, m);
}
