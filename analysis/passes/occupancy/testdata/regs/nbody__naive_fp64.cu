// strategy: deliberately poor: naive all-pairs in double precision with IEEE division and sqrt (slow FP64 path, no tiling)
#include <cuda_runtime.h>

#define EPS2 0.01

__global__ void nbody_fp64(const float *pos, float *acc, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	double px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
	double ax = 0.0, ay = 0.0, az = 0.0;
	for (int j = 0; j < n; j++) {
		double dx = (double)pos[4 * j] - px;
		double dy = (double)pos[4 * j + 1] - py;
		double dz = (double)pos[4 * j + 2] - pz;
		double r2 = dx * dx + dy * dy + dz * dz + EPS2;
		double s = (double)pos[4 * j + 3] / (r2 * sqrt(r2));
		ax += s * dx;
		ay += s * dy;
		az += s * dz;
	}
	acc[3 * i] = (float)ax;
	acc[3 * i + 1] = (float)ay;
	acc[3 * i + 2] = (float)az;
}

extern "C" void nbody(const float *pos, float *acc, int n)
{
	int threads = 128;
	int blocks = (n + threads - 1) / threads;
	if (blocks > 0)
		nbody_fp64<<<blocks, threads>>>(pos, acc, n);
}
