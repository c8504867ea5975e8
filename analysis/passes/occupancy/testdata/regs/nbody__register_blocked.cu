// strategy: register blocking + shared-memory tiling: each thread accumulates 2 bodies so every shared-memory load feeds two interactions
#include <cuda_runtime.h>

#define EPS2 0.01f
#define TILE 128
#define PER 2

__global__ void __launch_bounds__(TILE) nbody_regblock(const float4 *__restrict__ pos, float *__restrict__ acc, int n)
{
	__shared__ float4 tile[TILE];
	// Thread t owns bodies first + t and first + t + TILE: both coalesced.
	int first = blockIdx.x * TILE * PER + threadIdx.x;
	float4 p[PER];
	float ax[PER], ay[PER], az[PER];
#pragma unroll
	for (int q = 0; q < PER; q++) {
		int i = first + q * TILE;
		p[q] = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
		ax[q] = ay[q] = az[q] = 0.0f;
	}
	for (int base = 0; base < n; base += TILE) {
		int j = base + threadIdx.x;
		tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
		__syncthreads();
#pragma unroll 4
		for (int k = 0; k < TILE; k++) {
			float4 pj = tile[k];
#pragma unroll
			for (int q = 0; q < PER; q++) {
				float dx = pj.x - p[q].x, dy = pj.y - p[q].y, dz = pj.z - p[q].z;
				float r2 = dx * dx + dy * dy + dz * dz + EPS2;
				float inv = rsqrtf(r2);
				float s = pj.w * inv * inv * inv;
				ax[q] += s * dx;
				ay[q] += s * dy;
				az[q] += s * dz;
			}
		}
		__syncthreads();
	}
#pragma unroll
	for (int q = 0; q < PER; q++) {
		int i = first + q * TILE;
		if (i < n) {
			acc[3 * i] = ax[q];
			acc[3 * i + 1] = ay[q];
			acc[3 * i + 2] = az[q];
		}
	}
}

extern "C" void nbody(const float *pos, float *acc, int n)
{
	int per_block = TILE * PER;
	int blocks = (n + per_block - 1) / per_block;
	if (blocks > 0)
		nbody_regblock<<<blocks, TILE>>>(reinterpret_cast<const float4 *>(pos), acc, n);
}
