// strategy: naive: one global float atomicAdd per element (4096 hot addresses at the primary size)
#include <cuda_runtime.h>

__global__ void scatter_global(const float *val, const int *idx, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&out[idx[i]], val[i]);
}

extern "C" void scatter_add(const float *val, const int *idx, float *out, int n, int bins)
{
	cudaMemsetAsync(out, 0, (size_t)bins * sizeof(float), 0);
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	if (blocks > 0)
		scatter_global<<<blocks, threads>>>(val, idx, out, n);
}
