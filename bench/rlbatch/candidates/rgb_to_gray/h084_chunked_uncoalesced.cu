// strategy: deliberately poor, uncoalesced: each thread converts a contiguous chunk of 64 pixels with byte accesses, so a warp's simultaneous loads are 192 bytes apart
#include <cuda_runtime.h>

#define CHUNK 64

__global__ void gray_chunked(const unsigned char *rgb, unsigned char *gray, int n)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t begin = t * CHUNK;
	size_t end = begin + CHUNK < (size_t)n ? begin + CHUNK : (size_t)n;
	for (size_t i = begin; i < end; i++) {
		unsigned int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
		gray[i] = (unsigned char)((77u * r + 150u * g + 29u * b + 128u) >> 8);
	}
}

extern "C" void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int n)
{
	int threads = 128;
	int chunks = (n + CHUNK - 1) / CHUNK;
	int blocks = (chunks + threads - 1) / threads;
	if (blocks > 0)
		gray_chunked<<<blocks, threads>>>(rgb, gray, n);
}

// rlbatch: copy 84
__device__ int rlbatch_tag_84 = 84;
