// strategy: naive: one thread per output pixel in 32x8 blocks, four scalar loads (stride-2 reads along x)
#include <cuda_runtime.h>

__device__ __forceinline__ float avg4(const float *in, int w, int h, int ox, int oy)
{
	int x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1);
	int y0 = 2 * oy, y1 = min(2 * oy + 1, h - 1);
	const float *r0 = in + (size_t)y0 * w, *r1 = in + (size_t)y1 * w;
	return 0.25f * ((r0[x0] + r0[x1]) + (r1[x0] + r1[x1]));
}

__global__ void down_naive(const float *in, float *out, int w, int h, int ow, int oh)
{
	int ox = blockIdx.x * blockDim.x + threadIdx.x;
	int oy = blockIdx.y * blockDim.y + threadIdx.y;
	if (ox < ow && oy < oh)
		out[(size_t)oy * ow + ox] = avg4(in, w, h, ox, oy);
}

extern "C" void image_downsample2x(const float *in, float *out, int width, int height)
{
	int ow = (width + 1) / 2, oh = (height + 1) / 2;
	dim3 block(32, 8);
	dim3 grid((ow + 31) / 32, (oh + 7) / 8);
	if (width > 0 && height > 0)
		down_naive<<<grid, block>>>(in, out, width, height, ow, oh);
}
