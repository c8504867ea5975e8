// strategy: deliberately poor, uncoalesced: threadIdx.x walks down a column, so each warp load/store touches 32 rows (32 sectors per request)
#include <cuda_runtime.h>

__global__ void sobel_columns(const float *in, float *out, int w, int h)
{
	int y = blockIdx.x * blockDim.x + threadIdx.x;
	int x = blockIdx.y * blockDim.y + threadIdx.y;
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
	dim3 grid((height + 31) / 32, (width + 7) / 8);
	if (width > 0 && height > 0)
		sobel_columns<<<grid, block>>>(in, out, width, height);
}
