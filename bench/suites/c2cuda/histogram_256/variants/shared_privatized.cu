// strategy: shared-memory privatization: per-block 256-bin histogram in shared memory, grid-stride loop, one global merge per block
#include <cuda_runtime.h>

__global__ void hist_shared(const unsigned char *data, unsigned int *hist, int n)
{
	__shared__ unsigned int local[256];
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		local[b] = 0;
	__syncthreads();
	int stride = gridDim.x * blockDim.x;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		atomicAdd(&local[data[i]], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += blockDim.x) {
		unsigned int c = local[b];
		if (c)
			atomicAdd(&hist[b], c);
	}
}

extern "C" void histogram_256(const unsigned char *data, unsigned int *hist, int n)
{
	cudaMemsetAsync(hist, 0, 256 * sizeof(unsigned int), 0);
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	if (blocks > 132 * 8)
		blocks = 132 * 8;
	if (blocks > 0)
		hist_shared<<<blocks, threads>>>(data, hist, n);
}
