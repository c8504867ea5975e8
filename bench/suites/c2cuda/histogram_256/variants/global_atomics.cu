// strategy: deliberately poor, atomics-heavy: one global atomicAdd per input byte, 256 hot addresses
#include <cuda_runtime.h>

__global__ void hist_global(const unsigned char *data, unsigned int *hist, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&hist[data[i]], 1u);
}

extern "C" void histogram_256(const unsigned char *data, unsigned int *hist, int n)
{
	cudaMemsetAsync(hist, 0, 256 * sizeof(unsigned int), 0);
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	if (blocks > 0)
		hist_global<<<blocks, threads>>>(data, hist, n);
}
