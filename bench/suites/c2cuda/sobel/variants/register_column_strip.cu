// strategy: register blocking: each thread walks a 64-row strip of one column keeping the 3x3 neighbourhood in registers, loading one new row triple per output
#include <cuda_runtime.h>

#define STRIP 64

__global__ void sobel_strip(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y0 = blockIdx.y * STRIP;
	if (x >= w)
		return;
	int l = max(x - 1, 0), r = min(x + 1, w - 1);
	const float *row = in + (size_t)max(y0 - 1, 0) * w;
	float ul = __ldg(&row[l]), uc = __ldg(&row[x]), ur = __ldg(&row[r]);
	row = in + (size_t)y0 * w;
	float ml = __ldg(&row[l]), mc = __ldg(&row[x]), mr = __ldg(&row[r]);
	int yend = min(y0 + STRIP, h);
	for (int y = y0; y < yend; y++) {
		row = in + (size_t)min(y + 1, h - 1) * w;
		float dl = __ldg(&row[l]), dc = __ldg(&row[x]), dr = __ldg(&row[r]);
		float gx = (ur + 2.0f * mr + dr) - (ul + 2.0f * ml + dl);
		float gy = (dl + 2.0f * dc + dr) - (ul + 2.0f * uc + ur);
		out[(size_t)y * w + x] = sqrtf(gx * gx + gy * gy);
		ul = ml;
		uc = mc;
		ur = mr;
		ml = dl;
		mc = dc;
		mr = dr;
	}
}

extern "C" void sobel(const float *in, float *out, int width, int height)
{
	dim3 grid((width + 127) / 128, (height + STRIP - 1) / STRIP);
	if (width > 0 && height > 0)
		sobel_strip<<<grid, 128>>>(in, out, width, height);
}
