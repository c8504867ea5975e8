// strategy: vectorized loads: 4 pixels per thread read as three 32-bit words (12 bytes) and written as one 32-bit word; scalar tail for n not divisible by 4
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int luma(unsigned int r, unsigned int g, unsigned int b)
{
	return (77u * r + 150u * g + 29u * b + 128u) >> 8;
}

__global__ void gray_vec4(const unsigned char *__restrict__ rgb, unsigned char *__restrict__ gray, int n)
{
	int q = blockIdx.x * blockDim.x + threadIdx.x;
	int nq = n / 4;
	if (q < nq) {
		// 12-byte groups start at multiples of 12 bytes: 4-byte aligned.
		const unsigned int *w = reinterpret_cast<const unsigned int *>(rgb) + 3 * (size_t)q;
		unsigned int w0 = __ldg(&w[0]), w1 = __ldg(&w[1]), w2 = __ldg(&w[2]);
		// Little-endian bytes: w0 = R0 G0 B0 R1, w1 = G1 B1 R2 G2, w2 = B2 R3 G3 B3.
		unsigned int g0 = luma(w0 & 0xff, (w0 >> 8) & 0xff, (w0 >> 16) & 0xff);
		unsigned int g1 = luma(w0 >> 24, w1 & 0xff, (w1 >> 8) & 0xff);
		unsigned int g2 = luma((w1 >> 16) & 0xff, w1 >> 24, w2 & 0xff);
		unsigned int g3 = luma((w2 >> 8) & 0xff, (w2 >> 16) & 0xff, w2 >> 24);
		reinterpret_cast<unsigned int *>(gray)[q] = g0 | (g1 << 8) | (g2 << 16) | (g3 << 24);
	}
	int i = nq * 4 + q; // the last n % 4 pixels, one per thread
	if (q < n - nq * 4)
		gray[i] = (unsigned char)luma(rgb[3 * (size_t)i], rgb[3 * (size_t)i + 1], rgb[3 * (size_t)i + 2]);
}

extern "C" void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int n)
{
	int threads = 256;
	int work = n / 4 > 3 ? n / 4 : 3;
	int blocks = (work + threads - 1) / threads;
	if (n > 0)
		gray_vec4<<<blocks, threads>>>(rgb, gray, n);
}

// rlbatch: copy 36
__device__ int rlbatch_tag_36 = 36;
