// strategy: per-warp private sub-histograms in shared memory (less shared-atomic contention), uint32 loads of 4 bytes, scalar tail
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void __launch_bounds__(THREADS) hist_warp(const unsigned char *__restrict__ data, unsigned int *hist, int n)
{
	__shared__ unsigned int local[WARPS][256];
	unsigned int *mine = local[threadIdx.x / 32];
	for (int b = threadIdx.x; b < WARPS * 256; b += THREADS)
		(&local[0][0])[b] = 0;
	__syncthreads();
	const unsigned int *words = reinterpret_cast<const unsigned int *>(data);
	int nw = n / 4;
	int stride = gridDim.x * THREADS;
	int tid = blockIdx.x * THREADS + threadIdx.x;
	for (int i = tid; i < nw; i += stride) {
		unsigned int w = __ldg(&words[i]);
		atomicAdd(&mine[w & 0xff], 1u);
		atomicAdd(&mine[(w >> 8) & 0xff], 1u);
		atomicAdd(&mine[(w >> 16) & 0xff], 1u);
		atomicAdd(&mine[w >> 24], 1u);
	}
	for (int i = nw * 4 + tid; i < n; i += stride)
		atomicAdd(&mine[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += THREADS) {
		unsigned int c = 0;
		for (int w = 0; w < WARPS; w++)
			c += local[w][b];
		if (c)
			atomicAdd(&hist[b], c);
	}
}

extern "C" void histogram_256(const unsigned char *data, unsigned int *hist, int n)
{
	cudaMemsetAsync(hist, 0, 256 * sizeof(unsigned int), 0);
	int blocks = (n / 4 + THREADS - 1) / THREADS;
	if (blocks < 1)
		blocks = 1;
	if (blocks > 132 * 8)
		blocks = 132 * 8;
	hist_warp<<<blocks, THREADS>>>(data, hist, n);
}
