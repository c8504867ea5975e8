// strategy: deliberately poor, atomics-heavy: the j range is split into chunks of 32 across blockIdx.y and every partial sum is atomicAdded into acc
#include <cuda_runtime.h>

#define EPS2 0.01f
#define CHUNK 32

__global__ void nbody_atomic(const float4 *pos, float *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int j0 = blockIdx.y * CHUNK;
	int j1 = min(j0 + CHUNK, n);
	float4 pi = pos[i];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	for (int j = j0; j < j1; j++) {
		float4 pj = pos[j];
		float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
		float r2 = dx * dx + dy * dy + dz * dz + EPS2;
		float inv = rsqrtf(r2);
		float s = pj.w * inv * inv * inv;
		ax += s * dx;
		ay += s * dy;
		az += s * dz;
	}
	atomicAdd(&acc[3 * i], ax);
	atomicAdd(&acc[3 * i + 1], ay);
	atomicAdd(&acc[3 * i + 2], az);
}

extern "C" void nbody(const float *pos, float *acc, int n)
{
	if (n <= 0)
		return;
	cudaMemsetAsync(acc, 0, (size_t)n * 3 * sizeof(float), 0);
	int threads = 256;
	dim3 grid((n + threads - 1) / threads, (n + CHUNK - 1) / CHUNK);
	nbody_atomic<<<grid, threads>>>(reinterpret_cast<const float4 *>(pos), acc, n);
}
