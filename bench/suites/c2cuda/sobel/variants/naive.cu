// strategy: naive: one thread per pixel with 8 clamped global loads, 32x8 blocks
#include <cuda_runtime.h>

__global__ void sobel_naive(const float *in, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	int l = max(x - 1, 0), r = min(x + 1, w - 1);
	const float *up = in + (size_t)max(y - 1, 0) * w;
	const float *mid = in + (size_t)y * w;
	const float *dn = in + (size_t)min(y + 1, h - 1) * w;
	float gx = (up[r] + 2.0f * mid[r] + dn[r]) - (up[l] + 2.0f * mid[l] + dn[l]);
	float gy = (dn[l] + 2.0f * dn[x] + dn[r]) - (up[l] + 2.0f * up[x] + up[r]);
	out[(size_t)y * w + x] = sqrtf(gx * gx + gy * gy);
}

extern "C" void sobel(const float *in, float *out, int width, int height)
{
	dim3 block(32, 8);
	dim3 grid((width + 31) / 32, (height + 7) / 8);
	if (width > 0 && height > 0)
		sobel_naive<<<grid, block>>>(in, out, width, height);
}
