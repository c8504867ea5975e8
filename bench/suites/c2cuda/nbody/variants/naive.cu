// strategy: naive: one thread per body, every thread streams all bodies from global memory (float4 loads, no tiling)
#include <cuda_runtime.h>

#define EPS2 0.01f

__global__ void nbody_naive(const float4 *pos, float *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float4 pi = pos[i];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int j = 0; j < n; j++) {
		float4 pj = pos[j];
		float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
		float r2 = dx * dx + dy * dy + dz * dz + EPS2;
		float inv = 1.0f / sqrtf(r2);
		float s = pj.w * inv * inv * inv;
		ax += s * dx;
		ay += s * dy;
		az += s * dz;
	}
	acc[3 * i] = ax;
	acc[3 * i + 1] = ay;
	acc[3 * i + 2] = az;
}

extern "C" void nbody(const float *pos, float *acc, int n)
{
	int threads = 256;
	int blocks = (n + threads - 1) / threads;
	if (blocks > 0)
		nbody_naive<<<blocks, threads>>>(reinterpret_cast<const float4 *>(pos), acc, n);
}
