// strategy: separable filter fused in shared memory: haloed 64x16 tile, horizontal 5-tap pass into shared memory, vertical 5-tap pass (10 multiply-adds per pixel)
#include <cuda_runtime.h>

#define BX 64
#define BY 16
#define TW (BX + 4)
#define TH (BY + 4)
#define NT 256

__global__ void __launch_bounds__(NT) gauss_sep(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	__shared__ float tile[TH][TW];
	__shared__ float hs[TH][BX];
	const float t[5] = {1.f, 4.f, 6.f, 4.f, 1.f};
	int x0 = blockIdx.x * BX - 2, y0 = blockIdx.y * BY - 2;
	for (int i = threadIdx.x; i < TW * TH; i += NT) {
		int tx = i % TW, ty = i / TW;
		int xx = min(max(x0 + tx, 0), w - 1);
		int yy = min(max(y0 + ty, 0), h - 1);
		tile[ty][tx] = __ldg(&in[(size_t)yy * w + xx]);
	}
	__syncthreads();
	for (int i = threadIdx.x; i < TH * BX; i += NT) {
		int tx = i % BX, ty = i / BX;
		float s = 0.0f;
#pragma unroll
		for (int d = 0; d < 5; d++)
			s += t[d] * tile[ty][tx + d];
		hs[ty][tx] = s;
	}
	__syncthreads();
	for (int i = threadIdx.x; i < BY * BX; i += NT) {
		int tx = i % BX, ty = i / BX;
		int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
		if (x >= w || y >= h)
			continue;
		float s = 0.0f;
#pragma unroll
		for (int d = 0; d < 5; d++)
			s += t[d] * hs[ty + d][tx];
		out[(size_t)y * w + x] = s * (1.0f / 256.0f);
	}
}

extern "C" void gaussian_blur_5x5(const float *in, float *out, int width, int height)
{
	dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
	if (width > 0 && height > 0)
		gauss_sep<<<grid, NT>>>(in, out, width, height);
}
