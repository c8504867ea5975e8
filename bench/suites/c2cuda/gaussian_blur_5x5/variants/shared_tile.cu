// strategy: shared-memory tiling: 32x16 block stages a (32+4)x(16+4) haloed tile, then applies the 25 weights from shared memory
#include <cuda_runtime.h>

#define BX 32
#define BY 16
#define TW (BX + 4)
#define TH (BY + 4)

__global__ void gauss_tile(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	__shared__ float tile[TH][TW];
	const float t[5] = {1.f, 4.f, 6.f, 4.f, 1.f};
	int x0 = blockIdx.x * BX - 2, y0 = blockIdx.y * BY - 2;
	for (int i = threadIdx.y * BX + threadIdx.x; i < TW * TH; i += BX * BY) {
		int tx = i % TW, ty = i / TW;
		int xx = min(max(x0 + tx, 0), w - 1);
		int yy = min(max(y0 + ty, 0), h - 1);
		tile[ty][tx] = in[(size_t)yy * w + xx];
	}
	__syncthreads();
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float s = 0.0f;
#pragma unroll
	for (int dy = 0; dy < 5; dy++) {
		float r = 0.0f;
#pragma unroll
		for (int dx = 0; dx < 5; dx++)
			r += t[dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
		s += t[dy] * r;
	}
	out[(size_t)y * w + x] = s * (1.0f / 256.0f);
}

extern "C" void gaussian_blur_5x5(const float *in, float *out, int width, int height)
{
	dim3 block(BX, BY);
	dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
	if (width > 0 && height > 0)
		gauss_tile<<<grid, block>>>(in, out, width, height);
}
