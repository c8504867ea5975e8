// strategy: shared-memory tiling: each block stages 256 bodies in shared memory and every thread reuses them (GPU Gems style), rsqrtf, unrolled inner loop
#include <cuda_runtime.h>

#define EPS2 0.01f
#define TILE 256

__global__ void __launch_bounds__(TILE) nbody_tiled(const float4 *__restrict__ pos, float *__restrict__ acc, int n)
{
	__shared__ float4 tile[TILE];
	int i = blockIdx.x * TILE + threadIdx.x;
	float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int base = 0; base < n; base += TILE) {
		int j = base + threadIdx.x;
		// Padding bodies have mass 0, so they add exactly nothing.
		tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
		__syncthreads();
#pragma unroll 8
		for (int k = 0; k < TILE; k++) {
			float4 pj = tile[k];
			float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
			float r2 = dx * dx + dy * dy + dz * dz + EPS2;
			float inv = rsqrtf(r2);
			float s = pj.w * inv * inv * inv;
			ax += s * dx;
			ay += s * dy;
			az += s * dz;
		}
		__syncthreads();
	}
	if (i < n) {
		acc[3 * i] = ax;
		acc[3 * i + 1] = ay;
		acc[3 * i + 2] = az;
	}
}

extern "C" void nbody(const float *pos, float *acc, int n)
{
	int blocks = (n + TILE - 1) / TILE;
	if (blocks > 0)
		nbody_tiled<<<blocks, TILE>>>(reinterpret_cast<const float4 *>(pos), acc, n);
}
