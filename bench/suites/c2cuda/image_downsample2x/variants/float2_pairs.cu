// strategy: vectorized loads: each output reads its two horizontal input pairs as float2 (8-byte aligned when width is even); scalar kernel for odd widths
#include <cuda_runtime.h>

__device__ __forceinline__ float avg4(const float *in, int w, int h, int ox, int oy)
{
	int x0 = 2 * ox, x1 = min(2 * ox + 1, w - 1);
	int y0 = 2 * oy, y1 = min(2 * oy + 1, h - 1);
	const float *r0 = in + (size_t)y0 * w, *r1 = in + (size_t)y1 * w;
	return 0.25f * ((r0[x0] + r0[x1]) + (r1[x0] + r1[x1]));
}

__global__ void down_float2(const float *__restrict__ in, float *__restrict__ out, int w, int h, int ow, int oh)
{
	int ox = blockIdx.x * blockDim.x + threadIdx.x;
	int oy = blockIdx.y * blockDim.y + threadIdx.y;
	if (ox >= ow || oy >= oh)
		return;
	int y1 = min(2 * oy + 1, h - 1);
	// Even width: ow == w/2, both columns exist and 2*ox + row*w is even.
	float2 a = __ldg(reinterpret_cast<const float2 *>(in + (size_t)(2 * oy) * w) + ox);
	float2 b = __ldg(reinterpret_cast<const float2 *>(in + (size_t)y1 * w) + ox);
	out[(size_t)oy * ow + ox] = 0.25f * ((a.x + a.y) + (b.x + b.y));
}

__global__ void down_scalar(const float *in, float *out, int w, int h, int ow, int oh)
{
	int ox = blockIdx.x * blockDim.x + threadIdx.x;
	int oy = blockIdx.y * blockDim.y + threadIdx.y;
	if (ox < ow && oy < oh)
		out[(size_t)oy * ow + ox] = avg4(in, w, h, ox, oy);
}

extern "C" void image_downsample2x(const float *in, float *out, int width, int height)
{
	if (width <= 0 || height <= 0)
		return;
	int ow = (width + 1) / 2, oh = (height + 1) / 2;
	dim3 block(64, 4);
	dim3 grid((ow + 63) / 64, (oh + 3) / 4);
	if (width % 2 == 0)
		down_float2<<<grid, block>>>(in, out, width, height, ow, oh);
	else
		down_scalar<<<grid, block>>>(in, out, width, height, ow, oh);
}
