// strategy: separable filter fused in shared memory: stage a haloed 64x16 tile, horizontal sums into a second shared array, then vertical sums; one pass over global memory
#include <cuda_runtime.h>

#define R 3
#define BX 64
#define BY 16
#define TW (BX + 2 * R)
#define TH (BY + 2 * R)

__global__ void __launch_bounds__(BX * 4) blur_sep(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	__shared__ float tile[TH][TW];
	__shared__ float hsum[TH][BX];
	const int nthreads = BX * 4;
	int tid = threadIdx.x;
	int x0 = blockIdx.x * BX - R, y0 = blockIdx.y * BY - R;
	for (int t = tid; t < TW * TH; t += nthreads) {
		int tx = t % TW, ty = t / TW;
		int xx = min(max(x0 + tx, 0), w - 1);
		int yy = min(max(y0 + ty, 0), h - 1);
		tile[ty][tx] = __ldg(&in[(size_t)yy * w + xx]);
	}
	__syncthreads();
	for (int t = tid; t < TH * BX; t += nthreads) {
		int tx = t % BX, ty = t / BX;
		float s = 0.0f;
#pragma unroll
		for (int d = 0; d <= 2 * R; d++)
			s += tile[ty][tx + d];
		hsum[ty][tx] = s;
	}
	__syncthreads();
	for (int t = tid; t < BY * BX; t += nthreads) {
		int tx = t % BX, ty = t / BX;
		int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
		if (x >= w || y >= h)
			continue;
		float s = 0.0f;
#pragma unroll
		for (int d = 0; d <= 2 * R; d++)
			s += hsum[ty + d][tx];
		out[(size_t)y * w + x] = s * (1.0f / 49.0f);
	}
}

extern "C" void box_blur(const float *in, float *out, int width, int height)
{
	dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
	if (width > 0 && height > 0)
		blur_sep<<<grid, BX * 4>>>(in, out, width, height);
}
