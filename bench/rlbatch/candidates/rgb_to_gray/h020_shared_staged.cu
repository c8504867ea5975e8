// strategy: shared-memory staging: a block loads the 3 KiB of RGB for its 1024 pixels with coalesced 32-bit loads into shared memory, then each thread converts 4 pixels and stores one 32-bit word
#include <cuda_runtime.h>

#define THREADS 256
#define PIX (THREADS * 4)

__global__ void __launch_bounds__(THREADS) gray_staged(const unsigned char *__restrict__ rgb, unsigned char *__restrict__ gray, int n)
{
	__shared__ unsigned int words[PIX * 3 / 4];
	const unsigned char *bytes = reinterpret_cast<const unsigned char *>(words);
	size_t first = (size_t)blockIdx.x * PIX;
	int count = (int)min((size_t)PIX, (size_t)n - first);
	if (count == PIX) {
		const unsigned int *src = reinterpret_cast<const unsigned int *>(rgb + 3 * first);
		for (int k = threadIdx.x; k < PIX * 3 / 4; k += THREADS)
			words[k] = __ldg(&src[k]);
	} else {
		// Last, partial block: byte loads, nothing read past 3*n.
		unsigned char *dst = reinterpret_cast<unsigned char *>(words);
		for (int k = threadIdx.x; k < 3 * count; k += THREADS)
			dst[k] = rgb[3 * first + k];
	}
	__syncthreads();
	int p0 = threadIdx.x * 4;
	if (p0 + 4 <= count) {
		unsigned int o = 0;
#pragma unroll
		for (int k = 0; k < 4; k++) {
			int b = 3 * (p0 + k);
			unsigned int g = (77u * bytes[b] + 150u * bytes[b + 1] + 29u * bytes[b + 2] + 128u) >> 8;
			o |= g << (8 * k);
		}
		// first and p0 are multiples of 4: the word store is aligned.
		*reinterpret_cast<unsigned int *>(gray + first + p0) = o;
	} else {
		for (int k = 0; p0 + k < count; k++) {
			int b = 3 * (p0 + k);
			gray[first + p0 + k] = (unsigned char)((77u * bytes[b] + 150u * bytes[b + 1] + 29u * bytes[b + 2] + 128u) >> 8);
		}
	}
}

extern "C" void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int n)
{
	int blocks = (n + PIX - 1) / PIX;
	if (blocks > 0)
		gray_staged<<<blocks, THREADS>>>(rgb, gray, n);
}

// rlbatch: copy 20
__device__ int rlbatch_tag_20 = 20;
