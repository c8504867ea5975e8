// strategy: shared-memory tiling: a 32x8 block stages its (32+6)x(8+6) haloed tile once, then sums 49 values from shared memory
#include <cuda_runtime.h>

#define R 3
#define BX 32
#define BY 8
#define TW (BX + 2 * R)
#define TH (BY + 2 * R)

__global__ void blur_tile(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	__shared__ float tile[TH][TW + 1];
	int x0 = blockIdx.x * BX - R, y0 = blockIdx.y * BY - R;
	for (int t = threadIdx.y * BX + threadIdx.x; t < TW * TH; t += BX * BY) {
		int tx = t % TW, ty = t / TW;
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
	for (int dy = 0; dy <= 2 * R; dy++)
#pragma unroll
		for (int dx = 0; dx <= 2 * R; dx++)
			s += tile[threadIdx.y + dy][threadIdx.x + dx];
	out[(size_t)y * w + x] = s * (1.0f / 49.0f);
}

extern "C" void box_blur(const float *in, float *out, int width, int height)
{
	dim3 block(BX, BY);
	dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
	if (width > 0 && height > 0)
		blur_tile<<<grid, block>>>(in, out, width, height);
}
