// strategy: naive: one thread per pixel, three byte loads and one byte store
#include <cuda_runtime.h>

__global__ void gray_naive(const unsigned char *rgb, unsigned char *gray, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned int r = rgb[3 * (size_t)i], g = rgb[3 * (size_t)i + 1], b = rgb[3 * (size_t)i + 2];
	gray[i] = (unsigned char)((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

extern "C" void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int n)
{
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	if (blocks > 0)
		gray_naive<<<blocks, threads>>>(rgb, gray, n);
}

// rlbatch: copy 52
__device__ int rlbatch_tag_52 = 52;
