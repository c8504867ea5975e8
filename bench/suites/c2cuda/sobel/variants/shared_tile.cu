// strategy: shared-memory tiling: a 32x16 block stages its 34x18 haloed tile once, every tap then reads shared memory
#include <cuda_runtime.h>

#define BX 32
#define BY 16
#define TW (BX + 2)
#define TH (BY + 2)

__global__ void sobel_tile(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	__shared__ float t[TH][TW];
	int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
	for (int i = threadIdx.y * BX + threadIdx.x; i < TW * TH; i += BX * BY) {
		int tx = i % TW, ty = i / TW;
		int xx = min(max(x0 + tx, 0), w - 1);
		int yy = min(max(y0 + ty, 0), h - 1);
		t[ty][tx] = in[(size_t)yy * w + xx];
	}
	__syncthreads();
	int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
	if (x >= w || y >= h)
		return;
	int cx = threadIdx.x + 1, cy = threadIdx.y + 1;
	float gx = (t[cy - 1][cx + 1] + 2.0f * t[cy][cx + 1] + t[cy + 1][cx + 1]) -
		   (t[cy - 1][cx - 1] + 2.0f * t[cy][cx - 1] + t[cy + 1][cx - 1]);
	float gy = (t[cy + 1][cx - 1] + 2.0f * t[cy + 1][cx] + t[cy + 1][cx + 1]) -
		   (t[cy - 1][cx - 1] + 2.0f * t[cy - 1][cx] + t[cy - 1][cx + 1]);
	out[(size_t)y * w + x] = sqrtf(gx * gx + gy * gy);
}

extern "C" void sobel(const float *in, float *out, int width, int height)
{
	dim3 block(BX, BY);
	dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
	if (width > 0 && height > 0)
		sobel_tile<<<grid, block>>>(in, out, width, height);
}
