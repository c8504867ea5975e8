// strategy: vectorized loads: 16 bytes per thread through uint4 into a shared-memory histogram, scalar tail for n not divisible by 16
#include <cuda_runtime.h>

__device__ __forceinline__ void count_word(unsigned int *local, unsigned int w)
{
	atomicAdd(&local[w & 0xff], 1u);
	atomicAdd(&local[(w >> 8) & 0xff], 1u);
	atomicAdd(&local[(w >> 16) & 0xff], 1u);
	atomicAdd(&local[w >> 24], 1u);
}

__global__ void hist_vec16(const unsigned char *__restrict__ data, unsigned int *hist, int n)
{
	__shared__ unsigned int local[256];
	for (int b = threadIdx.x; b < 256; b += blockDim.x)
		local[b] = 0;
	__syncthreads();
	// cudaMalloc returns 256-byte aligned pointers, so data is uint4-aligned.
	const uint4 *vec = reinterpret_cast<const uint4 *>(data);
	int nvec = n / 16;
	int stride = gridDim.x * blockDim.x;
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	for (int i = tid; i < nvec; i += stride) {
		uint4 v = __ldg(&vec[i]);
		count_word(local, v.x);
		count_word(local, v.y);
		count_word(local, v.z);
		count_word(local, v.w);
	}
	for (int i = nvec * 16 + tid; i < n; i += stride)
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
	int threads = 512;
	int blocks = (n / 16 + threads - 1) / threads;
	if (blocks < 1)
		blocks = 1;
	if (blocks > 132 * 4)
		blocks = 132 * 4;
	hist_vec16<<<blocks, threads>>>(data, hist, n);
}
