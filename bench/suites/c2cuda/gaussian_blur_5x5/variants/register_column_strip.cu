// strategy: register blocking: each thread owns one column of a 32-row strip and keeps a sliding window of 5 horizontally filtered rows in registers, so each input row is read once per strip (plus a 4-row halo)
#include <cuda_runtime.h>

#define STRIP 32

__device__ __forceinline__ float hrow(const float *__restrict__ in, int x, int yy, int w, int h)
{
	yy = min(max(yy, 0), h - 1);
	const float *row = in + (size_t)yy * w;
	float a = __ldg(&row[max(x - 2, 0)]);
	float b = __ldg(&row[max(x - 1, 0)]);
	float c = __ldg(&row[x]);
	float d = __ldg(&row[min(x + 1, w - 1)]);
	float e = __ldg(&row[min(x + 2, w - 1)]);
	return a + 4.0f * b + 6.0f * c + 4.0f * d + e;
}

__global__ void gauss_strip(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y0 = blockIdx.y * STRIP;
	if (x >= w)
		return;
	// Window r0..r4 holds horizontally filtered rows y-2..y+2.
	float r0 = hrow(in, x, y0 - 2, w, h);
	float r1 = hrow(in, x, y0 - 1, w, h);
	float r2 = hrow(in, x, y0, w, h);
	float r3 = hrow(in, x, y0 + 1, w, h);
	int yend = min(y0 + STRIP, h);
	for (int y = y0; y < yend; y++) {
		float r4 = hrow(in, x, y + 2, w, h);
		out[(size_t)y * w + x] = (r0 + 4.0f * r1 + 6.0f * r2 + 4.0f * r3 + r4) * (1.0f / 256.0f);
		r0 = r1;
		r1 = r2;
		r2 = r3;
		r3 = r4;
	}
}

extern "C" void gaussian_blur_5x5(const float *in, float *out, int width, int height)
{
	dim3 grid((width + 127) / 128, (height + STRIP - 1) / STRIP);
	if (width > 0 && height > 0)
		gauss_strip<<<grid, 128>>>(in, out, width, height);
}
